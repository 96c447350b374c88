#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "capture/raw_packet.hpp"

struct bpf_program;

namespace tcpscope {

/// A filter expression libpcap cannot compile; what() is libpcap's message.
class BpfFilterError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// A tcpdump filter expression ("tcp port 80") applied to frames of any link type. The
/// expression is checked once for Ethernet when constructed, then compiled once per link type
/// met. Frames of a link type the expression cannot be compiled for never match, and one
/// warning per such link type is kept.
class BpfFilter {
public:
    /// Compiles `expression` for Ethernet. Throws BpfFilterError with libpcap's message if it is invalid.
    explicit BpfFilter(std::string expression);
    ~BpfFilter();
    BpfFilter(BpfFilter&&) noexcept;
    BpfFilter& operator=(BpfFilter&&) noexcept;
    BpfFilter(const BpfFilter&) = delete;
    BpfFilter& operator=(const BpfFilter&) = delete;

    /// True if the expression accepts `packet` (its captured bytes, lengths and link type).
    bool matches(const RawPacket& packet);

    /// The expression as given.
    [[nodiscard]] const std::string& expression() const { return expression_; }
    /// One line per link type the expression could not be compiled for.
    [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

private:
    struct ProgramDeleter {
        void operator()(bpf_program* program) const;
    };
    using Program = std::unique_ptr<bpf_program, ProgramDeleter>;
    struct CompiledFor {
        uint32_t linkType = 0;
        Program program;  ///< null when the expression does not apply to this link type
    };

    /// The program for `linkType`, compiling it on first use; null if it cannot be compiled.
    const bpf_program* programFor(uint32_t linkType);

    std::string expression_;
    std::vector<CompiledFor> programs_;
    size_t lastUsed_ = 0;
    std::vector<std::string> warnings_;
};

}  // namespace tcpscope
