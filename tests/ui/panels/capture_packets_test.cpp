// The packet list of the whole capture with a display filter, in the main window on the Nagle
// sample: the filter a Wireshark user types picks the packets the core's filter picks, a packet
// selected there selects its connection's packet, a filter tcpscope does not know is said, and the
// list is saved as a PNG at 1366 x 768 and 1024 x 700 in the build folder; File > Export shown
// packets writes the packets the filtered list shows.
#include <QAction>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <catch2/catch.hpp>

#include "capture/capture_reader.hpp"
#include "filter/display_filter.hpp"
#include "finding/finding_kind.hpp"
#include "models/packets_model.hpp"
#include "panels/capture_packets_panel.hpp"
#include "panels/expert_info_panel.hpp"
#include "tcp/analysis_flag_words.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

size_t coreMatches(const AnalysisResults& results, const std::string& expression) {
    const filter::DisplayFilter compiled = filter::DisplayFilter::compile(expression);
    size_t count = 0;
    for (size_t position = 0; position < results.packets()->size(); ++position) {
        count += compiled.matchesAt(*results.analysis()->engine, position) ? 1 : 0;
    }
    return count;
}

bool applyAndWait(CapturePacketsPanel& panel, const QString& expression) {
    bool done = false;
    const QMetaObject::Connection connection =
        QObject::connect(&panel, &CapturePacketsPanel::filtered, [&done] { done = true; });
    panel.applyFilter(expression);
    const bool finished = waitFor([&done] { return done; });
    QObject::disconnect(connection);
    return finished;
}

}  // namespace

TEST_CASE("the packet list of the whole capture filters as Wireshark's display filter and follows the selection",
          "[ui][panels][display-filter]") {
    struct Case {
        const char* sample;
        const char* expression;
        bool flagged;  // every packet matched has an analysis flag
    };
    // The proxy's small writes toward MySQL (those Nagle held), and the backlog's dropped SYNs and resends.
    const Case cases[] = {{"proxy-nagle.pcap", "tcp.port == 3306 && tcp.len > 0 && tcp.len < 100", false},
                          {"backlog-overflow.pcap", "tcp.analysis.flags && !tcp.analysis.window_update", true}};
    for (const QSize size : {QSize(1366, 768), QSize(1024, 700)}) {
      for (const Case& test_case : cases) {
        TestWindow test(true, size);
        MainWindow& window = test.window;
        REQUIRE(test.open({samplePath(test_case.sample)}));
        auto* panel = window.findChild<CapturePacketsPanel*>(QStringLiteral("capturePackets"));
        REQUIRE(panel != nullptr);
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
        tabs->setCurrentWidget(panel);
        const AnalysisResults& results = *window.results();
        CHECK(static_cast<size_t>(panel->model().rowCount()) == results.packets()->size());

        const std::string expression = test_case.expression;
        REQUIRE(applyAndWait(*panel, QString::fromStdString(expression)));
        const size_t expected = coreMatches(results, expression);
        CHECK(expected > 0);
        CHECK(static_cast<size_t>(panel->model().rowCount()) == expected);
        auto* status = panel->findChild<QLabel*>(QStringLiteral("displayFilterStatus"));
        REQUIRE(status != nullptr);
        CHECK(status->text().startsWith(QStringLiteral("%1 of %2 TCP packets match").arg(expected).arg(results.packets()->size())));
        for (int row = 0; row < panel->model().rowCount(); ++row) {
            const size_t position = panel->model().positionOfRow(row);
            if (test_case.flagged) {
                CHECK(results.packets()->analysis(position) != 0);
                CHECK(panel->model().index(row, CapturePacketsModel::AnalysisColumn).data().toString() != QString());
            }
        }

        // The delta is the time since the row above, as Wireshark's frame.time_delta_displayed.
        if (panel->model().rowCount() >= 2) {
            const auto time = [&](int row) {
                return panel->model().index(row, CapturePacketsModel::TimeColumn).data().toString().toDouble();
            };
            const double delta = panel->model().index(1, CapturePacketsModel::DeltaColumn).data().toString().toDouble();
            CHECK(delta == Approx(time(1) - time(0)).margin(2e-6));
        }

        // A row selected in the list: its connection's packets show it, the tab stays.
        panel->view()->selectRow(panel->model().rowCount() - 1);
        const auto frame = panel->model().index(panel->model().rowCount() - 1, 0).data().toUInt();
        auto* packets = window.findChild<QTableView*>(QStringLiteral("packetsView"));
        REQUIRE(waitFor([&] { return packets->currentIndex().isValid(); }));
        CHECK(packets->currentIndex().siblingAtColumn(0).data().toUInt() == frame);
        CHECK(tabs->currentWidget() == panel);

        QApplication::processEvents();
        const QString name = QStringLiteral("all-packets-%1-%2x%3.png")
                                 .arg(QString::fromLatin1(test_case.sample).section(QLatin1Char('.'), 0, 0))
                                 .arg(size.width())
                                 .arg(size.height());
        CHECK(window.grab().toImage().save(QDir::current().filePath(name)));

        // What tcpscope does not filter on is said, and the list stays as it was.
        REQUIRE(applyAndWait(*panel, QStringLiteral("http.host == \"x\"")));
        CHECK(status->text().contains(QStringLiteral("http.host is not supported")));
        CHECK(static_cast<size_t>(panel->model().rowCount()) == expected);
        // An empty filter shows every packet again.
        REQUIRE(applyAndWait(*panel, QString()));
        CHECK(static_cast<size_t>(panel->model().rowCount()) == results.packets()->size());
      }
    }
}

TEST_CASE("a filter applied while another runs replaces it: the list shows the last one's packets",
          "[ui][panels][display-filter]") {
    TestWindow test(true, QSize(1366, 768));
    REQUIRE(test.open({samplePath("proxy-nagle.pcap")}));
    auto* panel = test.window.findChild<CapturePacketsPanel*>(QStringLiteral("capturePackets"));
    REQUIRE(panel != nullptr);
    const AnalysisResults& results = *test.window.results();
    const std::string last = "tcp.flags.syn == 1";
    size_t shown = 0;
    const QMetaObject::Connection connection =
        QObject::connect(panel, &CapturePacketsPanel::filtered, [&] { ++shown; });
    // frame.len reads every frame again from the file: the slowest kind, most likely still running.
    panel->applyFilter(QStringLiteral("frame.len > 0"));
    panel->applyFilter(QStringLiteral("tcp.port == 3306"));
    panel->applyFilter(QString::fromStdString(last));
    REQUIRE(waitFor([panel] { return !panel->filtering(); }));
    QApplication::processEvents();
    QObject::disconnect(connection);
    CHECK(shown >= 1);
    CHECK(panel->appliedFilter() == QString::fromStdString(last));
    CHECK(static_cast<size_t>(panel->model().rowCount()) == coreMatches(results, last));
    // Clearing the box while a filter runs shows every packet, and the run's late end changes nothing.
    panel->applyFilter(QStringLiteral("frame.len > 0"));
    panel->applyFilter(QString());
    REQUIRE(waitFor([panel] { return !panel->filtering(); }));
    QApplication::processEvents();
    CHECK(static_cast<size_t>(panel->model().rowCount()) == results.packets()->size());
}

TEST_CASE("Expert info counts the packets of each analysis flag by severity and each finding, a row showing its packets",
          "[ui][panels][display-filter]") {
    TestWindow test(true, QSize(1366, 768));
    MainWindow& window = test.window;
    REQUIRE(test.open({samplePath("backlog-overflow.pcap")}));
    auto* expert = window.findChild<ExpertInfoPanel*>(QStringLiteral("expertInfoPanel"));
    auto* panel = window.findChild<CapturePacketsPanel*>(QStringLiteral("capturePackets"));
    REQUIRE(expert != nullptr);
    REQUIRE(panel != nullptr);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    tabs->setCurrentWidget(expert);
    const PacketIndex& packets = *window.results()->packets();
    size_t retransmissions = 0;
    for (size_t position = 0; position < packets.size(); ++position) {
        retransmissions += has(packets.analysis(position), AnalysisFlag::Retransmission) ? 1 : 0;
    }
    REQUIRE(retransmissions > 0);
    const QAbstractItemModel& model = expert->model();
    const auto cell = [&model](const QModelIndex& row, int column) {
        return model.index(row.row(), column, row.parent()).data().toString();
    };
    QModelIndex row;
    QModelIndex findings;
    for (int group = 0; group < model.rowCount({}); ++group) {
        const QModelIndex header = model.index(group, 0, {});
        if (cell(header, ExpertInfoPanel::SeverityColumn) == QStringLiteral("Findings")) {
            findings = header;
        }
        for (int child = 0; child < model.rowCount(header); ++child) {
            const QModelIndex item = model.index(child, 0, header);
            if (cell(item, ExpertInfoPanel::FieldColumn) == QStringLiteral("tcp.analysis.retransmission")) {
                row = item;
                CHECK(cell(header, ExpertInfoPanel::SeverityColumn) == QStringLiteral("Note"));
            }
        }
    }
    REQUIRE(row.isValid());
    CHECK(cell(row, ExpertInfoPanel::CountColumn).toULongLong() == retransmissions);
    CHECK(cell(row, ExpertInfoPanel::SummaryColumn) == QStringLiteral("Retransmission"));
    REQUIRE(findings.isValid());
    CHECK(model.rowCount(findings) == static_cast<int>(window.results()->findings().size()));
    CHECK(expert->view()->isExpanded(findings));
    const Finding& first = window.results()->findings().front();
    const QModelIndex finding = model.index(0, ExpertInfoPanel::SummaryColumn, findings);
    CHECK(finding.data().toString() == QString::fromStdString(first.summary));
    CHECK(finding.data(Qt::ToolTipRole).toString() == QString::fromStdString(first.summary));
    const std::string_view title = findingKindTitle(first.kind);
    CHECK(cell(finding, ExpertInfoPanel::FieldColumn) ==
          QString::fromUtf8(title.data(), static_cast<qsizetype>(title.size())));
    QApplication::processEvents();
    CHECK(window.grab().toImage().save(QDir::current().filePath(QStringLiteral("expert-info-backlog-overflow.png"))));

    // Activating the row shows its packets in the packet list.
    bool done = false;
    QObject::connect(panel, &CapturePacketsPanel::filtered, [&done] { done = true; });
    emit expert->view()->activated(row);
    REQUIRE(waitFor([&done] { return done; }));
    CHECK(tabs->currentWidget() == panel);
    CHECK(static_cast<size_t>(panel->model().rowCount()) == retransmissions);
    // And a finding's row its evidence frames.
    done = false;
    emit expert->view()->activated(finding);
    REQUIRE(waitFor([&done] { return done; }));
    CHECK(panel->model().rowCount() ==
          std::min<int>(cell(finding, ExpertInfoPanel::CountColumn).toInt(), ExpertInfoPanel::kMaxFindingFrames));
}

namespace {

/// One frame of a capture as tcpscope's reader gives it.
struct ReadFrame {
    int64_t tsNs = 0;
    uint32_t originalLength = 0;
    uint32_t linkType = 0;
    std::vector<uint8_t> bytes;

    bool operator==(const ReadFrame&) const = default;
};

std::vector<ReadFrame> readFrames(const std::string& path) {
    std::vector<ReadFrame> frames;
    const auto reader = CaptureReader::open(path);
    RawPacket packet;
    while (reader->next(packet)) {
        frames.push_back({packet.tsNs, packet.originalLength, packet.linkType,
                          std::vector<uint8_t>(packet.data, packet.data + packet.capturedLength)});
    }
    return frames;
}

}  // namespace

TEST_CASE("File > Export shown packets writes the packets the filtered list shows, each as the capture holds it",
          "[ui][panels][display-filter][export]") {
    TestWindow test(true, QSize(1366, 768));
    MainWindow& window = test.window;
    auto* action = window.findChild<QAction*>(QStringLiteral("exportShownPacketsAction"));
    REQUIRE(action != nullptr);
    CHECK_FALSE(action->isEnabled());  // nothing open
    QTemporaryDir folder;
    REQUIRE(folder.isValid());
    const QString sample = folder.filePath(QStringLiteral("proxy-nagle.pcap"));  // a copy: it is also refused as the output
    REQUIRE(QFile::copy(samplePath("proxy-nagle.pcap"), sample));
    REQUIRE(test.open({sample}));
    CHECK(action->isEnabled());
    auto* panel = window.findChild<CapturePacketsPanel*>(QStringLiteral("capturePackets"));
    REQUIRE(panel != nullptr);
    const QString expression = QStringLiteral("tcp.port == 3306 && tcp.len > 0");
    REQUIRE(applyAndWait(*panel, expression));
    const int shown = panel->model().rowCount();
    REQUIRE(shown > 0);
    REQUIRE(static_cast<size_t>(shown) < window.results()->packets()->size());

    const QString out = folder.filePath(QStringLiteral("shown.pcap"));
    REQUIRE(window.exportShownPacketsTo(out).isEmpty());
    CHECK(window.statusBar()->currentMessage() ==
          QStringLiteral("Wrote %1 packets matching %2 to %3").arg(shown).arg(expression, out));

    // The file holds the rows' frames, in order, unchanged.
    const std::vector<ReadFrame> input = readFrames(sample.toStdString());
    const std::vector<ReadFrame> written = readFrames(out.toStdString());
    REQUIRE(written.size() == static_cast<size_t>(shown));
    for (int row = 0; row < shown; ++row) {
        const uint32_t frame = panel->model().index(row, CapturePacketsModel::FrameColumn).data().toUInt();
        REQUIRE(frame >= 1);
        REQUIRE(frame <= input.size());
        CHECK(written[static_cast<size_t>(row)] == input[frame - 1]);
    }

    // The empty filter shows, and writes, every TCP packet; the capture itself is refused as the output.
    REQUIRE(applyAndWait(*panel, QString()));
    const QString all = folder.filePath(QStringLiteral("all.pcap"));
    REQUIRE(window.exportShownPacketsTo(all).isEmpty());
    CHECK(readFrames(all.toStdString()).size() == window.results()->packets()->size());
    CHECK(window.exportShownPacketsTo(sample).contains(QStringLiteral("refusing to write")));
}
