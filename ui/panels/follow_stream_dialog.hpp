#pragma once
#include <QDialog>

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

    /// Follows connection `connection` of complete `results`.
    FollowStreamDialog(const ResultsPtr& results, uint32_t connection, QWidget* parent = nullptr);

    [[nodiscard]] const dissect::FollowedStream& stream() const { return stream_; }
    void setFormat(Format format);
    void setDirection(Direction direction);
    /// The text shown, for tests.
    [[nodiscard]] QString shownText() const;

private:
    void render();

    dissect::FollowedStream stream_;
    QString client_;
    QString server_;
    QComboBox* directionBox_ = nullptr;
    QComboBox* formatBox_ = nullptr;
    QLabel* summary_ = nullptr;
    QPlainTextEdit* text_ = nullptr;
};

}  // namespace tcpscope::ui
