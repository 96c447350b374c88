#include "pictures/incident_picture.hpp"

#include <QEvent>
#include <QPainter>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>

#include "pictures/handshake_picture.hpp"
#include "pictures/port_pool_picture.hpp"
#include "pictures/view_export.hpp"
#include "present/handshake_retries.hpp"
#include "present/port_pool_marks.hpp"
#include "timeline/timeline_view.hpp"

namespace tcpscope::ui {

namespace {

constexpr double kNarrowestPx = 480;
// Taller than this, the timeline's lanes are folded into their populations (as the report's pictures).
constexpr double kMaxTimelinePx = 2000;
constexpr size_t kFewestHandshakeRows = 4;
constexpr double kSmallestScale = 0.7;

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace

// Paints the page at its size, on the light background the report's pictures are drawn for.
class IncidentPicture::Canvas : public QWidget {
public:
    explicit Canvas(const IncidentPicture& owner) : owner_(owner) {}

protected:
    void paintEvent(QPaintEvent* /*event*/) override {
        QPainter painter(this);
        painter.fillRect(rect(), documentPalette().color(QPalette::Base));
        const ExportPage& page = owner_.page();
        if (page.render) {
            painter.setRenderHint(QPainter::Antialiasing);
            painter.scale(owner_.scale(), owner_.scale());
            page.render(painter, QRectF(QPointF(0, 0), page.size));
        }
    }

private:
    const IncidentPicture& owner_;
};

std::optional<size_t> pictureSectionOf(const std::vector<ReportSection>& sections,
                                       const std::vector<uint32_t>& findings) {
    // A story of many connections is told by its population's picture, even where one of its
    // connections (a port reuse collision) is the report's first cause.
    std::optional<size_t> first;
    for (size_t index = 0; index < sections.size(); ++index) {
        const std::vector<size_t>& drawn = sections[index].group.findings;
        if (std::none_of(findings.begin(), findings.end(), [&drawn](uint32_t finding) {
                return std::find(drawn.begin(), drawn.end(), finding) != drawn.end();
            })) {
            continue;
        }
        const SectionPicture picture = sections[index].picture;
        if (picture == SectionPicture::Handshakes || picture == SectionPicture::PortPool) {
            return index;
        }
        first = first.value_or(index);
    }
    return first;
}

IncidentPicture::IncidentPicture(QWidget* parent) : QWidget(parent) {
    title_ = new QLabel;
    title_->setObjectName(QStringLiteral("pictureTitle"));
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::PlainText);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    note_ = new QLabel;
    note_->setObjectName(QStringLiteral("pictureNote"));
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::PlainText);
    canvas_ = new Canvas(*this);
    scroll_ = new QScrollArea;
    scroll_->setWidget(canvas_);
    scroll_->setWidgetResizable(false);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(title_);
    layout->addWidget(note_);
    layout->addWidget(scroll_, 1);
    scroll_->viewport()->installEventFilter(this);
}

IncidentPicture::~IncidentPicture() = default;

void IncidentPicture::clear() {
    waitingFindings_.reset();
    picture_ = SectionPicture::None;
    makePage_ = {};
    page_ = {};
    scale_ = 1;
    title_->clear();
    note_->clear();
    canvas_->resize(0, 0);
}

void IncidentPicture::releaseResults() {
    clear();
    timeline_.reset();
    sections_.clear();
    results_.reset();
}

bool IncidentPicture::showFindings(const ResultsPtr& results, const std::vector<uint32_t>& findings) {
    clear();
    const CaptureAnalysis* analysis = results ? results->analysis() : nullptr;
    if (analysis == nullptr || results->packets() == nullptr) {
        return false;
    }
    if (results != results_) {
        results_ = results;
        const PointSightings* sightings = results->sightings();
        sections_ = reportSections(*analysis, sightings != nullptr ? sightings->sameHost() : SameHost());
        timeline_.reset();
    }
    const std::optional<size_t> found = pictureSectionOf(sections_, findings);
    if (!found) {
        return false;
    }
    const ReportSection& section = sections_[*found];
    // A cause the report draws as a sequence diagram has its picture in the Sequence tab; one of
    // connections the report does not draw is shown over its time on the timeline.
    picture_ = section.picture == SectionPicture::Sequence ? SectionPicture::None
               : section.picture == SectionPicture::None   ? SectionPicture::Timeline
                                                           : section.picture;
    if (picture_ == SectionPicture::None) {
        return false;
    }
    // The causes of the story drawn alike (TIME_WAIT churn and the port exhaustion it led to) make one
    // picture: their findings' marks over their time together, named after the most telling of them.
    const ReportSection* named = &section;
    std::vector<size_t> drawn;
    TimeRange range{section.range.startNs, section.range.endNs};
    for (const ReportSection& other : sections_) {
        const bool told = std::any_of(findings.begin(), findings.end(), [&other](uint32_t finding) {
            return std::find(other.group.findings.begin(), other.group.findings.end(), finding) !=
                   other.group.findings.end();
        });
        if (!told || other.picture != section.picture) {
            continue;
        }
        drawn.insert(drawn.end(), other.group.findings.begin(), other.group.findings.end());
        range = {std::min(range.startNs, other.range.startNs), std::max(range.endNs, other.range.endNs)};
        if (other.group.kind == FindingKind::PortExhaustion && named->group.kind != FindingKind::PortExhaustion) {
            named = &other;
        }
    }
    const QString cause = fromStd(sectionTitle(*analysis, named->group));
    if (picture_ == SectionPicture::Handshakes) {
        title_->setText(tr("Delayed handshakes: %1").arg(cause));
        // As many rows (the longest waits) as the tab shows without scrolling.
        makePage_ = [this, analysis, findings = drawn](double widthPx, double heightPx) {
            size_t rows = kMaxHandshakePictureRows;
            HandshakeRetries retries = handshakeRetries(*analysis, findings, rows);
            ExportPage page = handshakeExportPage(retries, QString(), QString(), widthPx);
            while (page.size.height() > heightPx && rows > kFewestHandshakeRows) {
                rows = std::max(kFewestHandshakeRows, rows - std::max<size_t>(1, rows / 4));
                retries = handshakeRetries(*analysis, findings, rows);
                page = handshakeExportPage(retries, QString(), QString(), widthPx);
            }
            note_->setText(fromStd(handshakeRetriesNote(retries)));
            return page;
        };
    } else {
        if (!timeline_) {
            // Its lanes built as the Timeline tab builds its own: on a pool thread for a big capture
            // (a million connections took the GUI thread seconds), the picture drawn when they are in.
            timeline_ = std::make_unique<TimelineView>();
            timeline_->setFailedConnectLanesShown(false);  // the port pool's picture draws its own
            timeline_->setPalette(documentPalette());
            timeline_->resize(1280, 600);
            connect(timeline_.get(), &TimelineView::modelReady, this, [this]() {
                if (std::optional<std::vector<uint32_t>> waiting = std::exchange(waitingFindings_, std::nullopt)) {
                    showFindings(results_, *waiting);
                }
            });
            timeline_->setResults(results);
        }
        if (timeline_->isBuilding()) {
            waitingFindings_ = findings;
            title_->setText(tr("Drawing the picture of %1...").arg(cause));
            note_->clear();
            return true;
        }
        TimelineView& view = *timeline_;
        std::vector<TimelineLane> lanes;
        std::optional<PortPoolMarks> marks;
        if (picture_ == SectionPicture::PortPool) {
            marks = portPoolMarks(*analysis, drawn, view.model().population(), results->alignment());
            if (std::optional<TimelineLane> lane = failedConnectsLane(*marks)) {
                lanes.push_back(std::move(*lane));
            }
            title_->setText(tr("Ports and TIME_WAIT: %1").arg(cause));
            note_->setText(fromStd(portPoolNote(*marks)));
        } else {
            title_->setText(tr("Timeline of %1 over its time").arg(cause));
            note_->setText(tr("The connections during the incident, from %1 to %2 s of the capture; stalls shaded "
                              "and labelled with their cause.")
                               .arg(static_cast<double>(range.startNs - results->firstTsNs()) / 1e9, 0, 'f', 2)
                               .arg(static_cast<double>(range.endNs - results->firstTsNs()) / 1e9, 0, 'f', 2));
        }
        view.setExtraLanes(std::move(lanes));
        if (view.renderSize(1280).height() > kMaxTimelinePx) {
            view.setGrouping(LaneGrouping::ClientToServer);
            view.setAllGroupsCollapsed(true);
        }
        makePage_ = [&view, range, marks](double widthPx, double /*heightPx*/) {
            ExportPage page = timelineExportPage(view, range, widthPx);
            // The lanes from the top, as the report's picture: folded populations of a million
            // connections are still millions of pixels, seconds to lay out at every repaint.
            page.size.setHeight(std::min(page.size.height(), kMaxShownTimelinePx));
            if (marks) {
                addPortPoolOverlay(page, view, range, *marks);
            }
            return page;
        };
    }
    relayout();
    return true;
}

const QWidget& IncidentPicture::canvas() const {
    return *canvas_;
}

QString IncidentPicture::caption() const {
    return note_->text().isEmpty() ? title_->text() : title_->text() + QLatin1Char('\n') + note_->text();
}

void IncidentPicture::relayout() {
    if (!makePage_) {
        return;
    }
    const double widthPx =
        std::max(kNarrowestPx, static_cast<double>(scroll_->viewport()->width() - scroll_->verticalScrollBar()->width()));
    const double heightPx = scroll_->viewport()->height();
    page_ = makePage_(widthPx, heightPx);
    // A picture a little taller than the tab is drawn smaller rather than scrolled; a much taller one scrolls.
    scale_ = page_.size.height() > heightPx ? std::max(kSmallestScale, heightPx / page_.size.height()) : 1.0;
    canvas_->resize(static_cast<int>(page_.size.width() * scale_), static_cast<int>(page_.size.height() * scale_));
    canvas_->update();
}

bool IncidentPicture::eventFilter(QObject* watched, QEvent* event) {
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize) {
        relayout();
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace tcpscope::ui
