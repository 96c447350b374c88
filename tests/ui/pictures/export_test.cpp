// Exports of the views (issue 5): the proxy sample with its strace log drawn to SVG, PDF and PNG
// by the views' render functions, the syscall lanes and lifelines from the alignment, the
// incident report directory, and the headless tcpscope-cli diagram and report commands.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "align/stall_confirmation.hpp"
#include "pictures/diagram_export.hpp"
#include "pictures/headless_export.hpp"
#include "pictures/view_export.hpp"
#include "pictures/view_export_dialog.hpp"
#include "report/incident_report.hpp"
#include "sequence/sequence_syscalls.hpp"
#include "timeline/syscall_lanes.hpp"
#include "ui/pictures/pdf_print_size.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace {

// The proxy without TCP_NODELAY (flow 0: client to proxy, flow 1: proxy to server), with the
// proxy's strace log aligned and the Nagle stalls confirmed by it.
ResultsPtr proxyResults() {
    static const ResultsPtr results = [] {
        CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {});
        StraceAlignment alignment =
            loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.strace"}, analysis, {});
        confirmFindingsWithSyscalls(analysis, alignment);
        return AnalysisResults::complete(std::move(analysis), std::move(alignment));
    }();
    return results;
}

// Every piece of text of an SVG document, joined by spaces (wrapped lines are separate elements);
// fails the test if it does not parse.
QString svgText(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader reader(&file);
    QString text;
    bool sawSvg = false;
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement() && reader.name() == QLatin1String("svg")) {
            sawSvg = true;
        }
        if (reader.isCharacters() && !reader.isWhitespace()) {
            text += reader.text().toString() + QLatin1Char(' ');
        }
    }
    INFO(reader.errorString().toStdString());
    REQUIRE_FALSE(reader.hasError());
    REQUIRE(sawSvg);
    return text;
}

QString runTool(const QString& program, const QStringList& arguments, int* exitCode = nullptr) {
    QProcess process;
    process.start(program, arguments);
    REQUIRE(process.waitForFinished(120'000));
    if (exitCode != nullptr) {
        *exitCode = process.exitCode();
    }
    return QString::fromLocal8Bit(process.readAllStandardOutput() + process.readAllStandardError());
}

// tcpscope-cli of the same build tree (BUILD/app/tcpscope-cli beside BUILD/tests/ui/ui_tests).
QString cliPath() {
    const QString path = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../../app/tcpscope-cli"));
    INFO("tcpscope-cli is built with the ui tests: " << path.toStdString());
    REQUIRE(QFileInfo(path).isExecutable());
    return path;
}

DiagramRequest proxyRequest(const QString& out) {
    DiagramRequest request;
    request.flow = 0;
    request.proxyFlow = 1;
    request.out = out;
    return request;
}

}  // namespace

TEST_CASE("the proxy's system calls go beside its lifeline, each write tied to its segment", "[export][syscalls]") {
    const ResultsPtr results = proxyResults();
    REQUIRE(results->alignment() != nullptr);
    const SequenceDiagram diagram = SequenceDiagram::ofProxy(*results->analysis(), 0, 1);
    const std::vector<SequenceSyscall> syscalls = sequenceSyscalls(*results->alignment(), diagram);
    REQUIRE_FALSE(syscalls.empty());
    // Only the proxy was traced: every call is on the middle lifeline.
    CHECK(std::all_of(syscalls.begin(), syscalls.end(), [](const SequenceSyscall& s) { return s.lifeline == 1; }));
    const auto count = [&syscalls](EventKind kind) {
        return std::count_if(syscalls.begin(), syscalls.end(), [kind](const SequenceSyscall& s) { return s.kind == kind; });
    };
    CHECK(count(EventKind::Write) >= 160);  // 80 requests and 80 answers, each in two writes
    CHECK(count(EventKind::Read) >= 80);
    CHECK(count(EventKind::Wait) > 0);
    // The 35-byte write of the first stall on the client side (frames 26, 27, 29 of flow 0):
    // written long before frame 29 carried it.
    const size_t held = diagram.arrowOfFrame(29);
    REQUIRE(held != kNoArrow);
    const auto write = std::find_if(syscalls.begin(), syscalls.end(),
                                    [](const SequenceSyscall& s) { return s.segmentFrame == 29; });
    REQUIRE(write != syscalls.end());
    CHECK(write->label == QStringLiteral("sendto 35 B"));
    CHECK(diagram.arrows()[held].tsNs - write->tsNs > 40'000'000);

    // Laid out, the write's line reaches down to the held segment's arrow.
    SequenceLayout layout = SequenceLayout::ofProxy(results, 0, 1);
    layout.setSyscalls(syscalls);
    const SequenceDrawList list = layout.prepare(layout.contentRect({held - 4, held + 1}));
    const auto drawn = std::find_if(list.syscalls.begin(), list.syscalls.end(), [&layout, held](const auto& s) {
        return s.segmentY == layout.rowY(held);
    });
    REQUIRE(drawn != list.syscalls.end());
    CHECK(drawn->segmentY - drawn->y > 100);  // 46 ms at 3 px per ms
}

TEST_CASE("the timeline gets a syscall lane under each traced connection", "[export][syscalls]") {
    const ResultsPtr results = proxyResults();
    const std::vector<TimelineLane> lanes = timelineSyscallLanes(*results->alignment());
    REQUIRE(lanes.size() == 2);
    CHECK(lanes[0].attachedConnection == 0);
    CHECK(lanes[1].attachedConnection == 1);
    CHECK(lanes[0].label == "pid 29923 fd 5 syscalls");
    for (const TimelineLane& lane : lanes) {
        CHECK(lane.events.size() > 100);
        CHECK(std::is_sorted(lane.events.begin(), lane.events.end(),
                             [](const TimelineEvent& a, const TimelineEvent& b) { return a.tsNs < b.tsNs; }));
    }
    // The view adds them on its own from the results' alignment.
    TimelineView view;
    view.resize(1200, 500);
    view.setResults(results);
    REQUIRE(view.model().extraLanes().size() == 2);
    const auto& rows = view.model().rows();
    CHECK(std::count_if(rows.begin(), rows.end(), [](const LaneRow& row) { return row.kind == RowKind::Extra; }) == 2);
}

TEST_CASE("an SVG export parses and says what the stall was, with the strace proof", "[export][svg]") {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("proxy.svg"));
    const ExportOutcome outcome = exportDiagramFile(proxyResults(), proxyRequest(path));
    INFO(outcome.error.toStdString());
    REQUIRE(outcome.error.isEmpty());
    const QString text = svgText(path);
    CHECK(text.contains(QStringLiteral("Sequence diagram of flows #0 and #1 (client, proxy, server)")));
    CHECK(text.contains(QStringLiteral("proxy-nagle.pcap")));
    CHECK(text.contains(QRegularExpression(QStringLiteral("35 bytes held by Nagle for 4\\d\\.\\d ms until the delayed ACK"))));
    CHECK(text.contains(QStringLiteral("strace confirms: sendto(128), sendto(35), epoll_wait")));
    CHECK(text.contains(QStringLiteral("sendto 35 B")));
    CHECK(text.contains(QStringLiteral("time lost waiting, with its cause")));  // the legend
    CHECK(text.contains(QStringLiteral("write (strace)")));
}

TEST_CASE("a PDF export prints on A4 landscape pages, its smallest text 8 pt or more, and opens with pdftoppm",
          "[export][pdf]") {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("proxy.pdf"));
    DiagramRequest request = proxyRequest(path);
    request.view = DiagramRequest::View::Both;
    REQUIRE(exportDiagramFile(proxyResults(), request).error.isEmpty());
    int exitCode = -1;
    const QString info = runTool(QStringLiteral("pdfinfo"), {path}, &exitCode);
    REQUIRE(exitCode == 0);
    CHECK(info.contains(QRegularExpression(QStringLiteral(R"(Page size:\s+842 x 595 pts \(A4\))"))));
    // The sequence diagram of 120 packets over as many pages as it needs, the timeline on one.
    const QRegularExpressionMatch pageCount = QRegularExpression(QStringLiteral(R"(Pages:\s+(\d+)\n)")).match(info);
    REQUIRE(pageCount.hasMatch());
    const int pageTotal = pageCount.captured(1).toInt();
    CHECK(pageTotal >= 4);
    pdf_print::checkPrintsLegibly(path);
    // The sequence diagram cut between packets: each page a whole diagram that says which packets it has.
    const QStringList lines = pdf_print::layoutLines(path);
    CHECK(lines.filter(QRegularExpression(QStringLiteral(R"(packets 16 to \d+ of 492$)"))).size() == 1);
    CHECK(lines.filter(QRegularExpression(QStringLiteral(R"(packets \d+ to 135 of 492$)"))).size() == 1);
    CHECK(lines.filter(QRegularExpression(QStringLiteral(R"(^Sequence diagram of \S+ #0 and #1 )"))).size() ==
          pageTotal - 1);
    const QString prefix = dir.filePath(QStringLiteral("page"));
    runTool(QStringLiteral("pdftoppm"), {QStringLiteral("-r"), QStringLiteral("30"), QStringLiteral("-png"), path, prefix},
            &exitCode);
    REQUIRE(exitCode == 0);
    const QStringList pages = QDir(dir.path()).entryList({QStringLiteral("page*.png")}, QDir::Files, QDir::Name);
    REQUIRE(pages.size() == pageTotal);
    for (const QString& page : pages) {
        const QImage image(dir.filePath(page));
        REQUIRE_FALSE(image.isNull());
        CHECK(image.width() == 351);  // 842 pt at 30 dpi
    }
}

TEST_CASE("a PDF export of a diagram wider than a page continues it on pages to the right", "[export][pdf]") {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("wide.pdf"));
    DiagramRequest request = proxyRequest(path);
    request.view = DiagramRequest::View::Timeline;
    request.widthPx = 2400;
    REQUIRE(exportDiagramFile(proxyResults(), request).error.isEmpty());
    pdf_print::checkPrintsLegibly(path);
    const QStringList lines = pdf_print::layoutLines(path);
    CHECK(lines.filter(QRegularExpression(QStringLiteral(R"(^Timeline: page 2 of \d+ \(row 1, column 2\)$)"))).size() ==
          1);
}

TEST_CASE("a PNG at 2x is twice the size of the 1x one", "[export][png]") {
    QTemporaryDir dir;
    DiagramRequest request = proxyRequest(dir.filePath(QStringLiteral("one.png")));
    request.view = DiagramRequest::View::Both;
    request.toSeconds = 0.3;
    REQUIRE(exportDiagramFile(proxyResults(), request).error.isEmpty());
    request.out = dir.filePath(QStringLiteral("two.png"));
    request.scale = 2;
    REQUIRE(exportDiagramFile(proxyResults(), request).error.isEmpty());
    const QImage one(dir.filePath(QStringLiteral("one.png")));
    const QImage two(dir.filePath(QStringLiteral("two.png")));
    REQUIRE_FALSE(one.isNull());
    CHECK(one.width() == 1280);
    CHECK(two.size() == one.size() * 2);
}

TEST_CASE("bad export requests get a one-line reason", "[export]") {
    QTemporaryDir dir;
    DiagramRequest request = proxyRequest(dir.filePath(QStringLiteral("proxy.jpg")));
    CHECK(exportDiagramFile(proxyResults(), request).error.contains(QStringLiteral("must end in .svg, .png or .pdf")));
    request.out = dir.filePath(QStringLiteral("proxy.png"));
    request.flow = 99;
    CHECK(exportDiagramFile(proxyResults(), request).error.contains(QStringLiteral("no flow 99")));
    request.flow = 0;
    request.fromSeconds = 100;
    request.toSeconds = 200;
    CHECK(exportDiagramFile(proxyResults(), request).error.contains(QStringLiteral("no packets in the time range")));
    request.out = dir.filePath(QStringLiteral("missing/dir/proxy.svg"));
    request.fromSeconds.reset();
    request.toSeconds.reset();
    CHECK_FALSE(exportDiagramFile(proxyResults(), request).error.isEmpty());
    CHECK_FALSE(QFileInfo::exists(request.out));
}

TEST_CASE("the incident report has its summary, a section per cause, its pictures and Mermaid text",
          "[export][report]") {
    QTemporaryDir dir;
    const ExportOutcome outcome = exportIncidentReport(proxyResults(), dir.path());
    INFO(outcome.error.toStdString());
    REQUIRE(outcome.error.isEmpty());
    std::ifstream in(dir.filePath(QStringLiteral("report.md")).toStdString());
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string markdown = buffer.str();
    CHECK(markdown.find("# Incident report: proxy-nagle.pcap") != std::string::npos);
    CHECK(markdown.find("## Summary") != std::string::npos);
    CHECK(markdown.find("## 1. Nagle + delayed ACK, 127.0.0.1 -> 127.0.0.1:") != std::string::npos);
    CHECK(markdown.find("## 2. Nagle + delayed ACK, 127.0.0.1 -> 127.0.0.1:") != std::string::npos);
    CHECK(markdown.find("![Timeline of the capture](timeline.png)") != std::string::npos);
    CHECK(markdown.find("](cause-1-sequence.png)") != std::string::npos);
    CHECK(markdown.find("```mermaid\nsequenceDiagram\n") != std::string::npos);
    for (const char* image : {"timeline.png", "cause-1-sequence.png"}) {
        CHECK_FALSE(QImage(dir.filePath(QString::fromLatin1(image))).isNull());
    }
    for (const char* vector : {"timeline.svg", "cause-1-sequence.svg"}) {
        CHECK_FALSE(svgText(dir.filePath(QString::fromLatin1(vector))).isEmpty());
    }
    // The second cause is drawn by the same sequence diagram: no second picture of it.
    CHECK_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("cause-2-sequence.png"))));
    CHECK(QFileInfo(dir.filePath(QStringLiteral("report.html"))).size() > 10'000);
    CHECK(QFileInfo(dir.filePath(QStringLiteral("report.pdf"))).size() > 10'000);
}

TEST_CASE("tcpscope-cli diagram and report draw headless with the same code", "[export][cli]") {
    QTemporaryDir dir;
    const QString sample = QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap");
    const QString strace = QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.strace");
    const QString svg = dir.filePath(QStringLiteral("sequence.svg"));
    const QString cli = cliPath();
    int exitCode = -1;
    QString output = runTool(cli,
                             {QStringLiteral("diagram"), sample, QStringLiteral("--flow"), QStringLiteral("0"),
                              QStringLiteral("--proxy-flow"), QStringLiteral("1"), QStringLiteral("--strace"), strace,
                              QStringLiteral("--time-range"), QStringLiteral("0:0.2"), QStringLiteral("--out"), svg},
                             &exitCode);
    INFO(output.toStdString());
    REQUIRE(exitCode == 0);
    CHECK(output.contains(QStringLiteral("wrote ")));
    CHECK(svgText(svg).contains(QStringLiteral("strace confirms")));

    output = runTool(cli,
                     {QStringLiteral("report"), sample, QStringLiteral("--strace"), strace, QStringLiteral("--out"),
                      dir.filePath(QStringLiteral("report"))},
                     &exitCode);
    REQUIRE(exitCode == 0);
    CHECK(QFileInfo::exists(dir.filePath(QStringLiteral("report/report.md"))));

    output = runTool(cli, {QStringLiteral("diagram"), sample, QStringLiteral("--flow"),
                                                    QStringLiteral("0"), QStringLiteral("--out"),
                                                    dir.filePath(QStringLiteral("x.gif"))},
                     &exitCode);
    CHECK(exitCode == 2);
    CHECK(output.contains(QStringLiteral("must end in .svg, .png or .pdf")));
}

TEST_CASE("File > Export diagram writes the view that is shown", "[export][window]") {
    QTemporaryDir dir;
    TimelineView timeline;
    SequenceView sequence;
    timeline.resize(1000, 400);
    sequence.resize(1000, 700);
    CHECK(exportShownView(dir.filePath(QStringLiteral("empty.svg")), 1, timeline, sequence, true)
              .contains(QStringLiteral("no sequence diagram is shown")));
    timeline.setResults(proxyResults());
    sequence.showProxy(proxyResults(), 0, 1);
    const QString svg = dir.filePath(QStringLiteral("shown.svg"));
    REQUIRE(exportShownView(svg, 1, timeline, sequence, true).isEmpty());
    CHECK(svgText(svg).contains(QStringLiteral("Sequence diagram of flows #0 and #1")));
    for (const bool sequenceShown : {true, false}) {
        const QString pdf = dir.filePath(sequenceShown ? QStringLiteral("shown.pdf") : QStringLiteral("timeline.pdf"));
        REQUIRE(exportShownView(pdf, 1, timeline, sequence, sequenceShown).isEmpty());
        pdf_print::checkPrintsLegibly(pdf);
    }
    const QString png = dir.filePath(QStringLiteral("timeline.png"));
    REQUIRE(exportShownView(png, 2, timeline, sequence, false).isEmpty());
    const QImage image(png);
    CHECK(image.width() == 2000);
}

TEST_CASE("File > Export diagram of a timeline too tall for a picture writes the lanes from the top of the view",
          "[export][window]") {
    // 300 connections, one lane each: taller than a picture should be. A capture of 100,000 unfolded
    // was a page of 4.5 million pixels, 170 MB of SVG written in 94 s on the GUI thread.
    QTemporaryDir dir;
    TimelineView timeline;
    SequenceView sequence;
    timeline.resize(1000, 400);
    timeline.setResults(
        AnalysisResults::complete(analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/http-tw-reuse.pcap"}, {})));
    timeline.setGrouping(LaneGrouping::Connection);
    const double allPx = timeline.renderSize(1000).height();
    REQUIRE(allPx > kMaxShownTimelinePx);
    timeline.scrollToConnection(150);
    const QString png = dir.filePath(QStringLiteral("tall.png"));
    REQUIRE(exportShownView(png, 1, timeline, sequence, false).isEmpty());
    const QImage image(png);
    CHECK(image.height() == static_cast<int>(kMaxShownTimelinePx + exportHeadingHeight()));
    const QString svg = dir.filePath(QStringLiteral("tall.svg"));
    REQUIRE(exportShownView(svg, 1, timeline, sequence, false).isEmpty());
    const QString text = svgText(svg);
    CHECK(text.contains(QStringLiteral("the lanes from the top of the view, 4,000 of")));
    // From the top of the view: the lane scrolled to is drawn, the first one is not.
    CHECK(text.contains(QStringLiteral("#150")));
    CHECK_FALSE(text.contains(QStringLiteral("#0 ")));
}

TEST_CASE("the export dialog adds the chosen type's extension to a name typed without one", "[export]") {
    using tcpscope::ui::withFilterExtension;
    CHECK(withFilterExtension(QStringLiteral("/tmp/stall"), QStringLiteral("PDF document (*.pdf)")) ==
          QStringLiteral("/tmp/stall.pdf"));
    CHECK(withFilterExtension(QStringLiteral("/tmp/stall"), QStringLiteral("PNG image at 2x (*.png)")) ==
          QStringLiteral("/tmp/stall.png"));
    // A name that has one keeps it, whatever the type chosen.
    CHECK(withFilterExtension(QStringLiteral("/tmp/stall.svg"), QStringLiteral("PDF document (*.pdf)")) ==
          QStringLiteral("/tmp/stall.svg"));
    CHECK(withFilterExtension(QStringLiteral("/tmp/v1.2"), QStringLiteral("SVG image (*.svg)")) ==
          QStringLiteral("/tmp/v1.2.svg"));
}
