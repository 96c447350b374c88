#pragma once
#include <QDialog>
#include <QFutureWatcher>

#include "dissect/tcp_stream_follow.hpp"
#include "loading/analysis_results.hpp"

class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace tcpscope::ui {

/// Wireshark's Follow TCP Stream: the selected connection's payload in order (core/dissect reads it
/// again from the capture file and reassembles it), the client's bytes and the server's in two
/// colours, as ASCII, a hex dump or raw hex, the whole conversation or one direction.
class FollowStreamDialog : public QDialog {
    Q_OBJECT

public:
    /// What the text shows of each run of bytes.
    enum class Format { Ascii, HexDump, Raw };
    /// Which bytes: the whole conversation or one side's.
    enum class Direction { Both, ClientOnly, ServerOnly };

    /// Follows connection `connection` of complete `results`: its payload is read on a pool thread
    /// (a long connection is many frames to read again), shown when ready().
    FollowStreamDialog(const ResultsPtr& results, uint32_t connection, QWidget* parent = nullptr);
    ~FollowStreamDialog() override;

    /// True once the payload is read (followed() was emitted).
    [[nodiscard]] bool ready() const { return ready_; }
    [[nodiscard]] const dissect::FollowedStream& stream() const { return stream_; }
    void setFormat(Format format);
    void setDirection(Direction direction);
    /// The text shown, for tests.
    [[nodiscard]] QString shownText() const;

signals:
    /// The payload is read and shown.
    void followed();

private:
    void showStream(dissect::FollowedStream stream);
    void render();

    QFutureWatcher<dissect::FollowedStream> watcher_;
    dissect::FollowedStream stream_;
    bool ready_ = false;
    QString client_;
    QString server_;
    QComboBox* directionBox_ = nullptr;
    QComboBox* formatBox_ = nullptr;
    QLabel* summary_ = nullptr;
    QPlainTextEdit* text_ = nullptr;
};

}  // namespace tcpscope::ui
