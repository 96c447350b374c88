#pragma once
#include <QColor>
#include <QPalette>

class QChart;

namespace tcpscope::ui {

/// The colours of the charts, derived from the widget palette so that every line stays visible
/// on a light and on a dark background.
struct ChartColours {
    QColor background;
    QColor plotBackground;
    QColor text;
    QColor grid;
    QColor data;            ///< segments, samples, TIME_WAIT: the main series
    QColor acks;            ///< ACK line, ports in use
    QColor window;          ///< receive window, SYN retransmissions
    QColor alert;           ///< retransmissions, capacity
    QColor secondaryLimit;  ///< the observed port range

    /// The colours for `palette`: hues fixed by meaning, lightness chosen against its base colour.
    static ChartColours fromPalette(const QPalette& palette);
    /// True if the palette's base colour is dark.
    static bool isDark(const QPalette& palette);
};

/// Paints `chart`'s background, axes, grid, title and legend in `colours`.
void applyChartColours(QChart& chart, const ChartColours& colours);

}  // namespace tcpscope::ui
