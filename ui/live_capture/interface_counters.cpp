#include "live_capture/interface_counters.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>

namespace tcpscope::ui {

namespace {

const QString kAny = QStringLiteral("any");

std::optional<uint64_t> readCounter(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return std::nullopt;
    }
    bool number = false;
    const uint64_t value = file.readAll().trimmed().toULongLong(&number);
    return number ? std::optional<uint64_t>(value) : std::nullopt;
}

}  // namespace

void InterfaceCounters::sample() {
    previous_ = std::move(current_);
    previousMs_ = currentMs_;
    current_.clear();
    currentMs_ = QDateTime::currentMSecsSinceEpoch();
    const QDir net(QStringLiteral("/sys/class/net"));
    uint64_t all = 0;
    for (const QString& device : net.entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::System)) {
        const QString statistics = net.filePath(device) + QStringLiteral("/statistics/");
        const std::optional<uint64_t> received = readCounter(statistics + QStringLiteral("rx_packets"));
        const std::optional<uint64_t> sent = readCounter(statistics + QStringLiteral("tx_packets"));
        if (received && sent) {
            current_.insert(device, *received + *sent);
            all += *received + *sent;
        }
    }
    current_.insert(kAny, all);
}

std::optional<uint64_t> InterfaceCounters::packets(const QString& device) const {
    const auto found = current_.constFind(device);
    return found != current_.constEnd() ? std::optional<uint64_t>(*found) : std::nullopt;
}

std::optional<double> InterfaceCounters::packetsPerSecond(const QString& device) const {
    const auto now = current_.constFind(device);
    const auto before = previous_.constFind(device);
    if (now == current_.constEnd() || before == previous_.constEnd() || currentMs_ <= previousMs_) {
        return std::nullopt;
    }
    // A counter that went back (interface re-created) counts as zero rather than a huge rate.
    const uint64_t delta = *now >= *before ? *now - *before : 0;
    return static_cast<double>(delta) * 1000.0 / static_cast<double>(currentMs_ - previousMs_);
}

}  // namespace tcpscope::ui
