#include "pictures/headless_export.hpp"

#include <fmt/format.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "finding/wording.hpp"
#include "pictures/handshake_picture.hpp"
#include "pictures/port_pool_picture.hpp"
#include "pictures/report_pdf.hpp"
#include "pictures/view_export.hpp"
#include "present/handshake_retries.hpp"
#include "present/port_pool_marks.hpp"
#include "report/incident_report.hpp"
#include "report/report_notes.hpp"
#include "sequence/sequence_syscalls.hpp"

namespace tcpscope::ui {

namespace {

// Arguments of the QApplication: they must outlive it.
int gArgc = 1;
char gName[] = "tcpscope-cli";
char* gArgv[] = {gName, nullptr};

constexpr size_t kReportSequenceArrows = 60;
constexpr size_t kMinReportSequenceArrows = 20;
constexpr double kReportWidthPx = 1280;

// A sequence diagram laid out for an export: syscalls of the traced processes beside the lifelines.
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
    view.setFailedConnectLanesShown(false);  // the port-pool picture draws its own, for its cause's server
    view.setPalette(documentPalette());
    view.resize(static_cast<int>(widthPx), 600);
    view.setResults(results);
    view.setNotePins(exportNotePins(results));
}

// Tallest picture of a report, heading included, at 1x: a page a person can read and print.
constexpr double kMaxPictureHeightPx = 2000;

// `range` of `view` as a page no taller than kMaxPictureHeightPx: as the view opens it (one lane per
// connection, or the population view of a capture of many), else in the population view, else cut
// at the bottom.
ExportPage boundedTimelinePage(TimelineView& view, TimeRange range, const QString& title, double widthPx) {
    const double lanesPx = kMaxPictureHeightPx - exportHeadingHeight();
    ExportPage page = timelineExportPage(view, range, widthPx);
    if (page.size.height() > lanesPx) {
        view.setGrouping(LaneGrouping::ClientToServer);
        view.setAllGroupsCollapsed(true);
        page = timelineExportPage(view, range, widthPx);
    }
    page.size.setHeight(std::min(page.size.height(), lanesPx));
    page.title = title;
    return page;
}

// What a bounded timeline shows: its lanes, and what it left out.
std::string timelineNote(const TimelineView& view, double widthPx) {
    const TimelineModel& model = view.model();
    if (model.grouping() == LaneGrouping::Connection) {
        return "one lane per connection; stalls shaded and labelled with their cause.";
    }
    const double lanesPx = kMaxPictureHeightPx - exportHeadingHeight();
    const bool cut = view.renderSize(widthPx).height() > lanesPx;
    return fmt::format(
        "{} connections in {} (client host → server endpoint); a folded population is one strip of how many "
        "of its connections wait on a SYN, are open, stalled or in TIME_WAIT{}{}.",
        model.connections().size(), plural(model.groups().size(), "population", "populations"),
        model.populationRows().empty() ? ""
        : model.populationRows().back().row == PopulationRow::SynWaits
            ? ", under capture-wide rows of new connections per second, TIME_WAIT and ports in use against their "
              "limit, and handshakes waiting"
            : ", under capture-wide rows of new connections per second, and TIME_WAIT and ports in use against their "
              "limit",
        cut ? "; the lanes below the picture's 2,000 px are left out" : "");
}

// `rows` of a sequence diagram in parts cut between packets, each a whole diagram (heading, lifelines,
// legend) no taller than `maxHeightPx` where one packet's row allows: on paper, a part fits a page.
std::vector<ExportPage> sequenceParts(const SequenceLayout& layout, SequenceRowRange rows,
                                      const SequencePaintOptions& options, double maxHeightPx) {
    std::vector<ExportPage> parts;
    const auto height = [&](size_t first, size_t end) {
        return exportPageSize(sequenceExportPage(layout, {first, end}, options)).height();
    };
    for (size_t first = rows.first; first < rows.end;) {
        size_t last = first + 1;
        while (last < rows.end && height(first, last + 1) <= maxHeightPx) {
            ++last;
        }
        parts.push_back(sequenceExportPage(layout, {first, last}, options));
        first = last;
    }
    return parts;
}

// A picture of the report, and what its note says.
struct ReportPicture {
    ExportPage page;
    std::string note;
    size_t sequenceArrows = 0;  ///< a sequence diagram: the packets it draws
    /// On paper, where it can be cut between packets: the picture in parts that each fit a page.
    std::vector<ExportPage> parts = {};
};

// `page`, keeping `view` (what its render function draws with) alive as long as the page.
ExportPage keepingAlive(ExportPage page, std::shared_ptr<const TimelineView> view) {
    page.render = [view = std::move(view), render = std::move(page.render)](QPainter& painter, const QRectF& target) {
        render(painter, target);
    };
    return page;
}

// The timeline of the whole capture, `widthPx` wide.
ReportPicture overviewPicture(const ResultsPtr& results, double widthPx) {
    auto view = std::make_shared<TimelineView>();
    prepareTimeline(*view, results, widthPx);
    const TimeRange capture{results->firstTsNs(), results->lastTsNs()};
    const ExportPage page = boundedTimelinePage(*view, capture, QStringLiteral("Timeline of the capture"), widthPx);
    return {keepingAlive(page, view), timelineNote(*view, widthPx)};
}

// The picture of `section`, `widthPx` wide: a sequence diagram of `arrows` packets (0: as many of
// kReportSequenceArrows as fit kMaxPictureHeightPx), delayed handshakes, the port pool or a timeline.
// Nullopt: the section has no picture of its own.
std::optional<ReportPicture> sectionPicture(const ResultsPtr& results, const ReportSection& section, double widthPx,
                                            size_t arrows) {
    const CaptureAnalysis& analysis = *results->analysis();
    if (section.picture == SectionPicture::Sequence && !section.sameSequenceAs) {
        const SequenceLayout layout = exportLayout(results, section.sequence.flows, widthPx);
        const auto sequencePage = [&](size_t count) {
            const SequenceWindow window = reportSequenceWindow(*layout.diagram(), count);
            return sequenceExportPage(layout, {window.first, window.first + window.count},
                                      exportSequenceOptions(results));
        };
        if (arrows > 0) {
            const SequenceWindow window = reportSequenceWindow(*layout.diagram(), arrows);
            return ReportPicture{sequencePage(arrows),
                                 {},
                                 arrows,
                                 sequenceParts(layout, {window.first, window.first + window.count},
                                               exportSequenceOptions(results), kReportPrintPagePx)};
        }
        // Fewer arrows where system calls beside the lifelines make the rows taller.
        arrows = kReportSequenceArrows;
        ExportPage page = sequencePage(arrows);
        while (exportPageSize(page).height() > kMaxPictureHeightPx && arrows > kMinReportSequenceArrows) {
            arrows -= 5;
            page = sequencePage(arrows);
        }
        return ReportPicture{page, {}, arrows};
    }
    if (section.picture == SectionPicture::Handshakes) {
        const HandshakeRetries retries = handshakeRetries(analysis, section.group.findings, kMaxHandshakePictureRows);
        const ExportPage page = handshakeExportPage(
            retries, QString::fromStdString("Delayed handshakes: " + sectionTitle(analysis, section.group)),
            exportSubtitle(*results, {retries.startNs, retries.endNs}), widthPx);
        return ReportPicture{page, handshakeRetriesNote(retries)};
    }
    if (section.picture == SectionPicture::PortPool) {
        // The capture-wide rows over the cause's time, the pause shaded, the failed connect()s in a lane.
        auto view = std::make_shared<TimelineView>();
        prepareTimeline(*view, results, widthPx);
        const PortPoolMarks marks =
            portPoolMarks(analysis, section.group.findings, view->model().population(), results->alignment());
        if (std::optional<TimelineLane> lane = failedConnectsLane(marks)) {
            view->setExtraLanes({std::move(*lane)});
        }
        const TimeRange range{section.range.startNs, section.range.endNs};
        ExportPage page = boundedTimelinePage(
            *view, range, QString::fromStdString("Ports and TIME_WAIT: " + sectionTitle(analysis, section.group)),
            widthPx);
        addPortPoolOverlay(page, *view, range, marks);
        return ReportPicture{keepingAlive(page, view), portPoolNote(marks)};
    }
    if (section.picture == SectionPicture::Timeline) {
        auto view = std::make_shared<TimelineView>();
        prepareTimeline(*view, results, widthPx);
        const QString title = QStringLiteral("Timeline of %1")
                                  .arg(QString::fromStdString(std::string(findingKindTitle(section.group.kind))));
        const TimeRange range{section.range.startNs, section.range.endNs};
        // The page first: it may group the lanes, which the note tells.
        const ExportPage page = boundedTimelinePage(*view, range, title, widthPx);
        return ReportPicture{keepingAlive(page, view), timelineNote(*view, widthPx)};
    }
    return std::nullopt;
}

// The file name's part for a section's picture: cause-1-sequence.png.
QString pictureKind(SectionPicture picture) {
    switch (picture) {
        case SectionPicture::Sequence: return QStringLiteral("sequence");
        case SectionPicture::Handshakes: return QStringLiteral("handshakes");
        case SectionPicture::PortPool: return QStringLiteral("ports");
        case SectionPicture::Timeline: return QStringLiteral("timeline");
        case SectionPicture::None: break;
    }
    return QStringLiteral("picture");
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
    const TimeRange range{
        request.fromSeconds ? origin + static_cast<int64_t>(*request.fromSeconds * 1e9) : origin,
        request.toSeconds ? origin + static_cast<int64_t>(*request.toSeconds * 1e9) : results->lastTsNs()};
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
    const double widthPx = request.widthPx > 0            ? request.widthPx
                           : *format == ExportFormat::Pdf ? std::floor(pdfPrintableSizePx().width())
                                                          : kReportWidthPx;
    const SequenceLayout layout = exportLayout(results, legs, widthPx);
    if (sequence) {
        const SequenceDiagram& diagram = *layout.diagram();
        SequenceRowRange rows;
        if (request.fromSeconds || request.toSeconds) {
            rows.first = diagram.firstArrowAtOrAfter(range.startNs);
            rows.end = diagram.firstArrowAtOrAfter(range.endNs + 1);
        } else {
            const SequenceWindow window = sequenceWindow(diagram, request.maxArrows);
            rows = {window.first, window.first + window.count};
        }
        rows.end = std::min(rows.end, rows.first + request.maxArrows);
        if (rows.empty()) {
            outcome.error =
                QStringLiteral("%1: flow %2 has no packets in the time range").arg(request.out).arg(request.flow);
            return outcome;
        }
        if (*format == ExportFormat::Pdf) {
            // On paper, parts cut between packets that each fit a page, rather than a page cut through labels.
            for (ExportPage& part :
                 sequenceParts(layout, rows, exportSequenceOptions(results), pdfPrintableSizePx().height())) {
                pages.push_back(std::move(part));
            }
        } else {
            pages.push_back(sequenceExportPage(layout, rows, exportSequenceOptions(results)));
        }
        described << QStringLiteral("%1, packets %2 to %3 of %4")
                         .arg(sequenceTitle(diagram).toLower())
                         .arg(rows.first + 1)
                         .arg(rows.end)
                         .arg(diagram.arrows().size());
    }
    TimelineView view;
    if (timeline) {
        prepareTimeline(view, results, widthPx);
        pages.push_back(timelineExportPage(view, range, widthPx));
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
    input.incidents = &results->incidents();
    input.points = results->points();
    input.sequenceArrows = kReportSequenceArrows;
    // The PDF's pictures, drawn as vectors at the width of its text (report_pdf), by the names the print HTML uses.
    std::vector<std::pair<QString, std::vector<ExportPage>>> printPictures;
    const auto picture = [&](const ReportPicture& drawn, const ReportPicture& printed, const QString& baseName) {
        ReportImage image;
        if (outcome.error = writeBoth(drawn.page, directory, baseName, outcome.written); !outcome.error.isEmpty()) {
            return image;
        }
        const QString png = baseName + QStringLiteral(".png");
        QFile file(QDir(directory).filePath(png));
        if (!file.open(QIODevice::ReadOnly)) {
            outcome.error = QStringLiteral("%1: cannot read the picture back").arg(file.fileName());
            return image;
        }
        const QByteArray bytes = file.readAll();
        printPictures.emplace_back(png, printed.parts.empty() ? std::vector<ExportPage>{printed.page} : printed.parts);
        image = {drawn.page.title.toStdString(), png.toStdString(), (baseName + QStringLiteral(".svg")).toStdString(),
                 "data:image/png;base64," + bytes.toBase64().toStdString(), drawn.note};
        return image;
    };

    input.timeline = picture(overviewPicture(results, kReportWidthPx), overviewPicture(results, kReportPrintWidthPx),
                             QStringLiteral("timeline"));
    if (!outcome.error.isEmpty()) {
        return outcome;
    }

    // With capture points a proxy's two addresses are one host: its causes show all three lifelines.
    const PointSightings* sightings = results->sightings();
    input.plan = planReport(analysis, results->incidents(), sightings != nullptr ? sightings->sameHost() : SameHost());
    const std::vector<ReportSection>& sections = input.plan->sections;
    for (size_t index = 0; index < sections.size() && index < kMaxReportSections; ++index) {
        const std::optional<ReportPicture> drawn = sectionPicture(results, sections[index], kReportWidthPx, 0);
        if (!drawn) {
            input.sections.emplace_back();
            continue;
        }
        // On paper the same packets, laid out at the width of the text.
        const std::optional<ReportPicture> printed =
            sectionPicture(results, sections[index], kReportPrintWidthPx, drawn->sequenceArrows);
        const QString baseName = QStringLiteral("cause-%1-%2").arg(index + 1).arg(pictureKind(sections[index].picture));
        input.sections.push_back(picture(*drawn, *printed, baseName));
        input.sections.back().sequenceArrows = drawn->sequenceArrows;
        if (!outcome.error.isEmpty()) {
            return outcome;
        }
    }

    for (const QString& name : {QStringLiteral("report.md"), QStringLiteral("report.html")}) {
        const QString path = QDir(directory).filePath(name);
        std::ofstream out(path.toStdString(), std::ios::binary);
        if (name.endsWith(QStringLiteral(".md"))) {
            writeIncidentMarkdown(out, analysis, input);
        } else {
            writeIncidentHtml(out, analysis, input);
        }
        out.close();
        if (!out) {
            outcome.error = QStringLiteral("%1: cannot write the report").arg(path);
            return outcome;
        }
        outcome.written << path;
    }
    std::ostringstream print;
    HtmlReportOptions printOptions;
    printOptions.forPrint = true;
    printOptions.printWidthPx = kReportPrintWidthPx;
    writeIncidentHtml(print, analysis, input, printOptions);
    const QString pdf = QDir(directory).filePath(QStringLiteral("report.pdf"));
    if (outcome.error = writeReportPdf(pdf, QStringLiteral("Incident report: %1").arg(captureName(*results)),
                                       print.str(), printPictures);
        !outcome.error.isEmpty()) {
        return outcome;
    }
    outcome.written << pdf;
    const size_t incidents = results->incidents().size();
    outcome.description =
        QStringLiteral("incident report of %1, %2 (%3 pictures)")
            .arg(incidents == 1 ? QStringLiteral("1 incident") : QStringLiteral("%1 incidents").arg(incidents))
            .arg(sections.size() == 1 ? QStringLiteral("1 cause") : QStringLiteral("%1 causes").arg(sections.size()))
            .arg(printPictures.size());
    return outcome;
}

}  // namespace tcpscope::ui
