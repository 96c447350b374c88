#pragma once
// Helpers of the main window tests: wait for a load, find an action by its shortcut, settings
// kept out of the user's.
#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <catch2/catch.hpp>
#include <functional>

#include <QDir>
#include <QFile>

#include "live_capture/capture_settings.hpp"
#include "window/main_window.hpp"

namespace window_test {

inline bool waitFor(const std::function<bool()>& condition, int timeoutMs = 30000) {
    QElapsedTimer timer;
    timer.start();
    // Sleeps until an event comes (at least every 20 ms: the wake-up timer) instead of spinning, so
    // that the test's thread does not take a core from the loading threads (on two cores it made the
    // GUI benchmark's loads slower than the application's).
    QTimer wakeUp;
    wakeUp.start(20);
    while (!condition() && timer.elapsed() < timeoutMs) {
        QApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return condition();
}

/// Test settings (QStandardPaths test mode), emptied.
inline void freshSettings() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

/// Counts the complete loads of `window`.
struct LoadCounter {
    int ready = 0;
    int failed = 0;
    explicit LoadCounter(tcpscope::ui::MainWindow& window) {
        QObject::connect(&window, &tcpscope::ui::MainWindow::resultsReady, [this]() { ++ready; });
        QObject::connect(&window, &tcpscope::ui::MainWindow::loadFailed, [this]() { ++failed; });
    }
    /// Waits for one more load than `before` to end.
    bool waitBeyond(int before) {
        return waitFor([this, before]() { return ready + failed > before; });
    }
};

/// A shown main window that counts its loads; with `fresh`, on emptied test settings.
struct TestWindow {
    bool fresh;
    tcpscope::ui::MainWindow window;
    LoadCounter loads{window};

    /// An invalid `size` keeps the size the window restored from the settings.
    explicit TestWindow(bool freshStart = true, QSize size = {1400, 900}) : fresh(prepareSettings(freshStart)) {
        if (size.isValid()) {
            window.resize(size);
        }
        window.show();
    }
    static bool prepareSettings(bool freshStart) {
        QStandardPaths::setTestModeEnabled(true);
        if (freshStart) {
            QSettings().clear();
        }
        return freshStart;
    }
    /// Opens and waits for the complete results; false if the load failed or timed out.
    bool open(const QStringList& captures, const QStringList& straceLogs = {}) {
        const int before = loads.ready + loads.failed;
        window.openCaptures(captures, straceLogs);
        return loads.waitBeyond(before) && loads.failed == 0;
    }
};

/// True when the end of `text` in `details` is in its viewport as it stands (not scrolled to): what a
/// person reads without scrolling.
inline bool textOnScreen(QTextBrowser& details, const QString& text) {
    const QTextCursor found = details.document()->find(text);
    if (found.isNull()) {
        UNSCOPED_INFO("'" << text.toStdString() << "' is not in the details");
        return false;
    }
    const QRect end = details.cursorRect(found);
    UNSCOPED_INFO("'" << text.toStdString() << "' ends at y " << end.bottom() << " of "
                      << details.viewport()->height() << " px");
    return details.verticalScrollBar()->value() == 0 && end.bottom() <= details.viewport()->height();
}

/// The window's action bound to `key` (menus included), or null.
inline QAction* actionWithShortcut(QWidget& window, const QKeySequence& key) {
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->shortcut() == key) {
            return action;
        }
    }
    return nullptr;
}

/// A capture on lo of TCP port `port` only, into TMP/NAME-PORT.pcapng (removed first).
inline tcpscope::ui::CaptureSettings loopbackCapture(uint16_t port, const QString& name) {
    tcpscope::ui::CaptureSettings settings;
    settings.device = QStringLiteral("lo");
    settings.filter = QStringLiteral("tcp port %1").arg(port);
    settings.outputPath = QDir::temp().filePath(QStringLiteral("%1-%2.pcapng").arg(name).arg(port));
    QFile::remove(settings.outputPath);
    return settings;
}

inline QString samplePath(const char* name) {
    return QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/") + QLatin1String(name);
}

/// Where a screenshot for a person to look at goes: screenshots/PLATFORM/NAME.png in the build folder.
inline QString screenshotPath(const QString& name) {
    const QString dir = QDir::current().filePath(QStringLiteral("screenshots/") + QGuiApplication::platformName());
    QDir().mkpath(dir);
    return dir + QLatin1Char('/') + name + QStringLiteral(".png");
}

}  // namespace window_test
