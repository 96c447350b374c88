#pragma once
#include <QLabel>
#include <QScrollArea>
#include <QWidget>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "pictures/diagram_export.hpp"
#include "loading/analysis_results.hpp"
#include "report/incident_sections.hpp"

namespace tcpscope::ui {

class TimelineView;

/// The cause of the incident report that draws `findings` (indices into the analysis's findings): the
/// first of `sections` with one of them whose picture is of a population (delayed handshakes, a port
/// pool), else the first with one of them (most severe first, as the report orders them); nullopt when
/// none has.
std::optional<size_t> pictureSectionOf(const std::vector<ReportSection>& sections,
                                       const std::vector<uint32_t>& findings);

/// The picture of an incident or a finding of many connections, as the incident report draws it, for
/// the Charts tab: a full listen backlog's delayed handshakes SYN by SYN, a port pool's TIME_WAIT
/// against its range with the pause and the failed connect() calls, or the timeline over the cause's
/// time; a line above it says what it shows. Drawn by the report's own code (handshake_picture,
/// port_pool_picture) at the width of the tab, in the report's light palette.
class IncidentPicture : public QWidget {
    Q_OBJECT

public:
    explicit IncidentPicture(QWidget* parent = nullptr);
    ~IncidentPicture() override;

    /// Shows the picture of the report's cause of `findings`; false (showing nothing) when it has no
    /// picture of many connections (a Sequence one: the sequence diagram shows it).
    bool showFindings(const ResultsPtr& results, const std::vector<uint32_t>& findings);
    void clear();
    /// clear(), and lets go of the results (and what was computed of them for the next picture).
    void releaseResults();

    /// What the picture shows: its kind (None when empty), its title and its note.
    [[nodiscard]] SectionPicture picture() const { return picture_; }
    [[nodiscard]] QString caption() const;
    /// The page drawn now (its size at the tab's width), and the scale it is drawn at (below 1 when it
    /// is drawn smaller to fit the tab's height).
    [[nodiscard]] const ExportPage& page() const { return page_; }
    [[nodiscard]] double scale() const { return scale_; }
    /// The picture's canvas: its size is the picture's on screen.
    [[nodiscard]] const QWidget& canvas() const;

protected:
    // The picture is laid out again whenever the room for it changes (the window, the note's lines).
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    class Canvas;
    void relayout();

    ResultsPtr results_;
    std::vector<ReportSection> sections_;  // of results_, computed at its first picture
    std::unique_ptr<TimelineView> timeline_;  // the port pool's and the timeline's pictures draw with it
    // The findings whose picture waits for timeline_'s lanes, built on a pool thread for a big capture.
    std::optional<std::vector<uint32_t>> waitingFindings_;
    SectionPicture picture_ = SectionPicture::None;
    // Lays the page out at a width, for a height it should fit (what it can leave out to fit it).
    std::function<ExportPage(double widthPx, double heightPx)> makePage_;
    ExportPage page_;
    double scale_ = 1;
    QLabel* title_ = nullptr;
    QLabel* note_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    Canvas* canvas_ = nullptr;
};

}  // namespace tcpscope::ui
