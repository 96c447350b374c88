#pragma once
#include <QAbstractScrollArea>
#include <QPalette>
#include <cstdint>
#include <vector>

#include "loading/analysis_results.hpp"
#include "sequence/sequence_layout.hpp"
#include "sequence/sequence_painter.hpp"

class QLabel;
class QMenu;

namespace tcpscope::ui {

/// What a context menu of the sequence diagram is about, for those who add to it (notes).
struct SequenceContext {
    const SequenceSyscall* syscall = nullptr;  ///< the system call under the pointer, or null
    size_t arrow = kNoArrow;                   ///< the arrow under the pointer, or kNoArrow
    int64_t tsNs = 0;                          ///< the capture time at the pointer
};

/// The sequence diagram of one connection, or of a client, a proxy and a server: time
/// runs down, packets are arrows, stalls are brackets with their cause. Paints only the rows in
/// view; the lifelines' names stay at the top while scrolling. Wheel scrolls, Ctrl+wheel or +/-
/// zooms the time scale, a click on an arrow selects its packet, Up/Down step through packets.
class SequenceView : public QAbstractScrollArea {
    Q_OBJECT

public:
    explicit SequenceView(QWidget* parent = nullptr);

    /// Shows `connection`; with setAutoProxy() on (the default) and a proxy partner found, shows the
    /// client, the proxy and the server instead. Shows nothing for results without a packet index.
    void showConnection(ResultsPtr results, uint32_t connection);
    /// Newer results of the same live capture: the connection(s) shown, drawn again with their new
    /// packets, keeping the scroll position, zoom and selection (at the end, it follows the end).
    void refreshResults(ResultsPtr results);
    /// Three lifelines: client, proxy, server.
    void showProxy(ResultsPtr results, uint32_t clientSideConnection, uint32_t serverSideConnection);
    void clear();
    /// A line above the diagram that says what it shows ("the worst connection of the incident ..."),
    /// or none (empty); showConnection(), showProxy() and clear() take it away.
    void setCaption(const QString& caption);
    [[nodiscard]] QString caption() const;
    /// Brings capture time `tsNs` to the middle of the view.
    void scrollToTime(int64_t tsNs);
    /// Selects the arrow of `frame` (or the next one of the diagram) and brings it into view.
    void scrollToFrame(uint32_t frame);
    /// System calls drawn beside the lifelines instead of those of the results' strace alignment
    /// (which are drawn by default); an empty list goes back to the alignment's.
    void setSyscalls(std::vector<SequenceSyscall> syscalls);
    /// The notes to draw beside the sequence diagram, on screen and in render().
    void setNotePins(NotePins pins);

    void setAutoProxy(bool on) { autoProxy_ = on; }
    void setCompressGaps(bool on);
    [[nodiscard]] bool compressGaps() const { return scale_.compressGaps; }
    /// Zoom: the height of one millisecond of silence.
    void setPixelsPerMs(double pixelsPerMs);
    [[nodiscard]] double pixelsPerMs() const { return scale_.pixelsPerMs; }
    void zoomIn();
    void zoomOut();

    [[nodiscard]] const SequenceLayout& sequenceLayout() const { return layout_; }
    /// The arrow selected by a click or scrollToFrame(), or kNoArrow.
    [[nodiscard]] size_t selectedArrow() const { return selectedArrow_; }
    /// The rows the viewport shows now.
    [[nodiscard]] SequenceRowRange visibleRows() const;
    /// Colours, selection and (for exports) title and legend of the next paint or render.
    [[nodiscard]] SequencePaintOptions paintOptions() const;
    /// What a context menu at `viewportPoint` would be about.
    [[nodiscard]] SequenceContext contextAt(const QPointF& viewportPoint) const;
    /// Where content point `contentPoint` is in the viewport now (the inverse of the view's mapping).
    [[nodiscard]] QPointF viewportPoint(const QPointF& contentPoint) const;

    /// Paints `rows` into `target` with the lifelines' names on top: the same drawing as the
    /// screen, for SVG, PDF and PNG. For a 2x PNG, give a target twice renderSize().
    void render(QPainter& painter, const QRectF& target, SequenceRowRange rows) const;
    void render(QPainter& painter, const QRectF& target, SequenceRowRange rows,
                const SequencePaintOptions& options) const;
    [[nodiscard]] QSizeF renderSize(SequenceRowRange rows) const;

signals:
    /// The user clicked (or stepped to) the arrow of the packet at `packetIndex` in the packet index.
    void packetClicked(size_t packetIndex);
    /// Another connection or pair is shown.
    void diagramChanged();
    /// The context menu is about to show: receivers may add actions (direct connections only).
    void contextMenuAboutToShow(QMenu* menu, const tcpscope::ui::SequenceContext& context);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void showEvent(QShowEvent* event) override;

private:
    void setSequenceLayout(SequenceLayout layout);
    [[nodiscard]] std::vector<SequenceSyscall> syscallsFor(const SequenceLayout& layout) const;
    void applyScale();
    void updateScrollBar();
    void select(size_t arrow, bool emitClick);
    // The connection whose old state a collision under `viewportPoint` ran into (its bracket or one
    // of its packets), or kNoConnection.
    [[nodiscard]] uint32_t earlierConnectionAt(const QPointF& viewportPoint) const;
    [[nodiscard]] double headerHeight() const;
    [[nodiscard]] double contentWidth() const;
    [[nodiscard]] double viewportHeight() const;
    [[nodiscard]] double scrollY() const;
    void setScrollY(double y);
    [[nodiscard]] QPointF contentPoint(const QPointF& viewportPoint) const;
    void zoomAbout(double factor, double viewportY);

    void placeCaption();

    SequenceLayout layout_;
    QLabel* caption_ = nullptr;
    ResultsPtr pendingRefresh_;  // live results that came while hidden, drawn when shown
    SequenceScale scale_;
    std::vector<SequenceSyscall> syscalls_;
    NotePins notePins_;
    size_t selectedArrow_ = kNoArrow;
    bool autoProxy_ = true;
    double unitsPerStep_ = 1;  // content pixels per scroll bar unit (above 1 for diagrams taller than int)
};

}  // namespace tcpscope::ui
