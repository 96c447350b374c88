#pragma once
#include <QStyledItemDelegate>
#include <cstdint>
#include <vector>

namespace tcpscope::ui {

/// Bytes of a frame: the first and how many (0: none).
struct ByteRange {
    uint32_t offset = 0;
    uint32_t length = 0;
    bool operator==(const ByteRange&) const = default;
};

/// Characters of one hex dump line (as dissect::hexDumpLines writes it) to mark for `range`: the
/// hex pairs and the ASCII characters of the range's bytes on the line that starts at byte
/// `lineOffset`, as [first character, count) spans, hex first.
std::vector<std::pair<int, int>> highlightedColumns(const QString& line, uint32_t lineOffset, ByteRange range);

/// Paints the hex dump lines of the packet details with the bytes of the selected field marked, as
/// Wireshark's bytes pane does. Lines carry their first byte's offset in `kLineOffsetRole`.
class HexHighlightDelegate : public QStyledItemDelegate {
public:
    static constexpr int kLineOffsetRole = Qt::UserRole + 40;

    using QStyledItemDelegate::QStyledItemDelegate;
    void setRange(ByteRange range) { range_ = range; }
    [[nodiscard]] ByteRange range() const { return range_; }
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    ByteRange range_;
};

}  // namespace tcpscope::ui
