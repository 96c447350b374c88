// Notes in the main window: the Notes dock and menu are there, a note added on the Nagle sample
// shows in the dock, in the timeline and beside the sequence diagram, and survives reopening the capture.
// Saves main-window-notes.png in the build folder for a person to look at.
#include <QDockWidget>
#include <QMenuBar>
#include <QTableView>
#include <catch2/catch.hpp>
#include <filesystem>

#include "annotate/capture_comments.hpp"
#include "annotate/note_sidecar.hpp"
#include "notes/notes_controller.hpp"
#include "notes/notes_panel.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
namespace fs = std::filesystem;

TEST_CASE("a note on the Nagle sample shows in the Notes dock and the views, and is read back on reopening") {
    const fs::path folder = fs::temp_directory_path() / ("tcpscope-window-notes-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    const fs::path capture = folder / "proxy-nagle.pcap";
    fs::copy_file(fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap", capture);

    window_test::TestWindow test;
    REQUIRE(test.open({QString::fromStdString(capture.string())}));
    auto* controller = test.window.findChild<NotesController*>();
    REQUIRE(controller != nullptr);
    auto* dock = test.window.findChild<QDockWidget*>(QStringLiteral("notesDock"));
    REQUIRE(dock != nullptr);
    REQUIRE(test.window.menuBar()->findChild<QMenu*>(QStringLiteral("notesMenu")) != nullptr);
    CHECK(dock->isHidden());  // no room taken until a note exists

    test.window.nextFinding();  // from the incident the window opens on to its first finding
    const Finding* finding = test.window.currentFinding();
    REQUIRE(finding != nullptr);
    REQUIRE(finding->frames.size() > 2);
    const CaptureAnalysis& analysis = *test.window.results()->analysis();
    const uint64_t id = controller->store().add(packetNoteTarget(*analysis.engine, analysis.inputs, finding->frames[2]),
                                                QStringLiteral("35 bytes held here until the delayed ACK"));
    REQUIRE(id != 0);
    CHECK_FALSE(dock->isHidden());
    const auto span = controller->shownSpanTarget();
    REQUIRE(span.has_value());
    controller->store().add(*span, QStringLiteral("the whole capture"));
    REQUIRE(controller->store().pins()->size() == 2);
    CHECK(controller->panel()->table()->model()->rowCount() == 2);

    controller->showTarget(id);  // the sequence diagram at the noted packet
    QApplication::processEvents();
    const QImage shot = test.window.grab().toImage();
    shot.save(QStringLiteral("main-window-notes.png"));
    CHECK(shot.width() > 0);

    REQUIRE(readNoteSidecar(noteSidecarPath(capture.string()))->notes.size() == 2);
    REQUIRE(test.open({QString::fromStdString(capture.string())}));
    CHECK(controller->store().notes().size() == 2);
    CHECK(controller->store().find(id)->text == "35 bytes held here until the delayed ACK");
    fs::remove_all(folder);
}
