#include "tcp/analysis_flags.hpp"

namespace tcpscope {

std::string_view analysisFlagName(AnalysisFlag flag) {
    switch (flag) {
        case AnalysisFlag::Retransmission: return "retransmission";
        case AnalysisFlag::FastRetransmission: return "fast_retransmission";
        case AnalysisFlag::SpuriousRetransmission: return "spurious_retransmission";
        case AnalysisFlag::OutOfOrder: return "out_of_order";
        case AnalysisFlag::LostSegment: return "lost_segment";
        case AnalysisFlag::AckLostSegment: return "ack_lost_segment";
        case AnalysisFlag::DuplicateAck: return "duplicate_ack";
        case AnalysisFlag::ZeroWindow: return "zero_window";
        case AnalysisFlag::ZeroWindowProbe: return "zero_window_probe";
        case AnalysisFlag::ZeroWindowProbeAck: return "zero_window_probe_ack";
        case AnalysisFlag::WindowFull: return "window_full";
        case AnalysisFlag::WindowUpdate: return "window_update";
        case AnalysisFlag::KeepAlive: return "keep_alive";
        case AnalysisFlag::KeepAliveAck: return "keep_alive_ack";
        case AnalysisFlag::ReusedPorts: return "reused_ports";
    }
    return "unknown";
}

}  // namespace tcpscope
