// Without the right to capture, the GUI tells the user the one command that fixes it instead of
// failing obscurely: tcpscope --capture lo run as nobody, with no capabilities, tries the
// capture helper next to it (which has none either) and prints the setcap line for that helper.
#include <unistd.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

TEST_CASE("tcpscope --capture without privileges says the setcap command that fixes it", "[ui][capture-privileges]") {
    if (::geteuid() != 0) {
        WARN("skipped: running the GUI as nobody needs root");
        return;
    }
    QTemporaryDir home;
    REQUIRE(home.isValid());
    QFile::setPermissions(home.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                           QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("HOME"), home.path());
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    environment.remove(QStringLiteral("TCPSCOPE_CAPTURE_HELPER"));
    QProcess gui;
    gui.setProcessEnvironment(environment);
    gui.start(QStringLiteral("setpriv"),
              {QStringLiteral("--reuid=nobody"), QStringLiteral("--regid=nogroup"), QStringLiteral("--clear-groups"),
               QStringLiteral("--inh-caps=-all"), QStringLiteral("--bounding-set=-all"), QStringLiteral(TCPSCOPE_GUI),
               QStringLiteral("--capture"), QStringLiteral("lo"), QStringLiteral("--screenshot"),
               home.filePath(QStringLiteral("never.png"))});
    REQUIRE(gui.waitForFinished(30000));
    const QString errors = QString::fromUtf8(gui.readAllStandardError());
    INFO(errors.toStdString());
    CHECK(gui.exitCode() == 3);
    CHECK(errors.contains(QStringLiteral("tcpscope: to fix it, run once: sudo setcap cap_net_raw,cap_net_admin+eip " TCPSCOPE_CAPTURE_HELPER)));
    CHECK_FALSE(QFile::exists(home.filePath(QStringLiteral("never.png"))));
}
