#include "panels/analysis_options_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

#include "align/strace_time_zone.hpp"

namespace tcpscope::ui {

AnalysisOptionsDialog::AnalysisOptionsDialog(const AnalysisPreferences& preferences, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Analysis options"));
    setObjectName(QStringLiteral("analysisOptionsDialog"));

    auto* detectors = new QGroupBox(tr("Detector thresholds"));
    auto* form = new QFormLayout(detectors);
    os_ = new QComboBox;
    os_->setObjectName(QStringLiteral("os"));
    os_->addItems({QStringLiteral("linux"), QStringLiteral("macos"), QStringLiteral("windows")});
    os_->setToolTip(tr("defaults of the hosts' system: TIME_WAIT length, port range (choosing one resets the values)"));
    form->addRow(tr("&System (--os)"), os_);
    for (const ThresholdField& threshold : thresholdFields()) {
        auto* spin = new QDoubleSpinBox;
        spin->setObjectName(QString::fromLatin1(threshold.key));
        spin->setRange(threshold.minimum, threshold.maximum);
        spin->setDecimals(threshold.decimals);
        spin->setToolTip(QStringLiteral("--%1: %2").arg(QLatin1String(threshold.key), tr(threshold.tooltip)));
        form->addRow(tr(threshold.label), spin);
        thresholds_.push_back(spin);
    }
    portRangeGiven_ = new QCheckBox(tr("given (else guessed from the capture)"));
    portLow_ = new QSpinBox;
    portHigh_ = new QSpinBox;
    for (QSpinBox* port : {portLow_, portHigh_}) {
        port->setRange(1, 65535);
        connect(portRangeGiven_, &QCheckBox::toggled, port, &QWidget::setEnabled);
    }
    auto* ports = new QHBoxLayout;
    ports->addWidget(portLow_);
    ports->addWidget(new QLabel(QStringLiteral("-")));
    ports->addWidget(portHigh_);
    ports->addWidget(portRangeGiven_);
    // A row of several widgets gets its label made here: QFormLayout gives a layout's label no buddy,
    // and its "&" would show.
    auto* portsLabel = new QLabel(tr("Ephemeral &ports (--port-range)"));
    portsLabel->setBuddy(portLow_);
    form->addRow(portsLabel, ports);

    auto* clock = new QGroupBox(tr("strace logs' clock"));
    auto* clockForm = new QFormLayout(clock);
    straceTz_ = new QLineEdit;
    straceTz_->setObjectName(QStringLiteral("straceTz"));
    straceTz_->setPlaceholderText(tr("best fit (or +HH:MM, -HH:MM, UTC)"));
    clockForm->addRow(tr("&Time zone of -t/-tt logs (--strace-tz)"), straceTz_);
    offsetGiven_ = new QCheckBox(tr("given"));
    offsetMs_ = new QDoubleSpinBox;
    offsetMs_->setRange(-86'400'000, 86'400'000);
    offsetMs_->setDecimals(3);
    offsetMs_->setSuffix(tr(" ms"));
    connect(offsetGiven_, &QCheckBox::toggled, offsetMs_, &QWidget::setEnabled);
    auto* offset = new QHBoxLayout;
    offset->addWidget(offsetMs_);
    offset->addWidget(offsetGiven_);
    auto* offsetLabel = new QLabel(tr("&Offset (--strace-offset; else measured)"));
    offsetLabel->setBuddy(offsetMs_);
    clockForm->addRow(offsetLabel, offset);

    error_ = new QLabel;
    error_->setObjectName(QStringLiteral("error"));
    error_->hide();

    auto* buttons =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Analyse again"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this]() { setPreferences(AnalysisPreferences{}); });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(detectors);
    layout->addWidget(clock);
    layout->addWidget(error_);
    layout->addWidget(buttons);

    setPreferences(preferences);
    // After the first fill: choosing a system shows its defaults, as --os does under no other flag.
    connect(os_, &QComboBox::currentTextChanged, this, [this](const QString& os) {
        showDetectors(DetectorOptions::forOs(os.toStdString()).value_or(DetectorOptions{}));
    });
}

void AnalysisOptionsDialog::showDetectors(const DetectorOptions& detectors) {
    const auto fields = thresholdFields();
    for (size_t index = 0; index < fields.size(); ++index) {
        thresholds_[index]->setValue(fields[index].get(detectors));
    }
    portLow_->setValue(detectors.portRangeLow);
    portHigh_->setValue(detectors.portRangeHigh);
    portRangeGiven_->setChecked(detectors.portRangeGiven);
    portLow_->setEnabled(detectors.portRangeGiven);
    portHigh_->setEnabled(detectors.portRangeGiven);
}

void AnalysisOptionsDialog::setPreferences(const AnalysisPreferences& preferences) {
    {
        const QSignalBlocker blocker(os_);
        os_->setCurrentText(preferences.os);
    }
    showDetectors(preferences.detectors);
    straceTz_->setText(preferences.straceTz);
    offsetGiven_->setChecked(preferences.straceOffsetMs.has_value());
    offsetMs_->setEnabled(preferences.straceOffsetMs.has_value());
    offsetMs_->setValue(preferences.straceOffsetMs.value_or(0));
}

AnalysisPreferences AnalysisOptionsDialog::preferences() const {
    AnalysisPreferences preferences;
    preferences.os = os_->currentText();
    preferences.detectors = DetectorOptions::forOs(preferences.os.toStdString()).value_or(DetectorOptions{});
    const auto fields = thresholdFields();
    for (size_t index = 0; index < fields.size(); ++index) {
        fields[index].set(preferences.detectors, thresholds_[index]->value());
    }
    preferences.detectors.portRangeGiven = portRangeGiven_->isChecked();
    if (preferences.detectors.portRangeGiven) {
        preferences.detectors.portRangeLow = static_cast<uint16_t>(portLow_->value());
        preferences.detectors.portRangeHigh = static_cast<uint16_t>(portHigh_->value());
    }
    preferences.straceTz = straceTz_->text().trimmed();
    if (offsetGiven_->isChecked()) {
        preferences.straceOffsetMs = offsetMs_->value();
    }
    return preferences;
}

void AnalysisOptionsDialog::accept() {
    const AnalysisPreferences chosen = preferences();
    QString problem;
    if (!chosen.straceTz.isEmpty() && !parseTimeZoneOffset(chosen.straceTz.toStdString())) {
        problem = tr("The time zone must be +HH:MM, -HH:MM or UTC, e.g. +02:00.");
    } else if (chosen.detectors.portRangeGiven && chosen.detectors.portRangeLow > chosen.detectors.portRangeHigh) {
        problem = tr("The port range must be LOW-HIGH with LOW not above HIGH.");
    }
    if (!problem.isEmpty()) {
        error_->setText(problem);
        error_->show();
        return;
    }
    QDialog::accept();
}

}  // namespace tcpscope::ui
