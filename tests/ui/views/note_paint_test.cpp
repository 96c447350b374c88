// Notes drawn in the views: a pin and label at the note's time on the timeline and on the sequence diagram,
// in the render() path that the SVG, PDF and PNG exports use.
#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "analysis/capture_analysis.hpp"
#include "sequence/sequence_layout.hpp"
#include "sequence/sequence_notes.hpp"
#include "timeline/timeline_notes.hpp"
#include "timeline/timeline_view.hpp"
#include "views/note_pins.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace {

ResultsPtr nagleSample() {
    return AnalysisResults::complete(
        analyzeCaptures({(std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap").string()}, {}));
}

// The note colour is a violet: blue well above green, whatever the antialiasing blends it with.
bool isNoteViolet(const QColor& pixel) { return pixel.blue() - pixel.green() > 40 && pixel.red() - pixel.green() > 10; }

// Rows of column band [x - 1, x + 1] of `image` with a violet pixel.
int violetRowsNear(const QImage& image, int x) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        bool violet = false;
        for (int dx = -1; dx <= 1; ++dx) {
            violet = violet || isNoteViolet(image.pixelColor(std::clamp(x + dx, 0, image.width() - 1), y));
        }
        count += violet ? 1 : 0;
    }
    return count;
}

std::vector<NotePin> onePin(int64_t tsNs, uint32_t frame = 0) {
    NotePin pin;
    pin.id = 1;
    pin.startNs = tsNs;
    pin.endNs = tsNs;
    pin.frame = frame;
    pin.text = QStringLiteral("held by Nagle");
    return {pin};
}

}  // namespace

TEST_CASE("a note is drawn on the timeline as a line and a pin at its time, and nothing outside the range") {
    const ResultsPtr results = nagleSample();
    TimelineView view;
    view.setResults(results);
    const ui::TimeRange range{results->firstTsNs(), results->lastTsNs()};
    const QSize size(900, 400);
    const TimelineFrame frame = view.prepareFrame(QSizeF(size), range);
    const int64_t middleNs = range.startNs + range.lengthNs() / 2;
    const int x = static_cast<int>(std::lround(frame.axis.toX(middleNs)));

    QImage image(size, QImage::Format_ARGB32);
    image.fill(view.palette().color(QPalette::Base));
    {
        QPainter painter(&image);
        paintTimelineNotes(painter, frame, onePin(middleNs), view.palette(), view.font());
    }
    // The dashed line runs down the lanes: about half of the plot's height in the note colour.
    CHECK(violetRowsNear(image, x) > static_cast<int>(frame.plot.h / 3));
    CHECK(violetRowsNear(image, x - 30) == 0);

    QImage outside(size, QImage::Format_ARGB32);
    outside.fill(Qt::white);
    {
        QPainter painter(&outside);
        paintTimelineNotes(painter, frame, onePin(range.endNs + range.lengthNs()), view.palette(), view.font());
    }
    CHECK(outside == [&] {
        QImage blank(size, QImage::Format_ARGB32);
        blank.fill(Qt::white);
        return blank;
    }());
}

TEST_CASE("a packet note is drawn on the sequence diagram at its arrow, with its text") {
    const ResultsPtr results = nagleSample();
    REQUIRE_FALSE(results->findings().empty());
    const uint32_t connection = results->findings().front().connection;
    const SequenceLayout layout = SequenceLayout::ofConnection(results, connection);
    REQUIRE(layout.rowCount() > 10);
    const QRectF content = layout.contentRect({0, 10});
    const SequenceDrawList list = layout.prepare(content);
    REQUIRE(list.arrows.size() > 5);
    const auto& arrow = list.arrows[5];

    QBuffer svg;
    svg.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&svg);
    generator.setSize(QSize(static_cast<int>(layout.scale().width), static_cast<int>(content.bottom())));
    {
        QPainter painter(&generator);
        paintSequenceNotes(painter, layout, list, onePin(0, arrow.frame), QPalette());
    }
    CHECK(svg.data().contains("held by Nagle"));

    QImage image(static_cast<int>(layout.scale().width), static_cast<int>(content.bottom()) + 20,
                 QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        paintSequenceNotes(painter, layout, list, onePin(0, arrow.frame), QPalette());
    }
    // The dashed line crosses the diagram at the arrow's height.
    int onLine = 0;
    const int y = static_cast<int>(std::lround(arrow.start.y()));
    for (int x = static_cast<int>(SequenceLayout::kTimeGutter); x < image.width() - 300; ++x) {
        bool violet = false;
        for (int dy = -1; dy <= 1; ++dy) {
            violet = violet || isNoteViolet(image.pixelColor(x, y + dy));
        }
        onLine += violet ? 1 : 0;
    }
    CHECK(onLine > 50);
    CHECK_FALSE(isNoteViolet(image.pixelColor(image.width() / 2, y + 40)));
}

TEST_CASE("the timeline's render() path, used by every export, draws the notes with their text") {
    const ResultsPtr results = nagleSample();
    TimelineView view;
    view.setResults(results);
    NoteSet notes;
    notes.add(SpanNoteTarget{results->firstTsNs() + 1'000'000, results->firstTsNs() + 2'000'000}, "exported note", 0);
    view.setNotePins(makeNotePins(notes));
    QBuffer svg;
    svg.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&svg);
    generator.setSize(QSize(900, 400));
    {
        QPainter painter(&generator);
        view.render(painter, QRectF(0, 0, 900, 400), ui::TimeRange{results->firstTsNs(), results->lastTsNs()});
    }
    CHECK(svg.data().contains("exported note"));
}
