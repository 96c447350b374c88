#pragma once
#include <QTreeWidget>
#include <memory>

#include "dissect/dissection.hpp"
#include "loading/analysis_results.hpp"
#include "panels/hex_highlight.hpp"

namespace tcpscope::dissect {
class FrameBytesReader;
}

namespace tcpscope::ui {

/// Everything known about one packet, as a tree in the order Wireshark users read it: frame, link
/// header, IP header, TCP header with every option and the SEQ/ACK analysis, payload, connection,
/// comment, then the frame's bytes as a hex dump. The headers and bytes are read again from the
/// capture file (core/dissect); the third column names each row's Wireshark field.
class PacketDetailPanel : public QTreeWidget {
    Q_OBJECT

public:
    /// The columns: the row's label, its value, its Wireshark field name (e.g. "ip.ttl").
    enum Column { LabelColumn, ValueColumn, FieldColumn };
    /// On a row that covers bytes of the frame: its first byte and how many.
    static constexpr int kByteOffsetRole = Qt::UserRole + 41;
    static constexpr int kByteLengthRole = Qt::UserRole + 42;

    explicit PacketDetailPanel(QWidget* parent = nullptr);
    ~PacketDetailPanel() override;
    /// Shows the packet at `position` in the packet index of `results` (complete results only).
    void showPacket(const ResultsPtr& results, size_t position);
    void clearPacket();
    /// The first row whose Wireshark field is `field`, or null.
    [[nodiscard]] QTreeWidgetItem* itemOfField(const QString& field) const;
    /// The bytes of the selected row, marked in the hex dump (length 0: none).
    [[nodiscard]] ByteRange highlightedBytes() const { return highlight_->range(); }

private:
    /// The bytes of `packet` read again from its file, or nullopt with `problem` saying why.
    std::optional<dissect::FrameBytes> readFrame(const AnalysisResults& results, const IndexedPacket& packet,
                                                 QString& problem);

    /// Marks the selected row's bytes in the hex dump.
    void highlightBytesOf(const QTreeWidgetItem* item);

    std::unique_ptr<dissect::FrameBytesReader> reader_;  ///< kept open for the next click on the same file
    HexHighlightDelegate* highlight_ = nullptr;
};

/// A sentence explaining an analysis flag as Wireshark's expert info does.
QString analysisFlagMeaning(AnalysisFlag flag);

}  // namespace tcpscope::ui
