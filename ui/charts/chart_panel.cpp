#include "charts/chart_panel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

#include "pictures/incident_picture.hpp"

namespace tcpscope::ui {

// A chart computed for a request, with the capture's connection attempts when they were
// computed for it (kept for the next rate chart of the same results, or extended by the next
// snapshot of a live capture).
struct ChartPanel::Computed {
    Request request;
    ChartData chart;
    std::shared_ptr<const ConnectionAttempts> attempts;
};

namespace {

ChartData chartDataFor(const AnalysisResults& results, ChartKind kind, uint32_t connection, Side direction,
                       const IoGraphRequest& io, const ConnectionAttempts* attempts) {
    switch (kind) {
        case ChartKind::TimeSequence: return timeSequenceData(results, connection, direction);
        case ChartKind::WindowScaling: return windowScalingData(results, connection, direction);
        case ChartKind::Throughput: return throughputData(results, connection);
        case ChartKind::Rtt: return rttData(results, connection, direction);
        case ChartKind::IoGraph: return ioGraphData(results, io);
        case ChartKind::HostPopulation:
            return hostPopulationData(results, results.connections()[connection].client.address);
        case ChartKind::ConnectionRate: return connectionRateData(results.firstTsNs(), *attempts);
    }
    return {};
}

// The side whose data a connection's charts show unless the user picks one: the one that sent more.
Side busierSide(const Connection& connection) {
    return connection.from(Side::Client).payloadBytes > connection.from(Side::Server).payloadBytes ? Side::Client
                                                                                                     : Side::Server;
}

// The charts of one connection read its packets; the host and rate charts read the whole capture.
bool isConnectionChart(ChartKind kind) {
    switch (kind) {
        case ChartKind::TimeSequence:
        case ChartKind::WindowScaling:
        case ChartKind::Throughput:
        case ChartKind::Rtt: return true;
        case ChartKind::IoGraph:
        case ChartKind::HostPopulation:
        case ChartKind::ConnectionRate: return false;
    }
    return false;
}

// The charts of one direction of a connection.
bool isDirectionChart(ChartKind kind) {
    return kind == ChartKind::TimeSequence || kind == ChartKind::WindowScaling || kind == ChartKind::Rtt;
}

// The charts of the whole capture, drawn without a selected connection.
bool isCaptureChart(ChartKind kind) {
    return kind == ChartKind::IoGraph || kind == ChartKind::ConnectionRate;
}

}  // namespace

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent) {
    kindBox_ = new QComboBox;
    kindBox_->setObjectName(QStringLiteral("chartKind"));
    for (const ChartKind kind : kChartKinds) {
        kindBox_->addItem(chartKindName(kind), static_cast<int>(kind));
    }
    ioFilterEdit_ = new QLineEdit;
    ioFilterEdit_->setObjectName(QStringLiteral("ioGraphFilter"));
    ioFilterEdit_->setPlaceholderText(
        tr("Display filters, one line each, separated by ; (tcp.analysis.flags; tcp.port == 3306)"));
    ioFilterEdit_->setToolTip(
        tr("The display filter of the packet list, in Wireshark's words. Each filter "
           "separated by ';' draws its own line over all TCP packets. Enter applies."));
    ioFilterEdit_->setClearButtonEnabled(true);
    ioMeasureBox_ = new QComboBox;
    ioMeasureBox_->setObjectName(QStringLiteral("ioGraphMeasure"));
    ioMeasureBox_->addItem(tr("packets"), static_cast<int>(IntervalMeasure::Packets));
    ioMeasureBox_->addItem(tr("payload bytes"), static_cast<int>(IntervalMeasure::Bytes));
    directionBox_ = new QComboBox;
    directionBox_->setObjectName(QStringLiteral("chartDirection"));
    directionBox_->addItem(QString(), static_cast<int>(Side::Client));
    directionBox_->addItem(QString(), static_cast<int>(Side::Server));
    hint_ = new QLabel(tr("Drag to zoom, wheel or +/- to zoom time, double-click to show all"));
    hint_->setEnabled(false);
    // The controls ask for no more than a 1024 px window leaves the views: long names and the hint are cut.
    hint_->setMinimumWidth(1);
    hint_->setToolTip(hint_->text());
    for (QComboBox* box : {kindBox_, directionBox_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(14);
    }
    kindBox_->setMinimumContentsLength(24);  // "I/O graph (display filter)" whole
    view_ = new ChartView;
    view_->setObjectName(QStringLiteral("chartView"));

    picture_ = new IncidentPicture;
    picture_->setObjectName(QStringLiteral("incidentPicture"));
    picture_->hide();

    controls_ = new QWidget;
    auto* controls = new QHBoxLayout(controls_);
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(kindBox_);
    controls->addWidget(directionBox_);
    controls->addWidget(ioMeasureBox_);
    controls->addWidget(ioFilterEdit_, 3);
    controls->addWidget(hint_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(controls_);
    layout->addWidget(view_, 1);
    layout->addWidget(picture_, 1);

    connect(kindBox_, &QComboBox::currentIndexChanged, this,
            [this]() { setKind(static_cast<ChartKind>(kindBox_->currentData().toInt())); });
    connect(directionBox_, &QComboBox::currentIndexChanged, this,
            [this]() { setDirection(static_cast<Side>(directionBox_->currentData().toInt())); });
    connect(ioFilterEdit_, &QLineEdit::returnPressed, this, [this]() {
        ioFiltersTyped_ = true;
        setIoFilters(ioFilterEdit_->text());
    });
    connect(ioMeasureBox_, &QComboBox::currentIndexChanged, this,
            [this]() { setIoMeasure(static_cast<IntervalMeasure>(ioMeasureBox_->currentData().toInt())); });
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<Computed>>::finished, this, &ChartPanel::showComputed);
    updateDirectionNames();
}

void ChartPanel::setResults(ResultsPtr results) {
    picture_->releaseResults();
    showConnection(std::move(results), kNoConnection);
}

bool ChartPanel::showPicture(const ResultsPtr& results, const std::vector<uint32_t>& findings) {
    if (!picture_->showFindings(results, findings)) {
        return false;
    }
    controls_->hide();
    view_->hide();
    picture_->show();
    return true;
}

bool ChartPanel::isPictureShown() const {
    return !picture_->isHidden();
}

void ChartPanel::showConnection(ResultsPtr results, uint32_t connection) {
    if (isPictureShown()) {
        picture_->hide();
        picture_->clear();
        controls_->show();
        view_->show();
    }
    if (results != results_) {
        attempts_.reset();
    }
    results_ = std::move(results);
    connection_ = connection;
    keepZoom_ = false;
    if (results_ && connection < results_->connections().size()) {
        direction_ = busierSide(results_->connections()[connection]);
        directionPicked_ = false;
    }
    updateDirectionNames();
    refreshIf(true);
}

void ChartPanel::refreshResults(ResultsPtr results) {
    // A connection that got no packet since keeps its chart (putting a big one into the view costs
    // tens of milliseconds of the GUI thread).
    const auto lastFrameIn = [this](const ResultsPtr& of) {
        return of && connection_ < of->connections().size() ? of->connections()[connection_].lastFrame : 0;
    };
    const bool unchanged = !stale_ && isConnectionChart(kind_) && lastFrameIn(results) == lastFrameIn(results_);
    // The attempts of earlier snapshots of this capture stay: the next rate chart reads only the
    // packets added since (not those of a file shown before the capture).
    const bool sameCapture = results_ && !results_->isComplete() && results && results->packets() != nullptr &&
                             (!attempts_ || attempts_->packetsRead <= results->packets()->size());
    if (!sameCapture) {
        attempts_.reset();
    }
    results_ = std::move(results);
    // Until the user picks a direction, it follows the side that has sent more so far.
    bool sameDirection = true;
    if (!directionPicked_ && connection_ < results_->connections().size()) {
        const Side busier = busierSide(results_->connections()[connection_]);
        sameDirection = busier == direction_;
        direction_ = busier;
    }
    if (unchanged && sameDirection) {
        return;
    }
    keepZoom_ = sameDirection;
    if (computing_) {
        refreshPending_ = true;  // after the chart being computed is shown: a refresh never cancels it
        return;
    }
    updateDirectionNames();
    refreshIf(true);
}

void ChartPanel::setKind(ChartKind kind) {
    const bool changed = kind != kind_;
    kind_ = kind;
    keepZoom_ = keepZoom_ && !changed;
    refreshIf(changed);
}

void ChartPanel::setDirection(Side sender) {
    const bool changed = sender != direction_;
    direction_ = sender;
    directionPicked_ = true;
    keepZoom_ = keepZoom_ && !changed;
    refreshIf(changed);
}

void ChartPanel::setIoFilters(const QString& filters) {
    if (ioFilterEdit_->text() != filters) {
        const QSignalBlocker quiet(ioFilterEdit_);
        ioFilterEdit_->setText(filters);
    }
    std::vector<std::string> split = splitIoFilters(filters);
    const bool changed = split != io_.filters;
    io_.filters = std::move(split);
    refreshIf(changed && kind_ == ChartKind::IoGraph);
}

void ChartPanel::setIoMeasure(IntervalMeasure measure) {
    const bool changed = measure != io_.measure;
    io_.measure = measure;
    {
        const QSignalBlocker quiet(ioMeasureBox_);
        ioMeasureBox_->setCurrentIndex(ioMeasureBox_->findData(static_cast<int>(measure)));
    }
    refreshIf(changed && kind_ == ChartKind::IoGraph);
}

void ChartPanel::followPacketListFilter(const QString& expression) {
    if (!ioFiltersTyped_) {
        setIoFilters(expression);
    }
}

QString ChartPanel::ioFilters() const {
    return ioFilterEdit_->text();
}

void ChartPanel::followPacket(size_t position) {
    const PacketIndex* packets = results_ ? results_->packets() : nullptr;
    if (packets == nullptr || position >= packets->size()) {
        return;
    }
    const IndexedPacket packet = packets->at(position);
    if (packet.connection == connection_ && packet.payloadLength > 0) {
        setDirection(packet.fromServer ? Side::Server : Side::Client);
    }
}

void ChartPanel::refreshIf(bool changed) {
    stale_ = stale_ || changed;
    if (stale_ && isVisible()) {
        rebuild();  // hidden: showEvent() does it
    } else if (stale_) {
        computing_ = false;  // a job still running is for what was asked before
    }
}

void ChartPanel::updateDirectionNames() {
    const QSignalBlocker kindBlocker(kindBox_);
    const QSignalBlocker blocker(directionBox_);
    kindBox_->setCurrentIndex(kindBox_->findData(static_cast<int>(kind_)));
    const Connection* shown =
        results_ && connection_ < results_->connections().size() ? &results_->connections()[connection_] : nullptr;
    for (const Side side : {Side::Client, Side::Server}) {
        const int row = directionBox_->findData(static_cast<int>(side));
        QString name = side == Side::Client ? tr("data sent by the client") : tr("data sent by the server");
        if (shown != nullptr) {
            name += QStringLiteral(" (%1, %2 bytes)")
                        .arg(QString::fromStdString(shown->endpoint(side).toString()))
                        .arg(shown->from(side).payloadBytes);
        }
        directionBox_->setItemText(row, name);
    }
    directionBox_->setCurrentIndex(directionBox_->findData(static_cast<int>(direction_)));
    directionBox_->setVisible(isDirectionChart(kind_));
    ioFilterEdit_->setVisible(kind_ == ChartKind::IoGraph);
    ioMeasureBox_->setVisible(kind_ == ChartKind::IoGraph);
    hint_->setVisible(kind_ != ChartKind::IoGraph || !problem_.isEmpty());
}

void ChartPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) {
        rebuild();
    }
}

void ChartPanel::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    emit populationHostChanged();
}

std::optional<IpAddress> ChartPanel::populationHost() const {
    if (!isVisible() || kind_ != ChartKind::HostPopulation || !results_ || results_->isComplete() ||
        connection_ >= results_->connections().size()) {
        return std::nullopt;
    }
    return results_->connections()[connection_].client.address;
}

ChartPanel::Request ChartPanel::currentRequest() const {
    return {results_, kind_, connection_, direction_, kind_ == ChartKind::IoGraph ? io_ : IoGraphRequest{}};
}

size_t ChartPanel::workOf(const Request& request) const {
    if (isConnectionChart(request.kind)) {
        const Connection& connection = request.results->connections()[request.connection];
        return connection.from(Side::Client).packets + connection.from(Side::Server).packets;
    }
    const size_t packets = request.results->packets()->size();
    if (request.kind == ChartKind::ConnectionRate && attempts_) {
        return packets - std::min(packets, attempts_->packetsRead);
    }
    if (request.kind == ChartKind::IoGraph) {
        return packets * (1 + request.io.filters.size());
    }
    return packets;
}

void ChartPanel::rebuild() {
    updateDirectionNames();
    stale_ = false;
    computing_ = false;  // a job still running is dropped when it ends
    refreshPending_ = false;
    const bool keepZoom = std::exchange(keepZoom_, false);
    emit populationHostChanged();  // a live capture copies a host's series only while its chart is shown
    if (!results_ || results_->packets() == nullptr) {
        view_->reset(!results_ ? tr("No capture") : tr("Charts appear when the capture is loaded"), QString(),
                     QString(), 0);
        return;
    }
    const bool haveConnection = connection_ < results_->connections().size();
    if (!haveConnection && !isCaptureChart(kind_)) {
        view_->reset(tr("Select a connection to chart it"), QString(), QString(), results_->firstTsNs());
        return;
    }
    if (kind_ == ChartKind::HostPopulation &&
        !results_->hasPopulationsOf(results_->connections()[connection_].client.address)) {
        // A live snapshot made before the chart was asked for: the next one brings the host's series.
        if (!keepZoom) {
            view_->reset(tr("Reading the host's series from the capture..."), QString(), QString(),
                         results_->firstTsNs());
        }
        return;
    }
    const Request request = currentRequest();
    auto compute = [request, attempts = attempts_]() {
        auto computed = std::make_shared<Computed>();
        computed->request = request;
        const AnalysisResults& results = *request.results;
        if (request.kind == ChartKind::ConnectionRate &&
            (!attempts || attempts->packetsRead < results.packets()->size())) {
            auto extended = std::make_shared<ConnectionAttempts>(attempts ? *attempts : ConnectionAttempts{});
            extendConnectionAttempts(*extended, *results.packets(), results.connections(), results.firstTsNs(),
                                     results.lastTsNs());
            computed->attempts = std::move(extended);
        }
        computed->chart = chartDataFor(results, request.kind, request.connection, request.direction, request.io,
                                       computed->attempts ? computed->attempts.get() : attempts.get());
        return computed;
    };
    if (workOf(request) < backgroundFromPackets_) {
        const std::shared_ptr<Computed> computed = compute();
        if (computed->attempts) {
            attempts_ = computed->attempts;
        }
        present(std::move(computed->chart), keepZoom);
        return;
    }
    if (!keepZoom) {
        // A live refresh keeps the chart shown until the new one is computed.
        view_->reset(tr("Computing the chart..."), QString(), QString(), results_->firstTsNs());
    }
    computing_ = true;
    keepZoomOfComputed_ = keepZoom;
    watcher_.setFuture(QtConcurrent::run(std::move(compute)));
}

void ChartPanel::present(ChartData chart, bool keepZoom) {
    const bool zoomed = keepZoom && view_->isZoomed();
    const auto visible = view_->visibleXRange();
    problem_ = chart.problem;
    if (problem_.isEmpty()) {
        hint_->setText(tr("Drag to zoom, wheel or +/- to zoom time, double-click to show all"));
        hint_->setStyleSheet({});
        hint_->setEnabled(false);
    } else {
        hint_->setText(problem_);
        hint_->setStyleSheet(QStringLiteral("color: #b00020"));
        hint_->setEnabled(true);
    }
    hint_->setToolTip(hint_->text());
    hint_->setVisible(kind_ != ChartKind::IoGraph || !problem_.isEmpty());
    showChart(*view_, std::move(chart));
    if (zoomed) {
        view_->setVisibleXRange(visible.first, visible.second);
    }
    emit chartShown();
}

void ChartPanel::showComputed() {
    const std::shared_ptr<Computed> computed = watcher_.result();
    Request current = currentRequest();
    if (refreshPending_) {
        current.results = computed->request.results;  // newer results of the same capture came meanwhile
    }
    if (!computing_ || computed->request != current) {
        return;  // the selection, kind or direction changed since: a newer job is on its way
    }
    computing_ = false;
    // A newer snapshot of the same live capture extends these attempts.
    if (computed->attempts && (computed->request.results == results_ || refreshPending_)) {
        attempts_ = computed->attempts;
    }
    present(std::move(computed->chart), keepZoomOfComputed_);
    if (std::exchange(refreshPending_, false)) {
        keepZoom_ = true;
        refreshIf(true);
    }
}

}  // namespace tcpscope::ui
