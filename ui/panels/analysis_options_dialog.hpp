#pragma once
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <vector>

#include "loading/analysis_preferences.hpp"

namespace tcpscope::ui {

/// The detector thresholds and the strace clock, as tcpscope-cli's options: the system's
/// defaults (--os), each threshold, the ephemeral port range, the logs' time zone and offset.
/// A thin controller: it edits AnalysisPreferences and nothing else.
class AnalysisOptionsDialog : public QDialog {
    Q_OBJECT

public:
    explicit AnalysisOptionsDialog(const AnalysisPreferences& preferences, QWidget* parent = nullptr);
    /// What the dialog shows now.
    [[nodiscard]] AnalysisPreferences preferences() const;
    /// Shows `preferences` in the fields.
    void setPreferences(const AnalysisPreferences& preferences);

    void accept() override;

private:
    void showDetectors(const DetectorOptions& detectors);

    QComboBox* os_ = nullptr;
    std::vector<QDoubleSpinBox*> thresholds_;  // one per thresholdFields()
    QCheckBox* portRangeGiven_ = nullptr;
    QSpinBox* portLow_ = nullptr;
    QSpinBox* portHigh_ = nullptr;
    QLineEdit* straceTz_ = nullptr;
    QCheckBox* offsetGiven_ = nullptr;
    QDoubleSpinBox* offsetMs_ = nullptr;
    QLabel* error_ = nullptr;
};

}  // namespace tcpscope::ui
