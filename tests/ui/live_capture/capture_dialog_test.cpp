// The capture dialog as a user meets it: the interfaces libpcap lists (lo among them) with the
// packets per second the kernel counts for them, and the capture filter checked as it is typed.
#include <QCheckBox>
#include <QDir>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QTreeWidget>
#include <catch2/catch.hpp>

#include "live_capture/capture_dialog.hpp"
#include "live_capture/interface_counters.hpp"
#include "live_capture/permission_fix.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope::ui;

namespace {

QTreeWidgetItem* interfaceRow(QTreeWidget& list, const QString& name) {
    for (int row = 0; row < list.topLevelItemCount(); ++row) {
        if (list.topLevelItem(row)->text(0) == name) {
            return list.topLevelItem(row);
        }
    }
    return nullptr;
}

}  // namespace

TEST_CASE("the capture dialog lists lo and any with their state and a packet rate", "[ui][capture-dialog]") {
    window_test::freshSettings();
    CaptureSettings settings;
    settings.device = QStringLiteral("lo");
    CaptureDialog dialog(settings);
    dialog.show();
    auto* list = dialog.findChild<QTreeWidget*>(QStringLiteral("interfaceList"));
    REQUIRE(list != nullptr);
    QTreeWidgetItem* lo = interfaceRow(*list, QStringLiteral("lo"));
    REQUIRE(lo != nullptr);
    CHECK(list->currentItem() == lo);  // the device of the settings is chosen
    CHECK(lo->text(1).contains(QStringLiteral("127.0.0.1")));
    CHECK(lo->text(2).contains(QStringLiteral("loopback")));
    QTreeWidgetItem* any = interfaceRow(*list, QStringLiteral("any"));
    REQUIRE(any != nullptr);
    CHECK(any->text(1).contains(QStringLiteral("every interface")));

    // Traffic on lo between two samples shows as a rate; the kernel's counters need no privileges.
    InterfaceCounters counters;
    counters.sample();
    const std::optional<uint64_t> before = counters.packets(QStringLiteral("lo"));
    REQUIRE(before.has_value());
    CHECK_FALSE(counters.packetsPerSecond(QStringLiteral("lo")).has_value());  // one sample: no rate yet
    QThread::msleep(50);
    counters.sample();
    REQUIRE(counters.packetsPerSecond(QStringLiteral("lo")).has_value());
    CHECK(*counters.packetsPerSecond(QStringLiteral("any")) >= *counters.packetsPerSecond(QStringLiteral("lo")));
    dialog.refreshCounters();
    bool number = false;
    lo->text(3).toDouble(&number);
    CHECK(number);
    CHECK(lo->toolTip(3).contains(QStringLiteral("packets sent and received")));
}

TEST_CASE("the capture dialog flags an invalid filter as it is typed and accepts a valid one", "[ui][capture-dialog]") {
    window_test::freshSettings();
    CaptureDialog dialog(CaptureSettings{});
    dialog.show();
    auto* filter = dialog.findChild<QLineEdit*>(QStringLiteral("captureFilter"));
    auto* status = dialog.findChild<QLabel*>(QStringLiteral("captureFilterStatus"));
    auto* start = dialog.findChild<QPushButton*>(QStringLiteral("startCaptureButton"));
    auto* output = dialog.findChild<QLineEdit*>(QStringLiteral("outputFile"));
    REQUIRE(filter != nullptr);
    REQUIRE(status != nullptr);
    REQUIRE(start != nullptr);
    REQUIRE(output != nullptr);
    CHECK(output->text().endsWith(QStringLiteral(".pcapng")));
    CHECK(start->isEnabled());

    filter->setText(QStringLiteral("tcp port"));
    CHECK_FALSE(dialog.filterValid());
    CHECK_FALSE(dialog.filterError().isEmpty());
    CHECK(status->text().startsWith(QStringLiteral("Invalid filter")));
    CHECK(filter->styleSheet().contains(QStringLiteral("#ffafaf")));  // red
    CHECK_FALSE(start->isEnabled());

    filter->setText(QStringLiteral("tcp port 3306 and host 127.0.0.1"));
    CHECK(dialog.filterValid());
    CHECK(filter->styleSheet().contains(QStringLiteral("#afffaf")));  // green
    CHECK(start->isEnabled());
    CHECK(dialog.settings().filter == QStringLiteral("tcp port 3306 and host 127.0.0.1"));

    filter->setText(QStringLiteral("tcp prot 80"));
    CHECK_FALSE(dialog.filterValid());
    filter->clear();
    CHECK(dialog.filterValid());  // no filter: every packet
    CHECK(filter->styleSheet().isEmpty());

    // The ring of files, as --ring 5M,3.
    dialog.findChild<QCheckBox*>(QStringLiteral("ring"))->setChecked(true);
    dialog.findChild<QSpinBox*>(QStringLiteral("ringMegabytes"))->setValue(5);
    dialog.findChild<QSpinBox*>(QStringLiteral("ringFiles"))->setValue(3);
    const CaptureSettings chosen = dialog.settings();
    CHECK(chosen.ringFileBytes == 5'000'000);
    CHECK(chosen.ringFiles == 3);
    CHECK(chosen.fileOptions().ring());
}

TEST_CASE("the capture dialog's \"also record the system calls of\" takes a pid or a command name",
          "[ui][capture-dialog]") {
    CaptureDialog dialog(CaptureSettings{});
    auto* process = dialog.findChild<QLineEdit*>(QStringLiteral("syscallProcess"));
    REQUIRE(process != nullptr);
    CHECK_FALSE(dialog.settings().syscallFilter());  // empty: no calls, an ordinary capture file
    CHECK(dialog.settings().fileOptions().application.empty());
    process->setText(QStringLiteral("nginx"));
    std::optional<tcpscope::SyscallRecorderFilter> chosen = dialog.settings().syscallFilter();
    REQUIRE(chosen);
    CHECK(chosen->commands == std::vector<std::string>{"nginx"});
    CHECK(chosen->pids.empty());
    // The file then says it holds recorded calls, so that opening it confirms the stalls from them.
    CHECK(dialog.settings().fileOptions().application == "tcpscope-cli record");
    process->setText(QStringLiteral(" 4242 "));
    chosen = dialog.settings().syscallFilter();
    REQUIRE(chosen);
    CHECK(chosen->pids == std::vector<uint32_t>{4242});
    CHECK(chosen->commands.empty());
    dialog.resize(dialog.sizeHint());
    const QString shot = QDir::temp().filePath(QStringLiteral("tcpscope-capture-dialog-syscalls.png"));
    CHECK(dialog.grab().save(shot));
}

TEST_CASE("a permission error's fix is the one command to run", "[ui][capture-dialog]") {
    CHECK(permissionFix(QStringLiteral(
              "lo: You don't have permission to capture on that device (socket: Operation not permitted); to capture "
              "without root, run once: sudo setcap cap_net_raw,cap_net_admin+eip /usr/local/bin/tcpscope-capture "
              "(tcpscope's Debian package does this when it installs, for the members of the tcpscope group)")) ==
          QStringLiteral("sudo setcap cap_net_raw,cap_net_admin+eip /usr/local/bin/tcpscope-capture"));
    CHECK(permissionFix(QStringLiteral("cannot run the capture helper /usr/bin/tcpscope-capture: Permission denied; it "
                                       "is meant to be run by the members of its group: sudo usermod -aG tcpscope "
                                       "$USER, then log in again")) == QStringLiteral("sudo usermod -aG tcpscope $USER"));
    CHECK(permissionFix(QStringLiteral("lo: No such device exists")).isEmpty());
}
