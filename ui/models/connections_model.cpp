#include "models/connections_model.hpp"

#include <algorithm>
#include <compare>

#include "models/duration_text.hpp"
#include "present/process_label.hpp"

namespace tcpscope::ui {

namespace {

QString endpointText(const Endpoint& endpoint) { return QString::fromStdString(endpoint.toString()); }

uint64_t packetsOf(const Connection& c) { return c.from(Side::Client).packets + c.from(Side::Server).packets; }

uint64_t bytesOf(const Connection& c) { return c.from(Side::Client).payloadBytes + c.from(Side::Server).payloadBytes; }

QString stateText(const Connection& c) {
    return QString::fromUtf8(connectionStateName(c.state).data()) +
           (c.midstream ? QStringLiteral(" (mid-stream)") : QString());
}

QString closerText(const Connection& connection) {
    if (connection.hasActiveCloser) {
        return QString::fromUtf8(sideName(connection.activeCloser).data());
    }
    return connection.hasResetBy ? QStringLiteral("RST by %1").arg(sideName(connection.resetBy).data())
                                 : QStringLiteral("-");
}

// How long the handshake waited when the client had to send its SYN again (a full listen backlog, a
// lost SYN): from the first SYN to the SYN-ACK, or to the last packet when none came; -1 otherwise.
// Its RTT then measures only the last SYN's round trip, not what the client waited.
double handshakeWaitMs(const Connection& c) {
    if (c.midstream || c.synCount < 2) {
        return -1;
    }
    const int64_t endNs = c.synAckTsNs != kNoTime ? c.synAckTsNs : c.lastTsNs;
    return endNs >= c.firstTsNs ? static_cast<double>(endNs - c.firstTsNs) / 1e6 : -1;
}

// The handshake as a person reads it: its RTT, or the wait of a retried SYN ("35.87 s wait, 6 SYNs").
QString handshakeText(const Connection& c) {
    if (const double waitMs = handshakeWaitMs(c); waitMs >= 0) {
        return c.synAckTsNs != kNoTime
                   ? QObject::tr("%1 wait, %2 SYNs").arg(durationText(waitMs)).arg(c.synCount)
                   : QObject::tr("no answer in %1, %2 SYNs").arg(durationText(waitMs)).arg(c.synCount);
    }
    const int64_t rttNs = c.handshakeRttNs();
    return rttNs >= 0 ? QStringLiteral("%1 ms").arg(static_cast<double>(rttNs) / 1e6, 0, 'f', 3) : QStringLiteral("-");
}

// What sorts the handshake column: the wait where it waited, else the RTT.
double handshakeSortMs(const Connection& c) {
    const double waitMs = handshakeWaitMs(c);
    return waitMs >= 0 ? waitMs : static_cast<double>(c.handshakeRttNs()) / 1e6;
}

// The findings' time lost, or the handshake's wait where that is longer.
double timeLostMs(const ConnectionFindings& findings, const Connection& c) {
    return std::max(findings.timeLostMs[c.id], handshakeWaitMs(c));
}

}  // namespace

ConnectionsModel::ConnectionsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConnectionsModel::setResults(ResultsPtr results) {
    beginResetModel();
    results_ = std::move(results);
    endResetModel();
}

int ConnectionsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !results_ ? 0 : static_cast<int>(results_->connections().size());
}

int ConnectionsModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return hasProcesses() ? ColumnCount + 1 : ColumnCount;
}

bool ConnectionsModel::hasProcesses() const {
    return results_ && results_->analysis() != nullptr && !results_->analysis()->engine->processes().empty();
}

QString ConnectionsModel::processText(const Connection& connection) const {
    if (!hasProcesses()) {
        return {};
    }
    return QString::fromStdString(connectionProcessesLabel(results_->analysis()->engine->processes(), connection.id));
}

QVariant ConnectionsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !results_) {
        return {};
    }
    const Connection& c = connectionAt(index.row());
    if (role == ConnectionIdRole) {
        return c.id;
    }
    const DirectionSummary& client = c.from(Side::Client);
    const DirectionSummary& server = c.from(Side::Server);
    const double durationMs = static_cast<double>(c.lastTsNs - c.firstTsNs) / 1e6;
    const double lostMs = timeLostMs(results_->connectionFindings(), c);
    if (role == SortRole) {
        switch (index.column()) {
            case IdColumn: return c.id;
            case PacketsColumn: return static_cast<qulonglong>(packetsOf(c));
            case BytesColumn: return static_cast<qulonglong>(bytesOf(c));
            case DurationColumn: return durationMs;
            case RttColumn: return handshakeSortMs(c);
            case TimeLostColumn: return lostMs;
            default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole) {
        const bool numeric = index.column() == IdColumn || (index.column() >= PacketsColumn && index.column() <= TimeLostColumn);
        return QVariant::fromValue(numeric ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole && index.column() == RttColumn) {
        return handshakeWaitMs(c) >= 0 ? tr("The client sent its SYN %1 times: the wait from the first SYN to the "
                                            "SYN-ACK, what the client felt")
                                             .arg(c.synCount)
                                       : tr("Handshake RTT: from the SYN to the ACK of the SYN-ACK");
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
        case IdColumn: return c.id;
        case ClientColumn: return endpointText(c.client);
        case ServerColumn: return endpointText(c.server);
        case StateColumn: return stateText(c);
        case CloserColumn: return closerText(c);
        case PacketsColumn: return QStringLiteral("%1 / %2").arg(client.packets).arg(server.packets);
        case BytesColumn: return QStringLiteral("%1 / %2").arg(client.payloadBytes).arg(server.payloadBytes);
        case DurationColumn: return QStringLiteral("%1 ms").arg(durationMs, 0, 'f', 1);
        case RttColumn: return handshakeText(c);
        case TimeLostColumn: return lostMs > 0 ? durationText(lostMs) : QStringLiteral("-");
        case FindingsColumn: return results_->connectionFindings().kinds[c.id];
        case ProcessColumn: return processText(c);
        default: return {};
    }
}

bool ConnectionsModel::rowLessThan(int column, int left, int right) const {
    const Connection& a = connectionAt(left);
    const Connection& b = connectionAt(right);
    const ConnectionFindings& findings = results_->connectionFindings();
    const auto durationNs = [](const Connection& c) { return c.lastTsNs - c.firstTsNs; };
    switch (column) {
        case IdColumn: return a.id < b.id;
        case ClientColumn: return a.client < b.client;
        case ServerColumn: return a.server < b.server;
        case StateColumn: return stateText(a) < stateText(b);
        case CloserColumn: return closerText(a) < closerText(b);
        case PacketsColumn: return packetsOf(a) < packetsOf(b);
        case BytesColumn: return bytesOf(a) < bytesOf(b);
        case DurationColumn: return durationNs(a) < durationNs(b);
        case RttColumn: return handshakeSortMs(a) < handshakeSortMs(b);
        case TimeLostColumn: return timeLostMs(findings, a) < timeLostMs(findings, b);
        case FindingsColumn: return findings.kinds[a.id] < findings.kinds[b.id];
        case ProcessColumn: return processText(a) < processText(b);
        default: return false;
    }
}

QModelIndex ConnectionsModel::indexOfConnection(uint32_t id) const {
    if (!results_ || id >= results_->connections().size()) {
        return {};
    }
    return index(mirrored(static_cast<int>(id)), 0);
}

const Connection& ConnectionsModel::connectionAt(int row) const {
    return results_->connections()[static_cast<size_t>(mirrored(row))];
}

int ConnectionsModel::mirrored(int rowOrPosition) const {
    return reversed_ ? rowCount() - 1 - rowOrPosition : rowOrPosition;
}

void ConnectionsModel::setReversed(bool reversed) {
    if (reversed == reversed_) {
        return;
    }
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& index : before) {
        after << createIndex(rowCount() - 1 - index.row(), index.column());
    }
    reversed_ = reversed;
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

QVariant ConnectionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    static const char* const names[] = {"#",           "Client",   "Server",  "State",     "Closed by", "Packets c/s",
                                        "Bytes c/s",   "Duration", "Handshake", "Time lost", "Findings", "Process"};
    return section >= 0 && section < columnCount() ? tr(names[section]) : QVariant();
}

ConnectionsFilter::ConnectionsFilter(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(ConnectionsModel::SortRole);
}

void ConnectionsFilter::setFilterText(const QString& text) {
    words_ = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    invalidateFilter();
}

void ConnectionsFilter::sort(int column, Qt::SortOrder order) {
    auto* connections = qobject_cast<ConnectionsModel*>(sourceModel());
    if (connections == nullptr) {
        QSortFilterProxyModel::sort(column, order);
        return;
    }
    // By number: the model's own order, forwards or backwards (column -1 keeps the source order).
    // Otherwise ties keep the ascending numbers.
    const bool byNumber = column == ConnectionsModel::IdColumn;
    connections->setReversed(byNumber && order == Qt::DescendingOrder);
    QSortFilterProxyModel::sort(byNumber ? -1 : column, byNumber ? Qt::AscendingOrder : order);
}

bool ConnectionsFilter::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    // Sorting 100k rows through QVariants kept the GUI thread busy for a large part of a second.
    const auto* connections = qobject_cast<const ConnectionsModel*>(sourceModel());
    if (connections == nullptr || connections->results() == nullptr || left.column() != right.column()) {
        return QSortFilterProxyModel::lessThan(left, right);
    }
    return connections->rowLessThan(left.column(), left.row(), right.row());
}

bool ConnectionsFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (words_.isEmpty()) {
        return true;
    }
    QString haystack;
    for (int column : {ConnectionsModel::IdColumn, ConnectionsModel::ClientColumn, ConnectionsModel::ServerColumn,
                       ConnectionsModel::StateColumn, ConnectionsModel::CloserColumn, ConnectionsModel::FindingsColumn,
                       ConnectionsModel::ProcessColumn}) {
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
