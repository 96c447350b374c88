#pragma once
#include <QThreadPool>

namespace tcpscope::ui {

/// The pool for the application's long background work (a timeline's lanes of a million
/// connections take seconds). Not QThreadPool::globalInstance(): Qt's raster engine hands parts of
/// its painting to that one and waits for them, so seconds-long tasks there freeze the window.
QThreadPool& backgroundPool();

}  // namespace tcpscope::ui
