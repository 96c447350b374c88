#pragma once
#include <QTextBrowser>
#include <cstdint>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// The selected finding in full: its sentence, what the system call trace says about it
/// (confirmed or refuted, the write, write, read pattern, TCP_NODELAY), and its evidence as
/// tables whose frame numbers are links; or the selected incident (incidentDetailHtml). Colours
/// come from the palette only.
class FindingDetailPanel : public QTextBrowser {
    Q_OBJECT

public:
    explicit FindingDetailPanel(QWidget* parent = nullptr);
    /// Shows `finding` of `results` (null: nothing).
    void showFinding(const ResultsPtr& results, const Finding* finding);
    void showIncident(const Incident& incident);
    void clearFinding();

signals:
    /// A frame number in the evidence was clicked.
    void frameActivated(uint32_t frame);
};

/// The panel's text for `finding` and what strace logs and capture points add to it (`enrichment`),
/// as HTML (the window-free part, for tests and reports).
QString findingDetailHtml(const Finding& finding, const FindingEnrichment& enrichment, bool straceLoaded);

}  // namespace tcpscope::ui
