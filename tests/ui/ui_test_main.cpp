// The ui tests need a QApplication; the offscreen platform lets them run without a display.
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QtGlobal>
#include <catch2/catch.hpp>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
