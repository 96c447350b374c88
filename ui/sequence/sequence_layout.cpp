#include "sequence/sequence_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "models/packets_model.hpp"
#include "present/value_format.hpp"

namespace tcpscope::ui {

namespace {

constexpr double kTopPad = 10;
constexpr double kBracketOffset = 12;    // bar distance from the waiting lifeline
constexpr double kLabelInset = 26;       // bracket text distance from the lifelines
constexpr double kArrowLabelInset = 14;  // arrow label distance from the lifelines
constexpr double kBracketLabelHeight = 52;
constexpr double kMinBracketLabelWidth = 250;  // "35 bytes held by Nagle for 40.1 ms" in two lines at most
constexpr double kProofLineHeight = 30;
constexpr double kSyscallSpacing = 15;         // one line of syscall text
constexpr double kSyscallMaxShift = 45;        // labels pushed further than this from their time are folded
constexpr double kSyscallMargin = 170;         // side margin when syscalls are shown
constexpr double kLabelVisibilityMargin = 80;  // a bracket's text can reach beyond its span
constexpr double kMeasuredGapRows = 2.5;       // silences at least this many rows tall get their length written

constexpr double kDigitPx = 6.6;
constexpr double kMaxHeadroomPx = 400;  // above the first row, for arrows that left before it (capture points)  // a
                                        // digit of the time column's small font, with room to spare

double msOf(int64_t ns) {
    return static_cast<double>(ns) / 1e6;
}

// A stall's text, its kind named by its title ("Capture quality for 2.0 ms") rather than its code name.
QString plainStallText(const SequenceStall& stall) {
    QString text = QString::fromStdString(stall.text);
    const std::string_view name = findingKindName(stall.kind);
    const QString code = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    if (text.startsWith(code)) {
        const std::string_view title = findingKindTitle(stall.kind);
        text.replace(0, code.size(), QString::fromUtf8(title.data(), static_cast<qsizetype>(title.size())));
    }
    return text;
}

}  // namespace

SequenceLayout::SequenceLayout(ResultsPtr results, std::shared_ptr<const SequenceDiagram> diagram,
                               const SequenceScale& scale)
    : results_(std::move(results)), diagram_(std::move(diagram)) {
    if (results_ && diagram_ && results_->sightings() != nullptr) {
        pointTimes_ = pointTimesOf(*results_, *diagram_);
    }
    setScale(scale);
}

SequenceLayout SequenceLayout::ofConnection(ResultsPtr results, uint32_t connection, const SequenceScale& scale) {
    if (!results || results->packets() == nullptr || connection >= results->connections().size()) {
        return {};
    }
    auto diagram = std::make_shared<const SequenceDiagram>(
        SequenceDiagram::ofConnection(*results->packets(), results->connections()[connection], results->findings(),
                                      results->enrichments(), &results->connections()));
    return {std::move(results), std::move(diagram), scale};
}

SequenceLayout SequenceLayout::ofProxy(ResultsPtr results, uint32_t clientSide, uint32_t serverSide,
                                       const SequenceScale& scale) {
    if (!results || results->packets() == nullptr || clientSide >= results->connections().size() ||
        serverSide >= results->connections().size() || clientSide == serverSide) {
        return {};
    }
    auto diagram = std::make_shared<const SequenceDiagram>(
        SequenceDiagram::ofProxy(*results->packets(), results->connections()[clientSide],
                                 results->connections()[serverSide], results->findings(), results->enrichments(),
                                 &results->connections()));
    return {std::move(results), std::move(diagram), scale};
}

void SequenceLayout::setScale(const SequenceScale& scale) {
    scale_ = scale;
    scale_.pixelsPerMs = std::clamp(scale_.pixelsPerMs, SequenceScale::kMinPixelsPerMs, SequenceScale::kMaxPixelsPerMs);
    place();
}

void SequenceLayout::setSyscalls(std::vector<SequenceSyscall> syscalls) {
    syscalls_ = std::move(syscalls);
    std::stable_sort(syscalls_.begin(), syscalls_.end(),
                     [](const SequenceSyscall& a, const SequenceSyscall& b) { return a.tsNs < b.tsNs; });
    syscallLifelines_.assign(3, 0);
    for (const SequenceSyscall& syscall : syscalls_) {
        if (syscall.lifeline >= 0 && syscall.lifeline < 3) {
            syscallLifelines_[static_cast<size_t>(syscall.lifeline)] = 1;
        }
    }
}

QString sequenceTimeText(int64_t offsetNs) {
    const bool negative = offsetNs < 0;
    const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(offsetNs) : static_cast<uint64_t>(offsetNs);
    const uint64_t micros = (magnitude + 500) / 1000;
    const uint64_t seconds = micros / 1'000'000;
    const uint64_t fraction = micros % 1'000'000;
    const QString sign = negative ? QStringLiteral("-") : QString();
    const auto pad = [](uint64_t value, int width) { return QStringLiteral("%1").arg(value, width, 10, QLatin1Char('0')); };
    if (seconds < 60) {
        return sign + QStringLiteral("%1.%2").arg(seconds).arg(pad(fraction, 6));
    }
    if (seconds < 3600) {
        return sign + QStringLiteral("%1:%2.%3").arg(seconds / 60).arg(pad(seconds % 60, 2), pad(fraction, 6));
    }
    return sign + QStringLiteral("%1:%2:%3.%4")
                      .arg(seconds / 3600)
                      .arg(pad(seconds / 60 % 60, 2), pad(seconds % 60, 2), pad(fraction, 6));
}

double SequenceLayout::syscallLabelsBottom(size_t lifeline, double top, double bottom) const {
    double labelsBottom = top;
    double lastLabelY = -1e300;
    auto syscall = std::lower_bound(syscalls_.begin(), syscalls_.end(), timeAtY(top),
                                    [](const SequenceSyscall& s, int64_t ts) { return s.tsNs < ts; });
    for (; syscall != syscalls_.end(); ++syscall) {
        const double y = yOfTime(syscall->tsNs);
        if (y > bottom) {
            break;
        }
        if (syscall->lifeline != static_cast<int>(lifeline)) {
            continue;
        }
        const double labelY = std::max(y, lastLabelY + kSyscallSpacing);
        if (labelY - y > kSyscallMaxShift) {
            continue;  // folded into the label before it
        }
        lastLabelY = labelY;
        labelsBottom = std::max(labelsBottom, labelY + kSyscallSpacing / 2);
    }
    return labelsBottom;
}

std::pair<double, double> SequenceLayout::columnTextSpan(size_t a, size_t b, double inset) const {
    const std::vector<double> xs = lifelineXs();
    const size_t leftLifeline = std::min(a, b);
    const size_t rightLifeline = std::max(a, b);
    double left = xs.at(leftLifeline) + inset;
    // The syscalls of an inner lifeline are labelled on its right, inside this column.
    if (leftLifeline > 0 && leftLifeline < syscallLifelines_.size() && syscallLifelines_[leftLifeline] != 0) {
        left += kSyscallLane;
    }
    const double right = std::max(left + 40, xs.at(rightLifeline) - inset);
    return {left, right};
}

void SequenceLayout::place() {
    anchors_.clear();
    layoutTs_.clear();
    breaks_.clear();
    labelsBelow_.clear();
    stallReach_.clear();
    if (diagram_ == nullptr) {
        return;
    }
    const auto& arrows = diagram_->arrows();
    anchors_.resize(arrows.size());
    layoutTs_.resize(arrows.size());
    breaks_.assign(arrows.size(), 0);
    // A collision has packets inside its wait (the challenge ACK, the RST, the SYN again): its text
    // goes into its longest silence, which is made tall enough to hold it.
    const auto& stalls = diagram_->stalls();
    stallQuietRow_.assign(stalls.size(), kNoArrow);
    std::vector<size_t> roomyRows;
    for (size_t i = 0; i < stalls.size(); ++i) {
        const SequenceStall& stall = stalls[i];
        if (stall.kind != FindingKind::PortReuse || stall.endArrow <= stall.startArrow + 1) {
            continue;
        }
        size_t quiet = stall.startArrow + 1;
        for (size_t row = quiet + 1; row <= stall.endArrow; ++row) {
            if (arrows[row].tsNs - arrows[row - 1].tsNs > arrows[quiet].tsNs - arrows[quiet - 1].tsNs) {
                quiet = row;
            }
        }
        stallQuietRow_[i] = quiet;
        roomyRows.push_back(quiet);
    }
    std::sort(roomyRows.begin(), roomyRows.end());
    const double roomyHeight = scale_.slopePx + 6 + kBracketLabelHeight + kLabelHeight + 4;
    double y = kTopPad + kLabelHeight;
    int64_t previousTs = arrows.empty() ? 0 : arrows.front().tsNs;
    // Capture points: an arrow can leave its sender's point before the first row's time.
    int64_t earliestSentNs = previousTs;
    for (const SequencePointTimes::ArrowTimes& times : pointTimes_.arrows) {
        if (times.sentNs != SequencePointTimes::kUnseen) {
            earliestSentNs = std::min(earliestSentNs, times.sentNs);
        }
    }
    y += std::min(kMaxHeadroomPx, msOf(previousTs - earliestSentNs) * scale_.pixelsPerMs);
    for (size_t row = 0; row < arrows.size(); ++row) {
        // A clock that steps back must not move an arrow up: time runs down, always.
        const int64_t ts = std::max(arrows[row].tsNs, previousTs);
        if (row > 0) {
            const int64_t gapNs = ts - previousTs;
            if (scale_.compressGaps && gapNs > scale_.gapThresholdNs) {
                y += scale_.rowHeight + scale_.breakHeight;
                breaks_[row] = 1;
            } else {
                const bool roomy = std::binary_search(roomyRows.begin(), roomyRows.end(), row);
                y += std::max({scale_.rowHeight, msOf(gapNs) * scale_.pixelsPerMs, roomy ? roomyHeight : 0.0});
            }
        }
        anchors_[row] = y;
        layoutTs_[row] = ts;
        previousTs = ts;
    }
    // The left column grows with the longest time and frame number it has to show.
    const int64_t originTs = results_ ? results_->firstTsNs() : 0;
    uint32_t lastFrame = 0;
    qsizetype timeChars = 8;
    for (const SequenceArrow& arrow : arrows) {
        lastFrame = std::max(lastFrame, arrow.frame);
    }
    if (!arrows.empty()) {
        timeChars = std::max({timeChars, sequenceTimeText(arrows.front().tsNs - originTs).size(),
                              sequenceTimeText(layoutTs_.back() - originTs).size()});
    }
    frameColumn_ = std::max(40.0, static_cast<double>(QString::number(lastFrame).size() + 1) * kDigitPx + 2);
    timeGutter_ = std::max(kTimeGutter, static_cast<double>(timeChars) * kDigitPx + 6 + frameColumn_ + 4);
    stallReach_.resize(stalls.size());
    size_t reach = 0;
    for (size_t i = 0; i < stalls.size(); ++i) {
        reach = std::max(reach, stalls[i].endArrow);
        stallReach_[i] = reach;
    }
    reachAbovePx_ = 0;
    reachBelowPx_ = scale_.slopePx;
    tailPx_ = scale_.rowHeight;
    if (!pointTimes_.empty() && !arrows.empty()) {
        // The last arrows can end later than the last row: the diagram reaches down to them.
        tailPx_ = std::numeric_limits<double>::max() / 4;
        double lowest = anchors_.back();
        const std::vector<double> xs(diagram_->participants().size(), 0.0);
        for (size_t row = 0; row < arrows.size(); ++row) {
            const auto [start, end] = arrowEnds(row, xs);
            reachAbovePx_ = std::max(reachAbovePx_, anchors_[row] - std::min(start.y(), end.y()));
            reachBelowPx_ = std::max(reachBelowPx_, std::max(start.y(), end.y()) - anchors_[row]);
            lowest = std::max(lowest, end.y());
        }
        tailPx_ = std::max(scale_.rowHeight, lowest - anchors_.back() + 8);
        placeLabels(xs);
    }
}

void SequenceLayout::placeLabels(const std::vector<double>& xs) {
    const auto& arrows = diagram_->arrows();
    labelsBelow_.assign(arrows.size(), 0);
    // A label runs along its line, above it (or under it), inside its column. Two lines of one
    // column can run close or cross (an ACK and the data that left the other way while it was in
    // flight): the later one's label goes under its line when above it would touch the label before.
    struct PlacedLabel {
        double leftY = 0;   // the line's y at the column's left lifeline
        double rightY = 0;  // and at its right one
        bool below = false;
    };
    const auto bandAt = [](const PlacedLabel& label, double t) {
        const double y = label.leftY + t * (label.rightY - label.leftY);
        return label.below ? std::pair{y, y + kLabelHeight} : std::pair{y - kLabelHeight, y};
    };
    const auto touches = [&](const PlacedLabel& earlier, const PlacedLabel& later) {
        // Along the middle of the column, where labels are written (clear of the lifelines).
        for (const double t : {0.15, 0.3, 0.5, 0.7, 0.85}) {
            const auto [earlierTop, earlierBottom] = bandAt(earlier, t);
            const auto [laterTop, laterBottom] = bandAt(later, t);
            if (laterTop < earlierBottom - 2 && earlierTop < laterBottom - 2) {
                return true;
            }
        }
        return false;
    };
    std::map<std::pair<size_t, size_t>, PlacedLabel> lastLabel;  // per column (pair of lifelines)
    for (size_t row = 0; row < arrows.size(); ++row) {
        const auto [start, end] = arrowEnds(row, xs);
        const bool rightwards = arrows[row].from < arrows[row].to;
        PlacedLabel label{rightwards ? start.y() : end.y(), rightwards ? end.y() : start.y(), false};
        const std::pair<size_t, size_t> column{std::min(arrows[row].from, arrows[row].to),
                                               std::max(arrows[row].from, arrows[row].to)};
        const auto last = lastLabel.find(column);
        label.below = last != lastLabel.end() && touches(last->second, label);
        labelsBelow_[row] = label.below ? 1 : 0;
        lastLabel[column] = label;
        if (label.below) {
            reachBelowPx_ = std::max(reachBelowPx_, std::max(start.y(), end.y()) + kLabelHeight - anchors_[row]);
        }
    }
}

std::pair<QPointF, QPointF> SequenceLayout::arrowEnds(size_t row, const std::vector<double>& xs) const {
    const SequenceArrow& arrow = diagram_->arrows()[row];
    double startY = anchors_[row];
    double endY = startY + scale_.slopePx;
    if (row < pointTimes_.arrows.size()) {
        const SequencePointTimes::ArrowTimes& times = pointTimes_.arrows[row];
        const bool sent = times.sentNs != SequencePointTimes::kUnseen;
        const bool received = times.receivedNs != SequencePointTimes::kUnseen;
        if (sent) {
            startY = yOfTime(times.sentNs);
            endY = received ? yOfTime(times.receivedNs) : startY + scale_.slopePx;
        } else if (received) {
            endY = yOfTime(times.receivedNs);
            startY = endY - scale_.slopePx;
        }
    }
    return {QPointF(xs[arrow.from], startY), QPointF(xs[arrow.to], endY)};
}

double SequenceLayout::totalHeight() const {
    return anchors_.empty() ? kTopPad + scale_.rowHeight : anchors_.back() + tailPx_;
}

double SequenceLayout::yOfTime(int64_t tsNs) const {
    if (anchors_.empty()) {
        return 0;
    }
    const double pxPerNs = scale_.pixelsPerMs / 1e6;
    const auto found = std::lower_bound(layoutTs_.begin(), layoutTs_.end(), tsNs);
    const auto row = static_cast<size_t>(found - layoutTs_.begin());
    if (row == 0) {
        return std::max(0.0, anchors_.front() - static_cast<double>(layoutTs_.front() - tsNs) * pxPerNs);
    }
    if (row == anchors_.size()) {
        return std::min(totalHeight(), anchors_.back() + static_cast<double>(tsNs - layoutTs_.back()) * pxPerNs);
    }
    const double fraction =
        static_cast<double>(tsNs - layoutTs_[row - 1]) / static_cast<double>(layoutTs_[row] - layoutTs_[row - 1]);
    return anchors_[row - 1] + fraction * (anchors_[row] - anchors_[row - 1]);
}

int64_t SequenceLayout::timeAtY(double y) const {
    if (anchors_.empty()) {
        return results_ ? results_->firstTsNs() : 0;
    }
    const double nsPerPx = 1e6 / scale_.pixelsPerMs;
    const auto found = std::lower_bound(anchors_.begin(), anchors_.end(), y);
    const auto row = static_cast<size_t>(found - anchors_.begin());
    if (row == 0) {
        return layoutTs_.front() - static_cast<int64_t>((anchors_.front() - y) * nsPerPx);
    }
    if (row == anchors_.size()) {
        return layoutTs_.back() + static_cast<int64_t>((y - anchors_.back()) * nsPerPx);
    }
    const double fraction = (y - anchors_[row - 1]) / (anchors_[row] - anchors_[row - 1]);
    return layoutTs_[row - 1] +
           static_cast<int64_t>(std::llround(fraction * static_cast<double>(layoutTs_[row] - layoutTs_[row - 1])));
}

SequenceRowRange SequenceLayout::rowsIn(double top, double bottom) const {
    const double below = reachBelowPx_ + 4;  // an arrow reaches this far under its anchor
    const auto first = std::lower_bound(anchors_.begin(), anchors_.end(), top - below);
    const auto end = std::lower_bound(first, anchors_.end(), bottom + kLabelHeight + reachAbovePx_);
    return {static_cast<size_t>(first - anchors_.begin()), static_cast<size_t>(end - anchors_.begin())};
}

QRectF SequenceLayout::contentRect(SequenceRowRange rows) const {
    rows.end = std::min(rows.end, anchors_.size());
    if (rows.empty()) {
        return {0, 0, scale_.width, 0};
    }
    // A row reaches from its label's top to its arrow's tip; the next row's label starts below.
    const double top = std::max(0.0, anchors_[rows.first] - kLabelHeight - 4 - reachAbovePx_);
    const double bottom = anchors_[rows.end - 1] + reachBelowPx_ + 5;
    return {0, top, scale_.width, bottom - top};
}

std::vector<double> SequenceLayout::lifelineXs() const {
    std::vector<double> xs;
    if (diagram_ == nullptr) {
        return xs;
    }
    const size_t count = diagram_->participants().size();
    // The outer lifelines' syscalls are labelled outside them: only then is their margin wide.
    auto hasSyscalls = [this](size_t lifeline) {
        return lifeline < syscallLifelines_.size() && syscallLifelines_[lifeline] != 0;
    };
    const double left = timeGutter_ + (hasSyscalls(0) ? kSyscallMargin : kSideMargin);
    const double right = std::max(left + 200.0, scale_.width - (hasSyscalls(count - 1) ? kSyscallMargin : kSideMargin));
    for (size_t i = 0; i < count; ++i) {
        xs.push_back(count == 1 ? left
                                : left + (right - left) * static_cast<double>(i) / static_cast<double>(count - 1));
    }
    return xs;
}

SequenceDrawList SequenceLayout::prepare(const QRectF& viewport) const {
    SequenceDrawList list;
    list.top = viewport.top();
    list.bottom = viewport.bottom();
    list.timeGutter = timeGutter_;
    list.frameColumn = frameColumn_;
    if (diagram_ == nullptr) {
        return list;
    }
    const std::vector<double> xs = lifelineXs();
    for (size_t i = 0; i < xs.size(); ++i) {
        const SequenceParticipant& participant = diagram_->participants()[i];
        QStringList endpoints;
        for (const Endpoint& endpoint : participant.endpoints) {
            endpoints << QString::fromStdString(endpoint.toString());
        }
        QString role = QString::fromStdString(participant.role);
        if (i < pointTimes_.lifelinePoints.size() && !pointTimes_.lifelinePoints[i].isEmpty()) {
            role += QStringLiteral(" @ ") + pointTimes_.lifelinePoints[i];  // the capture point on its host
        }
        list.lifelines.push_back({xs[i], role, endpoints.join(QLatin1Char('\n'))});
    }

    const auto& arrows = diagram_->arrows();
    const auto& stalls = diagram_->stalls();
    const SequenceRowRange rows = rowsIn(viewport.top(), viewport.bottom());
    const int64_t originTs = results_ ? results_->firstTsNs() : 0;
    for (size_t row = rows.first; row < rows.end; ++row) {
        const SequenceArrow& arrow = arrows[row];
        SequenceDrawList::Arrow drawn;
        drawn.arrow = row;
        drawn.packet = arrow.packet;
        drawn.frame = arrow.frame;
        std::tie(drawn.start, drawn.end) = arrowEnds(row, xs);
        std::tie(drawn.labelLeft, drawn.labelRight) = columnTextSpan(arrow.from, arrow.to, kArrowLabelInset);
        drawn.label = QString::fromStdString(diagram_->arrowLabel(row, FlagNaming::Words));
        drawn.shortLabel = QString::fromStdString(diagram_->arrowShortLabel(row));
        drawn.time = sequenceTimeText(arrow.tsNs - originTs);
        drawn.timeY = pointTimes_.empty() ? drawn.start.y() : anchors_[row];
        drawn.pureAck = diagram_->isPureAck(row);
        drawn.labelBelow = row < labelsBelow_.size() && labelsBelow_[row] != 0;
        list.arrows.push_back(std::move(drawn));
    }
    // Breaks and gaps lie above their row; the row just below the viewport can have one inside.
    const size_t lastBreakRow = std::min(rows.end + 1, anchors_.size());
    for (size_t row = std::max<size_t>(rows.first, 1); row < lastBreakRow; ++row) {
        if (breaks_[row] == 0) {
            if (anchors_[row] - anchors_[row - 1] >= kMeasuredGapRows * scale_.rowHeight) {
                list.gaps.push_back(
                    {anchors_[row - 1] + scale_.slopePx + 4, anchors_[row] - kLabelHeight,
                     QStringLiteral("+") + QString::fromStdString(humanDuration(layoutTs_[row] - layoutTs_[row - 1]))});
            }
            continue;
        }
        const double bottom = anchors_[row] - kLabelHeight;
        const double top = bottom - scale_.breakHeight;
        if (bottom > viewport.top() && top < viewport.bottom()) {
            list.breaks.push_back(
                {top, bottom,
                 QString::fromStdString(humanDuration(layoutTs_[row] - layoutTs_[row - 1]) + " without packets")});
        }
    }

    // Stalls whose span or text reaches into the viewport: the first is found by the running
    // maximum of end arrows, the scan stops at the first that starts below the viewport.
    const SequenceRowRange reach =
        rowsIn(viewport.top() - kLabelVisibilityMargin, viewport.bottom() + kLabelVisibilityMargin);
    const auto firstStall = std::lower_bound(stallReach_.begin(), stallReach_.end(), reach.first);
    for (auto k = static_cast<size_t>(firstStall - stallReach_.begin()); k < stalls.size(); ++k) {
        const SequenceStall& stall = stalls[k];
        if (stall.startArrow >= reach.end) {
            break;
        }
        if (stall.endArrow < reach.first) {
            continue;
        }
        SequenceDrawList::Bracket bracket;
        bracket.stall = k;
        const double senderX = xs[stall.lifeline];
        const double peerX = xs[stall.peer];
        bracket.direction = peerX >= senderX ? 1.0 : -1.0;
        bracket.x = senderX + bracket.direction * kBracketOffset;
        bracket.top = anchors_[stall.startArrow];
        bracket.bottom = anchors_[stall.endArrow];
        bracket.receiverX = peerX;
        bracket.band = QRectF(QPointF(std::min(bracket.x, peerX), bracket.top),
                              QPointF(std::max(bracket.x, peerX), bracket.bottom));
        // The text sits in the quiet part of the wait: under the first arrow's drop, above the
        // label of the arrow that released it.
        double freeTop = bracket.top + scale_.slopePx + 6;
        double freeBottom = bracket.bottom - kLabelHeight - 4;
        if (stall.causeArrow != kNoArrow) {
            bracket.causeY = anchors_[stall.causeArrow];
            freeBottom = std::min(freeBottom, bracket.causeY - kLabelHeight - 4);
        }
        if (const size_t quiet = stallQuietRow_[k]; quiet != kNoArrow) {
            freeTop = anchors_[quiet - 1] + scale_.slopePx + 6;
            freeBottom = anchors_[quiet] - kLabelHeight - 4;
        }
        auto [left, right] = columnTextSpan(stall.lifeline, stall.peer, kLabelInset);
        if (right - left < kMinBracketLabelWidth) {
            // A narrow column (a proxy's, beside its syscall labels): the text takes the whole
            // column, over those labels, and grows either side if that is still too narrow to read.
            left = std::min(senderX, peerX) + kBracketOffset + 4;
            right = std::max(senderX, peerX) - 8;
            const double grow = std::max(0.0, (kMinBracketLabelWidth - (right - left)) / 2);
            left = std::max(timeGutter_, left - grow);
            right = std::min(scale_.width - 4, std::max(right + grow, left + kMinBracketLabelWidth));
            // The labels of the calls that began the wait (write, write, read) stay readable:
            // the text starts below them.
            const size_t labelled = std::min(stall.lifeline, stall.peer);
            freeTop = std::max(freeTop, syscallLabelsBottom(labelled, bracket.top - kSyscallMaxShift, freeBottom) + 4);
        }
        // A proven stall says so on a second line: its box needs room for it.
        const double labelHeight = kBracketLabelHeight + (stall.proof.empty() ? 0 : kProofLineHeight);
        if (freeBottom - freeTop >= labelHeight) {
            // The painter centres the text in it and leaves out the explanation if it does not fit.
            bracket.labelRect = QRectF(left, freeTop, right - left, freeBottom - freeTop);
        } else {
            // Too short to hold its text: the text goes beyond the waiting side's lifeline.
            // A long wait gives its text a line more there, for a proof that wraps.
            const double width = right - left;
            const double outerLeft = bracket.direction > 0 ? senderX - kLabelInset - width : senderX + kLabelInset;
            const double height = std::clamp(bracket.bottom - bracket.top - 4 * kLabelHeight, labelHeight,
                                             labelHeight + (stall.proof.empty() ? 0 : kProofLineHeight / 2));
            bracket.labelRect = QRectF(std::max(outerLeft, timeGutter_), (bracket.top + bracket.bottom) / 2 - height / 2,
                                       width, height);
        }
        bracket.text = plainStallText(stall);
        bracket.explanation = QString::fromStdString(stall.explanation);
        bracket.proof = QString::fromStdString(stall.proof);
        list.brackets.push_back(std::move(bracket));
        // The arrows that make the story: the one that began the wait, its late release, the held one.
        for (SequenceDrawList::Arrow& drawn : list.arrows) {
            if (drawn.arrow == stall.startArrow || drawn.arrow == stall.endArrow || drawn.arrow == stall.causeArrow ||
                (stall.kind == FindingKind::PortReuse && diagram_->collisionArrowOf(drawn.arrow) != nullptr)) {
                drawn.inStall = true;
            }
            if (drawn.arrow == stall.causeArrow && !stall.causeText.empty()) {
                drawn.note = QString::fromStdString(stall.causeText);
            } else if (drawn.arrow == stall.endArrow && !stall.endText.empty()) {
                drawn.note = QString::fromStdString(stall.endText);
            }
        }
    }

    if (!syscalls_.empty()) {
        const int64_t fromTs = timeAtY(viewport.top() - kSyscallSpacing);
        const int64_t toTs = timeAtY(viewport.bottom() + kSyscallSpacing);
        auto syscall = std::lower_bound(syscalls_.begin(), syscalls_.end(), fromTs,
                                        [](const SequenceSyscall& s, int64_t ts) { return s.tsNs < ts; });
        std::vector<double> lastLabelY(xs.size(), -1e300);
        std::vector<size_t> lastDrawn(xs.size(), SIZE_MAX);
        std::vector<int> folded(xs.size(), 0);
        for (; syscall != syscalls_.end() && syscall->tsNs <= toTs; ++syscall) {
            if (syscall->lifeline < 0 || static_cast<size_t>(syscall->lifeline) >= xs.size()) {
                continue;
            }
            const auto lifeline = static_cast<size_t>(syscall->lifeline);
            const double y = yOfTime(syscall->tsNs);
            // Calls microseconds apart (write, write) stack their labels downwards; past a few
            // lines they are counted on the last label instead.
            const double labelY = std::max(y, lastLabelY[lifeline] + kSyscallSpacing);
            if (labelY - y > kSyscallMaxShift) {
                ++folded[lifeline];
                continue;
            }
            if (folded[lifeline] > 0) {
                list.syscalls[lastDrawn[lifeline]].label += QStringLiteral("  (+%1)").arg(folded[lifeline]);
                folded[lifeline] = 0;
            }
            SequenceDrawList::Syscall drawn;
            drawn.x = xs[lifeline];
            drawn.y = y;
            drawn.labelY = labelY;
            drawn.height = std::max(3.0, yOfTime(syscall->tsNs + syscall->durationNs) - y);
            drawn.direction = lifeline == 0 ? -1.0 : 1.0;
            drawn.label = syscall->label;
            drawn.lifeline = syscall->lifeline;
            drawn.kind = syscall->kind;
            drawn.syscall = static_cast<size_t>(syscall - syscalls_.begin());
            if (syscall->segmentFrame != 0) {
                const size_t carrier = diagram_->arrowOfFrame(syscall->segmentFrame);
                drawn.segmentY = carrier == kNoArrow ? -1.0 : anchors_[carrier];
            }
            lastLabelY[lifeline] = labelY;
            lastDrawn[lifeline] = list.syscalls.size();
            list.syscalls.push_back(std::move(drawn));
        }
        for (size_t lifeline = 0; lifeline < xs.size(); ++lifeline) {
            if (folded[lifeline] > 0) {
                list.syscalls[lastDrawn[lifeline]].label += QStringLiteral("  (+%1)").arg(folded[lifeline]);
            }
        }
    }
    return list;
}

size_t SequenceLayout::syscallAt(const QPointF& point) const {
    if (syscalls_.empty()) {
        return kNoSyscall;
    }
    const SequenceDrawList list =
        prepare(QRectF(0, point.y() - kSyscallMaxShift - kSyscallSpacing, scale_.width, 2 * (kSyscallMaxShift + kSyscallSpacing)));
    size_t best = kNoSyscall;
    double bestDistance = 1e300;
    for (const SequenceDrawList::Syscall& drawn : list.syscalls) {
        // On its bar, or on its label beside the lifeline.
        const bool onBar = std::abs(point.x() - drawn.x) <= 6 && point.y() >= drawn.y - 4 &&
                           point.y() <= drawn.y + drawn.height + 4;
        const double labelNear = drawn.x + 6 * drawn.direction;
        const double labelFar = drawn.x + (kSyscallLane + 6) * drawn.direction;
        const bool onLabel = point.x() >= std::min(labelNear, labelFar) && point.x() <= std::max(labelNear, labelFar) &&
                             std::abs(point.y() - drawn.labelY) <= kSyscallSpacing / 2;
        const double distance = std::abs(point.y() - (onLabel ? drawn.labelY : drawn.y));
        if ((onBar || onLabel) && distance < bestDistance) {
            bestDistance = distance;
            best = drawn.syscall;
        }
    }
    return best;
}

size_t SequenceLayout::arrowAt(const QPointF& point) const {
    if (diagram_ == nullptr) {
        return kNoArrow;
    }
    const std::vector<double> xs = lifelineXs();
    const SequenceRowRange rows = rowsIn(point.y() - 1, point.y() + 1);
    size_t best = kNoArrow;
    double bestDistance = 1e300;
    for (size_t row = rows.first; row < rows.end; ++row) {
        const SequenceArrow& arrow = diagram_->arrows()[row];
        const double left = std::min(xs[arrow.from], xs[arrow.to]) - 4;
        const double right = std::max(xs[arrow.from], xs[arrow.to]) + 4;
        double top = anchors_[row] - kLabelHeight;
        double bottom = anchors_[row] + scale_.slopePx + 5;
        double lineY = anchors_[row];
        if (!pointTimes_.empty()) {
            // A slanted arrow: its label above its start, its line down to its end.
            const auto [start, end] = arrowEnds(row, xs);
            top = std::min(start.y(), end.y()) - kLabelHeight;
            bottom = std::max(start.y(), end.y()) + 5 + (labelsBelow_[row] != 0 ? kLabelHeight : 0.0);
            const double along = std::abs(end.x() - start.x()) > 1
                                     ? std::clamp((point.x() - start.x()) / (end.x() - start.x()), 0.0, 1.0)
                                     : 0.0;
            lineY = start.y() + along * (end.y() - start.y());
        }
        if (point.x() < left || point.x() > right || point.y() < top || point.y() > bottom) {
            continue;
        }
        const double distance = std::abs(point.y() - lineY);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = row;
        }
    }
    return best;
}

}  // namespace tcpscope::ui
