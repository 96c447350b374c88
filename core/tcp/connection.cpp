#include "tcp/connection.hpp"

namespace tcpscope {

std::string_view sideName(Side side) { return side == Side::Client ? "client" : "server"; }

std::string_view connectionStateName(ConnectionState state) {
    switch (state) {
        case ConnectionState::SynSent: return "syn_sent";
        case ConnectionState::SynReceived: return "syn_received";
        case ConnectionState::Established: return "established";
        case ConnectionState::HalfClosed: return "half_closed";
        case ConnectionState::Closed: return "closed";
        case ConnectionState::Reset: return "reset";
    }
    return "unknown";
}

}  // namespace tcpscope
