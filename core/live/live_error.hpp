#pragma once
#include <stdexcept>
#include <string>

namespace tcpscope {

/// Why a live capture could not start or went on no further.
enum class LiveErrorKind {
    PermissionDenied,  ///< no CAP_NET_RAW / CAP_NET_ADMIN (or not root)
    NoSuchDevice,      ///< the interface does not exist
    BadFilter,         ///< the capture filter does not compile
    Other,             ///< anything else libpcap or the system reported
};

/// A live capture failure: the device (or helper) concerned and libpcap's or the system's reason,
/// as one line for the user.
class LiveCaptureError : public std::runtime_error {
public:
    LiveCaptureError(LiveErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    [[nodiscard]] LiveErrorKind kind() const { return kind_; }

private:
    LiveErrorKind kind_;
};

}  // namespace tcpscope
