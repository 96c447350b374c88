#include "fleet_browser/fleet_loader.hpp"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <utility>

namespace tcpscope::ui {
namespace {

// What a query on the pool thread hands back: its answer, or why there is none.
template <typename Answer>
struct Outcome {
    std::shared_ptr<const Answer> answer;
    QString error;
};

}  // namespace

FleetLoader::FleetLoader(QObject* parent) : QObject(parent) {}

FleetLoader::~FleetLoader() = default;

template <typename Answer>
void FleetLoader::run(Query kind, std::function<Answer()> work,
                      std::function<void(std::shared_ptr<const Answer>)> deliver) {
    const uint64_t id = nextId_++;
    latest_[static_cast<size_t>(kind)] = id;
    ++running_;
    auto* watcher = new QFutureWatcher<Outcome<Answer>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, id, kind, deliver = std::move(deliver)] {
        --running_;
        const Outcome<Answer> outcome = watcher->result();
        watcher->deleteLater();
        if (id == latest_[static_cast<size_t>(kind)]) {
            if (outcome.answer) {
                deliver(outcome.answer);
            } else {
                emit failed(outcome.error);
            }
        }
        if (running_ == 0) {
            emit idle();
        }
    });
    watcher->setFuture(QtConcurrent::run([work = std::move(work)]() -> Outcome<Answer> {
        try {
            return {std::make_shared<const Answer>(work()), {}};
        } catch (const std::exception& error) {
            return {nullptr, QString::fromStdString(error.what())};
        }
    }));
}

void FleetLoader::loadOverview(const ClickHouseTarget& target, const FleetQueryOptions& options) {
    run<FleetOverview>(
        Query::Overview,
        [target, options] {
            FleetOverview overview;
            overview.findings = runFleetQueries(target, options);
            overview.hosts = queryFleetHosts(target, options.sinceNs, options.timeoutSeconds);
            return overview;
        },
        [this](std::shared_ptr<const FleetOverview> overview) { emit overviewLoaded(std::move(overview)); });
}

void FleetLoader::loadFindings(const ClickHouseTarget& target, const HostFindingFilter& filter,
                               double timeoutSeconds) {
    run<std::vector<HostFinding>>(
        Query::Findings, [target, filter, timeoutSeconds] { return queryHostFindings(target, filter, timeoutSeconds); },
        [this](std::shared_ptr<const std::vector<HostFinding>> findings) { emit findingsLoaded(std::move(findings)); });
}

void FleetLoader::loadFlows(const ClickHouseTarget& target, const HostFlowFilter& filter, double timeoutSeconds) {
    run<std::vector<HostFlow>>(
        Query::Flows, [target, filter, timeoutSeconds] { return queryHostFlows(target, filter, timeoutSeconds); },
        [this](std::shared_ptr<const std::vector<HostFlow>> flows) { emit flowsLoaded(std::move(flows)); });
}

}  // namespace tcpscope::ui
