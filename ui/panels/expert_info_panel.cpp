#include "panels/expert_info_panel.hpp"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QStringList>
#include <QTreeView>
#include <QVBoxLayout>
#include <array>
#include <vector>

#include "finding/finding_kind.hpp"
#include "tcp/analysis_flag_words.hpp"

namespace tcpscope::ui {

namespace {

QString text(std::string_view view) { return QString::fromUtf8(view.data(), static_cast<qsizetype>(view.size())); }

// Counts of each flag over the packet index, one pass.
std::array<uint64_t, kAnalysisFlagCount> flagCounts(const PacketIndex& packets) {
    std::array<uint64_t, kAnalysisFlagCount> counts{};
    for (size_t position = 0; position < packets.size(); ++position) {
        const AnalysisFlags flags = packets.analysis(position);
        for (int bitIndex = 0; flags != 0 && bitIndex < kAnalysisFlagCount; ++bitIndex) {
            counts[static_cast<size_t>(bitIndex)] += has(flags, analysisFlagAt(bitIndex)) ? 1 : 0;
        }
    }
    return counts;
}

// "frame.number in {3, 7, 9}": the first kMaxFindingFrames frames of a finding's evidence.
QString framesFilter(const std::vector<uint32_t>& frames) {
    QStringList numbers;
    for (size_t index = 0; index < frames.size() && index < ExpertInfoPanel::kMaxFindingFrames; ++index) {
        numbers << QString::number(frames[index]);
    }
    return QStringLiteral("frame.number in {%1}").arg(numbers.join(QStringLiteral(", ")));
}

}  // namespace

/// The rows of the panel: a group per severity (its flags below) and one for the findings (each
/// finding below), read from the results when asked. A row under group g has internal id g + 1.
class ExpertInfoModel final : public QAbstractItemModel {
public:
    void setResults(const ResultsPtr& results) {
        beginResetModel();
        results_ = results;
        groups_.clear();
        findingsGroup_ = -1;
        const PacketIndex* packets = results ? results->packets() : nullptr;
        if (packets != nullptr) {
            const auto counts = flagCounts(*packets);
            for (const ExpertSeverity severity :
                 {ExpertSeverity::Warning, ExpertSeverity::Note, ExpertSeverity::Chat}) {
                Group group{text(expertSeverityName(severity)), 0, {}};
                for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
                    const uint64_t count = counts[static_cast<size_t>(bitIndex)];
                    if (count > 0 && analysisFlagSeverity(analysisFlagAt(bitIndex)) == severity) {
                        group.count += count;
                        group.flags.push_back({analysisFlagAt(bitIndex), count});
                    }
                }
                if (group.count > 0) {
                    groups_.push_back(std::move(group));
                }
            }
            if (!results->findings().empty()) {
                groups_.push_back({ExpertInfoPanel::tr("Findings"), results->findings().size(), {}});
                findingsGroup_ = static_cast<int>(groups_.size()) - 1;
            }
        }
        endResetModel();
    }

    [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent) const override {
        if (!hasIndex(row, column, parent)) {
            return {};
        }
        return createIndex(row, column, parent.isValid() ? static_cast<quintptr>(parent.row()) + 1 : 0);
    }
    [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override {
        if (!child.isValid() || child.internalId() == 0) {
            return {};
        }
        return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
    }
    [[nodiscard]] int rowCount(const QModelIndex& parent) const override {
        if (!parent.isValid()) {
            return static_cast<int>(groups_.size());
        }
        if (parent.internalId() != 0 || parent.column() != 0) {
            return 0;
        }
        if (parent.row() == findingsGroup_) {
            return static_cast<int>(results_->findings().size());
        }
        return static_cast<int>(groups_[static_cast<size_t>(parent.row())].flags.size());
    }
    [[nodiscard]] int columnCount(const QModelIndex& /*parent*/) const override { return ExpertInfoPanel::ColumnCount; }
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
            return {};
        }
        switch (section) {
            case ExpertInfoPanel::SeverityColumn: return ExpertInfoPanel::tr("Severity");
            case ExpertInfoPanel::SummaryColumn: return ExpertInfoPanel::tr("Summary");
            case ExpertInfoPanel::FieldColumn: return ExpertInfoPanel::tr("Field or kind");
            case ExpertInfoPanel::CountColumn: return ExpertInfoPanel::tr("Packets");
            default: return {};
        }
    }
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid()) {
            return {};
        }
        if (index.internalId() == 0) {
            return groupData(groups_[static_cast<size_t>(index.row())], index.column(), role);
        }
        const auto group = static_cast<int>(index.internalId() - 1);
        if (group == findingsGroup_) {
            return findingData(results_->findings()[static_cast<size_t>(index.row())], index.column(), role);
        }
        return flagData(groups_[static_cast<size_t>(group)].flags[static_cast<size_t>(index.row())], index.column(),
                        role);
    }

private:
    struct FlagCount {
        AnalysisFlag flag;
        uint64_t count = 0;
    };
    struct Group {
        QString label;
        uint64_t count = 0;
        std::vector<FlagCount> flags;  // a severity's flags; empty for the findings
    };

    static QVariant groupData(const Group& group, int column, int role) {
        if (role != Qt::DisplayRole) {
            return {};
        }
        switch (column) {
            case ExpertInfoPanel::SeverityColumn: return group.label;
            case ExpertInfoPanel::CountColumn: return QString::number(group.count);
            default: return {};
        }
    }
    static QVariant flagData(const FlagCount& flag, int column, int role) {
        const QString field = QStringLiteral("tcp.analysis.") + text(analysisFlagName(flag.flag));
        if (role == ExpertInfoPanel::kFilterRole && column == ExpertInfoPanel::SummaryColumn) {
            return field;
        }
        if (role != Qt::DisplayRole) {
            return {};
        }
        switch (column) {
            case ExpertInfoPanel::SummaryColumn: return text(analysisFlagWords(flag.flag));
            case ExpertInfoPanel::FieldColumn: return field;
            case ExpertInfoPanel::CountColumn: return QString::number(flag.count);
            default: return {};
        }
    }
    static QVariant findingData(const Finding& finding, int column, int role) {
        if (role == ExpertInfoPanel::kFilterRole && column == ExpertInfoPanel::SummaryColumn) {
            return finding.frames.empty() ? QString() : framesFilter(finding.frames);
        }
        if (role == Qt::ToolTipRole && column == ExpertInfoPanel::SummaryColumn) {
            return QString::fromStdString(finding.summary);
        }
        if (role != Qt::DisplayRole) {
            return {};
        }
        switch (column) {
            case ExpertInfoPanel::SeverityColumn: return text(severityName(finding.severity));
            case ExpertInfoPanel::SummaryColumn: return QString::fromStdString(finding.summary);
            case ExpertInfoPanel::FieldColumn: return text(findingKindTitle(finding.kind));
            case ExpertInfoPanel::CountColumn: return QString::number(finding.frames.size());
            default: return {};
        }
    }

    ResultsPtr results_;
    std::vector<Group> groups_;
    int findingsGroup_ = -1;
};

ExpertInfoPanel::ExpertInfoPanel(QWidget* parent) : QWidget(parent), model_(new ExpertInfoModel) {
    view_ = new QTreeView;
    view_->setObjectName(QStringLiteral("expertInfo"));
    view_->setModel(model_);
    model_->setParent(view_);
    view_->setRootIsDecorated(true);
    view_->setUniformRowHeights(true);
    view_->header()->moveSection(CountColumn, SummaryColumn);  // the count beside the severity, as Wireshark
    // The summary takes the room the other columns leave: a finding's sentence is the row.
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(SummaryColumn, QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    connect(view_, &QTreeView::activated, this, &ExpertInfoPanel::activate);
}

ExpertInfoPanel::~ExpertInfoPanel() = default;

const QAbstractItemModel& ExpertInfoPanel::model() const {
    return *model_;
}

void ExpertInfoPanel::activate(const QModelIndex& index) {
    const QString filter = index.sibling(index.row(), SummaryColumn).data(kFilterRole).toString();
    if (!filter.isEmpty()) {
        emit filterRequested(filter);
    }
}

void ExpertInfoPanel::setResults(const ResultsPtr& results) {
    model_->setResults(results);
    view_->expandToDepth(0);
    for (const int column : {SeverityColumn, FieldColumn, CountColumn}) {
        view_->resizeColumnToContents(column);
    }
}

}  // namespace tcpscope::ui
