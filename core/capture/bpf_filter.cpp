#include "capture/bpf_filter.hpp"

#include <pcap/pcap.h>

#include <fmt/format.h>

namespace tcpscope {

namespace {

constexpr int kSnapLength = 262144;

/// pcap_open_dead() takes a DLT_ value, which differs from the LINKTYPE_ value in files for a
/// few old types; libpcap maps them the same way when it reads a file.
int dltForLinkType(uint32_t linkType) {
    switch (linkType) {
    case 100:
        return DLT_ATM_RFC1483;
    case linktype::kRaw:
        return DLT_RAW;
    case 102:
        return DLT_SLIP_BSDOS;
    case 103:
        return DLT_PPP_BSDOS;
    case 106:
        return DLT_ATM_CLIP;
    default:
        return static_cast<int>(linkType);
    }
}

struct DeadHandleCloser {
    void operator()(pcap_t* handle) const { pcap_close(handle); }
};

/// Compiles `expression` for link type `dlt`. Returns null and sets `message` on failure.
bpf_program* compile(const std::string& expression, int dlt, std::string& message) {
    std::unique_ptr<pcap_t, DeadHandleCloser> handle(pcap_open_dead(dlt, kSnapLength));
    if (!handle) {
        message = "libpcap cannot open a handle for this link type";
        return nullptr;
    }
    auto program = std::make_unique<bpf_program>();
    if (pcap_compile(handle.get(), program.get(), expression.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0) {
        message = pcap_geterr(handle.get());
        return nullptr;
    }
    return program.release();
}

}  // namespace

void BpfFilter::ProgramDeleter::operator()(bpf_program* program) const {
    pcap_freecode(program);
    delete program;
}

BpfFilter::BpfFilter(std::string expression) : expression_(std::move(expression)) {
    std::string message;
    Program ethernet(compile(expression_, DLT_EN10MB, message));
    if (!ethernet) {
        throw BpfFilterError(fmt::format("invalid filter '{}': {}", expression_, message));
    }
    programs_.push_back(CompiledFor{linktype::kEthernet, std::move(ethernet)});
}

BpfFilter::~BpfFilter() = default;
BpfFilter::BpfFilter(BpfFilter&&) noexcept = default;
BpfFilter& BpfFilter::operator=(BpfFilter&&) noexcept = default;

const bpf_program* BpfFilter::programFor(uint32_t linkType) {
    // Captures hold one or a few link types: a short list, most recent first, beats a map.
    if (lastUsed_ < programs_.size() && programs_[lastUsed_].linkType == linkType) {
        return programs_[lastUsed_].program.get();
    }
    for (size_t i = 0; i < programs_.size(); ++i) {
        if (programs_[i].linkType == linkType) {
            lastUsed_ = i;
            return programs_[i].program.get();
        }
    }
    std::string message;
    Program program(compile(expression_, dltForLinkType(linkType), message));
    if (!program) {
        warnings_.push_back(fmt::format("filter '{}' does not apply to link type {} ({}); its packets are left out",
                                        expression_, linkType, message));
    }
    programs_.push_back(CompiledFor{linkType, std::move(program)});
    lastUsed_ = programs_.size() - 1;
    return programs_.back().program.get();
}

bool BpfFilter::matches(const RawPacket& packet) {
    const bpf_program* program = programFor(packet.linkType);
    if (program == nullptr) {
        return false;
    }
    static constexpr uint8_t kNoBytes[1] = {};
    pcap_pkthdr header{};
    header.caplen = packet.data != nullptr ? packet.capturedLength : 0;
    header.len = packet.originalLength;
    return pcap_offline_filter(program, &header, packet.data != nullptr ? packet.data : kNoBytes) != 0;
}

}  // namespace tcpscope
