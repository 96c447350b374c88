// The GUI opened on every capture in samples/ (with its strace logs), as a user would: the
// findings panel lists the findings of the sample's expected report, the timeline draws each
// finding's stalls, the sequence diagram shows each connection finding's packets (and the Nagle
// brackets), and the window is saved as screenshots/PLATFORM/SAMPLE.png (plus a dark-palette
// shot of the Nagle sample) for a person to look at. Runs on the offscreen platform with the
// rest, and under Xvfb (xcb) where xvfb-run exists: `ui_tests "[samples-screenshot]"`. Each seed
// sample's first incident is shot at 1366 x 768 and 1024 x 700 (SEED-picture-WxH.png): its title,
// impact and fix in the details and its picture in front, all without scrolling.
#include <QDir>
#include <QGuiApplication>
#include <QHeaderView>
#include <QImage>
#include <QScrollBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTreeView>
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/capture_analysis.hpp"
#include "pictures/incident_picture.hpp"
#include "report/incidents_text.hpp"
#include "ui/window_test_support.hpp"
#include "window/palettes.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

struct Sample {
    QString capture;
    QStringList straceLogs;  // NAME.strace, or the NAME.strace.PID files of strace -ff
};

std::vector<Sample> samples() {
    const QDir dir(QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples"));
    std::vector<Sample> found;
    for (const QFileInfo& capture :
         dir.entryInfoList({QStringLiteral("*.pcap"), QStringLiteral("*.pcapng")}, QDir::Files, QDir::Name)) {
        Sample sample{capture.absoluteFilePath(), {}};
        for (const QFileInfo& log :
             dir.entryInfoList({capture.completeBaseName() + QStringLiteral(".strace*")}, QDir::Files, QDir::Name)) {
            sample.straceLogs << log.absoluteFilePath();
        }
        found.push_back(sample);
    }
    return found;
}

// Finding kinds and their counts in the sample's expected report (samples/expected/); for a
// sample recorded since, without one yet, those of the core's own analysis.
std::map<std::string, int> expectedKinds(const QString& capture) {
    std::ifstream file(QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/expected/%1.analyze.json")
                           .arg(QFileInfo(capture).fileName())
                           .toStdString());
    std::map<std::string, int> kinds;
    if (!file.good()) {
        WARN("no expected report for " << capture.toStdString() << ": compared with the core's analysis");
        for (const Finding& finding : analyzeCaptures({capture.toStdString()}, {}).findings) {
            ++kinds[std::string(findingKindName(finding.kind))];
        }
        return kinds;
    }
    const nlohmann::json report = nlohmann::json::parse(file);
    for (const auto& finding : report["findings"]) {
        ++kinds[finding["kind"].get<std::string>()];
    }
    return kinds;
}

std::map<std::string, int> shownKinds(const QAbstractItemModel& model) {
    std::map<std::string, int> kinds;
    const auto& findings = dynamic_cast<const FindingsModel&>(model);
    for (int group = 0; group < model.rowCount(); ++group) {
        const QModelIndex parent = model.index(group, 0);
        for (int row = 0; row < model.rowCount(parent); ++row) {
            ++kinds[std::string(findingKindName(findings.findingAt(model.index(row, 0, parent))->kind))];
        }
    }
    return kinds;
}

// The findings whose stall spans or labels the timeline draws now (in its tab, shown or not).
std::set<uint32_t> drawnFindings(const TimelineView& timeline) {
    const TimelineFrame frame = timeline.prepareFrame(timeline.viewport()->size(), timeline.visibleRange());
    std::set<uint32_t> drawn;
    for (const LayoutSpan& span : frame.spans) {
        drawn.insert(span.finding);
    }
    for (const LayoutText& text : frame.texts) {
        drawn.insert(text.finding);
    }
    return drawn;
}

QStringList bracketTexts(const SequenceView& sequence) {
    const SequenceLayout& layout = sequence.sequenceLayout();
    QStringList texts;
    if (!layout.isEmpty()) {
        for (const auto& bracket : layout.prepare(QRectF(0, 0, 1000, layout.totalHeight())).brackets) {
            texts << bracket.text;
        }
    }
    return texts;
}

// Mean lightness (0..255) of a widget's part of a window grab.
int meanLightness(const QImage& image, const QRect& area) {
    int64_t sum = 0;
    int64_t count = 0;
    for (int y = area.top(); y <= area.bottom(); y += 3) {
        for (int x = area.left(); x <= area.right(); x += 3) {
            sum += QColor(image.pixel(x, y)).lightness();
            ++count;
        }
    }
    return count > 0 ? static_cast<int>(sum / count) : 0;
}

}  // namespace

TEST_CASE("every sample opens in the GUI with its findings in the panel, the timeline and the sequence diagram",
          "[ui][screenshot][samples-screenshot]") {
    const std::vector<Sample> all = samples();
    REQUIRE(all.size() >= 10);
    for (const Sample& sample : all) {
        const QString name = QFileInfo(sample.capture).fileName();
        SECTION(name.toStdString()) {
            TestWindow test(true, {1600, 1000});
            MainWindow& window = test.window;
            REQUIRE(test.open({sample.capture}, sample.straceLogs));
            CHECK((window.results()->alignment() != nullptr) == !sample.straceLogs.isEmpty());

            auto* findingsView = window.findChild<QTreeView*>(QStringLiteral("findingsView"));
            auto* timeline = window.findChild<TimelineView*>(QStringLiteral("timelineView"));
            auto* sequence = window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
            REQUIRE(findingsView != nullptr);
            REQUIRE(timeline != nullptr);
            REQUIRE(sequence != nullptr);
            CHECK(shownKinds(*findingsView->model()) == expectedKinds(sample.capture));

            for (const Finding& finding : window.results()->findings()) {
                INFO(findingKindName(finding.kind) << " #" << finding.id);
                window.selectFinding(finding.id);
                QApplication::processEvents();
                REQUIRE(window.currentFinding() == &finding);
                // Its stalls are drawn (capture-wide findings on their own lane); a finding that
                // cost no time (a port reuse that went well, TIME_WAIT churn that broke nothing)
                // has no span: the timeline selects it and, for a connection, its lane.
                CHECK(timeline->selectedFinding() == finding.id);
                if (finding.durationMs > 0) {
                    CHECK(drawnFindings(*timeline).count(finding.id) == 1);
                } else if (finding.connection != kNoConnection) {
                    CHECK(timeline->selectedConnection() == finding.connection);
                }
                if (finding.connection == kNoConnection || finding.frames.empty()) {
                    continue;
                }
                // The diagram of its connection, on its first evidence packet.
                REQUIRE(sequence->selectedArrow() != kNoArrow);
                const auto& arrows = sequence->sequenceLayout().diagram()->arrows();
                CHECK(std::any_of(arrows.begin(), arrows.end(), [&finding](const SequenceArrow& arrow) {
                    return arrow.frame == finding.frames.front();
                }));
                if (finding.kind == FindingKind::DelayedAckStall) {
                    const QStringList brackets = bracketTexts(*sequence);
                    CHECK(brackets.size() >= static_cast<int>(finding.evidence["instances"].size()));
                    CHECK(brackets.filter(QStringLiteral("held by Nagle")).size() == brackets.size());
                }
            }
            if (window.results()->findings().empty()) {
                // Said in words, and the first connection's packets shown rather than empty panels.
                auto* details = window.findChild<QTextBrowser*>(QStringLiteral("findingDetail"));
                CHECK(details->toPlainText().startsWith(QStringLiteral("No findings")));
                CHECK(window.findChild<QTableView*>(QStringLiteral("packetsView"))->model()->rowCount() > 0);
            }
            // The window as it opens: the first incident selected, else the first finding.
            const auto& model = dynamic_cast<const FindingsModel&>(*findingsView->model());
            if (!window.results()->incidents().empty()) {
                window.selectIncident(window.results()->incidents().front().id);
            } else if (const Finding* first = model.findingAt(model.neighbourFinding({}, 1))) {
                window.selectFinding(first->id);
            }
            QApplication::processEvents();
            const QImage shot = window.grab().toImage();
            CHECK(shot.save(screenshotPath(QFileInfo(sample.capture).completeBaseName())));
        }
    }
}

TEST_CASE("the Nagle sample with a dark palette keeps its text and drawings visible",
          "[ui][screenshot][samples-screenshot]") {
    const QPalette original = QApplication::palette();
    QStyle* const originalStyle = QApplication::style();
    const QString originalStyleName = originalStyle->name();
    REQUIRE(applyPalette(QStringLiteral("dark")));
    {
        TestWindow test(true, {1600, 1000});
        MainWindow& window = test.window;
        REQUIRE(test.open({samplePath("proxy-nagle.pcap")}, {samplePath("proxy-nagle.strace")}));
        QApplication::processEvents();
        const QImage shot = window.grab().toImage();
        CHECK(shot.save(screenshotPath(QStringLiteral("proxy-nagle-dark"))));
        auto* findings = window.findChild<QTreeView*>(QStringLiteral("findingsView"));
        const QRect area(findings->mapTo(&window, QPoint(0, 0)), findings->size());
        CHECK(meanLightness(shot, area) < 90);  // dark background
        // Light text on it: some pixels of the finding rows are bright.
        int bright = 0;
        for (int y = area.top(); y < area.bottom(); ++y) {
            for (int x = area.left(); x < area.right(); ++x) {
                bright += QColor(shot.pixel(x, y)).lightness() > 170 ? 1 : 0;
            }
        }
        CHECK(bright > 200);
        auto* sequence = window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
        CHECK(sequence->paintOptions().palette.color(QPalette::Base).lightness() < 90);
    }
    QApplication::setStyle(QStyleFactory::create(originalStyleName));
    QApplication::setPalette(original);
}

namespace {

// The rows of `frame` that are wholly inside its lanes' area: what a person sees without scrolling.
std::vector<LayoutRow> rowsOnScreen(const TimelineFrame& frame) {
    std::vector<LayoutRow> rows;
    std::copy_if(frame.rows.begin(), frame.rows.end(), std::back_inserter(rows), [&frame](const LayoutRow& row) {
        return row.rect.y >= frame.lanesClip.y - 0.5 && row.rect.bottom() <= frame.lanesClip.bottom() + 0.5;
    });
    return rows;
}

bool onScreen(const std::vector<LayoutRow>& rows, RowKind kind, uint32_t index) {
    return std::any_of(rows.begin(), rows.end(),
                       [kind, index](const LayoutRow& row) { return row.kind == kind && row.index == index; });
}

size_t barsOf(const TimelineFrame& frame, BarRole role) {
    return static_cast<size_t>(
        std::count_if(frame.bars.begin(), frame.bars.end(), [role](const LayoutBar& bar) { return bar.role == role; }));
}

// Opens the sample `sample` of samples/ with its strace logs.
void openAt(TestWindow& test, const char* sample) {
    const QString capture = samplePath(sample);
    QStringList straceLogs;
    const QDir dir(QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples"));
    for (const QFileInfo& log : dir.entryInfoList({QFileInfo(capture).completeBaseName() + QStringLiteral(".strace*")},
                                                  QDir::Files, QDir::Name)) {
        straceLogs << log.absoluteFilePath();
    }
    REQUIRE(test.open({capture}, straceLogs));
    QApplication::processEvents();
}

TimelineView& timelineOf(TestWindow& test) {
    auto* timeline = test.window.findChild<TimelineView*>(QStringLiteral("timelineView"));
    REQUIRE(timeline != nullptr);
    return *timeline;
}

// The window as it opens, and with the timeline's tab in front if it opened on another.
void save(TestWindow& test, const char* name) {
    QApplication::processEvents();
    CHECK(test.window.grab().toImage().save(screenshotPath(QLatin1String(name))));
    auto* timeline = test.window.findChild<TimelineView*>(QStringLiteral("timelineView"));
    QTabWidget* tabs = nullptr;
    for (QWidget* parent = timeline->parentWidget(); parent != nullptr && tabs == nullptr;
         parent = parent->parentWidget()) {
        tabs = qobject_cast<QTabWidget*>(parent);
    }
    if (tabs != nullptr && tabs->currentWidget() != timeline) {
        tabs->setCurrentWidget(timeline);
        QApplication::processEvents();
        CHECK(test.window.grab().toImage().save(screenshotPath(QLatin1String(name) + QStringLiteral("-timeline"))));
    }
}

}  // namespace

TEST_CASE("incidents of many connections read at a glance at 1366 x 768", "[ui][screenshot][samples-screenshot]") {
    const auto openAt1366 = openAt;

    SECTION("churn: one population in TIME_WAIT, its port range and the pause on one screen") {
        TestWindow test(true, {1366, 768});
        openAt1366(test, "churn-exhaustion.pcap");
        TimelineView& timeline = timelineOf(test);
        const TimelineModel& model = timeline.model();
        CHECK(model.grouping() == LaneGrouping::ClientToServer);
        REQUIRE(model.groups().size() == 1);
        CHECK(model.groupCollapsed(0));
        CHECK(model.groupDetail(0) == "150 connections · 100 in TIME_WAIT");
        // The 150 lanes are one row: every row fits the screen.
        const TimelineFrame frame = timeline.prepareFrame(timeline.viewport()->size(), timeline.visibleRange());
        const std::vector<LayoutRow> shown = rowsOnScreen(frame);
        CHECK(shown.size() == model.rows().size());
        CHECK(onScreen(shown, RowKind::Population, static_cast<uint32_t>(PopulationRow::TimeWait)));
        CHECK(onScreen(shown, RowKind::Population, static_cast<uint32_t>(PopulationRow::PortsInUse)));
        CHECK(onScreen(shown, RowKind::GroupHeader, 0));
        CHECK(barsOf(frame, BarRole::TimeWait) > 0);
        CHECK(std::any_of(frame.lines.begin(), frame.lines.end(),
                          [](const LayoutLine& line) { return line.role == LineRole::Capacity; }));
        save(test, "churn-exhaustion-1366x768");

        // Selecting a connection (from the connections table, a finding) opens its group.
        timeline.scrollToConnection(42);
        CHECK_FALSE(model.groupCollapsed(0));
        CHECK(model.rowOfConnection(42).has_value());
    }
    SECTION("backlog: the clients waiting on their SYNs") {
        TestWindow test(true, {1366, 768});
        openAt1366(test, "backlog-overflow.pcap");
        TimelineView& timeline = timelineOf(test);
        const TimelineModel& model = timeline.model();
        REQUIRE(model.groups().size() == 1);
        CHECK(model.groups()[0].peaks[static_cast<size_t>(PopulationState::SynWait)] == 18);
        const TimelineFrame frame = timeline.prepareFrame(timeline.viewport()->size(), timeline.visibleRange());
        const std::vector<LayoutRow> shown = rowsOnScreen(frame);
        CHECK(onScreen(shown, RowKind::Population, static_cast<uint32_t>(PopulationRow::SynWaits)));
        CHECK(barsOf(frame, BarRole::SynWait) > 0);
        CHECK(barsOf(frame, BarRole::SynRetransmissions) > 0);
        save(test, "backlog-overflow-1366x768");
    }
    SECTION("collision: the six reuses of one 4-tuple as lanes under their population") {
        TestWindow test(true, {1366, 768});
        openAt1366(test, "port-reuse-collision.pcap");
        const TimelineModel& model = timelineOf(test).model();
        REQUIRE(model.groups().size() == 1);
        CHECK_FALSE(model.groupCollapsed(0));     // 6 connections: few enough to show as lanes
        CHECK(model.populationRows().empty());    // and too few for capture-wide rows
        save(test, "port-reuse-collision-1366x768");
    }
    SECTION("Nagle: two connections, two lanes as before") {
        TestWindow test(true, {1366, 768});
        openAt1366(test, "proxy-nagle.pcap");
        const TimelineModel& model = timelineOf(test).model();
        CHECK(std::none_of(model.rows().begin(), model.rows().end(),
                           [](const LaneRow& row) { return row.kind == RowKind::GroupHeader; }));
        CHECK(std::count_if(model.rows().begin(), model.rows().end(),
                            [](const LaneRow& row) { return row.kind == RowKind::Connection; }) == 2);
        save(test, "proxy-nagle-1366x768");
    }
    SECTION("hosts: the port pools of the three busiest client hosts, the other two counted") {
        TestWindow test(true, {1366, 768});
        openAt1366(test, "hosts-churn.pcap");
        TimelineView& timeline = timelineOf(test);
        const TimelineFrame frame = timeline.prepareFrame(timeline.viewport()->size(), timeline.visibleRange());
        const std::vector<LayoutRow> shown = rowsOnScreen(frame);
        for (uint32_t host = 0; host < 3; ++host) {
            CHECK(onScreen(shown, RowKind::Population, PopulationRowKey{PopulationRow::PortsInUse, host}.index()));
        }
        CHECK(std::any_of(frame.texts.begin(), frame.texts.end(),
                          [](const LayoutText& text) { return text.text.ends_with("· +2 hosts"); }));
        save(test, "hosts-churn-1366x768");
    }
}

namespace {

// True when column `column` of `view` is wholly in its viewport (not scrolled to, not squeezed)
// and wide enough for the text of each of its first rows (of `parent`).
bool columnReadable(const QAbstractItemView& view, const QHeaderView& header, int column,
                    const QModelIndex& parent = {}) {
    const int left = header.sectionViewportPosition(column);
    const int width = header.sectionSize(column);
    INFO("column " << column << ": " << left << " + " << width << " px of " << header.viewport()->width());
    if (header.isSectionHidden(column) || left < 0 || left + width > header.viewport()->width()) {
        return false;
    }
    const QAbstractItemModel& model = *view.model();
    const QFontMetrics metrics(view.font());
    for (int row = 0; row < std::min(model.rowCount(parent), 20); ++row) {
        const QString text = model.index(row, column, parent).data().toString();
        INFO("'" << text.toStdString() << "'");
        if (metrics.horizontalAdvance(text) + 6 > width) {
            return false;
        }
    }
    return true;
}

}  // namespace

TEST_CASE("at 1024 x 700 the wall-clock time lost, the RTT and the findings stay on screen",
          "[ui][screenshot][samples-screenshot]") {
    for (const char* sample : {"churn-exhaustion.pcap", "proxy-nagle.pcap"}) {
        SECTION(sample) {
            TestWindow test(true, {1024, 700});
            openAt(test, sample);
            MainWindow& window = test.window;
            auto* findings = window.findChild<QTreeView*>(QStringLiteral("findingsView"));
            auto* connections = window.findChild<QTableView*>(QStringLiteral("connectionsView"));
            REQUIRE(findings != nullptr);
            REQUIRE(connections != nullptr);
            // The findings' wall-clock time lost: on the first group's findings.
            const QModelIndex firstGroup = findings->model()->index(0, 0);
            CHECK(columnReadable(*findings, *findings->header(), FindingsModel::TimeLostColumn));
            CHECK(columnReadable(*findings, *findings->header(), FindingsModel::TimeLostColumn, firstGroup));
            for (const int column :
                 {ConnectionsModel::RttColumn, ConnectionsModel::TimeLostColumn, ConnectionsModel::FindingsColumn}) {
                CHECK(columnReadable(*connections, *connections->horizontalHeader(), column));
            }
            const std::string name =
                QFileInfo(QString::fromLatin1(sample)).completeBaseName().toStdString() + "-1024x700";
            save(test, name.c_str());
        }
    }
}

TEST_CASE("screenshot: at 1920x1080 the connections' packets, bytes and duration are on screen beside their "
          "findings",
          "[ui][screenshot][samples-screenshot]") {
    TestWindow test(true, {1920, 1080});
    openAt(test, "proxy-nagle.pcap");
    auto* connections = test.window.findChild<QTableView*>(QStringLiteral("connectionsView"));
    REQUIRE(connections != nullptr);
    for (const int column : {ConnectionsModel::TimeLostColumn, ConnectionsModel::RttColumn,
                             ConnectionsModel::FindingsColumn, ConnectionsModel::PacketsColumn,
                             ConnectionsModel::BytesColumn, ConnectionsModel::DurationColumn}) {
        CHECK(columnReadable(*connections, *connections->horizontalHeader(), column));
    }
    save(test, "proxy-nagle-connections-1920x1080");
}

namespace {

// A seed sample and what its first incident's picture is.
struct Seed {
    const char* capture;
    const char* straceLog;  // or null
    SectionPicture picture;  // Sequence: in the Sequence tab; else the Charts tab's incident picture
};

// True when `widget` is shown whole inside `window` (not cut by its splitter or the screen).
bool wholeInWindow(const QWidget& widget, const QWidget& window) {
    const QRect rect(widget.mapTo(&window, QPoint(0, 0)), widget.size());
    UNSCOPED_INFO(widget.objectName().toStdString() << " at " << rect.x() << "," << rect.y() << " " << rect.width()
                                                    << " x " << rect.height());
    return widget.isVisible() && window.rect().contains(rect);
}

void checkSeed(const Seed& seed, QSize size) {
    TestWindow test(true, size);
    MainWindow& window = test.window;
    QStringList logs;
    if (seed.straceLog != nullptr) {
        logs << samplePath(seed.straceLog);
    }
    REQUIRE(test.open({samplePath(seed.capture)}, logs));
    auto* timeline = window.findChild<TimelineView*>(QStringLiteral("timelineView"));
    REQUIRE(waitFor([timeline]() { return !timeline->isBuilding(); }));
    QApplication::processEvents();
    // The window is as wide as the screen it was made for: nothing in it asks for more.
    UNSCOPED_INFO("the window needs " << window.minimumSizeHint().width() << " px");
    CHECK(window.width() == size.width());

    // The window opens on the first incident: its title, its impact and its first fix readable at once.
    REQUIRE_FALSE(window.results()->incidents().empty());
    const Incident& incident = window.results()->incidents().front();
    REQUIRE(window.currentIncident() == &incident);
    auto* details = window.findChild<QTextBrowser*>(QStringLiteral("findingDetail"));
    REQUIRE(details != nullptr);
    CHECK(textOnScreen(*details, QString::fromStdString(incident.title)));
    CHECK(textOnScreen(*details, QString::fromStdString(impactLine(incident.impact))));
    REQUIRE_FALSE(incident.fix.doThis.empty());
    CHECK(textOnScreen(*details, QString::fromStdString(incident.fix.doThis.front())));
    // No code names where a person reads.
    for (const char* code : {"delayed_ack_stall", "lost_segment", "window_full", "reused_ports", "syn_backlog_overflow"}) {
        CHECK_FALSE(details->toPlainText().contains(QLatin1String(code)));
    }

    // Its picture in front, said in words, whole on screen.
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    auto* sequence = window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
    auto* charts = window.findChild<ChartPanel*>(QStringLiteral("chartPanel"));
    REQUIRE(tabs != nullptr);
    REQUIRE(sequence != nullptr);
    REQUIRE(charts != nullptr);
    if (seed.picture == SectionPicture::Sequence) {
        CHECK(tabs->currentWidget() == sequence);
        REQUIRE_FALSE(sequence->sequenceLayout().isEmpty());
        CHECK(sequence->caption().contains(QStringLiteral("the connection of this incident that lost the most")));
        // A proxy's two flows together, the first stall's bracket in view.
        const SequenceDiagram& diagram = *sequence->sequenceLayout().diagram();
        CHECK(diagram.isProxy());
        REQUIRE_FALSE(diagram.stalls().empty());
        const SequenceRowRange rows = sequence->visibleRows();
        CHECK(std::any_of(diagram.stalls().begin(), diagram.stalls().end(), [&rows](const SequenceStall& stall) {
            return stall.startArrow >= rows.first && stall.startArrow < rows.end;
        }));
        CHECK(wholeInWindow(*sequence, window));
    } else {
        CHECK(tabs->currentWidget() == charts);
        REQUIRE(charts->isPictureShown());
        const IncidentPicture& picture = charts->picture();
        CHECK(picture.picture() == seed.picture);
        CHECK_FALSE(picture.caption().isEmpty());
        // A capture of tens of thousands of connections has the picture's lanes built on a pool thread.
        CHECK(waitFor([&picture]() { return picture.page().size.height() > 50; }));
        QApplication::processEvents();  // the note's new lines laid out
        // The whole picture without scrolling.
        const QWidget& canvas = picture.canvas();
        CHECK(canvas.height() <= canvas.parentWidget()->height());
        CHECK(wholeInWindow(*canvas.parentWidget(), window));
    }
    const QString name = QFileInfo(QString::fromLatin1(seed.capture)).fileName().section(QLatin1Char('.'), 0, 0);
    CHECK(window.grab().toImage().save(
        screenshotPath(QStringLiteral("%1-picture-%2x%3").arg(name).arg(size.width()).arg(size.height()))));
}

}  // namespace

TEST_CASE("each seed's incident, its impact and its picture on one screen at 1366 x 768 and 1024 x 700",
          "[ui][screenshot][samples-screenshot][incident-pictures]") {
    const Seed seeds[] = {
        {"seeds/jobs-port-exhaustion.pcap.gz", "seeds/jobs-port-exhaustion.strace.gz", SectionPicture::PortPool},
        {"seeds/ab-no-keepalive.pcap.gz", nullptr, SectionPicture::PortPool},
        {"seeds/backlog-connrate-server.pcap.gz", nullptr, SectionPicture::Handshakes},
        {"proxy-nagle.pcap", "proxy-nagle.strace", SectionPicture::Sequence},
    };
    for (const Seed& seed : seeds) {
        for (const QSize size : {QSize(1366, 768), QSize(1024, 700)}) {
            DYNAMIC_SECTION(seed.capture << " at " << size.width() << " x " << size.height()) {
                checkSeed(seed, size);
            }
        }
    }
}
