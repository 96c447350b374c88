#include "timeline/timeline_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "finding/finding_kind.hpp"
#include "finding/wording.hpp"
#include "timeline/timeline_population.hpp"

namespace tcpscope::ui {

namespace {

constexpr double kTextPadPx = 4;
constexpr double kLabelGapPx = 12;        // between two stall labels of a lane
constexpr double kClusterGapPx = 24;      // stalls closer than this share one label
constexpr double kInstantHalfWidthPx = 3.5;  // a finding that cost no time: a tick this far either side
constexpr double kMinElidedLabelPx = 60;  // a label cut shorter than this says nothing
constexpr double kGroupIndentPx = 14;
constexpr double kHeaderSpanPx = 5;  // a group header's findings: a bar between its label and its strip

}  // namespace

std::string_view stallGroupTitle(StallGroup group) {
    switch (group) {
        case StallGroup::NagleDelayedAck: return findingKindTitle(FindingKind::DelayedAckStall);
        case StallGroup::RetransmissionTimeout: return findingKindTitle(FindingKind::RetransmissionStall);
        case StallGroup::ZeroWindow: return findingKindTitle(FindingKind::ZeroWindowStall);
        case StallGroup::PortReuse: return findingKindTitle(FindingKind::PortReuse);
        case StallGroup::SynBacklog: return findingKindTitle(FindingKind::SynBacklogOverflow);
        case StallGroup::PortExhaustion: return findingKindTitle(FindingKind::PortExhaustion);
        case StallGroup::TimeWait: return findingKindTitle(FindingKind::TimeWaitChurn);
        case StallGroup::Other: break;
    }
    return stallGroupLabel(group);
}

namespace {

std::string stallLabel(StallGroup cause, uint32_t count, int64_t lostNs) {
    // Some findings mark an instant (a port reuse, TIME_WAIT churn): no duration to tell.
    if (count == 1) {
        return lostNs > 0 ? fmt::format("{} {}", stallGroupTitle(cause), formatDuration(lostNs))
                          : std::string(stallGroupTitle(cause));
    }
    return lostNs > 0 ? fmt::format("{} × {} · {}", count, stallGroupTitle(cause), formatDuration(lostNs))
                      : fmt::format("{} × {}", count, stallGroupTitle(cause));
}

// Lays out one frame; a class only to share the viewport, the model and the output.
class FrameBuilder {
public:
    FrameBuilder(const TimelineModel& model, const TimelineViewport& viewport)
        : model_(model), viewport_(viewport), lineHeight_(viewport.metrics.lineHeightPx) {}

    TimelineFrame build() {
        const double rulerHeight = rulerHeightPx(lineHeight_);
        const double legendHeight = viewport_.legend ? legendHeightPx(lineHeight_) : 0;
        const double gutter = std::clamp(viewport_.gutterPx, 0.0, viewport_.widthPx * 0.6);
        frame_.plot = {gutter, rulerHeight, std::max(viewport_.widthPx - gutter, 1.0),
                       std::max(viewport_.heightPx - rulerHeight - legendHeight, 0.0)};
        frame_.lanesClip = {0, rulerHeight, viewport_.widthPx, frame_.plot.h};
        frame_.axis = viewport_.axis.withLeft(gutter);
        visible_ = frame_.axis.visible(frame_.plot.w);

        collectRows();
        addBackgrounds();
        addRuler();
        for (LayoutRow& row : frame_.rows) {
            addRowContent(row);
        }
        if (viewport_.legend) {
            addLegend(legendHeight);
        }
        return std::move(frame_);
    }

private:
    [[nodiscard]] double textWidth(const std::string& text) const { return viewport_.metrics.width(text); }

    void collectRows() {
        const std::vector<LaneRow>& rows = model_.rows();
        const double scroll = viewport_.scrollYPx;
        // The plot's part to lay out, in its own coordinates: all of it, or what the clip leaves.
        const double fromPx = std::max(0.0, viewport_.drawFromPx - frame_.plot.y);
        const double toPx = std::min(frame_.plot.h, viewport_.drawToPx - frame_.plot.y);
        auto first = std::upper_bound(rows.begin(), rows.end(), scroll + fromPx,
                                      [](double y, const LaneRow& row) { return y < row.topPx; });
        if (first != rows.begin()) {
            --first;
        }
        for (auto row = first; row != rows.end() && row->topPx - scroll < toPx; ++row) {
            if (row->topPx + row->heightPx <= scroll + fromPx) {
                continue;
            }
            LayoutRow laid;
            laid.row = static_cast<uint32_t>(row - rows.begin());
            laid.kind = row->kind;
            laid.index = row->index;
            const double top = frame_.plot.y + row->topPx - scroll;
            laid.rect = {0, top, viewport_.widthPx, row->heightPx};
            if (row->kind == RowKind::Extra || row->kind == RowKind::Population) {
                laid.markBand = {frame_.plot.x, top + 3, frame_.plot.w, std::max(row->heightPx - 6, 2.0)};
            } else {
                // A group header keeps room for its findings' bar above its density strip.
                const double bandTop = top + lineHeight_ + 4 + (row->kind == RowKind::GroupHeader ? kHeaderSpanPx + 1 : 0);
                laid.markBand = {frame_.plot.x, bandTop, frame_.plot.w,
                                 std::max(top + row->heightPx - 3 - bandTop, 4.0)};
            }
            frame_.rows.push_back(laid);
        }
    }

    void addBackgrounds() {
        for (const LayoutRow& row : frame_.rows) {
            if (row.kind == RowKind::GroupHeader) {
                frame_.boxes.push_back({row.rect, BoxRole::GroupHeader});
            } else if (row.kind == RowKind::Connection && row.index == viewport_.selectedConnection) {
                frame_.boxes.push_back({row.rect, BoxRole::LaneSelected});
            } else if (row.row % 2 == 1) {
                frame_.boxes.push_back({row.rect, BoxRole::LaneStripe});
            }
        }
        // Shade the time outside the capture, so the ends of the data are obvious.
        const TimeRange capture = model_.captureRange();
        const LayoutRect& plot = frame_.plot;
        const double startX = std::clamp(frame_.axis.toX(capture.startNs), plot.x, plot.right());
        const double endX = std::clamp(frame_.axis.toX(capture.endNs), plot.x, plot.right());
        if (startX > plot.x) {
            frame_.boxes.push_back({{plot.x, plot.y, startX - plot.x, plot.h}, BoxRole::OutsideCapture});
        }
        if (endX < plot.right()) {
            frame_.boxes.push_back({{endX, plot.y, plot.right() - endX, plot.h}, BoxRole::OutsideCapture});
        }
    }

    void addRuler() {
        const LayoutRect& plot = frame_.plot;
        const double rowHeight = lineHeight_ + 4;
        const double rulerHeight = plot.y;
        frame_.chromeBoxes.push_back({{0, 0, viewport_.widthPx, rulerHeight}, BoxRole::RulerBackground});
        if (model_.rows().empty() && model_.captureRange() == TimeRange{}) {
            return;  // nothing open: no clock to show (it would read 1970)
        }
        const auto measure = [this](const std::string& text) { return textWidth(text); };
        const int64_t captureStart = model_.captureRange().startNs;

        const RulerTicks clock = rulerTicks(frame_.axis, plot.w, captureStart, true, measure);
        const RulerTicks relative = rulerTicks(frame_.axis, plot.w, captureStart, false, measure);
        frame_.chromeTexts.push_back({{kTextPadPx, 2, plot.x - 2 * kTextPadPx, lineHeight_},
                                      fmt::format("{} UTC", formatDateUtc(visible_.startNs)),
                                      TextRole::RulerCaption});
        frame_.chromeTexts.push_back({{kTextPadPx, rowHeight + 2, plot.x - 2 * kTextPadPx, lineHeight_},
                                      "since capture start",
                                      TextRole::RulerCaption});
        const auto addTicks = [&](const RulerTicks& ticks, double top, TextRole role) {
            for (const RulerTick& tick : ticks.ticks) {
                if (tick.x < plot.x || tick.x > plot.right()) {
                    continue;
                }
                frame_.chromeLines.push_back({tick.x, top, tick.x, top + rowHeight, LineRole::RulerTick});
                const double width = textWidth(tick.label);
                if (tick.x + 3 + width <= viewport_.widthPx) {
                    frame_.chromeTexts.push_back({{tick.x + 3, top + 2, width + 1, lineHeight_}, tick.label, role});
                }
            }
        };
        addTicks(clock, 0, TextRole::RulerAbsolute);
        addTicks(relative, rowHeight, TextRole::RulerRelative);
        frame_.chromeLines.push_back(
            {0, rulerHeight - 0.5, viewport_.widthPx, rulerHeight - 0.5, LineRole::RulerBaseline});
        frame_.chromeLines.push_back({plot.x - 0.5, plot.y, plot.x - 0.5, plot.bottom(), LineRole::LaneSeparator});
        for (const RulerTick& tick : relative.ticks) {
            if (tick.x >= plot.x && tick.x <= plot.right()) {
                frame_.lines.push_back({tick.x, plot.y, tick.x, plot.bottom(), LineRole::GridLine});
            }
        }
        if (viewport_.cursorTsNs != kNoTime) {
            const double x = frame_.axis.toX(viewport_.cursorTsNs);
            if (x >= plot.x && x <= plot.right()) {
                frame_.chromeLines.push_back({x, 0, x, plot.bottom(), LineRole::Cursor});
            }
        }
    }

    void addRowContent(LayoutRow& row) {
        row.firstMark = frame_.marks.size();
        row.firstSpan = frame_.spans.size();
        switch (row.kind) {
            case RowKind::Connection: {
                const ConnectionLane& lane = model_.connections()[row.index];
                const auto group = model_.groupOfConnection(lane.connection);
                const bool underHeader = group && model_.groups()[*group].members > 1;
                const double indent = underHeader || (group && model_.grouping() != LaneGrouping::ClientToServer)
                                          ? kGroupIndentPx
                                          : 0;
                addGutterLines(row, fmt::format("#{}  {}", lane.connection, lane.clientText()),
                               fmt::format("→ {}", lane.serverText()), TextRole::LaneLabel, indent,
                               lane.point.empty() ? std::string() : "at " + lane.point);
                addContent(row, lane.content, lane.state == ConnectionState::Reset);
                const LayoutRect& band = row.markBand;
                const double half = std::max(band.h / 2 - 1, 1.0);
                foldTrack(model_.packets(lane.connection, false), row, band.y, half, MarkSource::Packet);
                foldTrack(model_.packets(lane.connection, true), row, band.y + band.h - half, half, MarkSource::Packet);
                break;
            }
            case RowKind::GroupHeader: {
                // The population at a glance: its density strip under its stalls' labels.
                addGutterLines(row, (model_.groupCollapsed(row.index) ? "▸ " : "▾ ") + model_.groupLabel(row.index),
                               model_.groupDetail(row.index), TextRole::GroupLabel, 0);
                layoutDensityStrip(model_, row.index, row.markBand, frame_);
                addSpans(row, model_.groups()[row.index].content);
                // Its findings as a thin bar over the strip, which they would hide.
                for (size_t span = row.firstSpan; span < frame_.spans.size(); ++span) {
                    frame_.spans[span].rect.y = row.markBand.y - kHeaderSpanPx - 1;
                    frame_.spans[span].rect.h = kHeaderSpanPx;
                }
                addStallLabels(row);
                break;
            }
            case RowKind::Population: {
                const PopulationRowKey population = PopulationRowKey::of(row.index);
                PopulationRowLabel label = populationRowLabel(model_, population);
                std::string scale = layoutPopulationRow(model_, population, row, frame_);
                addGutterLines(row, std::move(label.title), std::move(label.detail), TextRole::LaneLabel, 0,
                               std::move(scale));
                break;
            }
            case RowKind::CaptureFindings: {
                const LaneContent& content = model_.captureFindings();
                // Its spans are the findings of no one connection (churn, a port pool's pauses...),
                // not stalls: counted as findings.
                std::vector<uint32_t> findings;
                for (const StallSpan& span : content.stalls) {
                    findings.push_back(span.finding);
                }
                std::sort(findings.begin(), findings.end());
                const auto distinct = static_cast<size_t>(std::unique(findings.begin(), findings.end()) - findings.begin());
                addGutterLines(row, "Capture-wide findings", plural(distinct, "finding", "findings"),
                               TextRole::LaneLabel, 0);
                addContent(row, content, false);
                break;
            }
            case RowKind::Extra: addExtraRow(row); break;
        }
        row.markEnd = frame_.marks.size();
        row.spanEnd = frame_.spans.size();
    }

    // Two lines of label; `right`, if any, right-aligned on the first line (a row's scale).
    void addGutterLines(const LayoutRow& row, std::string first, std::string second, TextRole role, double indent,
                        std::string right = {}) {
        const double x = kTextPadPx * 2 + indent;
        const double width = std::max(frame_.plot.x - x - kTextPadPx, 0.0);
        const double top = row.rect.y + std::max((row.rect.h - 2 * lineHeight_) / 2, 0.0);
        double firstWidth = width;
        if (!right.empty()) {
            const double rightWidth = std::min(textWidth(right) + 1, width / 2);
            firstWidth = std::max(width - rightWidth - kTextPadPx, 0.0);
            frame_.texts.push_back({{x + width - rightWidth, top, rightWidth, lineHeight_},
                                    std::move(right),
                                    TextRole::LaneDetail,
                                    true,
                                    StallGroup::Other,
                                    UINT32_MAX,
                                    row.row});
        }
        frame_.texts.push_back(
            {{x, top, firstWidth, lineHeight_}, std::move(first), role, false, StallGroup::Other, UINT32_MAX, row.row});
        frame_.texts.push_back({{x, top + lineHeight_, width, lineHeight_},
                                std::move(second),
                                TextRole::LaneDetail,
                                false,
                                StallGroup::Other,
                                UINT32_MAX,
                                row.row});
    }

    void addContent(const LayoutRow& row, const LaneContent& content, bool reset) {
        const LayoutRect& band = row.markBand;
        const LayoutRect& plot = frame_.plot;
        const double lifeY = band.y + band.h / 2 - 1;
        if (!content.stalls.empty() || content.lastTsNs > content.firstTsNs || row.kind == RowKind::Connection) {
            const double x1 = std::max(frame_.axis.toX(content.firstTsNs), plot.x);
            const double x2 = std::min(frame_.axis.toX(content.lastTsNs), plot.right());
            if (row.kind != RowKind::CaptureFindings && x2 >= plot.x && x1 <= plot.right()) {
                frame_.boxes.push_back({{x1, lifeY, std::max(x2 - x1, 1.0), 2}, BoxRole::LifeBar});
                if (reset && frame_.axis.toX(content.lastTsNs) <= plot.right()) {
                    frame_.boxes.push_back({{x2 - 1.5, band.y, 3, band.h}, BoxRole::ResetEnd});
                }
            }
        }
        addSpans(row, content);
        addStallLabels(row);
    }

    void foldTrack(const MarkTrack& track, const LayoutRow& row, double y, double height, MarkSource source) {
        folded_.clear();
        const FoldStats stats = track.fold(frame_.axis, frame_.plot.x, frame_.plot.right(), viewport_.foldPx, folded_);
        frame_.entriesVisited += stats.entriesVisited;
        for (const FoldedMark& mark : folded_) {
            frame_.marks.push_back({mark.x, mark.x2, y, height, mark.count, mark.style, source, row.row, mark.item,
                                    mark.firstTsNs, mark.lastTsNs});
        }
    }

    void addSpans(const LayoutRow& row, const LaneContent& content) {
        const LayoutRect& plot = frame_.plot;
        const LayoutRect& band = row.markBand;
        const size_t firstSpan = frame_.spans.size();
        for (size_t i = content.firstStallEndingAfter(visible_.startNs);
             i < content.stalls.size() && content.stalls[i].startNs <= visible_.endNs; ++i) {
            const StallSpan& stall = content.stalls[i];
            const double rawEnd = frame_.axis.toX(stall.endNs);
            if (rawEnd < plot.x) {
                continue;
            }
            // A finding that cost no time (a port reuse, TIME_WAIT churn) is a tick a few pixels
            // wide, so that it can be seen and clicked; a stall under a pixel is still 2 px wide.
            const bool instant = stall.endNs <= stall.startNs;
            const double startX = frame_.axis.toX(stall.startNs);
            const double x1 = std::max(instant ? startX - kInstantHalfWidthPx : startX, plot.x);
            const double x2 = std::min(instant ? startX + kInstantHalfWidthPx : std::max(rawEnd, x1 + 2), plot.right());
            const bool selected = stall.finding == viewport_.selectedFinding;
            if (frame_.spans.size() > firstSpan) {
                LayoutSpan& last = frame_.spans.back();
                if (last.cause == stall.cause && x1 < last.rect.x + viewport_.foldPx) {
                    last.rect.w = std::max(last.rect.right(), x2) - last.rect.x;
                    ++last.count;
                    last.endNs = std::max(last.endNs, stall.endNs);
                    last.lostNs += stall.endNs - stall.startNs;
                    last.selected = last.selected || selected;
                    last.instant = last.instant && instant;
                    continue;
                }
            }
            LayoutSpan span;
            span.rect = {x1, band.y - 1, x2 - x1, band.h + 2};
            span.cause = stall.cause;
            span.finding = stall.finding;
            span.instance = stall.instance;
            span.connection = stall.connection;
            span.startNs = stall.startNs;
            span.endNs = stall.endNs;
            span.lostNs = stall.endNs - stall.startNs;
            span.selected = selected;
            span.instant = instant;
            span.row = row.row;
            frame_.spans.push_back(span);
        }
    }

    // One label per stall when there is room, else one per cluster of stalls of the same cause
    // ("39 × Nagle + delayed ACK · 1733.5 ms"); labels never overlap.
    void addStallLabels(const LayoutRow& row) {
        const LayoutRect& plot = frame_.plot;
        const double top = row.rect.y + 2;
        double cursor = plot.x;
        const size_t end = frame_.spans.size();
        size_t first = row.firstSpan;
        while (first < end) {
            const LayoutSpan& start = frame_.spans[first];
            const double startX = std::max(start.rect.x, plot.x);
            uint32_t count = start.count;
            int64_t lost = start.lostNs;
            // A group header tells the wall-clock time its connections waited (the union of their
            // spans), not their waits added up: 18 handshakes waiting at once cost no 18 times as long.
            const bool wallClock = row.kind == RowKind::GroupHeader;
            int64_t unionEndNs = start.endNs;
            if (wallClock) {
                lost = start.endNs - start.startNs;
            }
            double clusterEnd = start.rect.right();
            std::string text = stallLabel(start.cause, count, lost);
            double textEnd = startX + textWidth(text);
            bool textStale = false;  // measured only when a span too far from the cluster asks (a folded
                                     // group header has thousands of spans; a width is a font lookup)
            size_t last = first;
            while (last + 1 < end) {
                const LayoutSpan& next = frame_.spans[last + 1];
                if (next.cause != start.cause) {
                    break;
                }
                if (next.rect.x >= clusterEnd + kClusterGapPx && textStale) {
                    text = stallLabel(start.cause, count, lost);
                    textEnd = startX + textWidth(text);
                    textStale = false;
                }
                if (next.rect.x >= std::max(clusterEnd + kClusterGapPx, textEnd + kLabelGapPx)) {
                    break;
                }
                ++last;
                count += next.count;
                if (wallClock) {
                    lost += std::max<int64_t>(next.endNs - std::max(next.startNs, unionEndNs), 0);
                    unionEndNs = std::max(unionEndNs, next.endNs);
                } else {
                    lost += next.lostNs;
                }
                clusterEnd = std::max(clusterEnd, next.rect.right());
                textStale = true;
            }
            if (textStale) {
                text = stallLabel(start.cause, count, lost);
            }
            const double x = std::max(startX, cursor);
            const double width = std::min(textWidth(text) + 1, plot.right() - x);
            if (width >= std::min(textWidth(text), kMinElidedLabelPx)) {
                frame_.texts.push_back({{x, top, width, lineHeight_},
                                        std::move(text),
                                        TextRole::StallLabel,
                                        false,
                                        start.cause,
                                        start.finding,
                                        row.row});
                cursor = x + width + kLabelGapPx;
            }
            first = last + 1;
        }
    }

    void addExtraRow(LayoutRow& row) {
        const ExtraLane& extra = model_.extraLanes()[row.index];
        const double x = kTextPadPx * 2;
        frame_.texts.push_back(
            {{x, row.rect.y + (row.rect.h - lineHeight_) / 2, frame_.plot.x - x - kTextPadPx, lineHeight_},
             extra.lane.label,
             TextRole::LaneLabel,
             false,
             StallGroup::Other,
             UINT32_MAX,
             row.row});
        // Waits as a thin bar through the middle, under the calls.
        foldTrack(extra.waits, row, row.markBand.y + row.markBand.h * 0.3, row.markBand.h * 0.4, MarkSource::Event);
        const size_t firstMark = frame_.marks.size();
        foldTrack(extra.events, row, row.markBand.y, row.markBand.h, MarkSource::Event);
        // Name the events that have room before the next one.
        for (size_t i = firstMark; i < frame_.marks.size(); ++i) {
            const LayoutMark& mark = frame_.marks[i];
            if (mark.count != 1 || mark.item >= extra.lane.events.size()) {
                continue;
            }
            const std::string& label = extra.lane.events[mark.item].label;
            const double room = (i + 1 < frame_.marks.size() ? frame_.marks[i + 1].x : frame_.plot.right()) - mark.x;
            const double width = textWidth(label);
            if (!label.empty() && width + 2 * kTextPadPx <= room) {
                frame_.texts.push_back(
                    {{mark.x + kTextPadPx, row.rect.y + (row.rect.h - lineHeight_) / 2, width + 1, lineHeight_},
                     label,
                     TextRole::EventLabel,
                     false,
                     StallGroup::Other,
                     UINT32_MAX,
                     row.row});
            }
        }
    }

    void addLegend(double legendHeight) {
        const double top = viewport_.heightPx - legendHeight;
        frame_.chromeBoxes.push_back({{0, top, viewport_.widthPx, legendHeight}, BoxRole::LegendBackground});
        frame_.chromeLines.push_back({0, top + 0.5, viewport_.widthPx, top + 0.5, LineRole::LegendSeparator});
        double x = kTextPadPx * 2;
        const double swatch = std::min(10.0, lineHeight_ - 2);
        const auto entry = [&](const std::string& label, uint16_t style, bool isCause, StallGroup cause,
                               BoxRole role = BoxRole::LegendSwatch) {
            const double width = swatch + kTextPadPx + textWidth(label);
            if (x + width > viewport_.widthPx - kTextPadPx) {
                x = viewport_.widthPx;  // no room: drop this and every later entry
                return;
            }
            LayoutBox box{{x, top + (legendHeight - swatch) / 2, swatch, swatch}, role, style, cause, isCause};
            frame_.chromeBoxes.push_back(box);
            frame_.chromeTexts.push_back(
                {{x + swatch + kTextPadPx, top + (legendHeight - lineHeight_) / 2, textWidth(label) + 1, lineHeight_},
                 label,
                 TextRole::LegendLabel});
            x += width + 3 * kTextPadPx;
        };
        if (viewport_.partial) {
            const std::string notice = "Loading: packets appear when the capture is read";
            frame_.chromeTexts.push_back(
                {{x, top + (legendHeight - lineHeight_) / 2, textWidth(notice) + 1, lineHeight_},
                 notice,
                 TextRole::Notice});
            x += textWidth(notice) + 4 * kTextPadPx;
        }
        const auto barEntry = [&](BarRole role) {
            entry(barRoleLabel(role), static_cast<uint16_t>(role), false, StallGroup::Other, BoxRole::BarSwatch);
        };
        if (model_.hasGroupHeaders()) {
            for (const BarRole role : {BarRole::SynWait, BarRole::Open, BarRole::Stalled, BarRole::TimeWait}) {
                barEntry(role);
            }
        }
        for (const StallGroup cause : model_.causesPresent()) {
            entry(std::string(stallGroupTitle(cause)), 0, true, cause);
        }
        if (!model_.populationRows().empty()) {
            for (const BarRole role : {BarRole::NewConnections, BarRole::SynRetransmissions, BarRole::PortsInUse}) {
                barEntry(role);
            }
        }
        entry("client → server", 0, false, StallGroup::Other);
        entry("server → client", markstyle::kFromServer, false, StallGroup::Other);
        entry("retransmission, RST", markstyle::kRetransmission, false, StallGroup::Other);
        entry("zero window", markstyle::kZeroWindow, false, StallGroup::Other);
        entry("dup ACK, out of order", markstyle::kAnomaly, false, StallGroup::Other);
        if (!model_.extraLanes().empty()) {
            entry("write", eventStyle(EventKind::Write), false, StallGroup::Other, BoxRole::ExtraEvent);
            entry("read", eventStyle(EventKind::Read), false, StallGroup::Other, BoxRole::ExtraEvent);
            entry("wait (poll, epoll)", eventStyle(EventKind::Wait), false, StallGroup::Other, BoxRole::ExtraEvent);
        }
    }

    const TimelineModel& model_;
    const TimelineViewport& viewport_;
    double lineHeight_;
    TimeRange visible_;
    TimelineFrame frame_;
    std::vector<FoldedMark> folded_;
};

}  // namespace

double LayoutMetrics::width(const std::string& text) const {
    if (textWidth) {
        return textWidth(text);
    }
    size_t characters = 0;
    for (const char c : text) {
        characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;  // UTF-8 lead bytes
    }
    return 7.0 * static_cast<double>(characters);
}

double rulerHeightPx(double lineHeightPx) {
    return 2 * (lineHeightPx + 4) + 1;
}

double legendHeightPx(double lineHeightPx) {
    return lineHeightPx + 10;
}

RowHeights rowHeightsFor(double lineHeightPx) {
    RowHeights heights;
    // Two lines of label in the gutter; in the plot, a line of stall labels over a packet band.
    heights.lanePx = std::round(std::max(2 * lineHeightPx + 14, lineHeightPx + 28));
    heights.extraPx = std::round(lineHeightPx + 10);
    heights.populationPx = std::round(2 * lineHeightPx + 6);
    // A label line, the findings' bar, and four density strips of at least 6 px.
    heights.groupPx = std::round(std::max(heights.lanePx, lineHeightPx + 4 + kHeaderSpanPx + 1 + 4 * 7 + 3));
    return heights;
}

TimelineFrame prepareTimeline(const TimelineModel& model, const TimelineViewport& viewport) {
    return FrameBuilder(model, viewport).build();
}

const LayoutRow* TimelineFrame::rowAt(double y) const {
    if (!lanesClip.contains(lanesClip.x, y)) {
        return nullptr;
    }
    for (const LayoutRow& row : rows) {
        if (y >= row.rect.y && y < row.rect.bottom()) {
            return &row;
        }
    }
    return nullptr;
}

TimelineHit TimelineFrame::hitTest(double x, double y) const {
    TimelineHit hit;
    if (y < plot.y) {
        hit.kind = y >= 0 ? HitKind::Ruler : HitKind::None;
        return hit;
    }
    const LayoutRow* row = rowAt(y);
    if (row == nullptr) {
        return hit;
    }
    hit.kind = HitKind::Lane;
    hit.row = row->row;
    hit.rowKind = row->kind;
    hit.rowIndex = row->index;
    hit.connection = row->kind == RowKind::Connection ? row->index : kNoConnection;
    if (x < plot.x) {
        hit.inGutter = true;
        return hit;
    }
    for (const LayoutText& text : texts) {
        if (text.role == TextRole::StallLabel && text.row == row->row && text.rect.contains(x, y)) {
            hit.kind = HitKind::Stall;
            hit.finding = text.finding;
            return hit;
        }
    }
    // The nearest mark within a few pixels, in the band it is drawn in.
    constexpr double kReachPx = 3;
    const LayoutMark* nearest = nullptr;
    double nearestDistance = kReachPx + 1;
    for (size_t i = row->firstMark; i < row->markEnd; ++i) {
        const LayoutMark& mark = marks[i];
        if (y < mark.y - 2 || y > mark.y + mark.h + 2) {
            continue;
        }
        const double distance = x < mark.x ? mark.x - x : (x > mark.x2 ? x - mark.x2 : 0.0);
        if (distance <= kReachPx && distance < nearestDistance) {
            nearest = &mark;
            nearestDistance = distance;
        }
    }
    if (nearest != nullptr) {
        hit.kind = nearest->source == MarkSource::Packet ? HitKind::Packets : HitKind::Events;
        hit.item = nearest->item;
        hit.count = nearest->count;
        hit.startNs = nearest->firstTsNs;
        hit.endNs = nearest->lastTsNs;
        return hit;
    }
    const LayoutSpan* narrowest = nullptr;
    for (size_t i = row->firstSpan; i < row->spanEnd; ++i) {
        const LayoutSpan& span = spans[i];
        if (x >= span.rect.x - 1 && x <= span.rect.right() + 1 && y >= span.rect.y - 2 && y <= span.rect.bottom() + 2 &&
            (narrowest == nullptr || span.rect.w < narrowest->rect.w)) {
            narrowest = &span;
        }
    }
    if (narrowest != nullptr) {
        hit.kind = HitKind::Stall;
        hit.finding = narrowest->finding;
        hit.instance = narrowest->instance;
        hit.count = narrowest->count;
        hit.startNs = narrowest->startNs;
        hit.endNs = narrowest->endNs;
        if (narrowest->connection != kNoConnection) {
            hit.connection = narrowest->connection;
        }
    }
    return hit;
}

}  // namespace tcpscope::ui
