#include "tcp/analysis_flag_words.hpp"

namespace tcpscope {

std::string_view analysisFlagWords(AnalysisFlag flag) {
    switch (flag) {
        case AnalysisFlag::Retransmission: return "Retransmission";
        case AnalysisFlag::FastRetransmission: return "Fast retransmission";
        case AnalysisFlag::SpuriousRetransmission: return "Spurious retransmission";
        case AnalysisFlag::OutOfOrder: return "Out-of-order";
        case AnalysisFlag::LostSegment: return "Previous segment not captured";
        case AnalysisFlag::AckLostSegment: return "ACKed segment that wasn't captured";
        case AnalysisFlag::DuplicateAck: return "Duplicate ACK";
        case AnalysisFlag::ZeroWindow: return "Zero window";
        case AnalysisFlag::ZeroWindowProbe: return "Zero window probe";
        case AnalysisFlag::ZeroWindowProbeAck: return "Zero window probe ACK";
        case AnalysisFlag::WindowFull: return "Window full";
        case AnalysisFlag::WindowUpdate: return "Window update";
        case AnalysisFlag::KeepAlive: return "Keep-alive";
        case AnalysisFlag::KeepAliveAck: return "Keep-alive ACK";
        case AnalysisFlag::ReusedPorts: return "Port numbers reused";
    }
    return {};
}

ExpertSeverity analysisFlagSeverity(AnalysisFlag flag) {
    switch (flag) {
        case AnalysisFlag::OutOfOrder:
        case AnalysisFlag::LostSegment:
        case AnalysisFlag::AckLostSegment:
        case AnalysisFlag::ZeroWindow:
        case AnalysisFlag::WindowFull: return ExpertSeverity::Warning;
        case AnalysisFlag::WindowUpdate: return ExpertSeverity::Chat;
        case AnalysisFlag::Retransmission:
        case AnalysisFlag::FastRetransmission:
        case AnalysisFlag::SpuriousRetransmission:
        case AnalysisFlag::DuplicateAck:
        case AnalysisFlag::ZeroWindowProbe:
        case AnalysisFlag::ZeroWindowProbeAck:
        case AnalysisFlag::KeepAlive:
        case AnalysisFlag::KeepAliveAck:
        case AnalysisFlag::ReusedPorts: return ExpertSeverity::Note;
    }
    return ExpertSeverity::Note;
}

std::string_view expertSeverityName(ExpertSeverity severity) {
    switch (severity) {
        case ExpertSeverity::Warning: return "Warning";
        case ExpertSeverity::Note: return "Note";
        case ExpertSeverity::Chat: return "Chat";
    }
    return {};
}

std::string analysisFlagsText(AnalysisFlags flags, FlagNaming naming) {
    std::string names;
    for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
        const AnalysisFlag flag = analysisFlagAt(bitIndex);
        // Wireshark sets "retransmission" beside its fast and spurious kinds; naming both is noise.
        const bool implied = flag == AnalysisFlag::Retransmission && (has(flags, AnalysisFlag::FastRetransmission) ||
                                                                      has(flags, AnalysisFlag::SpuriousRetransmission));
        if (has(flags, flag) && !implied) {
            if (!names.empty()) {
                names += ", ";
            }
            names += naming == FlagNaming::Words ? analysisFlagWords(flag) : analysisFlagName(flag);
        }
    }
    return names;
}

}  // namespace tcpscope
