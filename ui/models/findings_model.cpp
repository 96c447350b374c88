#include "models/findings_model.hpp"

#include <QApplication>
#include <QStyle>

#include <algorithm>
#include <iterator>
#include <map>

#include "models/duration_text.hpp"
#include "report/finding_summary.hpp"
#include "report/incidents_text.hpp"

namespace tcpscope::ui {

namespace {

QIcon severityIcon(Severity severity) {
    // The style's own icons keep their meaning on light and dark palettes alike.
    QStyle* style = QApplication::style();
    switch (severity) {
        case Severity::Error: return style->standardIcon(QStyle::SP_MessageBoxCritical);
        case Severity::Warning: return style->standardIcon(QStyle::SP_MessageBoxWarning);
        case Severity::Info: return style->standardIcon(QStyle::SP_MessageBoxInformation);
    }
    return {};
}

QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

FindingsModel::FindingsModel(QObject* parent) : QAbstractItemModel(parent) {}

void FindingsModel::setResults(ResultsPtr results) {
    beginResetModel();
    results_ = std::move(results);
    groups_.clear();
    if (results_) {
        std::vector<bool> inIncident(results_->findings().size(), false);
        addIncidents(inIncident);
        addKinds(inIncident);
    }
    endResetModel();
}

void FindingsModel::addIncidents(std::vector<bool>& inIncident) {
    const auto& findings = results_->findings();
    for (const Incident& incident : results_->incidents()) {
        Group group;
        group.incident = &incident;
        group.kind = QString::fromStdString(incident.title);
        group.impact = QString::fromStdString(impactLine(incident.impact));
        group.wallMs = incident.impact.wallMs.value_or(0);
        group.worst = incident.severity;
        for (const uint32_t id : incident.findings) {
            if (id < findings.size()) {
                group.findings.push_back(id);
                group.connectionMs += findings[id].impact.connectionMs;
                inIncident[id] = true;
            }
        }
        groups_.push_back(std::move(group));
    }
}

void FindingsModel::addKinds(const std::vector<bool>& inIncident) {
    std::map<FindingKind, Group> byKind;
    std::map<FindingKind, std::vector<WaitRange>> waitsOf;
    for (const Finding& finding : results_->findings()) {
        if (inIncident[finding.id]) {
            continue;
        }
        Group& group = byKind[finding.kind];
        if (group.findings.empty()) {
            group.kind = fromView(findingKindTitle(finding.kind));
        }
        group.connectionMs += finding.impact.connectionMs;
        group.worst = std::min(group.worst, finding.severity);  // Error < Warning < Info
        group.findings.push_back(finding.id);
        std::vector<WaitRange>& waits = waitsOf[finding.kind];
        waits.insert(waits.end(), finding.waitRanges.begin(), finding.waitRanges.end());
    }
    const auto& findings = results_->findings();
    std::vector<Group> kinds;
    for (auto& [kind, group] : byKind) {
        group.wallMs = static_cast<double>(coveredNs(mergeRanges(std::move(waitsOf[kind])))) / 1e6;
        std::stable_sort(group.findings.begin(), group.findings.end(),
                         [&findings](uint32_t a, uint32_t b) { return shownMs(findings[a]) > shownMs(findings[b]); });
        kinds.push_back(std::move(group));
    }
    std::stable_sort(kinds.begin(), kinds.end(), [](const Group& a, const Group& b) {
        return a.worst != b.worst ? a.worst < b.worst : a.wallMs > b.wallMs;
    });
    std::move(kinds.begin(), kinds.end(), std::back_inserter(groups_));
}

const Finding* FindingsModel::findingAt(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() == kGroupRow || !results_) {
        return nullptr;
    }
    const Group& group = groups_[index.internalId()];
    return &results_->findings()[group.findings[static_cast<size_t>(index.row())]];
}

const Incident* FindingsModel::incidentAt(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() != kGroupRow) {
        return nullptr;
    }
    return groups_[static_cast<size_t>(index.row())].incident;
}

QModelIndex FindingsModel::indexOfIncident(uint32_t id) const {
    for (size_t groupRow = 0; groupRow < groups_.size(); ++groupRow) {
        if (groups_[groupRow].incident != nullptr && groups_[groupRow].incident->id == id) {
            return createIndex(static_cast<int>(groupRow), 0, kGroupRow);
        }
    }
    return {};
}

QString FindingsModel::summaryOf(const Finding& finding) const {
    return QString::fromStdString(findingSummary(finding, results_->enrichments().of(finding.id)));
}

QModelIndex FindingsModel::indexOfFinding(uint32_t id) const {
    for (size_t groupRow = 0; groupRow < groups_.size(); ++groupRow) {
        const auto& ids = groups_[groupRow].findings;
        const auto found = std::find(ids.begin(), ids.end(), id);
        if (found != ids.end()) {
            return createIndex(static_cast<int>(found - ids.begin()), 0, static_cast<quintptr>(groupRow));
        }
    }
    return {};
}

QModelIndex FindingsModel::neighbourFinding(const QModelIndex& from, int step) const {
    // Positions in the flattened order: group after group, finding after finding.
    std::vector<size_t> starts;
    size_t total = 0;
    for (const Group& group : groups_) {
        starts.push_back(total);
        total += group.findings.size();
    }
    if (total == 0) {
        return {};
    }
    const auto count = static_cast<ptrdiff_t>(total);
    ptrdiff_t position = 0;
    if (!from.isValid()) {
        position = step > 0 ? step - 1 : count + step;
    } else if (from.internalId() == kGroupRow) {
        const auto start = static_cast<ptrdiff_t>(starts[static_cast<size_t>(from.row())]);
        position = step > 0 ? start + step - 1 : start + step;
    } else {
        position = static_cast<ptrdiff_t>(starts[from.internalId()]) + from.row() + step;
    }
    position = ((position % count) + count) % count;
    const auto group = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), static_cast<size_t>(position)) -
                                           starts.begin() - 1);
    return createIndex(static_cast<int>(static_cast<size_t>(position) - starts[group]), 0, static_cast<quintptr>(group));
}

QModelIndex FindingsModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) {
        return {};
    }
    if (!parent.isValid()) {
        return row < static_cast<int>(groups_.size()) ? createIndex(row, column, kGroupRow) : QModelIndex();
    }
    if (parent.internalId() != kGroupRow) {
        return {};
    }
    const auto& group = groups_[static_cast<size_t>(parent.row())];
    return row < static_cast<int>(group.findings.size()) ? createIndex(row, column, static_cast<quintptr>(parent.row()))
                                                         : QModelIndex();
}

QModelIndex FindingsModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kGroupRow) {
        return {};
    }
    return createIndex(static_cast<int>(child.internalId()), 0, kGroupRow);
}

int FindingsModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) {
        return static_cast<int>(groups_.size());
    }
    if (parent.column() != 0 || parent.internalId() != kGroupRow) {
        return 0;
    }
    return static_cast<int>(groups_[static_cast<size_t>(parent.row())].findings.size());
}

int FindingsModel::columnCount(const QModelIndex& /*parent*/) const { return ColumnCount; }

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    if (index.internalId() == kGroupRow) {
        return groupData(groups_[static_cast<size_t>(index.row())], index.column(), role);
    }
    const Finding& finding = *findingAt(index);
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case KindColumn:  // under an incident its findings are of several kinds; a kind's row names it
                    return groups_[index.internalId()].incident != nullptr ? fromView(findingKindTitle(finding.kind))
                                                                           : fromView(severityName(finding.severity));
                case FlowColumn:
                    return finding.connection == kNoConnection ? QStringLiteral("-")
                                                               : QStringLiteral("#%1").arg(finding.connection);
                case TimeLostColumn:  // a stall still going on (live capture): its time so far, growing
                    return finding.ongoing ? tr("%1 so far").arg(durationText(finding.durationMs)) : durationText(shownMs(finding));
                case SummaryColumn: return summaryOf(finding);
                default: return {};
            }
        case Qt::ToolTipRole: return summaryOf(finding);
        case Qt::DecorationRole: return index.column() == KindColumn ? QVariant(severityIcon(finding.severity)) : QVariant();
        case FindingIdRole: return static_cast<int>(finding.id);
        case FlowIdRole: return finding.connection == kNoConnection ? -1 : static_cast<int>(finding.connection);
        default: return {};
    }
}

QVariant FindingsModel::groupData(const Group& group, int column, int role) const {
    switch (role) {
        case Qt::DisplayRole:
            switch (column) {
                case KindColumn:
                    return group.incident != nullptr
                               ? group.kind
                               : QStringLiteral("%1 (%2)").arg(group.kind).arg(group.findings.size());
                case TimeLostColumn: return durationText(group.wallMs);
                case SummaryColumn: return group.impact;
                default: return {};
            }
        case Qt::DecorationRole: return column == KindColumn ? QVariant(severityIcon(group.worst)) : QVariant();
        case Qt::ToolTipRole:
            if (group.incident != nullptr) {
                return QStringLiteral("%1\n%2").arg(group.kind, group.impact);
            }
            return tr("%1: something waited for %2 of wall-clock time; %3 of connection-time added up over "
                      "connections")
                .arg(group.kind, durationText(group.wallMs), durationText(group.connectionMs));
        case FindingIdRole:
        case FlowIdRole: return -1;
        default: return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case KindColumn: return tr("Incident or finding");
        case FlowColumn: return tr("Flow");
        case TimeLostColumn: return tr("Wall-clock");
        case SummaryColumn: return tr("Summary");
        default: return {};
    }
}

}  // namespace tcpscope::ui
