// The incident report's pictures of population kinds (issue 26): a listen backlog overflow as its
// delayed handshakes, SYN by SYN; port exhaustion as the capture-wide rows with the pause shaded
// and labelled, the limit labelled and the connect() calls strace saw fail. The layouts they are
// painted from are checked, and the report's PNGs are kept in screenshots/PLATFORM/ to look at.
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImageReader>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

#include "align/stall_confirmation.hpp"
#include "align/strace_alignment.hpp"
#include "pictures/handshake_picture.hpp"
#include "pictures/headless_export.hpp"
#include "pictures/port_pool_picture.hpp"
#include "present/handshake_retries.hpp"
#include "present/port_pool_marks.hpp"
#include "report/incident_sections.hpp"
#include "timeline/timeline_view.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace {

constexpr double kReportWidthPx = 1280;
constexpr int kMaxPictureHeightPx = 2000;

ResultsPtr analysed(const std::string& capture, const std::string& straceLog = {}) {
    CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/" + capture}, {});
    std::optional<StraceAlignment> alignment;
    if (!straceLog.empty()) {
        alignment = loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/" + straceLog}, analysis, {});
        confirmFindingsWithSyscalls(analysis, *alignment);
    }
    return AnalysisResults::complete(std::move(analysis), std::move(alignment));
}

// Writes the incident report of `results`, keeps its picture `name` as screenshots/PLATFORM/`keptAs`,
// and returns the picture's size and the report's Markdown.
std::pair<QSize, QString> reportPicture(const ResultsPtr& results, const QString& name, const QString& keptAs) {
    QTemporaryDir dir;
    const ExportOutcome outcome = exportIncidentReport(results, dir.path());
    INFO(outcome.error.toStdString());
    REQUIRE(outcome.error.isEmpty());
    const QString png = QDir(dir.path()).filePath(name);
    INFO(QDir(dir.path()).entryList(QDir::Files).join(QLatin1Char(' ')).toStdString());
    REQUIRE(QFile::exists(png));
    const QString screenshots =
        QDir::current().filePath(QStringLiteral("screenshots/") + QGuiApplication::platformName());
    QDir().mkpath(screenshots);
    QFile::remove(QDir(screenshots).filePath(keptAs));
    QFile::copy(png, QDir(screenshots).filePath(keptAs));
    QFile markdown(QDir(dir.path()).filePath(QStringLiteral("report.md")));
    REQUIRE(markdown.open(QIODevice::ReadOnly));
    return {QImageReader(png).size(), QString::fromUtf8(markdown.readAll())};
}

template <typename Label>
void checkClearOfEachOther(const std::vector<Label>& labels, double widthPx) {
    for (size_t index = 0; index < labels.size(); ++index) {
        INFO(labels[index].text.toStdString());
        CHECK(labels[index].rect.left() >= 0);
        CHECK(labels[index].rect.right() <= widthPx);
        for (size_t other = index + 1; other < labels.size(); ++other) {
            CHECK_FALSE(labels[index].rect.intersects(labels[other].rect));
        }
    }
}

}  // namespace

TEST_CASE("backlog sample: the report draws every retried SYN of each delayed handshake and the answer",
          "[report][pictures][sample]") {
    const ResultsPtr results = analysed("backlog-overflow.pcap");
    const CaptureAnalysis& analysis = *results->analysis();
    const std::vector<ReportSection> sections = reportSections(analysis);
    REQUIRE_FALSE(sections.empty());
    const ReportSection& backlog = sections.front();
    REQUIRE(backlog.group.kind == FindingKind::SynBacklogOverflow);
    CHECK(backlog.picture == SectionPicture::Handshakes);

    // As many retry marks as `analyze` reports retransmitted SYNs, one answer per delayed handshake.
    const Finding& finding = analysis.findings[backlog.group.findings.front()];
    const auto reportedRetries = finding.evidence.at("syn_retransmissions").get<uint64_t>();
    CHECK(reportedRetries == 90);
    const HandshakeRetries retries = handshakeRetries(analysis, backlog.group.findings, kMaxHandshakePictureRows);
    REQUIRE(retries.rows.size() == finding.evidence.at("connections_delayed").get<size_t>());
    CHECK(retries.leftOut == 0);
    CHECK(retries.retriedSyns == reportedRetries);
    const HandshakePicture picture = layoutHandshakePicture(retries, kReportWidthPx, QFont());
    CHECK(picture.count(HandshakePicture::MarkKind::RetriedSyn) == reportedRetries);
    CHECK(picture.count(HandshakePicture::MarkKind::FirstSyn) == retries.rows.size());
    CHECK(picture.count(HandshakePicture::MarkKind::Answer) == retries.rows.size());
    CHECK(picture.waits.size() == retries.rows.size());

    // A label per row: the wait, the retries and when the answer came, clear of one another.
    REQUIRE(picture.labels.size() == retries.rows.size());
    static const QRegularExpression label(
        QStringLiteral(R"(^\+[0-9]+\.[0-9]{2} s: SYN retried [0-9]+x, answered at 03:29:[0-9]{2}\.[0-9]{3} UTC$)"));
    for (const HandshakePicture::Text& text : picture.labels) {
        INFO(text.text.toStdString());
        CHECK(label.match(text.text).hasMatch());
    }
    checkClearOfEachOther(picture.labels, kReportWidthPx);
    const auto worst = std::max_element(retries.rows.begin(), retries.rows.end(),
                                        [](const auto& a, const auto& b) { return a.waitNs < b.waitNs; });
    CHECK(worst->label == "+35.69 s: SYN retried 9x, answered at 03:29:51.934 UTC");
    // The backoff: each retry waits at least as long as the one before (to the millisecond).
    for (size_t gap = 1; gap < worst->retriedSynsNs.size(); ++gap) {
        const int64_t previous =
            worst->retriedSynsNs[gap - 1] - (gap > 1 ? worst->retriedSynsNs[gap - 2] : worst->firstSynNs);
        CHECK(worst->retriedSynsNs[gap] - worst->retriedSynsNs[gap - 1] >=
              previous - 50'000'000);  // timers fire a little late or early
    }

    // Retried SYNs above the wait, SYN-ACKs below: an answer right after a retry hides neither.
    for (const HandshakePicture::Mark& mark : picture.marks) {
        const bool client =
            mark.kind == HandshakePicture::MarkKind::FirstSyn || mark.kind == HandshakePicture::MarkKind::RetriedSyn;
        const auto wait = std::find_if(picture.waits.begin(), picture.waits.end(), [&mark](const QRectF& bar) {
            return mark.at.y() > bar.top() - 20 && mark.at.y() < bar.bottom() + 20;
        });
        REQUIRE(wait != picture.waits.end());
        CHECK((client ? mark.at.y() < wait->center().y() : mark.at.y() > wait->center().y()));
    }

    // No mark sits on a label.
    for (const HandshakePicture::Mark& mark : picture.marks) {
        const QRectF box(mark.at - QPointF(5, 5), QSizeF(10, 10));
        for (const HandshakePicture::Text& text : picture.labels) {
            INFO(text.text.toStdString() << " at y " << text.rect.top() << ", a mark at y " << mark.at.y());
            CHECK_FALSE(box.intersects(text.rect));
        }
    }

    // The most rows a picture has, with the heading, fit in 2,000 px.
    HandshakeRetries most = retries;
    while (most.rows.size() < kMaxHandshakePictureRows) {
        most.rows.push_back(retries.rows.front());
    }
    most.leftOut = 1000;
    const QSizeF mostSize = layoutHandshakePicture(most, kReportWidthPx, QFont()).size;
    CHECK(mostSize.height() + exportHeadingHeight() <= kMaxPictureHeightPx);

    const auto [size, markdown] = reportPicture(results, QStringLiteral("cause-1-handshakes.png"),
                                                QStringLiteral("report-backlog-handshakes.png"));
    INFO(size.width() << " x " << size.height());
    CHECK(size.width() == static_cast<int>(kReportWidthPx));
    CHECK(size.height() > 0);
    CHECK(size.height() <= kMaxPictureHeightPx);
    CHECK(markdown.contains(QLatin1String("cause-1-handshakes.png")));
    CHECK(markdown.contains(QLatin1String("(90 in all: the listener dropped them)")));
}

TEST_CASE("churn sample with strace: the pause shaded and labelled, the limit and the failed connect() calls",
          "[report][pictures][sample]") {
    const ResultsPtr results = analysed("churn-exhaustion.pcap", "churn-exhaustion.strace");
    const CaptureAnalysis& analysis = *results->analysis();
    const std::vector<ReportSection> sections = reportSections(analysis);
    REQUIRE_FALSE(sections.empty());
    const ReportSection& exhaustion = sections.front();
    REQUIRE(exhaustion.group.kind == FindingKind::PortExhaustion);
    CHECK(exhaustion.picture == SectionPicture::PortPool);
    const Finding& finding = analysis.findings[exhaustion.group.findings.front()];
    const std::optional<FailedConnects>& failed = analysis.enrichments.of(finding.id).failedConnects;
    REQUIRE(failed.has_value());
    CHECK(failed->count == 592);

    TimelineView view;
    view.setBackgroundBuildThreshold(SIZE_MAX);
    view.setFailedConnectLanesShown(false);  // as the report's views: the picture's own lane below
    view.resize(static_cast<int>(kReportWidthPx), 600);
    view.setResults(results);
    const PortPoolMarks marks =
        portPoolMarks(analysis, exhaustion.group.findings, view.model().population(), results->alignment());
    CHECK(marks.failedConnectsNs.size() == failed->count);
    const std::optional<TimelineLane> lane = failedConnectsLane(marks);
    REQUIRE(lane.has_value());
    CHECK(lane->events.size() == 592);
    view.setExtraLanes({*lane});

    const TimeRange range{exhaustion.range.startNs, exhaustion.range.endNs};
    TimelineRenderOptions options;
    options.scrollYPx = 0;
    const TimelineFrame frame = view.prepareFrame(view.renderSize(kReportWidthPx, options), range, options);
    const PortPoolOverlay overlay = layoutPortPoolOverlay(frame, marks, view.font());

    REQUIRE(overlay.pauses.size() == 1);
    REQUIRE(overlay.pauseLabels.size() == 1);
    INFO(overlay.pauseLabels.front().text.toStdString());
    CHECK(QRegularExpression(QStringLiteral(R"(^pause: no new connection for 60\.[0-9]{2} s$)"))
              .match(overlay.pauseLabels.front().text)
              .hasMatch());
    CHECK(overlay.pauses.front().width() > frame.plot.w / 2);  // 60.6 s of a 60.9 s capture
    REQUIRE(overlay.limitLabel.has_value());
    CHECK(overlay.limitLabel->text == QLatin1String("limit: 100 ports"));
    REQUIRE(overlay.failedConnectsLabel.has_value());
    CHECK(overlay.failedConnectsLabel->text.startsWith(QLatin1String("592 connect() calls failed: EADDRNOTAVAIL")));
    std::vector<PortPoolOverlay::Label> labels = overlay.pauseLabels;
    labels.push_back(*overlay.limitLabel);
    labels.push_back(*overlay.failedConnectsLabel);
    checkClearOfEachOther(labels, kReportWidthPx);
    // The failed calls are drawn in their lane, under their label.
    const auto failedRow = std::find_if(frame.rows.begin(), frame.rows.end(),
                                        [](const LayoutRow& row) { return row.kind == RowKind::Extra; });
    REQUIRE(failedRow != frame.rows.end());
    CHECK(failedRow->markEnd > failedRow->firstMark);
    CHECK(overlay.failedConnectsLabel->rect.center().y() == Approx(failedRow->rect.y + failedRow->rect.h / 2));

    const auto [size, markdown] =
        reportPicture(results, QStringLiteral("cause-1-ports.png"), QStringLiteral("report-churn-ports.png"));
    INFO(size.width() << " x " << size.height());
    CHECK(size.width() == static_cast<int>(kReportWidthPx));
    CHECK(size.height() > 0);
    CHECK(size.height() <= kMaxPictureHeightPx);
    CHECK(markdown.contains(QLatin1String("592 connect() calls that failed with EADDRNOTAVAIL")));
}
