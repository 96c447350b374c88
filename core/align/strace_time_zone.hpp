#pragma once
#include <optional>
#include <string_view>

namespace tcpscope {

/// A time zone as users type it for a time-of-day strace log ("+02:00", "-05:30", "+2", "UTC",
/// "Z") -> minutes east of UTC; nullopt for anything else. Shared by tcpscope-cli and the GUI.
std::optional<int> parseTimeZoneOffset(std::string_view text);

}  // namespace tcpscope
