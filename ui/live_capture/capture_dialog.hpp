#pragma once
#include <QDialog>
#include <QTimer>

#include <vector>

#include "live/capture_interface.hpp"
#include "live_capture/capture_settings.hpp"
#include "live_capture/interface_counters.hpp"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace tcpscope::ui {

/// Capture > Start capture: the interfaces libpcap can capture on (with their addresses, state,
/// and the packets per second the kernel counts for them, updated every second without
/// privileges), the capture filter checked as it is typed, the snapshot length and the pcapng
/// file or ring of files. A thin controller: it edits CaptureSettings and nothing else.
class CaptureDialog : public QDialog {
    Q_OBJECT

public:
    explicit CaptureDialog(const CaptureSettings& settings, QWidget* parent = nullptr);

    /// What the dialog shows now.
    [[nodiscard]] CaptureSettings settings() const;
    /// True if the filter field holds an expression libpcap compiles (or nothing).
    [[nodiscard]] bool filterValid() const { return filterError_.isEmpty(); }
    /// libpcap's message for the filter field, empty when it compiles.
    [[nodiscard]] const QString& filterError() const { return filterError_; }
    /// Reads the interface counters again and shows the rates (every second while shown).
    void refreshCounters();

    void accept() override;

private:
    void fillInterfaces(const QString& selected);
    void checkFilter();
    void updateStartButton();
    void browseOutput();
    [[nodiscard]] QString selectedDevice() const;

    std::vector<CaptureInterface> interfaces_;
    InterfaceCounters counters_;
    QTimer counterTimer_;
    QString filterError_;
    bool outputEdited_ = false;  // else the file name follows the chosen interface

    QTreeWidget* interfaceList_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QLabel* filterStatus_ = nullptr;
    QSpinBox* snapLength_ = nullptr;
    QLineEdit* output_ = nullptr;
    QLineEdit* syscallProcess_ = nullptr;
    QCheckBox* ring_ = nullptr;
    QSpinBox* ringMegabytes_ = nullptr;
    QSpinBox* ringFiles_ = nullptr;
    QPushButton* startButton_ = nullptr;
};

}  // namespace tcpscope::ui
