#include "live/capture_source.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "live/helper_capture.hpp"
#include "live/live_error.hpp"

namespace tcpscope {

namespace {
constexpr const char* kHelperName = "tcpscope-capture";

std::filesystem::path thisProgram() {
    std::error_code error;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::filesystem::path() : self;
}
}  // namespace

std::string findCaptureHelper(const std::string& given) {
    if (!given.empty()) {
        return given;
    }
    if (const char* fromEnvironment = std::getenv("TCPSCOPE_CAPTURE_HELPER"); fromEnvironment != nullptr) {
        return fromEnvironment;
    }
    if (const std::filesystem::path self = thisProgram(); !self.empty()) {
        std::error_code error;
        const std::filesystem::path sibling = self.parent_path() / kHelperName;
        if (std::filesystem::exists(sibling, error)) {
            return sibling.string();
        }
    }
    const char* path = std::getenv("PATH");
    std::string_view rest = path != nullptr ? path : "";
    while (!rest.empty()) {
        const size_t colon = rest.find(':');
        const std::filesystem::path candidate = std::filesystem::path(rest.substr(0, colon)) / kHelperName;
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate.string();
        }
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
    return {};
}

std::string requireCaptureHelper(const CaptureSourceOptions& options) {
    std::string helper = findCaptureHelper(options.helperPath);
    if (helper.empty()) {
        const std::string program = thisProgram().filename().string();
        throw LiveCaptureError(
            LiveErrorKind::PermissionDenied,
            fmt::format("{}: capturing needs CAP_NET_RAW and CAP_NET_ADMIN, and the capture helper {} is neither "
                        "next to {} nor on PATH; run as root, or install tcpscope with its capture helper (the "
                        "Debian package, or cmake --install as root) and join the tcpscope group",
                        options.capture.device, kHelperName, program.empty() ? "this program" : program));
    }
    return helper;
}

std::unique_ptr<PacketSource> openCaptureSource(const CaptureSourceOptions& options) {
    if (!options.viaHelper) {
        try {
            return std::make_unique<PcapCapture>(options.capture);
        } catch (const LiveCaptureError& error) {
            if (error.kind() != LiveErrorKind::PermissionDenied) {
                throw;
            }
        }
    }
    return std::make_unique<HelperCapture>(requireCaptureHelper(options), options.capture);
}

}  // namespace tcpscope
