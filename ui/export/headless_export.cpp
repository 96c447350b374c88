#include "export/headless_export.hpp"

#include <QDir>
#include <cstdlib>
#include <fstream>

#include "export/view_export.hpp"
#include "report/incident_report.hpp"
#include "report/report_notes.hpp"
#include "views/syscall_lanes.hpp"

namespace tcpscope::ui {

namespace {

// Arguments of the QApplication: they must outlive it.
int gArgc = 1;
char gName[] = "tcpscope-cli";
char* gArgv[] = {gName, nullptr};

constexpr size_t kReportLadderArrows = 60;
constexpr double kReportWidthPx = 1280;

// A ladder laid out for an export: syscalls of the traced processes beside the lifelines.
SequenceLayout exportLayout(const ResultsPtr& results, const std::vector<uint32_t>& flows, double widthPx) {
    SequenceScale scale;
    scale.width = widthPx;
    SequenceLayout layout = flows.size() == 2 ? SequenceLayout::ofProxy(results, flows[0], flows[1], scale)
                                              : SequenceLayout::ofConnection(results, flows.front(), scale);
    if (!layout.isEmpty() && results->alignment() != nullptr) {
        layout.setSyscalls(sequenceSyscalls(*results->alignment(), *layout.diagram()));
    }
    return layout;
}

// The notes of the capture (its sidecar and pcapng comments), drawn as the GUI draws them.
NotePins exportNotePins(const ResultsPtr& results) {
    const CaptureAnalysis* analysis = results ? results->analysis() : nullptr;
    const std::optional<CaptureNotes> notes = analysis != nullptr ? reportNotes(*analysis) : std::nullopt;
    return notes ? placeSyscallPins(makeNotePins(notes->notes), results->alignment()) : NotePins();
}

SequencePaintOptions exportSequenceOptions(const ResultsPtr& results) {
    SequencePaintOptions options;
    options.palette = documentPalette();
    options.legend = true;
    options.notes = exportNotePins(results);
    return options;
}

// The timeline widget an export draws with: never shown, lanes built at once, document colours.
void prepareTimeline(TimelineView& view, const ResultsPtr& results, double widthPx) {
    view.setBackgroundBuildThreshold(SIZE_MAX);
    view.setPalette(documentPalette());
    view.resize(static_cast<int>(widthPx), 600);
    view.setResults(results);
    view.setNotePins(exportNotePins(results));
}

QString flowsName(const std::vector<uint32_t>& flows) {
    QStringList ids;
    for (const uint32_t flow : flows) {
        ids << QString::number(flow);
    }
    return ids.join(QLatin1Char('-'));
}

QString writeBoth(const ExportPage& page, const QString& directory, const QString& baseName, QStringList& written) {
    for (const auto& [suffix, format] :
         {std::pair{QStringLiteral(".png"), ExportFormat::Png}, std::pair{QStringLiteral(".svg"), ExportFormat::Svg}}) {
        const QString path = QDir(directory).filePath(baseName + suffix);
        if (QString error = exportDiagrams({page}, path, format, 1.0, documentPalette()); !error.isEmpty()) {
            return error;
        }
        written << path;
    }
    return {};
}

}  // namespace

HeadlessGui::HeadlessGui() {
    if (QCoreApplication::instance() != nullptr) {
        return;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        QByteArray pattern = QDir::tempPath().toLocal8Bit() + "/tcpscope-runtime-XXXXXX";
        if (::mkdtemp(pattern.data()) != nullptr) {  // mode 0700, as Qt wants a runtime directory
            runtimeDir_ = pattern;
            qputenv("XDG_RUNTIME_DIR", runtimeDir_);
        }
    }
    app_ = std::make_unique<QApplication>(gArgc, gArgv);
}

HeadlessGui::~HeadlessGui() {
    app_.reset();
    if (!runtimeDir_.isEmpty()) {
        QDir(QString::fromLocal8Bit(runtimeDir_)).removeRecursively();
        qunsetenv("XDG_RUNTIME_DIR");
    }
}

ExportOutcome exportDiagramFile(const ResultsPtr& results, const DiagramRequest& request) {
    ExportOutcome outcome;
    const std::optional<ExportFormat> format = exportFormatOf(request.out);
    if (!format) {
        outcome.error = QStringLiteral("%1: the file name must end in .svg, .png or .pdf").arg(request.out);
        return outcome;
    }
    if (!results || results->analysis() == nullptr) {
        outcome.error = QStringLiteral("%1: no analysis to draw").arg(request.out);
        return outcome;
    }
    const size_t flows = results->connections().size();
    for (const uint32_t flow : {request.flow, request.proxyFlow.value_or(request.flow)}) {
        if (flow >= flows) {
            outcome.error = QStringLiteral("%1: no flow %2 (the capture has %3)").arg(request.out).arg(flow).arg(flows);
            return outcome;
        }
    }
    const int64_t origin = results->firstTsNs();
    const TimeRange range{request.fromSeconds ? origin + static_cast<int64_t>(*request.fromSeconds * 1e9) : origin,
                          request.toSeconds ? origin + static_cast<int64_t>(*request.toSeconds * 1e9)
                                            : results->lastTsNs()};
    if (range.endNs < range.startNs) {
        outcome.error = QStringLiteral("%1: the time range ends before it starts").arg(request.out);
        return outcome;
    }

    std::vector<ExportPage> pages;
    QStringList described;
    const bool sequence = request.view != DiagramRequest::View::Timeline;
    const bool timeline = request.view != DiagramRequest::View::Sequence;
    std::vector<uint32_t> legs = {request.flow};
    if (request.proxyFlow && *request.proxyFlow != request.flow) {
        legs.push_back(*request.proxyFlow);
    }
    const SequenceLayout layout = exportLayout(results, legs, request.widthPx);
    if (sequence) {
        const SequenceDiagram& diagram = *layout.diagram();
        SequenceRowRange rows;
        if (request.fromSeconds || request.toSeconds) {
            rows.first = diagram.firstArrowAtOrAfter(range.startNs);
            rows.end = diagram.firstArrowAtOrAfter(range.endNs + 1);
        } else {
            const LadderWindow window = ladderWindow(diagram, request.maxArrows);
            rows = {window.first, window.first + window.count};
        }
        rows.end = std::min(rows.end, rows.first + request.maxArrows);
        if (rows.empty()) {
            outcome.error = QStringLiteral("%1: flow %2 has no packets in the time range").arg(request.out).arg(request.flow);
            return outcome;
        }
        pages.push_back(sequenceExportPage(layout, rows, exportSequenceOptions(results)));
        described << QStringLiteral("%1, packets %2 to %3 of %4")
                         .arg(sequenceTitle(diagram).toLower())
                         .arg(rows.first + 1)
                         .arg(rows.end)
                         .arg(diagram.arrows().size());
    }
    TimelineView view;
    if (timeline) {
        prepareTimeline(view, results, request.widthPx);
        pages.push_back(timelineExportPage(view, range, request.widthPx));
        described << QStringLiteral("timeline of %1 lanes").arg(view.model().rows().size());
    }
    outcome.error = exportDiagrams(pages, request.out, *format, request.scale, documentPalette());
    if (outcome.error.isEmpty()) {
        outcome.written << request.out;
        outcome.description = described.join(QStringLiteral("; "));
    }
    return outcome;
}

ExportOutcome exportIncidentReport(const ResultsPtr& results, const QString& directory) {
    ExportOutcome outcome;
    if (!results || results->analysis() == nullptr) {
        outcome.error = QStringLiteral("%1: no analysis to report").arg(directory);
        return outcome;
    }
    if (!QDir().mkpath(directory)) {
        outcome.error = QStringLiteral("%1: cannot make the directory").arg(directory);
        return outcome;
    }
    const CaptureAnalysis& analysis = *results->analysis();
    IncidentReportInput input;
    input.captureName = captureName(*results).toStdString();
    input.alignment = results->alignment();
    input.ladderArrows = kReportLadderArrows;

    TimelineView view;
    prepareTimeline(view, results, kReportWidthPx);
    const ExportPage timelinePage =
        timelineExportPage(view, {results->firstTsNs(), results->lastTsNs()}, kReportWidthPx);
    if (outcome.error = writeBoth(timelinePage, directory, QStringLiteral("timeline"), outcome.written);
        !outcome.error.isEmpty()) {
        return outcome;
    }
    input.timeline = {"Timeline of every connection", "timeline.png", "timeline.svg"};

    for (const ReportLadder& ladder : reportLadders(analysis)) {
        const SequenceLayout layout = exportLayout(results, ladder.flows, kReportWidthPx);
        const LadderWindow window = ladderWindow(*layout.diagram(), kReportLadderArrows);
        const ExportPage page =
            sequenceExportPage(layout, {window.first, window.first + window.count}, exportSequenceOptions(results));
        const QString baseName = QStringLiteral("flow-%1-sequence").arg(flowsName(ladder.flows));
        if (outcome.error = writeBoth(page, directory, baseName, outcome.written); !outcome.error.isEmpty()) {
            return outcome;
        }
        input.ladders.push_back(
            {page.title.toStdString(), (baseName + QStringLiteral(".png")).toStdString(),
             (baseName + QStringLiteral(".svg")).toStdString()});
    }

    for (const bool html : {false, true}) {
        const QString path = QDir(directory).filePath(html ? QStringLiteral("report.html") : QStringLiteral("report.md"));
        std::ofstream out(path.toStdString());
        if (html) {
            writeIncidentHtml(out, analysis, input);
        } else {
            writeIncidentMarkdown(out, analysis, input);
        }
        out.close();
        if (!out) {
            outcome.error = QStringLiteral("%1: cannot write the report").arg(path);
            return outcome;
        }
        outcome.written << path;
    }
    outcome.description = QStringLiteral("incident report with the timeline and %1 sequence diagram%2")
                              .arg(input.ladders.size())
                              .arg(input.ladders.size() == 1 ? QString() : QStringLiteral("s"));
    return outcome;
}

}  // namespace tcpscope::ui
