#pragma once
#include <QPalette>
#include <QString>

namespace tcpscope::ui {

/// A dark palette for the Fusion style (the platform's own is used unless one is asked for).
QPalette darkPalette();
/// Applies "light", "dark" or "system" to the application; false for another name.
bool applyPalette(const QString& name);
/// True if `palette` draws light text on a dark window.
bool isDarkPalette(const QPalette& palette);

}  // namespace tcpscope::ui
