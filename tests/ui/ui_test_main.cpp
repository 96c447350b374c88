// The ui tests need a QApplication; the offscreen platform lets them run without a display.
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QDir>
#include <QTemporaryDir>
#include <QtGlobal>
#include <catch2/catch.hpp>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    // ctest runs every test case as a process of its own, two at a time: each gets a home of its
    // own, so that the settings of QStandardPaths' test mode ($HOME/.qttest) are not one file that
    // two windows clear and write at once.
    const QTemporaryDir home(QDir::tempPath() + QStringLiteral("/tcpscope-ui-test-XXXXXX"));
    if (home.isValid()) {
        qputenv("HOME", QFile::encodeName(home.path()));
    }
    QApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
