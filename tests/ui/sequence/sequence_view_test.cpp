// The sequence diagram widget and its one render function: the proxy sample drawn into a PNG (kept at
// /tmp/sequence.png for a person to look at), SVG text, dark palettes, clicks and scrolling.
#include "sequence/sequence_view.hpp"

#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSvgGenerator>
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "report/mermaid_sequence.hpp"
#include "sequence/sequence_syscalls.hpp"
#include "support/sequence_capture.hpp"

using namespace tcpscope;
using namespace tcpscope::test;
using namespace tcpscope::ui;

namespace {

ResultsPtr sampleResults() {
    static const ResultsPtr results =
        AnalysisResults::complete(analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {}));
    return results;
}

QPalette darkPalette() {
    QPalette palette;
    palette.setColor(QPalette::Window, QColor(37, 37, 38));
    palette.setColor(QPalette::WindowText, QColor(230, 230, 230));
    palette.setColor(QPalette::Base, QColor(30, 30, 30));
    palette.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
    palette.setColor(QPalette::Text, QColor(230, 230, 230));
    palette.setColor(QPalette::Button, QColor(53, 53, 56));
    palette.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    palette.setColor(QPalette::Highlight, QColor(38, 79, 120));
    palette.setColor(QPalette::Link, QColor(90, 170, 255));
    return palette;
}

// Renders the rows from frame `firstFrame` to `lastFrame` of the proxy sample at `width`.
QImage renderSample(const SequenceView& view, uint32_t firstFrame, uint32_t lastFrame,
                    const SequencePaintOptions& options) {
    const SequenceDiagram& diagram = *view.sequenceLayout().diagram();
    const SequenceRowRange rows{diagram.arrowOfFrame(firstFrame), diagram.arrowOfFrame(lastFrame) + 1};
    const QSizeF size = sequenceRenderSize(view.sequenceLayout(), rows, options);
    QImage image(size.toSize(), QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    view.render(painter, QRectF(QPointF(0, 0), size), rows, options);
    painter.end();
    return image;
}

size_t countPixels(const QImage& image, const QColor& color, int tolerance) {
    size_t count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (std::abs(pixel.red() - color.red()) <= tolerance &&
                std::abs(pixel.green() - color.green()) <= tolerance &&
                std::abs(pixel.blue() - color.blue()) <= tolerance) {
                ++count;
            }
        }
    }
    return count;
}

}  // namespace

TEST_CASE("the proxy sample renders as a sequence diagram with the Nagle waits marked", "[sequence][view][sample]") {
    SequenceView view;
    view.resize(1100, 800);
    view.showProxy(sampleResults(), 0, 1);
    REQUIRE(view.sequenceLayout().rowCount() == 492);

    SequencePaintOptions options = view.paintOptions();
    options.title =
        QStringLiteral("proxy-nagle.pcap: client \u2192 proxy :3307 \u2192 server :3306 (connections 0 and 1)");
    options.legend = true;
    const QImage image = renderSample(view, 1, 30, options);
    REQUIRE(image.width() == view.sequenceLayout().scale().width);
    REQUIRE(image.height() > 700);
    REQUIRE(image.save(QStringLiteral("/tmp/sequence.png")));
    // The stall colour is there (brackets, bands, the late ACK), and so is the text colour.
    const QColor stall = sequenceStallColor(options.palette);
    CHECK(countPixels(image, stall, 12) > 500);
    CHECK(countPixels(image, options.palette.color(QPalette::Text), 40) > 2000);

    // 2x for a high-resolution PNG: the same drawing, twice the pixels.
    const SequenceDiagram& diagram = *view.sequenceLayout().diagram();
    const SequenceRowRange rows{diagram.arrowOfFrame(1), diagram.arrowOfFrame(30) + 1};
    const QSizeF size = view.renderSize(rows);
    QImage twice((size * 2).toSize(), QImage::Format_ARGB32);
    QPainter painter(&twice);
    view.render(painter, QRectF(QPointF(0, 0), size * 2), rows);
    painter.end();
    CHECK(twice.pixelColor(twice.width() / 2, 4) == view.palette().color(QPalette::Base));
}

TEST_CASE("the dark palette draws light text on a dark ground", "[sequence][view]") {
    SequenceView view;
    view.setPalette(darkPalette());
    view.resize(1100, 800);
    view.showProxy(sampleResults(), 0, 1);
    const SequencePaintOptions options = view.paintOptions();
    const QImage image = renderSample(view, 1, 30, options);
    image.save(QStringLiteral("/tmp/sequence-dark.png"));
    CHECK(image.pixelColor(image.width() - 5, image.height() / 2) == QColor(30, 30, 30));
    CHECK(countPixels(image, QColor(230, 230, 230), 40) > 1000);
    CHECK(sequenceStallColor(options.palette).lightness() > 128);
}

TEST_CASE("the SVG export carries the labels as text", "[sequence][view][export]") {
    SequenceView view;
    view.resize(1100, 800);
    view.showProxy(sampleResults(), 0, 1);
    const SequenceDiagram& diagram = *view.sequenceLayout().diagram();
    const SequenceRowRange rows{diagram.arrowOfFrame(18), diagram.arrowOfFrame(24) + 1};
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    const QSizeF size = view.renderSize(rows);
    svg.setSize(size.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), size));
    QPainter painter(&svg);
    view.render(painter, QRectF(QPointF(0, 0), size), rows);
    painter.end();
    // The words of all text elements, in order: wrapped lines are separate elements.
    QString text;
    const QString svgText = QString::fromUtf8(buffer.data());
    static const QRegularExpression element(QStringLiteral("<text[^>]*>([^<]*)</text>"));
    for (auto match = element.globalMatch(svgText); match.hasNext();) {
        text += match.next().captured(1) + QLatin1Char(' ');
    }
    text = text.simplified();
    CHECK(text.contains(QStringLiteral("35 bytes held by Nagle for 46.4 ms until the delayed ACK")));
    CHECK(text.contains(QStringLiteral("[P.] seq=292 ack=164 len=35")));
    CHECK(text.contains(QStringLiteral("proxy")));
    CHECK_FALSE(text.contains(QStringLiteral("[F.]")));  // rows outside the range are not drawn
}

TEST_CASE("the sequence diagram draws the same arrows as the Mermaid text, in the same order",
          "[sequence][view][mermaid]") {
    const SequenceLayout layout = SequenceLayout::ofProxy(sampleResults(), 0, 1);
    const SequenceDrawList list = layout.prepare(QRectF(0, 0, layout.scale().width, layout.totalHeight()));
    MermaidOptions options;
    options.maxArrows = 100'000;
    const QStringList lines =
        QString::fromStdString(mermaidSequence(*layout.diagram(), options)).split(QLatin1Char('\n'));
    QStringList mermaidArrows;
    for (const QString& line : lines) {
        if (line.contains(QStringLiteral("->>"))) {
            mermaidArrows << line.trimmed();
        }
    }
    REQUIRE(static_cast<size_t>(mermaidArrows.size()) == list.arrows.size());
    const std::vector<double> xs = layout.lifelineXs();
    const QString aliases = QStringLiteral("CPS");
    for (size_t i = 0; i < list.arrows.size(); ++i) {
        const auto& arrow = list.arrows[i];
        const auto from = static_cast<int>(std::find(xs.begin(), xs.end(), arrow.start.x()) - xs.begin());
        const auto to = static_cast<int>(std::find(xs.begin(), xs.end(), arrow.end.x()) - xs.begin());
        const QString expected = QStringLiteral("%1->>%2: %3").arg(aliases[from], aliases[to], arrow.label);
        INFO("arrow " << i);
        CHECK(mermaidArrows[static_cast<int>(i)] == expected);
    }
}

TEST_CASE("the view finds the proxy, scrolls to frames and reports clicks", "[sequence][view]") {
    SequenceView view;
    view.resize(1000, 600);
    int changed = 0;
    QObject::connect(&view, &SequenceView::diagramChanged, [&changed]() { ++changed; });
    view.showConnection(sampleResults(), 1);  // the proxy's side to the server: the partner is found
    REQUIRE(view.sequenceLayout().diagram() != nullptr);
    CHECK(view.sequenceLayout().diagram()->isProxy());
    CHECK(view.sequenceLayout().diagram()->connections() == std::vector<uint32_t>{0, 1});
    CHECK(changed == 1);

    view.setAutoProxy(false);
    view.showConnection(sampleResults(), 1);
    CHECK_FALSE(view.sequenceLayout().diagram()->isProxy());
    view.setAutoProxy(true);
    view.showConnection(sampleResults(), 0);

    // A frame late in the capture is brought into view and selected.
    const SequenceDiagram& diagram = *view.sequenceLayout().diagram();
    const uint32_t lateFrame = diagram.arrows()[400].frame;
    view.scrollToFrame(lateFrame);
    CHECK(view.selectedArrow() == 400);
    const SequenceRowRange visible = view.visibleRows();
    CHECK(visible.first <= 400);
    CHECK(visible.end > 400);
    CHECK(view.verticalScrollBar()->value() > 0);

    // Clicking the arrow in the middle of its column selects it and names its packet.
    std::vector<size_t> clicked;
    QObject::connect(&view, &SequenceView::packetClicked, [&clicked](size_t packet) { clicked.push_back(packet); });
    const SequenceLayout& layout = view.sequenceLayout();
    const std::vector<double> xs = layout.lifelineXs();
    const size_t target = visible.first + 1;
    const SequenceArrow& arrow = diagram.arrows()[target];
    const double x = (xs[arrow.from] + xs[arrow.to]) / 2;
    const double y =
        layout.rowY(target) + 3 - view.verticalScrollBar()->value() + sequenceHeaderHeight(view.paintOptions());
    QMouseEvent press(QEvent::MouseButtonPress, QPointF(x, y), view.viewport()->mapToGlobal(QPointF(x, y)),
                      Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view.viewport(), &press);
    REQUIRE(clicked.size() == 1);
    CHECK(clicked[0] == arrow.packet);
    CHECK(view.selectedArrow() == target);

    // Zoom keeps the time in the middle of the view where it was.
    const double before = view.pixelsPerMs();
    view.zoomIn();
    CHECK(view.pixelsPerMs() == Approx(before * 1.25));
    view.scrollToTime(diagram.arrows()[target].tsNs);
    CHECK(view.visibleRows().first <= target);
    CHECK(view.visibleRows().end > target);

    // Compression changes nothing in this capture (no silence over 200 ms) but keeps the place.
    const double height = view.sequenceLayout().totalHeight();
    view.setCompressGaps(false);
    CHECK(view.sequenceLayout().totalHeight() == Approx(height));

    view.clear();
    CHECK(view.sequenceLayout().isEmpty());
    QImage empty(400, 300, QImage::Format_ARGB32);
    view.viewport()->render(&empty);  // the empty view paints a hint and does not crash
}

TEST_CASE("partial results show nothing instead of crashing", "[sequence][view]") {
    SequenceView view;
    view.showConnection(nullptr, 0);
    CHECK(view.sequenceLayout().isEmpty());
    view.showProxy(sampleResults(), 0, 0);
    CHECK(view.sequenceLayout().isEmpty());
    view.showConnection(sampleResults(), 99);
    CHECK(view.sequenceLayout().isEmpty());
    view.scrollToFrame(5);
    view.scrollToTime(0);
    CHECK(view.selectedArrow() == kNoArrow);
}

TEST_CASE("syscalls given to the view are drawn beside their lifeline", "[sequence][view]") {
    SequenceView view;
    view.resize(1100, 800);
    view.showProxy(sampleResults(), 0, 1);
    const SequenceDiagram& diagram = *view.sequenceLayout().diagram();
    const std::vector<double> before = view.sequenceLayout().lifelineXs();
    const int64_t write128 = diagram.arrows()[diagram.arrowOfFrame(20)].tsNs - 30'000;
    view.setSyscalls({{write128, 5'000, QStringLiteral("write(5, 128) = 128"), 1, EventKind::Write},
                      {write128 + 40'000, 2'000, QStringLiteral("write(5, 35) = 35"), 1, EventKind::Write},
                      {write128 + 60'000, 46'000'000, QStringLiteral("epoll_wait(4) = 1"), 1, EventKind::Wait}});
    REQUIRE(view.sequenceLayout().syscalls().size() == 3);
    // Room for their labels: the proxy's column to the server leaves a lane free for them.
    const auto [left, right] = view.sequenceLayout().columnTextSpan(1, 2);
    CHECK(left >= before[1] + SequenceLayout::kSyscallLane);
    CHECK(right > left + 150);
    CHECK(view.sequenceLayout().lifelineXs() == before);  // the outer margins stay

    // A new diagram keeps them (they belong to the traced process, not to one connection).
    view.showProxy(sampleResults(), 0, 1);
    CHECK(view.sequenceLayout().syscalls().size() == 3);

    SequencePaintOptions options = view.paintOptions();
    const QImage image = renderSample(view, 18, 24, options);
    image.save(QStringLiteral("/tmp/sequence-syscalls.png"));
    CHECK(countPixels(image, options.palette.color(QPalette::Link), 30) > 100);
    view.setSyscalls({});
    CHECK(view.sequenceLayout().syscalls().empty());
}

TEST_CASE("the Mermaid text names the system calls the sequence diagram draws beside each lifeline, in order",
          "[sequence][view][mermaid]") {
    CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {});
    StraceAlignment alignment = loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.strace"}, analysis, {});
    const ResultsPtr results = AnalysisResults::complete(std::move(analysis), std::move(alignment));
    SequenceLayout layout = SequenceLayout::ofProxy(results, 0, 1);
    layout.setSyscalls(sequenceSyscalls(*results->alignment(), *layout.diagram()));
    REQUIRE(layout.syscalls().size() > 100);
    const std::vector<DiagramSyscall> calls = diagramSyscalls(*results->alignment(), *layout.diagram());
    MermaidOptions options;
    options.maxArrows = 100'000;
    options.syscalls = &calls;
    const QStringList lines =
        QString::fromStdString(mermaidSequence(*layout.diagram(), options)).split(QLatin1Char('\n'));
    const QString aliases = QStringLiteral("CPS");
    for (int lifeline = 0; lifeline < 3; ++lifeline) {
        // The sequence diagram's labels on this lifeline, in time order, against the notes' calls in text order.
        QStringList drawn;
        for (const SequenceSyscall& call : layout.syscalls()) {
            if (call.lifeline == lifeline) {
                drawn << call.label;
            }
        }
        const QString prefix =
            QStringLiteral("Note %1 of %2: ").arg(lifeline == 0 ? QStringLiteral("left") : QStringLiteral("right"))
                .arg(aliases[lifeline]);
        QStringList written;
        for (const QString& line : lines) {
            if (line.trimmed().startsWith(prefix)) {
                written << line.trimmed().mid(prefix.size()).split(QStringLiteral(", "));
            }
        }
        INFO("lifeline " << lifeline);
        CHECK(written == drawn);
    }
    // The proxy's sendto(35) calls, the ones Nagle held, are written beside it.
    CHECK(std::count_if(lines.begin(), lines.end(), [](const QString& line) {
              return line.startsWith(QStringLiteral("    Note right of P: ")) && line.contains(QStringLiteral("sendto 35 B"));
          }) >= 39);
}
