#pragma once
#include <QChartView>
#include <QString>
#include <cstdint>
#include <utility>
#include <vector>

#include "charts/chart_colours.hpp"
#include "series/chart_point.hpp"
#include "series/interval_totals.hpp"
#include "series/stall_marks.hpp"

class QAreaSeries;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QValueAxis;
class QXYSeries;

namespace tcpscope::ui {

/// What a series stands for, which picks its colour from the palette.
enum class SeriesRole { Data, Acks, Window, Alert, SecondaryLimit };

/// A stretch of x shaded behind the series over the plot's height: a stall on the charted connection.
using ShadedSpan = StallSpan;

/// How a series is drawn: a line (solid or dashed, of a width) or markers.
struct SeriesStyle {
    bool scatter = false;
    bool dashed = false;
    double width = 1.8;

    static SeriesStyle line(double width = 1.8) { return {false, false, width}; }
    static SeriesStyle dashedLine() { return {false, true, 1.5}; }
    static SeriesStyle markers() { return {true, false, 0}; }
};

/// A Qt chart over time whose series are kept at full resolution and handed to Qt Charts reduced
/// to what the plot's pixel columns can show (min/max per column; rates binned to the view).
/// Zooming (rubber band, wheel, +/-) reduces them again for the new range, so a zoom into a
/// million-point series shows its real points. Double-click or Home shows everything again.
class ChartView : public QChartView {
    Q_OBJECT

public:
    explicit ChartView(QWidget* parent = nullptr);

    /// Removes every series and sets the titles; x is seconds since `originTsNs` (the capture start).
    void reset(const QString& title, const QString& xTitle, const QString& yTitle, int64_t originTsNs);
    /// Adds a line (or, with `scatter`, markers) drawn from `points`, sorted by x.
    void addSeries(const QString& name, std::vector<ChartPoint> points, SeriesRole role,
                   SeriesStyle style = SeriesStyle::line());
    /// Adds the rate of events at `times` (sorted seconds), in events per second, binned to the view.
    void addRateSeries(const QString& name, std::vector<double> times, SeriesRole role);
    /// Adds the total of `events` (x: seconds, sorted; y: bytes) per interval, the interval chosen
    /// from the zoom (1 ms .. 10 s); with `averageIntervals`, their moving average over that many.
    /// A y title with "%1" (reset()) names the interval shown.
    void addIntervalSeries(const QString& name, std::vector<ChartPoint> events, IntervalMeasure measure,
                           size_t averageIntervals, SeriesRole role, SeriesStyle style = SeriesStyle::line());
    /// Shades `spans` over the plot's height, as one series named `name`; reset() removes them.
    /// Each stall is its own mark at every zoom (at least 3 px wide); stalls closer than a pixel
    /// share one mark, labelled with their count.
    void setShadedSpans(const QString& name, std::vector<ShadedSpan> spans);
    [[nodiscard]] size_t shadedSpanCount() const { return shadedSpans_.size(); }
    /// The marks the stalls are drawn as now, and the interval the interval series are summed over.
    [[nodiscard]] const std::vector<StallMark>& stallMarksShown() const { return marks_; }
    [[nodiscard]] double intervalSeconds() const { return intervalSeconds_; }
    /// The range "show everything" returns to; y is fixed, or follows the visible data if `autoY`.
    void setFullRange(double fromX, double toX, double fromY, double toY, bool autoY = false);
    void resetZoom();
    /// Shows x from `fromX` to `toX` (clamped to the full range), reducing every series again.
    void setVisibleXRange(double fromX, double toX);
    /// Zooms x by `factor` (below 1: in) keeping `aboutX` in place.
    void zoomX(double factor, double aboutX);
    /// Moves the visible x range by `deltaX` seconds, within the full range.
    void panX(double deltaX);

    [[nodiscard]] QString title() const;
    /// The x range shown, in seconds since originTsNs().
    [[nodiscard]] std::pair<double, double> visibleXRange() const;
    /// True if the x range shown is not the full range (the user zoomed or panned).
    [[nodiscard]] bool isZoomed() const;
    [[nodiscard]] int64_t originTsNs() const { return originTsNs_; }
    /// Points handed to Qt Charts now for series `index` (in the order added), and in full.
    [[nodiscard]] qsizetype shownPoints(size_t index) const;
    [[nodiscard]] size_t sourcePoints(size_t index) const;
    [[nodiscard]] size_t seriesCount() const { return sources_.size(); }
    [[nodiscard]] QString seriesName(size_t index) const;
    [[nodiscard]] QXYSeries* series(size_t index) const;

    /// Paints the chart as shown into `target` (aspect ratio kept): the same drawing as the
    /// screen, for SVG, PDF and PNG. For a 2x PNG give a target twice the widget's size.
    void render(QPainter& painter, const QRectF& target) const;

signals:
    /// The visible x range changed (zoom, pan, reset).
    void visibleRangeChanged(double fromX, double toX);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Source {
        QXYSeries* series = nullptr;
        SeriesRole role = SeriesRole::Data;
        SeriesStyle style;
        bool rate = false;
        bool interval = false;
        IntervalMeasure measure = IntervalMeasure::Packets;
        size_t averageIntervals = 0;
        std::vector<ChartPoint> points;  // full resolution (not rate); events (interval)
        std::vector<double> times;       // event times (rate)
    };

    void attach(Source source, const QString& name);
    void refill();
    void refillStalls();
    void placeStallLabels();
    void applyColours();
    [[nodiscard]] size_t columns() const;
    [[nodiscard]] double xAt(const QPointF& viewPoint) const;

    QValueAxis* axisX_ = nullptr;
    QValueAxis* axisY_ = nullptr;
    std::vector<Source> sources_;
    QAreaSeries* shaded_ = nullptr;  // owned by the chart
    QLineSeries* shadedUpper_ = nullptr;
    QLineSeries* shadedLower_ = nullptr;
    std::vector<ShadedSpan> shadedSpans_;                // sorted by start
    std::vector<StallMark> marks_;                       // for the range and width shown
    std::vector<QGraphicsSimpleTextItem*> stallLabels_;  // owned by the chart
    QString yTitleTemplate_;
    double intervalSeconds_ = 0;
    int64_t originTsNs_ = 0;
    double fullFromX_ = 0;
    double fullToX_ = 1;
    double fullFromY_ = 0;
    double fullToY_ = 1;
    bool autoY_ = false;
    bool refilling_ = false;
    size_t refilledColumns_ = 0;  // the plot width the series were last reduced for
};

}  // namespace tcpscope::ui
