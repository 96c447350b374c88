#pragma once
#include <QApplication>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// The QApplication a command-line export needs to draw with the views' code, on the offscreen
/// platform unless QT_QPA_PLATFORM says otherwise; does nothing when one exists already. Without
/// XDG_RUNTIME_DIR (a cron job, ssh, a container) it gives Qt a private one (mode 0700 under
/// /tmp, removed at the end), so that Qt does not warn about it on every run.
class HeadlessGui {
public:
    HeadlessGui();
    ~HeadlessGui();
    HeadlessGui(const HeadlessGui&) = delete;
    HeadlessGui& operator=(const HeadlessGui&) = delete;

private:
    std::unique_ptr<QApplication> app_;
    QByteArray runtimeDir_;  // made here, removed in the destructor; empty if XDG_RUNTIME_DIR was set
};

/// What `tcpscope-cli diagram` draws.
struct DiagramRequest {
    enum class View : uint8_t { Sequence, Timeline, Both };
    View view = View::Sequence;
    uint32_t flow = 0;
    std::optional<uint32_t> proxyFlow;     ///< three lifelines: flow is the client side, this the server side
    std::optional<double> fromSeconds;     ///< since the capture's first packet
    std::optional<double> toSeconds;
    QString out;                           ///< NAME.svg, NAME.png or NAME.pdf
    double scale = 1;                      ///< PNG only
    double widthPx = 0;                    ///< 0: 1280, or for a PDF the width of its A4 landscape pages
    size_t maxArrows = 120;  ///< a sequence diagram without a time range: this many from before its first stall
};

/// What was written, or why not.
struct ExportOutcome {
    QString error;        ///< empty on success: one line, "FILE: reason"
    QStringList written;  ///< the files written
    QString description;  ///< "sequence diagram of flows #0 and #1, packets 21 to 320 of 492"
};

/// Draws the requested diagram(s) of complete `results` into request.out with the views' render code.
ExportOutcome exportDiagramFile(const ResultsPtr& results, const DiagramRequest& request);

/// Writes the incident report into `directory` (made if missing): report.md (pictures beside it as
/// PNG and SVG), report.html (one file, pictures embedded) and report.pdf (A4 pages): a summary,
/// then per cause its sequence diagram (a stall), its delayed handshakes (a listen backlog), its port pool
/// (TIME_WAIT against the limit, the pause, failed connect() calls) or its timeline (another
/// population of connections), none taller than 2,000 px. The CLI's `report` and the GUI's
/// File > Export incident report both call it.
ExportOutcome exportIncidentReport(const ResultsPtr& results, const QString& directory);

}  // namespace tcpscope::ui
