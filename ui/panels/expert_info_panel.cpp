#include "panels/expert_info_panel.hpp"

#include <QHeaderView>
#include <QStringList>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <array>
#include <map>

#include "finding/finding_kind.hpp"
#include "tcp/analysis_flag_words.hpp"

namespace tcpscope::ui {

namespace {

constexpr int kFilterRole = Qt::UserRole + 1;

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

ExpertInfoPanel::ExpertInfoPanel(QWidget* parent) : QWidget(parent) {
    tree_ = new QTreeWidget;
    tree_->setObjectName(QStringLiteral("expertInfo"));
    tree_->setColumnCount(ColumnCount);
    tree_->setHeaderLabels({tr("Severity"), tr("Summary"), tr("Field or kind"), tr("Packets")});
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tree_);
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QString filter = item->data(SummaryColumn, kFilterRole).toString();
        if (!filter.isEmpty()) {
            emit filterRequested(filter);
        }
    });
}

void ExpertInfoPanel::setResults(const ResultsPtr& results) {
    tree_->clear();
    const PacketIndex* packets = results ? results->packets() : nullptr;
    if (packets == nullptr) {
        return;
    }
    const auto counts = flagCounts(*packets);
    std::map<ExpertSeverity, QTreeWidgetItem*> groups;
    for (const ExpertSeverity severity : {ExpertSeverity::Warning, ExpertSeverity::Note, ExpertSeverity::Chat}) {
        uint64_t total = 0;
        for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
            total += analysisFlagSeverity(analysisFlagAt(bitIndex)) == severity ? counts[static_cast<size_t>(bitIndex)] : 0;
        }
        if (total == 0) {
            continue;
        }
        auto* group = new QTreeWidgetItem(tree_);
        group->setText(SeverityColumn, text(expertSeverityName(severity)));
        group->setText(CountColumn, QString::number(total));
        groups[severity] = group;
    }
    for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
        const AnalysisFlag flag = analysisFlagAt(bitIndex);
        const uint64_t count = counts[static_cast<size_t>(bitIndex)];
        if (count == 0) {
            continue;
        }
        auto* row = new QTreeWidgetItem(groups.at(analysisFlagSeverity(flag)));
        const QString field = QStringLiteral("tcp.analysis.") + text(analysisFlagName(flag));
        row->setText(SummaryColumn, text(analysisFlagWords(flag)));
        row->setText(FieldColumn, field);
        row->setText(CountColumn, QString::number(count));
        row->setData(SummaryColumn, kFilterRole, field);
    }
    if (!results->findings().empty()) {
        auto* group = new QTreeWidgetItem(tree_);
        group->setText(SeverityColumn, tr("Findings"));
        group->setText(CountColumn, QString::number(results->findings().size()));
        for (const Finding& finding : results->findings()) {
            auto* row = new QTreeWidgetItem(group);
            row->setText(SeverityColumn, text(severityName(finding.severity)));
            row->setText(SummaryColumn, QString::fromStdString(finding.summary));
            row->setToolTip(SummaryColumn, QString::fromStdString(finding.summary));
            row->setText(FieldColumn, text(findingKindTitle(finding.kind)));
            row->setText(CountColumn, QString::number(finding.frames.size()));
            if (!finding.frames.empty()) {
                row->setData(SummaryColumn, kFilterRole, framesFilter(finding.frames));
            }
        }
    }
    tree_->expandToDepth(0);  // not expandAll(): it keeps a persistent index of every row (seconds at 80,000 findings)
    for (const int column : {SeverityColumn, FieldColumn, CountColumn}) {
        tree_->resizeColumnToContents(column);
    }
    tree_->header()->moveSection(CountColumn, SummaryColumn);  // the count beside the severity, as Wireshark
}

}  // namespace tcpscope::ui
