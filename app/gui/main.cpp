// tcpscope: the desktop GUI. Argument parsing only; the window is in ui/.
#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>

#include "window/main_window.hpp"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tcpscope"));
    QApplication::setOrganizationName(QStringLiteral("tcpscope"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Find the stalls in TCP captures"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("capture files to open (merged in time order)"));
    QCommandLineOption filter(QStringLiteral("filter"), QStringLiteral("tcpdump filter expression"), QStringLiteral("expr"));
    parser.addOption(filter);
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("save the window as PNG once the analysis is shown, then quit"),
                                  QStringLiteral("png"));
    parser.addOption(screenshot);
    parser.process(app);

    tcpscope::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();

    QStringList files = parser.positionalArguments();
    if (files.isEmpty()) {
        // Without a file: what was open last time, or the bundled sample, so a first run shows the product working.
        files = QSettings().value(QStringLiteral("openFiles")).toStringList();
        if (files.isEmpty()) {
            files << tcpscope::ui::MainWindow::bundledSample();
        }
    }
    tcpscope::AnalysisOptions options;
    options.engine.filter = parser.value(filter).toStdString();
    if (parser.isSet(screenshot)) {
        const QString target = parser.value(screenshot);
        QObject::connect(&window, &tcpscope::ui::MainWindow::resultsReady, &window, [&window, target]() {
            // Let the views lay out and paint the results before grabbing.
            QTimer::singleShot(300, &window, [&window, target]() {
                const bool saved = window.grab().save(target);
                QApplication::exit(saved ? 0 : 1);
            });
        });
    }
    window.openCaptures(files, options);
    return QApplication::exec();
}
