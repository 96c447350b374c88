#pragma once
#include <QString>

namespace tcpscope::ui {

/// A duration as the panels show it: "850.3 ms", "60.65 s".
inline QString durationText(double ms) {
    return ms >= 1000 ? QStringLiteral("%1 s").arg(ms / 1000, 0, 'f', 2) : QStringLiteral("%1 ms").arg(ms, 0, 'f', 1);
}

}  // namespace tcpscope::ui
