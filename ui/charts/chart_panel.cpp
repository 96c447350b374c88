#include "charts/chart_panel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tcpscope::ui {

// A chart computed for a request, with the capture's connection attempts when they were
// computed for it (kept for the next rate chart of the same results).
struct ChartPanel::Computed {
    Request request;
    ChartData chart;
    std::shared_ptr<const ConnectionAttempts> attempts;
};

namespace {

ChartData chartDataFor(const CaptureAnalysis& analysis, ChartKind kind, uint32_t connection, Side direction,
                       const ConnectionAttempts* attempts) {
    switch (kind) {
        case ChartKind::TimeSequence: return timeSequenceData(analysis, connection, direction);
        case ChartKind::Rtt: return rttData(analysis, connection, direction);
        case ChartKind::HostPopulation:
            return hostPopulationData(analysis, analysis.engine->connections()[connection].client.address);
        case ChartKind::ConnectionRate: return connectionRateData(analysis, *attempts);
    }
    return {};
}

}  // namespace

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent) {
    kindBox_ = new QComboBox;
    kindBox_->setObjectName(QStringLiteral("chartKind"));
    for (const ChartKind kind :
         {ChartKind::TimeSequence, ChartKind::Rtt, ChartKind::HostPopulation, ChartKind::ConnectionRate}) {
        kindBox_->addItem(chartKindName(kind), static_cast<int>(kind));
    }
    directionBox_ = new QComboBox;
    directionBox_->setObjectName(QStringLiteral("chartDirection"));
    directionBox_->addItem(QString(), static_cast<int>(Side::Client));
    directionBox_->addItem(QString(), static_cast<int>(Side::Server));
    hint_ = new QLabel(tr("Drag to zoom, wheel or +/- to zoom time, double-click to show all"));
    hint_->setEnabled(false);
    view_ = new ChartView;
    view_->setObjectName(QStringLiteral("chartView"));

    auto* controls = new QHBoxLayout;
    controls->addWidget(kindBox_);
    controls->addWidget(directionBox_);
    controls->addWidget(hint_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(controls);
    layout->addWidget(view_, 1);

    connect(kindBox_, &QComboBox::currentIndexChanged, this,
            [this]() { setKind(static_cast<ChartKind>(kindBox_->currentData().toInt())); });
    connect(directionBox_, &QComboBox::currentIndexChanged, this,
            [this]() { setDirection(static_cast<Side>(directionBox_->currentData().toInt())); });
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<Computed>>::finished, this, &ChartPanel::showComputed);
    updateDirectionNames();
}

void ChartPanel::setResults(ResultsPtr results) {
    showConnection(std::move(results), kNoConnection);
}

void ChartPanel::showConnection(ResultsPtr results, uint32_t connection) {
    if (results != results_) {
        attempts_.reset();
    }
    results_ = std::move(results);
    connection_ = connection;
    if (results_ && connection < results_->connections().size()) {
        const Connection& shown = results_->connections()[connection];
        direction_ =
            shown.from(Side::Client).payloadBytes > shown.from(Side::Server).payloadBytes ? Side::Client : Side::Server;
    }
    updateDirectionNames();
    refreshIf(true);
}

void ChartPanel::setKind(ChartKind kind) {
    const bool changed = kind != kind_;
    kind_ = kind;
    refreshIf(changed);
}

void ChartPanel::setDirection(Side sender) {
    const bool changed = sender != direction_;
    direction_ = sender;
    refreshIf(changed);
}

void ChartPanel::followPacket(size_t position) {
    const CaptureAnalysis* analysis = results_ ? results_->analysis() : nullptr;
    if (analysis == nullptr || position >= analysis->engine->packets().size()) {
        return;
    }
    const IndexedPacket packet = analysis->engine->packets().at(position);
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
    directionBox_->setVisible(kind_ == ChartKind::TimeSequence || kind_ == ChartKind::Rtt);
}

void ChartPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) {
        rebuild();
    }
}

ChartPanel::Request ChartPanel::currentRequest() const {
    return {results_, kind_, connection_, direction_};
}

size_t ChartPanel::workOf(const Request& request) const {
    const AnalysisEngine& engine = *request.results->analysis()->engine;
    if (request.kind == ChartKind::TimeSequence || request.kind == ChartKind::Rtt) {
        const Connection& connection = engine.connections()[request.connection];
        return connection.from(Side::Client).packets + connection.from(Side::Server).packets;
    }
    return engine.packets().size();
}

void ChartPanel::rebuild() {
    updateDirectionNames();
    stale_ = false;
    computing_ = false;  // a job still running is dropped when it ends
    const CaptureAnalysis* analysis = results_ ? results_->analysis() : nullptr;
    if (analysis == nullptr) {
        view_->reset(results_ ? tr("Charts appear when the capture is loaded") : tr("No capture"), QString(), QString(),
                     0);
        return;
    }
    const bool haveConnection = connection_ < analysis->engine->connections().size();
    if (!haveConnection && kind_ != ChartKind::ConnectionRate) {
        view_->reset(tr("Select a connection to chart it"), QString(), QString(), analysis->engine->firstTsNs());
        return;
    }
    const Request request = currentRequest();
    auto compute = [request, attempts = attempts_]() {
        auto computed = std::make_shared<Computed>();
        computed->request = request;
        const CaptureAnalysis& analysis = *request.results->analysis();
        if (request.kind == ChartKind::ConnectionRate && !attempts) {
            computed->attempts = std::make_shared<const ConnectionAttempts>(connectionAttemptsOf(*analysis.engine));
        }
        computed->chart = chartDataFor(analysis, request.kind, request.connection, request.direction,
                                       attempts ? attempts.get() : computed->attempts.get());
        return computed;
    };
    if (workOf(request) < backgroundFromPackets_) {
        const std::shared_ptr<Computed> computed = compute();
        if (computed->attempts) {
            attempts_ = computed->attempts;
        }
        showChart(*view_, std::move(computed->chart));
        emit chartShown();
        return;
    }
    view_->reset(tr("Computing the chart..."), QString(), QString(), analysis->engine->firstTsNs());
    computing_ = true;
    watcher_.setFuture(QtConcurrent::run(std::move(compute)));
}

void ChartPanel::showComputed() {
    const std::shared_ptr<Computed> computed = watcher_.result();
    if (!computing_ || computed->request != currentRequest()) {
        return;  // the selection, kind or direction changed since: a newer job is on its way
    }
    computing_ = false;
    if (computed->attempts && computed->request.results == results_) {
        attempts_ = computed->attempts;
    }
    showChart(*view_, std::move(computed->chart));
    emit chartShown();
}

}  // namespace tcpscope::ui
