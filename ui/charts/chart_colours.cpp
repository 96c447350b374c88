#include "charts/chart_colours.hpp"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>

namespace tcpscope::ui {

namespace {

// A colour of `hue` light enough for a dark background, or dark enough for a light one.
QColor tone(int hue, int saturation, bool dark) {
    return QColor::fromHsl(hue, saturation, dark ? 165 : 95);
}

}  // namespace

bool ChartColours::isDark(const QPalette& palette) {
    return palette.color(QPalette::Base).lightness() < 128;
}

ChartColours ChartColours::fromPalette(const QPalette& palette) {
    const bool dark = isDark(palette);
    ChartColours colours;
    colours.background = palette.color(QPalette::Window);
    colours.plotBackground = palette.color(QPalette::Base);
    colours.text = palette.color(QPalette::Text);
    colours.grid = palette.color(QPalette::Mid);
    if (colours.grid.lightness() == colours.plotBackground.lightness()) {
        colours.grid = dark ? colours.plotBackground.lighter(160) : colours.plotBackground.darker(130);
    }
    colours.data = tone(212, 200, dark);            // blue
    colours.acks = tone(130, 160, dark);            // green
    colours.window = tone(35, 220, dark);           // amber
    colours.alert = tone(0, 200, dark);             // red
    colours.secondaryLimit = tone(285, 140, dark);  // violet
    return colours;
}

void applyChartColours(QChart& chart, const ChartColours& colours) {
    chart.setBackgroundBrush(colours.background);
    chart.setBackgroundPen(Qt::NoPen);
    chart.setPlotAreaBackgroundBrush(colours.plotBackground);
    chart.setPlotAreaBackgroundVisible(true);
    chart.setTitleBrush(colours.text);
    chart.legend()->setLabelColor(colours.text);
    for (QAbstractAxis* axis : chart.axes()) {
        axis->setLabelsColor(colours.text);
        axis->setTitleBrush(colours.text);
        axis->setLinePenColor(colours.text);
        axis->setGridLineColor(colours.grid);
        axis->setMinorGridLineColor(colours.grid);
    }
}

}  // namespace tcpscope::ui
