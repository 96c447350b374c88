#pragma once
#include <QHash>
#include <QString>

#include <cstdint>
#include <optional>

namespace tcpscope::ui {

/// Packets each interface sent and received, from the kernel's counters in
/// /sys/class/net/IFACE/statistics (readable without privileges), turned into packets per second
/// between two samples. "any" is the sum over every interface.
class InterfaceCounters {
public:
    /// Reads every counter now; rates are known from the second sample on.
    void sample();
    /// Packets per second of `device` between the last two samples, or nothing (first sample, a
    /// device the kernel keeps no counters for, e.g. a USB or netfilter capture device).
    [[nodiscard]] std::optional<double> packetsPerSecond(const QString& device) const;
    /// rx_packets + tx_packets of `device` at the last sample, or nothing.
    [[nodiscard]] std::optional<uint64_t> packets(const QString& device) const;

private:
    QHash<QString, uint64_t> current_;
    QHash<QString, uint64_t> previous_;
    qint64 currentMs_ = 0;
    qint64 previousMs_ = 0;
};

}  // namespace tcpscope::ui
