// tcpscope: the desktop GUI. Argument parsing only; the window is in ui/.
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "align/strace_time_zone.hpp"
#include "fleet_browser/fleet_window.hpp"
#include "live_capture/capture_settings.hpp"
#include "tcpscope_version.hpp"
#include "timeline/timeline_builds.hpp"
#include "window/main_window.hpp"
#include "window/palettes.hpp"

namespace {

[[noreturn]] void usageError(const QString& message) {
    std::fprintf(stderr, "tcpscope: %s\n", qPrintable(message));
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("tcpscope"));
    QApplication::setOrganizationName(QStringLiteral("tcpscope"));
    QApplication::setApplicationVersion(
        QStringLiteral("%1 (commit %2)").arg(QLatin1String(tcpscope::kVersion), QLatin1String(tcpscope::kGitCommit)));
    // Wayland and the task bar find the window's desktop entry (name and icon) by this.
    QGuiApplication::setDesktopFileName(QStringLiteral(TCPSCOPE_APP_ID));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Find the stalls in TCP captures"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("captures to open (merged in time order); strace logs among them are "
                                                "recognised by their content"));
    const QCommandLineOption filter(QStringLiteral("filter"),
                                    QStringLiteral("tcpdump filter expression (with --capture: the capture filter)"),
                                    QStringLiteral("expr"));
    const QCommandLineOption capture(QStringLiteral("capture"),
                                     QStringLiteral("capture live on this interface (any: all), as Capture > Start "
                                                    "capture with the last settings and a new file"),
                                     QStringLiteral("iface"));
    const QCommandLineOption strace(QStringLiteral("strace"),
                                    QStringLiteral("strace log of a traced process (strace -f -tt -T -yy); repeat for "
                                                   "several; NAME.PID files of strace -ff given together form one log"),
                                    QStringLiteral("log"));
    const QCommandLineOption straceTz(
        QStringLiteral("strace-tz"), QStringLiteral("time zone of -t/-tt logs as +HH:MM or -HH:MM (default: best fit)"),
        QStringLiteral("tz"));
    const QCommandLineOption straceOffset(QStringLiteral("strace-offset"),
                                          QStringLiteral("milliseconds to add to the logs' times (default: measured)"),
                                          QStringLiteral("ms"));
    const QCommandLineOption palette(QStringLiteral("palette"), QStringLiteral("system (default), light or dark"),
                                     QStringLiteral("name"), QStringLiteral("system"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("save the window as PNG once the analysis is shown, then quit"),
                                        QStringLiteral("png"));
    const QCommandLineOption fleet(QStringLiteral("fleet"),
                                   QStringLiteral("open the fleet window on this ClickHouse database "
                                                  "(clickhouse://HOST:PORT/DB); with --screenshot, save that window"),
                                   QStringLiteral("url"));
    parser.addOptions({filter, capture, strace, straceTz, straceOffset, palette, screenshot, fleet});
    parser.process(app);

    if (!tcpscope::ui::applyPalette(parser.value(palette))) {
        usageError(QStringLiteral("--palette must be system, light or dark"));
    }
    std::optional<tcpscope::StraceClockOptions> clock;
    if (parser.isSet(straceTz) || parser.isSet(straceOffset)) {
        clock.emplace();
        if (parser.isSet(straceTz)) {
            clock->tzOffsetMinutes = tcpscope::parseTimeZoneOffset(parser.value(straceTz).toStdString());
            if (!clock->tzOffsetMinutes) {
                usageError(QStringLiteral("--strace-tz must be +HH:MM or -HH:MM, e.g. +02:00"));
            }
        }
        if (parser.isSet(straceOffset)) {
            bool number = false;
            clock->offsetMs = parser.value(straceOffset).toDouble(&number);
            if (!number) {
                usageError(QStringLiteral("--strace-offset must be a number of milliseconds"));
            }
        }
    }

    tcpscope::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    if (clock) {
        window.setClockOverride(*clock);
    }
    if (!parser.isSet(capture)) {
        window.setCaptureFilter(parser.value(filter));
    }
    QObject::connect(&window, &tcpscope::ui::MainWindow::captureFailed, &window,
                     [&parser, &screenshot](const QString& message, const QString& fix) {
                         std::fprintf(stderr, "tcpscope: %s\n", qPrintable(message));
                         if (!fix.isEmpty()) {
                             std::fprintf(stderr, "tcpscope: to fix it, run once: %s\n", qPrintable(fix));
                         }
                         if (parser.isSet(screenshot)) {
                             QApplication::exit(3);
                         }
                     });
    if (parser.isSet(fleet)) {
        tcpscope::ui::FleetWindow& fleetWindow = window.showFleet();
        if (parser.isSet(screenshot)) {
            const QString target = parser.value(screenshot);
            QObject::connect(&fleetWindow, &tcpscope::ui::FleetWindow::settled, &fleetWindow, [&fleetWindow, target]() {
                QTimer::singleShot(300, &fleetWindow, [&fleetWindow, target]() {
                    QApplication::exit(fleetWindow.grab().save(target) ? 0 : 1);
                });
            });
        }
        fleetWindow.open(parser.value(fleet));
        return QApplication::exec();
    }
    if (parser.isSet(screenshot)) {
        QObject::connect(&window, &tcpscope::ui::MainWindow::loadFailed, &window, [](const QString& message) {
            std::fprintf(stderr, "tcpscope: %s\n", qPrintable(message));
            // Queued: a file refused before the event loop runs ends the loop as soon as it starts.
            QMetaObject::invokeMethod(
                qApp, []() { QApplication::exit(3); }, Qt::QueuedConnection);
        });
        const QString target = parser.value(screenshot);
        QObject::connect(&window, &tcpscope::ui::MainWindow::resultsReady, &window, [&window, target]() {
            // Once the timeline's lanes are built (a big capture's, on a pool thread: the Charts
            // tab's picture waits for them), let the views lay out and paint before grabbing.
            auto* settled = new QTimer(&window);
            settled->setInterval(100);
            QObject::connect(settled, &QTimer::timeout, &window, [&window, target, settled]() {
                if (tcpscope::ui::TimelineBuilds::running()) {
                    return;
                }
                settled->stop();
                QTimer::singleShot(300, &window, [&window, target]() {
                    const bool saved = window.grab().save(target);
                    QApplication::exit(saved ? 0 : 1);
                });
            });
            settled->start();
        });
    }

    const QStringList files = parser.positionalArguments();
    const QStringList straceLogs = parser.values(strace);
    if (parser.isSet(capture)) {
        tcpscope::ui::CaptureSettings settings = tcpscope::ui::CaptureSettings::load(QSettings());
        settings.device = parser.value(capture);
        settings.filter = parser.value(filter);
        settings.outputPath = tcpscope::ui::CaptureSettings::defaultOutputPath(settings.device);
        // After the window is shown, so that a failure's message box has its parent.
        QTimer::singleShot(0, &window, [&window, settings]() { window.startCapture(settings); });
    } else if (!files.isEmpty()) {
        window.openFiles(files, straceLogs);
    } else if (!straceLogs.isEmpty() || !window.reopenLastSession()) {
        // A first run shows the product working: the bundled Nagle sample with its strace log.
        window.openCaptures({tcpscope::ui::MainWindow::bundledSample()},
                            straceLogs.isEmpty() ? tcpscope::ui::MainWindow::bundledStraceLogs() : straceLogs);
    }
    return QApplication::exec();
}
