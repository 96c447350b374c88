// The packet details a Wireshark user reads: a SYN of the defer-accept sample selected in the main
// window shows its link, IP and TCP headers with every option and their Wireshark field names, read
// again from the file; Analyze > Follow TCP Stream shows the connection's payload, each side in its
// colour. Screenshots of both at 1366 x 768 and 1024 x 700 land in screenshots/PLATFORM/.
#include <QComboBox>
#include <QTableView>
#include <catch2/catch.hpp>

#include "panels/follow_stream_dialog.hpp"
#include "panels/packet_detail_panel.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

QString valueOf(const PacketDetailPanel& panel, const char* field) {
    const QTreeWidgetItem* item = panel.itemOfField(QLatin1String(field));
    return item != nullptr ? item->text(PacketDetailPanel::ValueColumn) : QStringLiteral("<absent>");
}

}  // namespace

TEST_CASE("a SYN's details show its headers and options with Wireshark's field names, Follow TCP Stream its payload",
          "[ui][panels][packet-details]") {
    for (const QSize size : {QSize(1366, 768), QSize(1024, 700)}) {
        TestWindow test(true, size);
        MainWindow& window = test.window;
        REQUIRE(test.open({samplePath("rtt/rtt-defer-accept-client.pcap")}));
        window.selectConnection(0);
        QApplication::processEvents();
        auto* packets = window.findChild<QTableView*>(QStringLiteral("packetsView"));
        REQUIRE(packets != nullptr);
        packets->selectRow(0);  // frame 1: the client's SYN
        QApplication::processEvents();
        auto* detail = window.findChild<PacketDetailPanel*>(QStringLiteral("packetDetail"));
        REQUIRE(detail != nullptr);
        // The values tshark gives for frame 1 (tests/core/dissect compares them with tshark itself).
        CHECK(valueOf(*detail, "frame.number") == QStringLiteral("1"));
        CHECK(valueOf(*detail, "eth.type") == QStringLiteral("IPv4 (0x0800)"));
        CHECK(valueOf(*detail, "ip.ttl") == QStringLiteral("64"));
        CHECK(valueOf(*detail, "ip.id") == QStringLiteral("0x873e (34622)"));
        CHECK(valueOf(*detail, "tcp.options.mss_val") == QStringLiteral("1460"));
        CHECK(valueOf(*detail, "tcp.options.wscale.shift") == QStringLiteral("10"));
        CHECK(valueOf(*detail, "tcp.options.wscale.multiplier") == QStringLiteral("1024"));
        CHECK(valueOf(*detail, "tcp.options.timestamp.tsval") == QStringLiteral("4013376177"));
        CHECK(detail->itemOfField(QStringLiteral("tcp.options.sack_perm")) != nullptr);
        CHECK(valueOf(*detail, "tcp.seq") == QStringLiteral("0    (relative sequence number)"));
        CHECK(valueOf(*detail, "tcp.stream") == QStringLiteral("0"));
        const QList<QTreeWidgetItem*> bytes = detail->findItems(QStringLiteral("Bytes: "), Qt::MatchStartsWith, 0);
        REQUIRE(bytes.size() == 1);
        CHECK(bytes.front()->childCount() == 5);  // 74 bytes: five lines of sixteen
        CHECK(
            bytes.front()->child(0)->text(PacketDetailPanel::ValueColumn).startsWith(QStringLiteral("0000  4a 6e a0")));
        QApplication::processEvents();
        const QString suffix = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        CHECK(window.grab().toImage().save(screenshotPath(QStringLiteral("packet-details-syn-") + suffix)));
        // The panel as a reader widens it (the splitter), the same packet.
        PacketDetailPanel wide;
        wide.resize(size.width() / 2, size.height() * 3 / 4);
        wide.showPacket(window.results(), window.results()->packets()->positionOfFrame(1));
        wide.show();
        QApplication::processEvents();
        CHECK(wide.itemOfField(QStringLiteral("tcp.options.mss_val")) != nullptr);
        CHECK(wide.grab().toImage().save(screenshotPath(QStringLiteral("packet-details-syn-panel-") + suffix)));

        // Analyze > Follow TCP Stream (Ctrl+Alt+Shift+T, as Wireshark).
        auto* follow = window.findChild<QAction*>(QStringLiteral("followTcpStreamAction"));
        REQUIRE(follow != nullptr);
        CHECK(follow->shortcut() == QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_T));
        follow->trigger();
        QApplication::processEvents();
        auto* dialog = window.findChild<FollowStreamDialog*>(QStringLiteral("followStreamDialog"));
        REQUIRE(dialog != nullptr);
        REQUIRE(waitFor([dialog] { return dialog->ready(); }));
        CHECK(dialog->stream().clientBytes == 12);
        CHECK(dialog->stream().serverBytes == 18);
        CHECK(dialog->shownText() == QStringLiteral("sends-at-1s\nhello sends-at-1s\n"));
        auto* direction = dialog->findChild<QComboBox*>(QStringLiteral("followDirection"));
        REQUIRE(direction != nullptr);
        CHECK(direction->itemText(0) == QStringLiteral("Entire conversation (30 bytes)"));
        dialog->resize(size.width() * 2 / 3, size.height() * 2 / 3);
        QApplication::processEvents();
        CHECK(dialog->grab().toImage().save(screenshotPath(QStringLiteral("follow-tcp-stream-ascii-") + suffix)));
        dialog->setFormat(FollowStreamDialog::Format::HexDump);
        CHECK(dialog->shownText().startsWith(QStringLiteral("00000000  73 65 6e 64")));
        QApplication::processEvents();
        CHECK(dialog->grab().toImage().save(screenshotPath(QStringLiteral("follow-tcp-stream-hex-") + suffix)));
        dialog->setDirection(FollowStreamDialog::Direction::ServerOnly);
        CHECK(dialog->shownText().startsWith(QStringLiteral("    00000000  68 65 6c 6c 6f")));
        dialog->close();
    }
}

TEST_CASE("a frame whose bytes cannot be read again says so, and the index's TCP fields stay",
          "[ui][panels][packet-details]") {
    TestWindow test(true, QSize(1024, 700));
    const QString copy =
        QDir::temp().filePath(QStringLiteral("tcpscope-details-%1.pcap").arg(QCoreApplication::applicationPid()));
    QFile::remove(copy);
    REQUIRE(QFile::copy(samplePath("rtt/rtt-defer-accept-client.pcap"), copy));
    REQUIRE(test.open({copy}));
    QFile::remove(copy);  // the file is gone: the details say so
    test.window.selectConnection(0);
    QApplication::processEvents();
    auto* packets = test.window.findChild<QTableView*>(QStringLiteral("packetsView"));
    packets->selectRow(0);
    QApplication::processEvents();
    auto* detail = test.window.findChild<PacketDetailPanel*>(QStringLiteral("packetDetail"));
    REQUIRE(detail != nullptr);
    const QList<QTreeWidgetItem*> bytes =
        detail->findItems(QStringLiteral("Bytes: "), Qt::MatchStartsWith | Qt::MatchRecursive, 0);
    REQUIRE(bytes.size() == 1);
    CHECK(bytes.front()->text(PacketDetailPanel::ValueColumn).startsWith(QStringLiteral("not read: ")));
    CHECK(detail->itemOfField(QStringLiteral("tcp.flags")) != nullptr);
    CHECK(detail->itemOfField(QStringLiteral("tcp.options.mss_val")) == nullptr);
}

TEST_CASE("Follow TCP Stream says the bytes a snapshot length left out", "[ui][panels][packet-details]") {
    TestWindow test(true, QSize(1366, 768));
    REQUIRE(test.open({samplePath("http-keepalive.pcap")}));  // captured with -s 128
    FollowStreamDialog dialog(test.window.results(), 0);
    dialog.show();
    REQUIRE(waitFor([&dialog] { return dialog.ready(); }));
    QApplication::processEvents();
    CHECK(dialog.stream().clientMissing + dialog.stream().serverMissing > 0);
    CHECK(dialog.shownText().startsWith(QStringLiteral("GET /index.html HTTP/1.0")));
    CHECK(dialog.shownText().contains(QStringLiteral("bytes missing in capture]")));
    CHECK(dialog.grab().toImage().save(screenshotPath(QStringLiteral("follow-tcp-stream-snaplen-1366x768"))));
}

TEST_CASE("the bytes of the selected field are marked in the hex dump, as in Wireshark's bytes pane",
          "[ui][panels][packet-details]") {
    // The line of bytes 16-31 of a frame: byte 22 (the IPv4 TTL behind a 14-byte Ethernet header)
    // is its seventh: hex pair at 6 + 3 * 6, its character at 6 + 48 + 2 + 6.
    const QString line = QStringLiteral("0010  00 3c 87 3e 40 00 40 06 b5 7b 7f 00 00 01 7f 00   .<.>@.@..{......");
    CHECK(highlightedColumns(line, 16, {22, 1}) == std::vector<std::pair<int, int>>{{24, 2}, {62, 1}});
    // A field over two lines (bytes 30-33) marks the end of one and the start of the next.
    CHECK(highlightedColumns(line, 16, {30, 4}) == std::vector<std::pair<int, int>>{{48, 5}, {70, 2}});
    CHECK(highlightedColumns(line, 32, {30, 4}) == std::vector<std::pair<int, int>>{{6, 5}, {56, 2}});
    CHECK(highlightedColumns(line, 16, {40, 2}).empty());
    CHECK(highlightedColumns(line, 16, {22, 0}).empty());

    TestWindow test(true, {1366, 768});
    REQUIRE(test.open({samplePath("rtt/rtt-defer-accept-client.pcap")}));
    PacketDetailPanel panel;
    panel.resize(900, 900);
    panel.showPacket(test.window.results(), test.window.results()->packets()->positionOfFrame(1));
    panel.show();
    QApplication::processEvents();
    const QImage before = panel.grab().toImage();
    QTreeWidgetItem* ttl = panel.itemOfField(QStringLiteral("ip.ttl"));
    REQUIRE(ttl != nullptr);
    panel.setCurrentItem(ttl);
    CHECK(panel.highlightedBytes() == ByteRange{22, 1});
    // The line that holds byte 22 is drawn differently now; the first line (bytes 0-15) is not.
    const QList<QTreeWidgetItem*> bytes = panel.findItems(QStringLiteral("Bytes: "), Qt::MatchStartsWith, 0);
    REQUIRE(bytes.size() == 1);
    panel.scrollToItem(bytes.front()->child(1));
    QApplication::processEvents();
    const QImage marked = panel.grab().toImage();
    panel.setCurrentItem(bytes.front());  // a row with no bytes of its own: nothing marked
    CHECK(panel.highlightedBytes() == ByteRange{});
    QApplication::processEvents();
    const QImage unmarked = panel.grab().toImage();
    const auto rowImage = [&panel](const QImage& image, QTreeWidgetItem* item) {
        const QRect row = panel.visualItemRect(item).translated(panel.viewport()->pos());
        return image.copy(row);
    };
    CHECK(rowImage(marked, bytes.front()->child(1)) != rowImage(unmarked, bytes.front()->child(1)));
    CHECK(rowImage(marked, bytes.front()->child(0)) == rowImage(unmarked, bytes.front()->child(0)));
    CHECK(before.size() == marked.size());
    CHECK(marked.save(screenshotPath(QStringLiteral("packet-details-bytes-marked"))));
}
