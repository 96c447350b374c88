#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace tcpscope {

/// The thresholds of every detector, changeable from the command line (and the GUI).
/// Defaults fit Linux; `forOs` gives the values of other systems.
struct DetectorOptions {
    // delayed_ack_stall
    double delayedAckFloorMs = 30;     ///< an ACK later than this after the small segment counts as delayed
    double nagleReleaseMs = 2;         ///< the held segment leaves within this (plus the RTT) after the ACK

    // time_wait_churn and port_exhaustion
    double timeWaitSeconds = 60;       ///< how long the active closer keeps TIME_WAIT (Linux: 60, fixed)
    uint16_t portRangeLow = 32768;     ///< ephemeral port range (Linux ip_local_port_range default)
    uint16_t portRangeHigh = 60999;
    bool portRangeGiven = false;       ///< the range was set by the user, not guessed from the capture
    uint32_t timeWaitMinCloses = 20;       ///< time_wait_churn: report a host that closed at least this many first
    double timeWaitWarnShare = 0.1;        ///< time_wait_churn: warn above this share of the port range in TIME_WAIT
    double portPauseMinShare = 0.5;        ///< port_exhaustion: a pause of new connections this long (x TIME_WAIT)
    uint32_t portExhaustionMinPorts = 20;  ///< port_exhaustion: ... counts with at least this many ports in use

    // syn_backlog_overflow
    double synRetransmitMinMs = 200;   ///< a repeated SYN at least this late is a retransmission by timeout

    // retransmission_stall and zero_window_stall
    double retransmissionStallMinMs = 200;  ///< a gap before a retransmission at least this long is a stall
    double zeroWindowStallMinMs = 10;       ///< a closed window for at least this long is a stall

    /// Defaults for "linux", "macos" or "windows"; nullopt for another name.
    static std::optional<DetectorOptions> forOs(const std::string& os);
};

}  // namespace tcpscope
