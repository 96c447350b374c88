#include "live/pcap_capture.hpp"

#include <pcap/pcap.h>

#include <array>
#include <chrono>
#include <exception>
#include <utility>

#include <fmt/format.h>

#include "live/live_error.hpp"

namespace tcpscope {

namespace {

// The kernel's counters are read after a batch at most this often (pcap_stats is a system call).
constexpr int64_t kStatsIntervalNs = 200'000'000;

int64_t monotonicNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

LiveErrorKind kindOf(int status) {
    switch (status) {
    case PCAP_ERROR_PERM_DENIED:
    case PCAP_ERROR_PROMISC_PERM_DENIED:
        return LiveErrorKind::PermissionDenied;
    case PCAP_ERROR_NO_SUCH_DEVICE:
        return LiveErrorKind::NoSuchDevice;
    default:
        return LiveErrorKind::Other;
    }
}

}  // namespace

PcapCapture::PcapCapture(const LiveCaptureOptions& options) {
    description_.device = options.device;
    description_.filter = options.filter;
    description_.snapLength = options.snapLength;
    std::array<char, PCAP_ERRBUF_SIZE> error{};
    handle_ = pcap_create(options.device.c_str(), error.data());
    if (handle_ == nullptr) {
        throw LiveCaptureError(LiveErrorKind::Other, fmt::format("{}: cannot capture: {}", options.device, error.data()));
    }
    pcap_set_snaplen(handle_, static_cast<int>(options.snapLength));
    pcap_set_promisc(handle_, options.promiscuous ? 1 : 0);
    if (options.batchTimeoutMs == 0) {
        pcap_set_immediate_mode(handle_, 1);
    } else {
        pcap_set_timeout(handle_, static_cast<int>(options.batchTimeoutMs));
    }
    pcap_set_buffer_size(handle_, static_cast<int>(options.bufferBytes));
    // Nanoseconds where the system has them (Linux does); otherwise microseconds.
    const bool nanoAsked = pcap_set_tstamp_precision(handle_, PCAP_TSTAMP_PRECISION_NANO) == 0;
    const int status = pcap_activate(handle_);
    if (status < 0) {
        fail(status, "cannot capture");
    }
    description_.nanosecond = nanoAsked && pcap_get_tstamp_precision(handle_) == PCAP_TSTAMP_PRECISION_NANO;
    nsPerTick_ = description_.nanosecond ? 1 : 1000;
    description_.linkType = static_cast<uint32_t>(pcap_datalink(handle_));
    description_.snapLength = static_cast<uint32_t>(pcap_snapshot(handle_));
    if (!options.filter.empty()) {
        bpf_program program{};
        if (pcap_compile(handle_, &program, options.filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0) {
            const std::string reason = pcap_geterr(handle_);
            pcap_close(handle_);
            handle_ = nullptr;
            throw LiveCaptureError(LiveErrorKind::BadFilter,
                                   fmt::format("invalid capture filter '{}': {}", options.filter, reason));
        }
        const int set = pcap_setfilter(handle_, &program);
        pcap_freecode(&program);
        if (set != 0) {
            fail(set, "cannot set the capture filter");
        }
    }
}

PcapCapture::~PcapCapture() {
    if (handle_ != nullptr) {
        pcap_close(handle_);
    }
}

void PcapCapture::fail(int status, const std::string& what) {
    // libpcap's own message says the most (e.g. "socket: Operation not permitted"); fall back to the status text.
    std::string reason = pcap_geterr(handle_);
    if (reason.empty()) {
        reason = pcap_statustostr(status);
    }
    const LiveErrorKind kind = kindOf(status);
    pcap_close(handle_);
    handle_ = nullptr;
    if (kind == LiveErrorKind::PermissionDenied) {
        reason += " (capturing needs CAP_NET_RAW and CAP_NET_ADMIN, or root)";
    }
    throw LiveCaptureError(kind, fmt::format("{}: {}: {}", description_.device, what, reason));
}

void PcapCapture::onPacket(unsigned char* user, const pcap_pkthdr* header, const unsigned char* bytes) {
    auto* self = reinterpret_cast<PcapCapture*>(user);
    RawPacket packet;
    packet.tsNs = static_cast<int64_t>(header->ts.tv_sec) * 1'000'000'000 +
                  static_cast<int64_t>(header->ts.tv_usec) * self->nsPerTick_;
    packet.capturedLength = header->caplen;
    packet.originalLength = header->len;
    packet.linkType = self->description_.linkType;
    packet.data = bytes;
    self->captured_.fetch_add(1, std::memory_order_relaxed);
    // An exception must not cross libpcap's C frames: keep it and rethrow it after pcap_dispatch.
    try {
        self->sink_->onPacket(packet);
    } catch (...) {
        self->sinkFailure_ = std::current_exception();
        pcap_breakloop(self->handle_);
    }
}

void PcapCapture::run(PacketSink& sink) {
    sink_ = &sink;
    while (!stopRequested_.load(std::memory_order_acquire)) {
        // Blocks until packets come (no timeout is set) or pcap_breakloop() wakes it.
        const int delivered = pcap_dispatch(handle_, -1, &PcapCapture::onPacket, reinterpret_cast<unsigned char*>(this));
        if (sinkFailure_) {
            sink_ = nullptr;
            std::rethrow_exception(std::exchange(sinkFailure_, nullptr));
        }
        if (delivered == PCAP_ERROR_BREAK) {
            break;
        }
        if (delivered == PCAP_ERROR) {
            const std::string reason = pcap_geterr(handle_);
            readKernelStats();
            throw LiveCaptureError(LiveErrorKind::Other, fmt::format("{}: capture failed: {}", description_.device, reason));
        }
        sink.onBatchEnd();
        if (const int64_t now = monotonicNs(); now - lastStatsNs_ >= kStatsIntervalNs) {
            lastStatsNs_ = now;
            readKernelStats();
        }
    }
    readKernelStats();
    sink_ = nullptr;
}

void PcapCapture::stop() {
    stopRequested_.store(true, std::memory_order_release);
    pcap_breakloop(handle_);
}

// Called on the capture thread only: pcap_stats is not safe next to a running pcap_dispatch.
void PcapCapture::readKernelStats() {
    pcap_stat counters{};
    if (pcap_stats(handle_, &counters) == 0) {
        droppedByKernel_.store(counters.ps_drop, std::memory_order_relaxed);
        droppedByInterface_.store(counters.ps_ifdrop, std::memory_order_relaxed);
    }
}

CaptureStats PcapCapture::stats() const {
    return {captured_.load(std::memory_order_relaxed), droppedByKernel_.load(std::memory_order_relaxed),
            droppedByInterface_.load(std::memory_order_relaxed)};
}

}  // namespace tcpscope
