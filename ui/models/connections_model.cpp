#include "models/connections_model.hpp"

#include <set>

namespace tcpscope::ui {

namespace {

QString endpointText(const Endpoint& endpoint) { return QString::fromStdString(endpoint.toString()); }

QString closerText(const Connection& connection) {
    if (connection.hasActiveCloser) {
        return QString::fromUtf8(sideName(connection.activeCloser).data());
    }
    return connection.hasResetBy ? QStringLiteral("RST by %1").arg(sideName(connection.resetBy).data())
                                 : QStringLiteral("-");
}

}  // namespace

ConnectionsModel::ConnectionsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConnectionsModel::setResults(ResultsPtr results) {
    beginResetModel();
    results_ = std::move(results);
    timeLost_.assign(results_ ? results_->connections().size() : 0, {});
    findingKinds_.assign(timeLost_.size(), {});
    if (results_) {
        std::vector<std::set<std::string>> kinds(timeLost_.size());
        for (const Finding& finding : results_->findings()) {
            if (finding.connection < timeLost_.size()) {
                timeLost_[finding.connection][finding.kind] += finding.durationMs;
                kinds[finding.connection].insert(finding.kind);
            }
        }
        for (size_t i = 0; i < kinds.size(); ++i) {
            QStringList names;
            for (const std::string& kind : kinds[i]) {
                names << QString::fromStdString(kind);
            }
            findingKinds_[i] = names.join(QStringLiteral(", "));
        }
    }
    endResetModel();
}

int ConnectionsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !results_ ? 0 : static_cast<int>(results_->connections().size());
}

int ConnectionsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ConnectionsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !results_) {
        return {};
    }
    const Connection& c = results_->connections()[static_cast<size_t>(index.row())];
    if (role == ConnectionIdRole) {
        return c.id;
    }
    const DirectionSummary& client = c.from(Side::Client);
    const DirectionSummary& server = c.from(Side::Server);
    const double durationMs = static_cast<double>(c.lastTsNs - c.firstTsNs) / 1e6;
    const double rttMs = c.handshakeRttNs() >= 0 ? static_cast<double>(c.handshakeRttNs()) / 1e6 : -1;
    const double lostMs = totalMs(timeLost_[c.id]);
    if (role == SortRole) {
        switch (index.column()) {
            case IdColumn: return c.id;
            case PacketsColumn: return static_cast<qulonglong>(client.packets + server.packets);
            case BytesColumn: return static_cast<qulonglong>(client.payloadBytes + server.payloadBytes);
            case DurationColumn: return durationMs;
            case RttColumn: return rttMs;
            case TimeLostColumn: return lostMs;
            default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole) {
        const bool numeric = index.column() == IdColumn || (index.column() >= PacketsColumn && index.column() <= TimeLostColumn);
        return QVariant::fromValue(numeric ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
        case IdColumn: return c.id;
        case ClientColumn: return endpointText(c.client);
        case ServerColumn: return endpointText(c.server);
        case StateColumn:
            return QString::fromUtf8(connectionStateName(c.state).data()) +
                   (c.midstream ? QStringLiteral(" (mid-stream)") : QString());
        case CloserColumn: return closerText(c);
        case PacketsColumn: return QStringLiteral("%1 / %2").arg(client.packets).arg(server.packets);
        case BytesColumn: return QStringLiteral("%1 / %2").arg(client.payloadBytes).arg(server.payloadBytes);
        case DurationColumn: return QStringLiteral("%1 ms").arg(durationMs, 0, 'f', 1);
        case RttColumn: return rttMs >= 0 ? QStringLiteral("%1 ms").arg(rttMs, 0, 'f', 3) : QStringLiteral("-");
        case TimeLostColumn: return lostMs > 0 ? QStringLiteral("%1 ms").arg(lostMs, 0, 'f', 1) : QStringLiteral("-");
        case FindingsColumn: return findingKinds_[c.id];
        default: return {};
    }
}

QVariant ConnectionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    static const char* const names[] = {"#",           "Client",   "Server",  "State",     "Closed by", "Packets c/s",
                                        "Bytes c/s",   "Duration", "Handshake RTT", "Time lost", "Findings"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

ConnectionsFilter::ConnectionsFilter(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(ConnectionsModel::SortRole);
}

void ConnectionsFilter::setFilterText(const QString& text) {
    words_ = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

bool ConnectionsFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (words_.isEmpty()) {
        return true;
    }
    QString haystack;
    for (int column : {ConnectionsModel::IdColumn, ConnectionsModel::ClientColumn, ConnectionsModel::ServerColumn,
                       ConnectionsModel::StateColumn, ConnectionsModel::CloserColumn, ConnectionsModel::FindingsColumn}) {
        haystack += sourceModel()->index(sourceRow, column, sourceParent).data().toString() + QLatin1Char(' ');
    }
    for (const QString& word : words_) {
        if (!haystack.contains(word, Qt::CaseInsensitive)) {
            return false;
        }
    }
    return true;
}

}  // namespace tcpscope::ui
