#include "live_capture/capture_dialog.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "capture/bpf_filter.hpp"
#include "live/live_error.hpp"

namespace tcpscope::ui {

namespace {

enum InterfaceColumn { NameColumn, AddressColumn, StateColumn, RateColumn, InterfaceColumnCount };

QString stateOf(const CaptureInterface& device) {
    QStringList state;
    state << (device.up ? QObject::tr("up") : QObject::tr("down"));
    if (device.running) {
        state << QObject::tr("running");
    }
    if (device.loopback) {
        state << QObject::tr("loopback");
    }
    if (device.wireless) {
        state << QObject::tr("wireless");
    }
    return state.join(QStringLiteral(", "));
}

QString addressesOf(const CaptureInterface& device) {
    if (device.any) {
        return QObject::tr("every interface (Linux cooked capture)");
    }
    QStringList lines;
    for (const std::string& address : device.addresses) {
        lines << QString::fromStdString(address);
    }
    if (!device.description.empty()) {
        lines.prepend(QString::fromStdString(device.description));
    }
    return lines.join(QStringLiteral(", "));
}

// Wireshark's colours for a filter field: the text stays dark on both, whatever the palette.
const char* const kValidFilterStyle = "QLineEdit { background: #afffaf; color: black; }";
const char* const kInvalidFilterStyle = "QLineEdit { background: #ffafaf; color: black; }";

}  // namespace

CaptureDialog::CaptureDialog(const CaptureSettings& settings, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Start capture"));
    setObjectName(QStringLiteral("captureDialog"));

    interfaceList_ = new QTreeWidget;
    interfaceList_->setObjectName(QStringLiteral("interfaceList"));
    interfaceList_->setRootIsDecorated(false);
    interfaceList_->setUniformRowHeights(true);
    interfaceList_->setHeaderLabels({tr("Interface"), tr("Addresses"), tr("State"), tr("Packets/s")});
    interfaceList_->headerItem()->setToolTip(
        RateColumn, tr("Packets sent plus received per second, from the kernel's interface counters "
                       "(/sys/class/net/IFACE/statistics): all traffic, before the capture filter"));
    interfaceList_->header()->setSectionResizeMode(AddressColumn, QHeaderView::Stretch);
    interfaceList_->header()->setStretchLastSection(false);
    connect(interfaceList_, &QTreeWidget::currentItemChanged, this, [this] {
        if (!outputEdited_) {
            output_->setText(CaptureSettings::defaultOutputPath(selectedDevice()));
        }
        updateStartButton();
    });
    connect(interfaceList_, &QTreeWidget::itemDoubleClicked, this, &CaptureDialog::accept);
    auto* rateNote = new QLabel(tr("Packets/s: sent plus received, from the kernel's counters of each interface "
                                   "(all traffic, before the capture filter), every second."));
    rateNote->setWordWrap(true);
    rateNote->setEnabled(false);  // drawn as a quiet hint

    filter_ = new QLineEdit(settings.filter);
    filter_->setObjectName(QStringLiteral("captureFilter"));
    filter_->setPlaceholderText(tr("every packet; e.g. tcp port 3306 or host 10.0.0.5"));
    filter_->setClearButtonEnabled(true);
    filterStatus_ = new QLabel;
    filterStatus_->setObjectName(QStringLiteral("captureFilterStatus"));
    filterStatus_->setWordWrap(true);
    filterStatus_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(filter_, &QLineEdit::textChanged, this, &CaptureDialog::checkFilter);

    snapLength_ = new QSpinBox;
    snapLength_->setObjectName(QStringLiteral("snapLength"));
    snapLength_->setRange(64, 262144);
    snapLength_->setValue(static_cast<int>(settings.snapLength));
    snapLength_->setSuffix(tr(" bytes"));
    snapLength_->setToolTip(tr("Bytes kept of each packet (--snaplen); TCP analysis needs the headers only, "
                               "about 128 bytes"));

    output_ = new QLineEdit(settings.outputPath);
    output_->setObjectName(QStringLiteral("outputFile"));
    connect(output_, &QLineEdit::textEdited, this, [this] {
        outputEdited_ = true;
        updateStartButton();
    });
    auto* browse = new QPushButton(tr("&Browse..."));
    connect(browse, &QPushButton::clicked, this, &CaptureDialog::browseOutput);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(output_, 1);
    outputRow->addWidget(browse);

    ring_ = new QCheckBox(tr("Ring of"));
    ring_->setObjectName(QStringLiteral("ring"));
    ring_->setToolTip(tr("--ring SIZE,FILES: a new file once one reaches the size, the oldest deleted"));
    ringFiles_ = new QSpinBox;
    ringFiles_->setObjectName(QStringLiteral("ringFiles"));
    ringFiles_->setRange(2, 100000);
    ringFiles_->setSuffix(tr(" files"));
    ringFiles_->setValue(settings.ringFiles >= 2 ? static_cast<int>(settings.ringFiles) : 10);
    ringMegabytes_ = new QSpinBox;
    ringMegabytes_->setObjectName(QStringLiteral("ringMegabytes"));
    ringMegabytes_->setRange(1, 1'000'000);
    ringMegabytes_->setSuffix(tr(" MB each"));
    ringMegabytes_->setValue(settings.ringFileBytes != 0 ? static_cast<int>(settings.ringFileBytes / 1'000'000) : 100);
    ring_->setChecked(settings.ringFileBytes != 0);
    for (QSpinBox* spin : {ringFiles_, ringMegabytes_}) {
        spin->setEnabled(ring_->isChecked());
        connect(ring_, &QCheckBox::toggled, spin, &QWidget::setEnabled);
    }
    auto* ringRow = new QHBoxLayout;
    ringRow->addWidget(ring_);
    ringRow->addWidget(ringFiles_);
    ringRow->addWidget(ringMegabytes_);
    ringRow->addStretch(1);

    auto* options = new QGroupBox(tr("Capture"));
    auto* form = new QFormLayout(options);
    form->addRow(tr("Capture &filter"), filter_);
    form->addRow(QString(), filterStatus_);
    form->addRow(tr("&Snapshot length"), snapLength_);
    form->addRow(tr("Output file (pcapng)"), outputRow);
    form->addRow(QString(), ringRow);
    syscallProcess_ = new QLineEdit(settings.syscallProcess);
    syscallProcess_->setObjectName(QStringLiteral("syscallProcess"));
    syscallProcess_->setPlaceholderText(tr("a pid or a command name, e.g. nginx (eBPF; root)"));
    syscallProcess_->setClearButtonEnabled(true);
    syscallProcess_->setToolTip(
        tr("Records the socket system calls of this process beside the packets (as tcpscope-cli capture --syscalls): "
           "each Nagle / delayed-ACK stall is then confirmed or refuted from the calls"));
    form->addRow(tr("Also record the system &calls of"), syscallProcess_);
    auto* thresholds = new QLabel(tr("Findings use the detector thresholds of Analysis > Thresholds."));
    thresholds->setEnabled(false);
    form->addRow(QString(), thresholds);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    startButton_ = buttons->addButton(tr("&Start"), QDialogButtonBox::AcceptRole);
    startButton_->setObjectName(QStringLiteral("startCaptureButton"));
    startButton_->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &CaptureDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Interfaces")));
    layout->addWidget(interfaceList_, 1);
    layout->addWidget(rateNote);
    layout->addWidget(options);
    layout->addWidget(buttons);
    resize(760, 560);

    fillInterfaces(settings.device);
    checkFilter();
    refreshCounters();
    counterTimer_.setInterval(1000);
    connect(&counterTimer_, &QTimer::timeout, this, &CaptureDialog::refreshCounters);
    counterTimer_.start();
}

void CaptureDialog::fillInterfaces(const QString& selected) {
    try {
        interfaces_ = listCaptureInterfaces();
    } catch (const LiveCaptureError& error) {
        auto* item = new QTreeWidgetItem(interfaceList_, {QString::fromUtf8(error.what())});
        item->setFlags(Qt::NoItemFlags);
        return;
    }
    QTreeWidgetItem* chosen = nullptr;  // the last one used, else the first that is up
    QTreeWidgetItem* firstUp = nullptr;
    for (const CaptureInterface& device : interfaces_) {
        const QString name = QString::fromStdString(device.name);
        auto* item = new QTreeWidgetItem(interfaceList_, {name, addressesOf(device), stateOf(device), QString()});
        item->setData(NameColumn, Qt::UserRole, name);
        item->setTextAlignment(RateColumn, Qt::AlignRight | Qt::AlignVCenter);
        chosen = name == selected ? item : chosen;
        firstUp = firstUp == nullptr && device.up ? item : firstUp;
    }
    interfaceList_->setCurrentItem(chosen != nullptr ? chosen : firstUp != nullptr ? firstUp : interfaceList_->topLevelItem(0));
    for (int column = 0; column < InterfaceColumnCount; ++column) {
        if (column != AddressColumn) {
            interfaceList_->resizeColumnToContents(column);
        }
    }
}

void CaptureDialog::refreshCounters() {
    counters_.sample();
    for (int row = 0; row < interfaceList_->topLevelItemCount(); ++row) {
        QTreeWidgetItem* item = interfaceList_->topLevelItem(row);
        const QString device = item->data(NameColumn, Qt::UserRole).toString();
        if (device.isEmpty()) {
            continue;
        }
        const std::optional<double> rate = counters_.packetsPerSecond(device);
        const std::optional<uint64_t> total = counters_.packets(device);
        item->setText(RateColumn, rate ? QString::number(*rate, 'f', 0) : total ? QStringLiteral("...") : QStringLiteral("-"));
        item->setToolTip(RateColumn, total ? tr("%1 packets sent and received since the interface came up").arg(*total)
                                           : tr("the kernel keeps no packet counters for this device"));
    }
}

void CaptureDialog::checkFilter() {
    const std::string expression = filter_->text().trimmed().toStdString();
    filterError_.clear();
    if (expression.empty()) {
        filter_->setStyleSheet(QString());
        filterStatus_->setText(tr("No filter: every packet on the interface is captured."));
    } else {
        try {
            const BpfFilter compiled(expression);
            filter_->setStyleSheet(QLatin1String(kValidFilterStyle));
            filterStatus_->setText(tr("Valid capture filter."));
        } catch (const BpfFilterError& error) {
            filterError_ = QString::fromUtf8(error.what());
            filter_->setStyleSheet(QLatin1String(kInvalidFilterStyle));
            filterStatus_->setText(tr("Invalid filter: %1").arg(filterError_));
        }
    }
    updateStartButton();
}

void CaptureDialog::updateStartButton() {
    startButton_->setEnabled(filterValid() && !selectedDevice().isEmpty() && !output_->text().trimmed().isEmpty());
}

void CaptureDialog::browseOutput() {
    const QString file = QFileDialog::getSaveFileName(this, tr("Capture to"), output_->text(),
                                                      tr("pcapng captures (*.pcapng);;All files (*)"));
    if (!file.isEmpty()) {
        output_->setText(file);
        outputEdited_ = true;
        updateStartButton();
    }
}

QString CaptureDialog::selectedDevice() const {
    const QTreeWidgetItem* item = interfaceList_->currentItem();
    return item != nullptr ? item->data(NameColumn, Qt::UserRole).toString() : QString();
}

CaptureSettings CaptureDialog::settings() const {
    CaptureSettings settings;
    settings.device = selectedDevice();
    settings.filter = filter_->text().trimmed();
    settings.snapLength = static_cast<uint32_t>(snapLength_->value());
    settings.outputPath = output_->text().trimmed();
    settings.syscallProcess = syscallProcess_->text().trimmed();
    if (ring_->isChecked()) {
        settings.ringFileBytes = static_cast<uint64_t>(ringMegabytes_->value()) * 1'000'000;
        settings.ringFiles = static_cast<uint32_t>(ringFiles_->value());
    }
    return settings;
}

void CaptureDialog::accept() {
    if (!startButton_->isEnabled()) {
        return;
    }
    QDialog::accept();
}

}  // namespace tcpscope::ui
