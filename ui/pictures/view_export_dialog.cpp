#include "pictures/view_export_dialog.hpp"

#include <QFileDialog>
#include <QMessageBox>
#include <QRegularExpression>
#include <functional>

#include "charts/chart_view.hpp"
#include "pictures/view_export.hpp"

namespace tcpscope::ui {

QString exportShownView(const QString& path, double scale, const TimelineView& timeline, const SequenceView& sequence,
                        bool sequenceShown) {
    const std::optional<ExportFormat> format = exportFormatOf(path);
    if (!format) {
        return QStringLiteral("%1: the file name must end in .svg, .png or .pdf").arg(path);
    }
    if (sequenceShown) {
        if (sequence.sequenceLayout().isEmpty()) {
            return QStringLiteral("%1: no sequence diagram is shown").arg(path);
        }
        SequencePaintOptions options = sequence.paintOptions();
        options.legend = true;
        return exportDiagrams({sequenceExportPage(sequence.sequenceLayout(), sequence.visibleRows(), options)}, path,
                              *format, scale, options.palette);
    }
    if (!timeline.results()) {
        return QStringLiteral("%1: no timeline is shown").arg(path);
    }
    return exportDiagrams({shownTimelineExportPage(timeline, timeline.visibleRange(), std::max(800, timeline.width()))},
                          path, *format, scale, timeline.palette());
}

QString exportChart(const QString& path, double scale, const ChartView& chart, const AnalysisResults* results) {
    const std::optional<ExportFormat> format = exportFormatOf(path);
    if (!format) {
        return QStringLiteral("%1: the file name must end in .svg, .png or .pdf").arg(path);
    }
    return exportDiagrams({chartExportPage(chart, results)}, path, *format, scale, chart.palette());
}

// A name typed without .svg, .png or .pdf gets the extension of the type chosen in the dialog
// (Qt's own dialog adds none on every platform).
QString withFilterExtension(const QString& path, const QString& filter) {
    if (exportFormatOf(path)) {
        return path;
    }
    static const QRegularExpression extension(QStringLiteral("\\*(\\.[a-z]+)"));
    const QRegularExpressionMatch match = extension.match(filter);
    return match.hasMatch() ? path + match.captured(1) : path;
}

namespace {

// Asks for the file of an export (SVG, PDF, PNG, PNG at 2x), writes it with `write(path, scale)`
// and shows its error, if any.
void runExportDialog(QWidget* parent, const QString& suggestedName,
                     const std::function<QString(const QString&, double)>& write) {
    const QString png2x = QObject::tr("PNG image at 2x (*.png)");
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export diagram"), suggestedName,
        QObject::tr("SVG image (*.svg);;PDF document (*.pdf);;PNG image (*.png);;") + png2x, &filter);
    if (path.isEmpty()) {
        return;
    }
    const QString error = write(withFilterExtension(path, filter), filter == png2x ? 2.0 : 1.0);
    if (!error.isEmpty()) {
        QMessageBox::warning(parent, QObject::tr("Export diagram"), error);
    }
}

}  // namespace

void exportShownViewDialog(QWidget* parent, const TimelineView& timeline, const SequenceView& sequence,
                           bool sequenceShown) {
    runExportDialog(parent, sequenceShown ? QStringLiteral("sequence.svg") : QStringLiteral("timeline.svg"),
                    [&](const QString& path, double scale) {
                        return exportShownView(path, scale, timeline, sequence, sequenceShown);
                    });
}

void exportChartDialog(QWidget* parent, const ChartView& chart, const AnalysisResults* results) {
    runExportDialog(parent, QStringLiteral("chart.svg"), [&](const QString& path, double scale) {
        return exportChart(path, scale, chart, results);
    });
}

}  // namespace tcpscope::ui
