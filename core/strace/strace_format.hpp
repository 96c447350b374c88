#pragma once
#include <cstdint>
#include <string>

namespace tcpscope {

/// The clock a log's timestamps are on; the alignment needs it to put them on the capture's axis.
enum class StraceTimeBase : uint8_t {
    None,       ///< no timestamps: records keep file order, tsNs is 0
    TimeOfDay,  ///< -t, -tt, --timestamps=time,*: local time of day, no date; tsNs counts from the
                ///< midnight before the first line (dayWraps midnights later for later lines)
    Epoch,      ///< -ttt, --timestamps=unix,*: tsNs is nanoseconds since 1970 (UTC)
    Relative,   ///< -r: tsNs is the sum of the deltas, i.e. time since the log's first line; needs an anchor
};

/// How a log's lines name their process.
enum class StracePidStyle : uint8_t {
    None,       ///< no pid on the lines (single process, or -ff without a file name pid)
    Bracketed,  ///< "[pid 1234] " (strace -f writing to stderr, only while several processes live)
    Column,     ///< "1234 " on every line (strace -f -o FILE)
    FileName,   ///< from a -ff file name NAME.PID
};

/// How fds are decorated.
enum class StraceFdStyle : uint8_t {
    None,       ///< plain numbers
    Paths,      ///< -y: "5<socket:[19363]>", "3</etc/hosts>"
    Endpoints,  ///< -yy: "5<TCP:[127.0.0.1:48754->127.0.0.1:3306]>"
};

/// What a log's format is, as far as its lines show it.
struct StraceFormat {
    StraceTimeBase timeBase = StraceTimeBase::None;
    uint8_t fractionDigits = 0;  ///< digits after the seconds: 0 (-t), 6 (-tt, -ttt), 9 (ns)
    bool durations = false;      ///< -T: "<0.000123>" at the end of calls
    StracePidStyle pidStyle = StracePidStyle::None;
    StraceFdStyle fdStyle = StraceFdStyle::None;

    /// The strace options that print such a log, e.g. "-f -o FILE -tt -T -yy".
    [[nodiscard]] std::string describe() const;
};

/// "none", "time_of_day", "epoch", "relative".
const char* straceTimeBaseName(StraceTimeBase base);

}  // namespace tcpscope
