#pragma once
#include <QTreeWidget>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// Everything known about one packet, as a tree in the order Wireshark users read it: frame,
/// TCP header (relative and raw numbers), analysis flags with their meaning, connection, comment.
class PacketDetailPanel : public QTreeWidget {
    Q_OBJECT

public:
    explicit PacketDetailPanel(QWidget* parent = nullptr);
    /// Shows the packet at `position` in the packet index of `results` (complete results only).
    void showPacket(const ResultsPtr& results, size_t position);
    void clearPacket();
};

/// A sentence explaining an analysis flag as Wireshark's expert info does.
QString analysisFlagMeaning(AnalysisFlag flag);

}  // namespace tcpscope::ui
