#pragma once
#include <QAbstractItemModel>

#include <vector>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// The findings as a two-level tree: first one row per incident (most severe first, as buildIncidents
/// orders them) with its findings below it in time order, then one row per kind (sorted by the time
/// that kind cost) with the findings of no incident below it (sorted by time lost). Columns: finding,
/// flow, time lost, summary.
class FindingsModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column { KindColumn, FlowColumn, TimeLostColumn, SummaryColumn, ColumnCount };
    /// Item data role giving the finding id (findings) or -1 (incident and kind rows).
    static constexpr int FindingIdRole = Qt::UserRole + 1;
    /// Item data role giving the flow id of a finding, or -1.
    static constexpr int FlowIdRole = Qt::UserRole + 2;

    explicit FindingsModel(QObject* parent = nullptr);

    /// Shows `results` (replaces what was shown).
    void setResults(ResultsPtr results);
    /// The finding of `index`, or null for an incident or kind row.
    [[nodiscard]] const Finding* findingAt(const QModelIndex& index) const;
    /// The incident of `index`, or null for any other row.
    [[nodiscard]] const Incident* incidentAt(const QModelIndex& index) const;
    /// The row of the incident with `id`, or an invalid index.
    [[nodiscard]] QModelIndex indexOfIncident(uint32_t id) const;
    /// The index of the finding with `id`, or an invalid index.
    [[nodiscard]] QModelIndex indexOfFinding(uint32_t id) const;
    /// The finding `step` places after (negative: before) `from` in the order shown, group after
    /// group, wrapping around; from an incident or kind row or an invalid index, its first (or last) finding.
    /// Invalid when there is no finding.
    [[nodiscard]] QModelIndex neighbourFinding(const QModelIndex& from, int step) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // A top-level row: an incident, or a kind with its findings of no incident.
    struct Group {
        const Incident* incident = nullptr;  // in results_, or null for a kind
        QString kind;                        // its title ("Nagle + delayed ACK"); the incident's title
        QString impact;                      // an incident's impact in one line (impactLine), as the CLI says it
        double wallMs = 0;  // during which any of its findings waited
        double connectionMs = 0;  // their waits added up over connections
        Severity worst = Severity::Info;
        std::vector<uint32_t> findings;  // ids: an incident's in time order, a kind's by time lost
    };
    static constexpr quintptr kGroupRow = ~quintptr{0};

    void addIncidents(std::vector<bool>& inIncident);
    void addKinds(const std::vector<bool>& inIncident);
    // Its sentence, with what a strace log adds to it (findingSummary).
    [[nodiscard]] QString summaryOf(const Finding& finding) const;
    [[nodiscard]] QVariant groupData(const Group& group, int column, int role) const;

    ResultsPtr results_;
    std::vector<Group> groups_;
};

}  // namespace tcpscope::ui
