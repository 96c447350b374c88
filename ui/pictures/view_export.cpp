#include "pictures/view_export.hpp"

#include "charts/chart_view.hpp"

#include <QFileInfo>
#include <QLocale>
#include <QStringList>
#include <algorithm>

#include "present/value_format.hpp"

namespace tcpscope::ui {

namespace {

QString relativeSeconds(int64_t tsNs, int64_t originNs) {
    return QStringLiteral("%1%2 s").arg(tsNs >= originNs ? QStringLiteral("+") : QString()).arg(
        static_cast<double>(tsNs - originNs) / 1e9, 0, 'f', 3);
}

}  // namespace

QString captureName(const AnalysisResults& results) {
    if (results.analysis() == nullptr || results.analysis()->inputs.empty()) {
        return QStringLiteral("capture");
    }
    QStringList names;
    for (const InputSummary& input : results.analysis()->inputs) {
        names << (input.path == "-" ? QStringLiteral("standard input")
                                    : QFileInfo(QString::fromStdString(input.path)).fileName());
    }
    return names.join(QStringLiteral(" + "));
}

QString exportSubtitle(const AnalysisResults& results, TimeRange range) {
    const int64_t origin = results.firstTsNs();
    return QStringLiteral("%1 \u00b7 %2 to %3 UTC (%4 to %5)")
        .arg(captureName(results), QString::fromStdString(utcTimestamp(results.timeOrigin(), range.startNs)),
             QString::fromStdString(utcTimestamp(results.timeOrigin(), range.endNs)).section(QLatin1Char(' '), 1),
             relativeSeconds(range.startNs, origin), relativeSeconds(range.endNs, origin));
}

QString sequenceTitle(const SequenceDiagram& diagram) {
    const std::vector<uint32_t>& flows = diagram.connections();
    return diagram.isProxy()
               ? QStringLiteral("Sequence diagram of flows #%1 and #%2 (client, proxy, server)").arg(flows[0]).arg(flows[1])
               : QStringLiteral("Sequence diagram of flow #%1 (client, server)").arg(flows.front());
}

ExportPage sequenceExportPage(const SequenceLayout& layout, SequenceRowRange rows, const SequencePaintOptions& options) {
    ExportPage page;
    if (layout.isEmpty()) {
        return page;
    }
    rows.end = std::min(rows.end, layout.rowCount());
    const auto& arrows = layout.diagram()->arrows();
    page.title = sequenceTitle(*layout.diagram());
    if (!rows.empty()) {
        page.subtitle = exportSubtitle(*layout.results(), {arrows[rows.first].tsNs, arrows[rows.end - 1].tsNs});
        if (rows.first > 0 || rows.end < arrows.size()) {
            page.subtitle += QStringLiteral(" \u00b7 packets %1 to %2 of %3").arg(rows.first + 1).arg(rows.end).arg(
                arrows.size());
        }
    }
    page.size = sequenceRenderSize(layout, rows, options);
    page.render = [layout, rows, options](QPainter& painter, const QRectF& target) {
        renderSequence(painter, target, layout, rows, options);
    };
    return page;
}

ExportPage chartExportPage(const ChartView& chart, const AnalysisResults* results) {
    ExportPage page;
    page.title = chart.title();
    if (results != nullptr) {
        const auto [fromS, toS] = chart.visibleXRange();
        const auto ns = [&chart](double seconds) { return chart.originTsNs() + static_cast<int64_t>(seconds * 1e9); };
        page.subtitle = exportSubtitle(*results, {ns(fromS), ns(toS)});
    }
    page.size = QSizeF(std::max(800, chart.width()), std::max(500, chart.height()));
    page.render = [&chart](QPainter& painter, const QRectF& target) { chart.render(painter, target); };
    return page;
}

ExportPage timelineExportPage(const TimelineView& view, TimeRange range, double widthPx) {
    ExportPage page;
    page.title = QStringLiteral("Timeline");
    if (view.results()) {
        page.subtitle = exportSubtitle(*view.results(), range);
    }
    TimelineRenderOptions options;
    options.legend = true;
    options.scrollYPx = 0;
    page.size = view.renderSize(widthPx, options);
    page.render = [&view, range, options](QPainter& painter, const QRectF& target) {
        view.render(painter, target, range, options);
    };
    return page;
}

ExportPage shownTimelineExportPage(const TimelineView& view, TimeRange range, double widthPx) {
    ExportPage page = timelineExportPage(view, range, widthPx);
    const double allPx = page.size.height();
    if (allPx <= kMaxShownTimelinePx) {
        return page;
    }
    // Too tall for a picture (a capture of 100,000 connections unfolded is millions of pixels, a
    // file of hundreds of MB written for minutes): the lanes from the top of the view down.
    TimelineRenderOptions options;
    options.legend = true;
    options.scrollYPx = -1;
    page.size.setHeight(kMaxShownTimelinePx);
    page.render = [&view, range, options](QPainter& painter, const QRectF& target) {
        view.render(painter, target, range, options);
    };
    page.subtitle += QStringLiteral(" · the lanes from the top of the view, %1 of %2 px")
                         .arg(QLocale(QLocale::English).toString(static_cast<qint64>(kMaxShownTimelinePx)),
                              QLocale(QLocale::English).toString(static_cast<qint64>(allPx)));
    return page;
}

}  // namespace tcpscope::ui
