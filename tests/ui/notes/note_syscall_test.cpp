// Notes on system calls and on a span selected in the timeline, in the real main window on the
// Nagle sample with its strace log: "Add note..." in the context menu of a call in a syscall lane
// and beside the sequence diagram's lifeline pins the note to that call (log file and line), the pin is drawn
// at the call in both views, and a double-click in the Notes dock brings the call into view.
// Shift+drag in the timeline selects a span whose menu offers "Add note on this span..."; a plain
// drag still pans. Saves main-window-syscall-note.png in the build folder.
#include <QApplication>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>

#include "annotate/note_sidecar.hpp"
#include "notes/notes_controller.hpp"
#include "sequence/sequence_view.hpp"
#include "timeline/timeline_view.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
namespace fs = std::filesystem;

namespace {

// Answers the next "Add note" dialog with `text`, as a user typing it and pressing OK.
void answerNoteDialog(const QString& text) {
    QTimer::singleShot(0, [text] {
        auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
        if (dialog != nullptr) {
            dialog->setTextValue(text);
            dialog->accept();
        }
    });
}

QAction* actionNamed(const QMenu& menu, const QString& text) {
    for (QAction* action : menu.actions()) {
        if (action->text() == text) {
            return action;
        }
    }
    return nullptr;
}

// The note colour is a violet: blue well above green.
bool isNoteViolet(const QColor& pixel) { return pixel.blue() - pixel.green() > 40 && pixel.red() - pixel.green() > 10; }

int violetPixelsAround(const QImage& image, QPoint center, int radius) {
    int count = 0;
    for (int y = center.y() - radius; y <= center.y() + radius; ++y) {
        for (int x = center.x() - radius; x <= center.x() + radius; ++x) {
            if (image.rect().contains(x, y) && isNoteViolet(image.pixelColor(x, y))) {
                ++count;
            }
        }
    }
    return count;
}

void sendMouse(QWidget* target, QEvent::Type type, QPointF position, Qt::MouseButton button, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers modifiers) {
    QMouseEvent event(type, position, target->mapToGlobal(position), button, buttons, modifiers);
    QApplication::sendEvent(target, &event);
}

struct SampleFolder {
    fs::path folder = fs::temp_directory_path() / ("tcpscope-syscall-notes-" + std::to_string(::getpid()));
    fs::path capture = folder / "proxy-nagle.pcap";
    fs::path log = folder / "proxy-nagle.strace";
    SampleFolder() {
        fs::remove_all(folder);
        fs::create_directories(folder);
        fs::copy_file(fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap", capture);
        fs::copy_file(fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.strace", log);
    }
    ~SampleFolder() { fs::remove_all(folder); }
};

// The main window on a copy of the sample with its strace log, the timeline shown whole.
struct OpenSample {
    SampleFolder sample;
    window_test::TestWindow test;
    bool opened = test.open({QString::fromStdString(sample.capture.string())},
                            {QString::fromStdString(sample.log.string())});
    NotesController* controller = test.window.findChild<NotesController*>();
    TimelineView* timeline = test.window.findChild<TimelineView*>(QStringLiteral("timelineView"));
    SequenceView* sequence = test.window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
    QTabWidget* tabs = test.window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));

    [[nodiscard]] bool ready() {
        if (!opened || controller == nullptr || timeline == nullptr || sequence == nullptr || tabs == nullptr) {
            return false;
        }
        tabs->setCurrentWidget(timeline);
        timeline->zoomToFit();
        QApplication::processEvents();
        timeline->viewport()->repaint();
        return true;
    }
};

}  // namespace

TEST_CASE("a note on a system call from the timeline's syscall lane and from the sequence diagram",
          "[notes][syscall]") {
    OpenSample opened;
    REQUIRE(opened.ready());
    auto& test = opened.test;
    NotesController* controller = opened.controller;
    TimelineView* timeline = opened.timeline;
    SequenceView* sequence = opened.sequence;
    QTabWidget* tabs = opened.tabs;

    // A single (unfolded) call in a syscall lane: a mark of an extra row (not of the incident's lane,
    // an extra row too, at the top: its marks are the incident's moments, no calls).
    const TimelineFrame& frame = timeline->lastFrame();
    const LayoutMark* callMark = nullptr;
    bool incidentLane = false;
    for (const LayoutRow& row : frame.rows) {
        if (row.kind == RowKind::Extra) {
            incidentLane = incidentLane || timeline->model().extraLanes()[row.index].lane.label.rfind("incident 1: ", 0) == 0;
        }
        for (size_t mark = row.firstMark; row.kind == RowKind::Extra && mark < row.markEnd && callMark == nullptr; ++mark) {
            const LayoutMark& candidate = frame.marks[mark];
            if (candidate.count == 1 &&
                timeline->contextAt(QPointF(candidate.x, candidate.y + candidate.h / 2)).syscall.has_value()) {
                callMark = &candidate;
            }
        }
    }
    CHECK(incidentLane);
    REQUIRE(callMark != nullptr);
    const QPointF onCall(callMark->x, callMark->y + callMark->h / 2);
    const TimelineContext context = timeline->contextAt(onCall);
    REQUIRE(context.syscall.has_value());
    CHECK_FALSE(timeline->contextAt(QPointF(onCall.x(), frame.plot.y + 2)).syscall.has_value());  // the ruler's edge

    QMenu menu;
    emit timeline->contextMenuAboutToShow(&menu, context);
    QAction* add = actionNamed(menu, QStringLiteral("Add note..."));
    REQUIRE(add != nullptr);
    CHECK(actionNamed(menu, QStringLiteral("Add note on this span...")) == nullptr);  // nothing selected
    answerNoteDialog(QStringLiteral("this call"));
    add->trigger();
    REQUIRE(controller->store().notes().size() == 1);
    const Note& note = controller->store().notes().notes().front();
    const auto* target = std::get_if<SyscallNoteTarget>(&note.target);
    REQUIRE(target != nullptr);
    CHECK(target->logFile == "proxy-nagle.strace");
    const StraceAlignment& alignment = *test.window.results()->alignment();
    const SyscallRecord& call = alignment.logs[context.syscall->log].log.records[context.syscall->record];
    CHECK(target->line == call.lineNumber);
    CHECK(target->tsNs == alignment.captureTsNs(context.syscall->log, call));
    // The sidecar holds it (a real file beside the capture).
    const auto sidecar = readNoteSidecar(noteSidecarPath(opened.sample.capture.string()));
    REQUIRE(sidecar.has_value());
    REQUIRE(sidecar->notes.size() == 1);
    CHECK(std::get<SyscallNoteTarget>(sidecar->notes.front().target).line == call.lineNumber);

    // The pin: a violet ring on the call in its lane (left and right of the call, where the
    // pin's dashed line down the lanes does not pass).
    QApplication::processEvents();
    const QImage shot = timeline->viewport()->grab().toImage();
    const QPoint callPoint = onCall.toPoint();
    CHECK(violetPixelsAround(shot, callPoint + QPoint(-6, 0), 2) > 0);
    CHECK(violetPixelsAround(shot, callPoint + QPoint(6, 0), 2) > 0);

    // Double-click in the dock: the call's time in view and its connection selected.
    timeline->zoomToFit();
    controller->showTarget(note.id);
    QApplication::processEvents();
    const ui::TimeRange shown = timeline->visibleRange();
    CHECK(shown.startNs <= target->tsNs);
    CHECK(shown.endNs >= target->tsNs);
    CHECK(shown.lengthNs() < 100'000'000);
    const uint32_t connection = timeline->selectedConnection();
    CHECK(connection != kNoConnection);

    // The sequence diagram: a call beside the proxy's lifeline.
    tabs->setCurrentWidget(sequence);
    QApplication::processEvents();
    sequence->showConnection(test.window.results(), connection);
    QApplication::processEvents();
    const SequenceLayout& layout = sequence->sequenceLayout();
    REQUIRE_FALSE(layout.syscalls().empty());
    const auto write =
        std::find_if(layout.syscalls().begin(), layout.syscalls().end(), [&](const SequenceSyscall& call) {
            return call.kind == EventKind::Write && call.location && call.location->record != context.syscall->record;
        });
    REQUIRE(write != layout.syscalls().end());
    sequence->scrollToTime(write->tsNs);
    QApplication::processEvents();
    const double writeY = layout.yOfTime(write->tsNs);
    const SequenceDrawList list = layout.prepare(QRectF(0, writeY - 60, layout.scale().width, 120));
    const auto drawnWrite = std::find_if(list.syscalls.begin(), list.syscalls.end(), [&](const auto& candidate) {
        return candidate.syscall == static_cast<size_t>(write - layout.syscalls().begin());
    });
    REQUIRE(drawnWrite != list.syscalls.end());
    const SequenceDrawList::Syscall* drawn = &*drawnWrite;
    const QPointF onLifeline = sequence->viewportPoint(QPointF(drawn->x, drawn->y + 1));
    const SequenceContext sequenceContext = sequence->contextAt(onLifeline);
    REQUIRE(sequenceContext.syscall != nullptr);
    CHECK(sequenceContext.syscall == &layout.syscalls()[drawn->syscall]);
    CHECK(sequence->contextAt(QPointF(onLifeline.x() + 200, onLifeline.y())).syscall == nullptr);
    QMenu sequenceMenu;
    emit sequence->contextMenuAboutToShow(&sequenceMenu, sequenceContext);
    QAction* addOnSequence = actionNamed(sequenceMenu, QStringLiteral("Add note..."));
    REQUIRE(addOnSequence != nullptr);
    answerNoteDialog(QStringLiteral("written here"));
    addOnSequence->trigger();
    REQUIRE(controller->store().notes().size() == 2);
    const auto* sequenceTarget = std::get_if<SyscallNoteTarget>(&controller->store().notes().notes().back().target);
    REQUIRE(sequenceTarget != nullptr);
    const SyscallLocation written = *sequenceContext.syscall->location;
    CHECK(sequenceTarget->line == alignment.logs[written.log].log.records[written.record].lineNumber);
    QApplication::processEvents();
    const QImage sequenceShot = sequence->viewport()->grab().toImage();
    const QPoint ringCenter = sequence->viewportPoint(QPointF(drawn->x, drawn->y + 1)).toPoint();
    CHECK(violetPixelsAround(sequenceShot, ringCenter + QPoint(-6, 0), 2) > 0);  // left of the call: only the ring
    CHECK(violetPixelsAround(sequenceShot, ringCenter + QPoint(0, 6), 2) > 0);
    test.window.grab().toImage().save(QStringLiteral("main-window-syscall-note.png"));
}

TEST_CASE("Shift+drag in the timeline selects a span to note - a plain drag still pans", "[notes][span]") {
    OpenSample opened;
    REQUIRE(opened.ready());
    auto& test = opened.test;
    NotesController* controller = opened.controller;
    TimelineView* timeline = opened.timeline;
    const TimelineFrame& frame = timeline->lastFrame();
    const double y = frame.plot.y + frame.plot.h / 2;
    const double fromX = frame.plot.x + frame.plot.w * 0.3;
    const double toX = frame.plot.x + frame.plot.w * 0.5;
    const ui::TimeRange before = timeline->visibleRange();

    QWidget* viewport = timeline->viewport();
    sendMouse(viewport, QEvent::MouseButtonPress, {fromX, y}, Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
    sendMouse(viewport, QEvent::MouseMove, {(fromX + toX) / 2, y}, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
    sendMouse(viewport, QEvent::MouseMove, {toX, y}, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
    sendMouse(viewport, QEvent::MouseButtonRelease, {toX, y}, Qt::LeftButton, Qt::NoButton, Qt::ShiftModifier);
    REQUIRE(timeline->selectedSpan().has_value());
    const ui::TimeRange span = *timeline->selectedSpan();
    CHECK(timeline->visibleRange() == before);  // selecting did not pan
    const double expectedNs = (toX - fromX) * static_cast<double>(before.lengthNs()) / frame.plot.w;
    CHECK(static_cast<double>(span.lengthNs()) == Approx(expectedNs).epsilon(0.02));

    // The band is drawn: the highlight colour tints the plot between the two edges.
    viewport->repaint();
    const QImage shot = viewport->grab().toImage();
    const QColor inside = shot.pixelColor(static_cast<int>((fromX + toX) / 2), static_cast<int>(frame.plot.bottom() - 3));
    const QColor outside = shot.pixelColor(static_cast<int>(toX + 40), static_cast<int>(frame.plot.bottom() - 3));
    CHECK(inside != outside);

    const TimelineContext inSpan = timeline->contextAt({(fromX + toX) / 2, y});
    REQUIRE(inSpan.selection.has_value());
    CHECK_FALSE(timeline->contextAt({toX + 40, y}).selection.has_value());
    QMenu menu;
    emit timeline->contextMenuAboutToShow(&menu, inSpan);
    QAction* add = actionNamed(menu, QStringLiteral("Add note on this span..."));
    REQUIRE(add != nullptr);
    answerNoteDialog(QStringLiteral("the slow part"));
    add->trigger();
    REQUIRE(controller->store().notes().size() == 1);
    const auto* noted = std::get_if<SpanNoteTarget>(&controller->store().notes().notes().front().target);
    REQUIRE(noted != nullptr);
    CHECK(noted->startNs == span.startNs);
    CHECK(noted->endNs == span.endNs);
    test.window.grab().toImage().save(QStringLiteral("main-window-span-note.png"));

    // A plain click clears the selection; a plain drag pans.
    sendMouse(viewport, QEvent::MouseButtonPress, {toX, y}, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    sendMouse(viewport, QEvent::MouseButtonRelease, {toX, y}, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    CHECK_FALSE(timeline->selectedSpan().has_value());
    timeline->zoomIn();
    const ui::TimeRange zoomed = timeline->visibleRange();
    sendMouse(viewport, QEvent::MouseButtonPress, {toX, y}, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    sendMouse(viewport, QEvent::MouseMove, {toX - 50, y}, Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    sendMouse(viewport, QEvent::MouseMove, {toX - 100, y}, Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    sendMouse(viewport, QEvent::MouseButtonRelease, {toX - 100, y}, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    CHECK(timeline->visibleRange().startNs > zoomed.startNs);
    CHECK_FALSE(timeline->selectedSpan().has_value());
}
