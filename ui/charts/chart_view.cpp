#include "charts/chart_view.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QEvent>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "series/connection_rate.hpp"
#include "series/min_max_downsampler.hpp"

namespace tcpscope::ui {

namespace {
constexpr double kWheelZoomStep = 0.8;
constexpr size_t kFallbackColumns = 800;  // before the first layout
constexpr double kTicksPerAxis = 5;

// Ticks at 1, 2 or 5 times a power of ten, about kTicksPerAxis of them, labelled with as many
// decimals as the step needs: readable at any zoom without moving the range itself.
void niceTicks(QValueAxis& axis) {
    const double span = axis.max() - axis.min();
    if (!(span > 0)) {
        return;
    }
    const double rough = span / kTicksPerAxis;
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    double step = power;
    for (const double multiple : {1.0, 2.0, 5.0, 10.0}) {
        step = multiple * power;
        if (step >= rough) {
            break;
        }
    }
    // Each setter lays the chart out again: set only what changes, or the layout never settles.
    const double anchor = std::floor(axis.min() / step) * step;  // near the range: Qt counts ticks from it
    if (axis.tickType() != QValueAxis::TicksDynamic) {
        axis.setTickType(QValueAxis::TicksDynamic);
    }
    if (axis.tickAnchor() != anchor) {
        axis.setTickAnchor(anchor);
    }
    if (axis.tickInterval() != step) {
        axis.setTickInterval(step);
    }
    const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step))));
    const QString format = QStringLiteral("%.%1f").arg(decimals);
    if (axis.labelFormat() != format) {
        axis.setLabelFormat(format);
    }
}
}  // namespace

ChartView::ChartView(QWidget* parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setFocusPolicy(Qt::StrongFocus);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    axisX_ = new QValueAxis;
    axisY_ = new QValueAxis;
    chart()->addAxis(axisX_, Qt::AlignBottom);
    chart()->addAxis(axisY_, Qt::AlignLeft);
    // A rubber band or a programmatic zoom lands here: reduce the series for the new range.
    connect(axisX_, &QValueAxis::rangeChanged, this, [this](qreal from, qreal to) {
        if (!refilling_) {
            refill();
            emit visibleRangeChanged(from, to);
        }
    });
    // Qt lays the ticks out on the range's change with the interval set then: an interval left
    // from a narrower range would make millions of ticks. min/maxChanged come first, so the
    // interval follows the range before the layout.
    for (QValueAxis* axis : {axisX_, axisY_}) {
        connect(axis, &QValueAxis::minChanged, this, [axis]() { niceTicks(*axis); });
        connect(axis, &QValueAxis::maxChanged, this, [axis]() { niceTicks(*axis); });
    }
    // A rubber band also zooms y: the stall marks span the plot's new height.
    connect(axisY_, &QValueAxis::rangeChanged, this, [this]() { refillStalls(); });
    // A resize changes the number of pixel columns: reduce again once the plot area is laid out.
    connect(chart(), &QChart::plotAreaChanged, this, [this]() {
        if (columns() != refilledColumns_) {
            refill();
        } else {
            placeStallLabels();
        }
    });
    applyColours();
}

void ChartView::reset(const QString& title, const QString& xTitle, const QString& yTitle, int64_t originTsNs) {
    chart()->removeAllSeries();
    sources_.clear();
    shaded_ = nullptr;
    shadedUpper_ = nullptr;
    shadedLower_ = nullptr;
    shadedSpans_.clear();
    marks_.clear();
    for (QGraphicsSimpleTextItem* label : stallLabels_) {
        delete label;
    }
    stallLabels_.clear();
    intervalSeconds_ = 0;
    chart()->setTitle(title);
    axisX_->setTitleText(xTitle);
    yTitleTemplate_ = yTitle;
    axisY_->setTitleText(yTitle);
    originTsNs_ = originTsNs;
    autoY_ = false;
}

void ChartView::attach(Source source, const QString& name) {
    source.series->setName(name);
    source.series->setUseOpenGL(false);
    chart()->addSeries(source.series);
    source.series->attachAxis(axisX_);
    source.series->attachAxis(axisY_);
    // The legend reads its labels as rich text: a display filter's "<" would cut the name short.
    for (QLegendMarker* marker : chart()->legend()->markers(source.series)) {
        marker->setLabel(name.toHtmlEscaped());
    }
    sources_.push_back(std::move(source));
    applyColours();
}

void ChartView::addSeries(const QString& name, std::vector<ChartPoint> points, SeriesRole role, SeriesStyle style) {
    Source source;
    if (style.scatter) {
        auto* markers = new QScatterSeries;
        markers->setMarkerSize(6);
        source.series = markers;
    } else {
        source.series = new QLineSeries;
    }
    source.role = role;
    source.style = style;
    source.points = std::move(points);
    attach(std::move(source), name);
}

void ChartView::setShadedSpans(const QString& name, std::vector<ShadedSpan> spans) {
    if (spans.empty()) {
        return;
    }
    std::sort(spans.begin(), spans.end(), [](const ShadedSpan& a, const ShadedSpan& b) { return a.fromX < b.fromX; });
    shadedSpans_ = std::move(spans);
    // One area for them all, however many: its upper edge steps from the axis' bottom to its top
    // over each mark (refillStalls() makes the marks for the range and width shown).
    shadedUpper_ = new QLineSeries;
    shadedLower_ = new QLineSeries;
    shaded_ = new QAreaSeries(shadedUpper_, shadedLower_);
    shadedUpper_->setParent(shaded_);
    shadedLower_->setParent(shaded_);
    shaded_->setName(name);
    shaded_->setUseOpenGL(false);
    chart()->addSeries(shaded_);
    shaded_->attachAxis(axisX_);
    shaded_->attachAxis(axisY_);
    applyColours();
    refillStalls();
}

void ChartView::addIntervalSeries(const QString& name, std::vector<ChartPoint> events, IntervalMeasure measure,
                                  size_t averageIntervals, SeriesRole role, SeriesStyle style) {
    Source source;
    source.series = new QLineSeries;
    source.role = role;
    source.style = style;
    source.interval = true;
    source.measure = measure;
    source.averageIntervals = averageIntervals;
    source.points = std::move(events);
    attach(std::move(source), name);
}

void ChartView::addRateSeries(const QString& name, std::vector<double> times, SeriesRole role) {
    Source source;
    source.series = new QLineSeries;
    source.role = role;
    source.rate = true;
    source.times = std::move(times);
    attach(std::move(source), name);
}

bool ChartView::isZoomed() const {
    const auto [fromX, toX] = visibleXRange();
    return fromX != fullFromX_ || toX != fullToX_;  // NOLINT(clang-diagnostic-float-equal): set from these very values
}

void ChartView::setFullRange(double fromX, double toX, double fromY, double toY, bool autoY) {
    fullFromX_ = fromX;
    fullToX_ = toX > fromX ? toX : fromX + 1;
    fullFromY_ = fromY;
    fullToY_ = toY > fromY ? toY : fromY + 1;
    autoY_ = autoY;
    resetZoom();
}

void ChartView::resetZoom() {
    axisY_->setRange(fullFromY_, fullToY_);
    setVisibleXRange(fullFromX_, fullToX_);
}

void ChartView::setVisibleXRange(double fromX, double toX) {
    fromX = std::max(fromX, fullFromX_);
    toX = std::min(toX, fullToX_);
    if (!(toX > fromX)) {
        return;
    }
    refilling_ = true;
    axisX_->setRange(fromX, toX);
    refilling_ = false;
    refill();
    emit visibleRangeChanged(fromX, toX);
}

void ChartView::zoomX(double factor, double aboutX) {
    const auto [fromX, toX] = visibleXRange();
    const double newFrom = aboutX - (aboutX - fromX) * factor;
    const double newTo = aboutX + (toX - aboutX) * factor;
    // Keep the width when the zoom hits an edge of the data, so zooming out ends at "everything".
    const double width = std::min(newTo - newFrom, fullToX_ - fullFromX_);
    const double from = std::clamp(newFrom, fullFromX_, fullToX_ - width);
    setVisibleXRange(from, from + width);
}

void ChartView::panX(double deltaX) {
    const auto [fromX, toX] = visibleXRange();
    const double width = toX - fromX;
    const double from = std::clamp(fromX + deltaX, fullFromX_, std::max(fullFromX_, fullToX_ - width));
    setVisibleXRange(from, from + width);
}

size_t ChartView::columns() const {
    const auto width = static_cast<size_t>(std::max(0.0, chart()->plotArea().width()));
    return width > 10 ? width : kFallbackColumns;
}

void ChartView::refill() {
    const auto [fromX, toX] = visibleXRange();
    const size_t pixelColumns = columns();
    refilledColumns_ = pixelColumns;
    const double rateBin = rateBinSeconds(fromX, toX, pixelColumns);
    const double interval = ioIntervalSeconds(fromX, toX, pixelColumns);
    double highestY = 0;
    bool anyInterval = false;
    for (Source& source : sources_) {
        std::vector<ChartPoint> reduced;
        if (source.rate) {
            reduced = ratePoints(source.times, fromX, toX, rateBin);
        } else if (source.interval && source.averageIntervals > 0) {
            reduced = movingAverage(source.points, source.measure, fromX, toX, interval, source.averageIntervals);
        } else if (source.interval) {
            reduced = intervalTotals(source.points, source.measure, fromX, toX, interval);
        } else {
            reduced = downsampleMinMax(source.points, fromX, toX, pixelColumns);
        }
        anyInterval = anyInterval || source.interval;
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(reduced.size()));
        for (const ChartPoint& point : reduced) {
            points.append(QPointF(point.x, point.y));
            highestY = std::max(highestY, point.y);
        }
        source.series->replace(points);
    }
    if (anyInterval) {
        intervalSeconds_ = interval;
        if (yTitleTemplate_.contains(QStringLiteral("%1"))) {
            axisY_->setTitleText(yTitleTemplate_.arg(QString::fromStdString(intervalName(interval))));
        }
    }
    if (autoY_) {
        axisY_->setRange(fullFromY_, std::max(fullToY_, highestY * 1.1));
    }
    refillStalls();
}

void ChartView::refillStalls() {
    if (shaded_ == nullptr) {
        return;
    }
    const auto [fromX, toX] = visibleXRange();
    marks_ = stallMarks(shadedSpans_, fromX, toX, columns());
    // The edges stay on the axis' range: far beyond it (the old 1e12) the painter's fixed-point
    // coordinates can overflow, and the shading came out as a few wide bands.
    const double bottom = axisY_->min();
    const double top = axisY_->max();
    QList<QPointF> steps;
    steps.reserve(static_cast<qsizetype>(4 * marks_.size()));
    for (const StallMark& mark : marks_) {
        steps.append(
            {QPointF(mark.fromX, bottom), QPointF(mark.fromX, top), QPointF(mark.toX, top), QPointF(mark.toX, bottom)});
    }
    shadedUpper_->replace(steps);
    if (steps.isEmpty()) {
        shadedLower_->clear();
    } else {
        shadedLower_->replace({QPointF(steps.front().x(), bottom), QPointF(steps.back().x(), bottom)});
    }
    placeStallLabels();
}

void ChartView::placeStallLabels() {
    // A mark of several stalls says how many, at the top of the plot.
    size_t used = 0;
    const QRectF plot = chart()->plotArea();
    const ChartColours colours = ChartColours::fromPalette(palette());
    for (const StallMark& mark : marks_) {
        if (mark.stalls < 2) {
            continue;
        }
        if (used == stallLabels_.size()) {
            stallLabels_.push_back(new QGraphicsSimpleTextItem(chart()));
            stallLabels_.back()->setZValue(10);
        }
        QGraphicsSimpleTextItem* label = stallLabels_[used++];
        label->setText(QStringLiteral("×%1").arg(mark.stalls));
        label->setBrush(colours.alert);
        const QPointF at = chart()->mapToPosition(QPointF((mark.fromX + mark.toX) / 2, axisY_->max()));
        const QRectF box = label->boundingRect();
        label->setPos(
            std::clamp(at.x() - box.width() / 2, plot.left(), std::max(plot.left(), plot.right() - box.width())),
            plot.top() + 1);
        label->show();
    }
    for (size_t at = used; at < stallLabels_.size(); ++at) {
        stallLabels_[at]->hide();
    }
}

void ChartView::applyColours() {
    const ChartColours colours = ChartColours::fromPalette(palette());
    applyChartColours(*chart(), colours);
    for (Source& source : sources_) {
        QColor colour;
        switch (source.role) {
            case SeriesRole::Data: colour = colours.data; break;
            case SeriesRole::Acks: colour = colours.acks; break;
            case SeriesRole::Window: colour = colours.window; break;
            case SeriesRole::Alert: colour = colours.alert; break;
            case SeriesRole::SecondaryLimit: colour = colours.secondaryLimit; break;
        }
        if (source.style.width >= 4) {
            colour.setAlpha(110);  // a wide line lets the thin ones drawn over it show through
        }
        QPen pen(colour, source.style.width);
        if (source.style.dashed) {
            pen.setStyle(Qt::DashLine);
        }
        if (source.style.scatter) {
            auto* markers = static_cast<QScatterSeries*>(source.series);
            markers->setColor(colour);
            markers->setBorderColor(colour);
        } else {
            source.series->setPen(pen);
        }
    }
    if (shaded_ != nullptr) {
        QColor stall = colours.alert;
        stall.setAlpha(45);
        shaded_->setBrush(stall);
        shaded_->setPen(Qt::NoPen);
    }
}

QString ChartView::title() const {
    return chart()->title();
}

std::pair<double, double> ChartView::visibleXRange() const {
    return {axisX_->min(), axisX_->max()};
}

qsizetype ChartView::shownPoints(size_t index) const {
    return index < sources_.size() ? sources_[index].series->count() : 0;
}

size_t ChartView::sourcePoints(size_t index) const {
    if (index >= sources_.size()) {
        return 0;
    }
    return sources_[index].rate ? sources_[index].times.size() : sources_[index].points.size();
}

QString ChartView::seriesName(size_t index) const {
    return index < sources_.size() ? sources_[index].series->name() : QString();
}

QXYSeries* ChartView::series(size_t index) const {
    return index < sources_.size() ? sources_[index].series : nullptr;
}

void ChartView::render(QPainter& painter, const QRectF& target) const {
    // The scene holds only the chart; the view's own render() is not const.
    scene()->render(&painter, target, chart()->geometry(), Qt::KeepAspectRatio);
}

double ChartView::xAt(const QPointF& viewPoint) const {
    return chart()->mapToValue(chart()->mapFromScene(mapToScene(viewPoint.toPoint()))).x();
}

void ChartView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        event->ignore();
        return;
    }
    zoomX(std::pow(kWheelZoomStep, steps), xAt(event->position()));
    event->accept();
}

void ChartView::keyPressEvent(QKeyEvent* event) {
    const auto [fromX, toX] = visibleXRange();
    const double middle = (fromX + toX) / 2;
    const double width = toX - fromX;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: zoomX(kWheelZoomStep, middle); break;
        case Qt::Key_Minus: zoomX(1 / kWheelZoomStep, middle); break;
        case Qt::Key_Home:
        case Qt::Key_0: resetZoom(); break;
        case Qt::Key_Left: panX(-width / 4); break;
        case Qt::Key_Right: panX(width / 4); break;
        default: QChartView::keyPressEvent(event); return;
    }
    event->accept();
}

void ChartView::mouseDoubleClickEvent(QMouseEvent* event) {
    resetZoom();
    event->accept();
}

void ChartView::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyColours();
    }
}

}  // namespace tcpscope::ui
