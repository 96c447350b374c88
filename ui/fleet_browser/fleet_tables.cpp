#include "fleet_browser/fleet_tables.hpp"

#include <QDateTime>
#include <QFont>
#include <QTimeZone>

#include "finding/finding_kind.hpp"
#include "models/duration_text.hpp"

namespace tcpscope::ui {
namespace {

constexpr int kSourceRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;  // the models' sort role: numbers sort as numbers
constexpr int64_t kSecondNs = 1'000'000'000;

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

QStandardItem* cell(const QString& text, const QVariant& sortKey = {}) {
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortKey.isValid() ? sortKey : QVariant(text), kSortRole);
    return item;
}

QStandardItem* numberCell(qulonglong value) {
    QStandardItem* item = cell(QString::number(value), value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem* durationCell(double ms) {
    QStandardItem* item = cell(durationText(ms), ms);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// A round trip: loopback's are hundredths of a millisecond.
QStandardItem* rttCell(double ms) {
    QStandardItem* item = cell(ms < 1 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', 3) : durationText(ms), ms);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem* timeCell(int64_t tsNs) { return cell(utcText(tsNs), static_cast<qlonglong>(tsNs)); }

// "Nagle + delayed ACK" for a kind this build knows, else the record's name as it is.
QString kindTitle(const std::string& kind) {
    const std::optional<FindingKind> known = parseFindingKind(kind);
    return known ? fromStd(std::string(findingKindTitle(*known))) : fromStd(kind);
}

QString joined(const std::vector<std::string>& names) {
    QStringList list;
    for (const std::string& name : names) {
        list << fromStd(name);
    }
    return list.join(QStringLiteral(", "));
}

void reset(QStandardItemModel& model, const QStringList& headers) {
    model.clear();
    model.setHorizontalHeaderLabels(headers);
    model.setSortRole(kSortRole);
}

void appendRow(QStandardItemModel& model, int source, QList<QStandardItem*> row) {
    row.front()->setData(source, kSourceRole);
    model.appendRow(row);
}

QString windowText(int64_t windowStartNs, uint32_t windowSeconds) {
    return QStringLiteral("%1 + %2 s").arg(utcText(windowStartNs)).arg(windowSeconds);
}

}  // namespace

QString utcText(int64_t tsNs) {
    return QDateTime::fromMSecsSinceEpoch(tsNs / 1'000'000, QTimeZone::utc())
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

int rowSource(const QModelIndex& index) {
    if (!index.isValid()) {
        return -1;
    }
    const QVariant source = index.siblingAtColumn(0).data(kSourceRole);
    return source.isValid() ? source.toInt() : -1;
}

std::vector<HostFindingFilter> fillFleetFindings(QStandardItemModel& model, const FleetResults& results,
                                                 const FleetQueryOptions& options) {
    reset(model, {QObject::tr("Severity"), QObject::tr("Fleet finding"), QObject::tr("Towards"), QObject::tr("Hosts"),
                  QObject::tr("What"), QObject::tr("Window (UTC)")});
    std::vector<HostFindingFilter> filters;
    const int64_t windowNs = int64_t{options.windowSeconds} * kSecondNs;
    for (const FleetFinding& finding : results.sameFindingOnManyHosts) {
        HostFindingFilter& filter = filters.emplace_back();
        filter.hosts = finding.hosts;
        filter.sinceNs = options.sinceNs;
        filter.kind = finding.kind;
        filter.server = finding.server;
        filter.fromNs = finding.windowStartNs;
        filter.toNs = finding.windowStartNs + windowNs;
        appendRow(model, static_cast<int>(filters.size() - 1),
                  {cell(fromStd(finding.severity)),
                   cell(QObject::tr("%1 on %2 hosts").arg(kindTitle(finding.kind)).arg(finding.hosts.size())),
                   cell(fromStd(finding.server)), cell(joined(finding.hosts), qulonglong(finding.hosts.size())),
                   cell(QObject::tr("%1 findings, %2 of connection-time")
                            .arg(finding.findings)
                            .arg(durationText(finding.durationMs)),
                        finding.durationMs),
                   cell(windowText(finding.windowStartNs, options.windowSeconds),
                        static_cast<qlonglong>(finding.windowStartNs))});
    }
    for (const auto* pools : {&results.portsAcrossServers, &results.natPortsTowardServer}) {
        for (const PortPoolFinding& finding : *pools) {
            HostFindingFilter& filter = filters.emplace_back();
            filter.hosts = finding.hosts;
            filter.sinceNs = options.sinceNs;
            if (finding.servers.size() == 1) {
                filter.server = finding.servers.front();
            }
            filter.fromNs = finding.windowStartNs;
            filter.toNs = finding.windowStartNs + windowNs;
            const bool acrossServers = finding.kind == PortPoolFinding::Kind::PortsAcrossServers;
            const QString what = acrossServers ? QObject::tr("Ports of %1 across %2 servers")
                                                     .arg(joined(finding.clientAddresses))
                                                     .arg(finding.servers.size())
                                               : QObject::tr("Ports of NAT address %1 on %2 hosts")
                                                     .arg(joined(finding.clientAddresses))
                                                     .arg(finding.hosts.size());
            const double percent = finding.capacity > 0 ? 100.0 * double(finding.peakPorts) / double(finding.capacity) : 0;
            appendRow(model, static_cast<int>(filters.size() - 1),
                      {cell(fromStd(finding.severity)), cell(what), cell(joined(finding.servers)),
                       cell(joined(finding.hosts), qulonglong(finding.hosts.size())),
                       cell(QObject::tr("%1 of %2 ports (%3%) in the fullest second, %4 s at %5% or more")
                                .arg(finding.peakPorts)
                                .arg(finding.capacity)
                                .arg(percent, 0, 'f', 0)
                                .arg(finding.secondsNearFull)
                                .arg(options.nearFullPercent),
                            percent),
                       cell(windowText(finding.windowStartNs, options.windowSeconds),
                            static_cast<qlonglong>(finding.windowStartNs))});
        }
    }
    return filters;
}

void fillFleetHosts(QStandardItemModel& model, const std::vector<FleetHost>& hosts) {
    reset(model, {QObject::tr("Host"), QObject::tr("Flows"), QObject::tr("Findings"), QObject::tr("Captures"),
                  QObject::tr("First (UTC)"), QObject::tr("Last (UTC)")});
    for (size_t i = 0; i < hosts.size(); ++i) {
        const FleetHost& host = hosts[i];
        appendRow(model, static_cast<int>(i),
                  {cell(fromStd(host.host)), numberCell(host.flows), numberCell(host.findings),
                   numberCell(host.captures), timeCell(host.firstTsNs), timeCell(host.lastTsNs)});
    }
}

void fillHostFindings(QStandardItemModel& model, const std::vector<HostFinding>& findings) {
    reset(model, {QObject::tr("Time (UTC)"), QObject::tr("Host"), QObject::tr("Severity"), QObject::tr("Finding"),
                  QObject::tr("Towards"), QObject::tr("Wall-clock"), QObject::tr("Connection-time"),
                  QObject::tr("Summary")});
    for (size_t i = 0; i < findings.size(); ++i) {
        const HostFinding& finding = findings[i];
        QStandardItem* summary = cell(fromStd(finding.summary));
        summary->setToolTip(fromStd(finding.summary));
        appendRow(model, static_cast<int>(i),
                  {timeCell(finding.tsNs), cell(fromStd(finding.host)), cell(fromStd(finding.severity)),
                   cell(kindTitle(finding.kind)), cell(fromStd(finding.server)), durationCell(finding.wallMs),
                   durationCell(finding.durationMs), summary});
    }
}

void fillHostFlows(QStandardItemModel& model, const std::vector<HostFlow>& flows, const HostFinding* finding) {
    reset(model, {QObject::tr("Flow"), QObject::tr("Client"), QObject::tr("Server"), QObject::tr("Start (UTC)"),
                  QObject::tr("Duration"), QObject::tr("State"), QObject::tr("Packets"), QObject::tr("Bytes"),
                  QObject::tr("RTT"), QObject::tr("Time lost")});
    for (size_t i = 0; i < flows.size(); ++i) {
        const HostFlow& flow = flows[i];
        QList<QStandardItem*> row{numberCell(flow.flowId),
                                  cell(fromStd(flow.client)),
                                  cell(fromStd(flow.server)),
                                  timeCell(flow.tsNs),
                                  durationCell(double(flow.endTsNs - flow.tsNs) / 1e6),
                                  cell(fromStd(flow.state)),
                                  numberCell(flow.packets),
                                  numberCell(flow.bytes),
                                  flow.handshakeRttMs ? rttCell(*flow.handshakeRttMs) : cell({}, -1.0),
                                  durationCell(flow.timeLostMs)};
        if (finding != nullptr && finding->flowId == int64_t{flow.flowId} && finding->captureId == flow.captureId) {
            for (QStandardItem* item : row) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
        }
        appendRow(model, static_cast<int>(i), row);
    }
}

}  // namespace tcpscope::ui
