#pragma once
#include <string>
#include <utility>

#include "capture/byte_source.hpp"
#include "capture/capture_reader.hpp"

namespace tcpscope {

/// The part every reader shares: it owns the ByteSource and answers the questions about the file
/// (format, problems, progress) from it. Subclasses only parse records in next().
class SourceBackedReader : public CaptureReader {
public:
    [[nodiscard]] const CaptureFormat& format() const final { return format_; }
    [[nodiscard]] const std::vector<InputProblem>& warnings() const final { return source_.warnings(); }
    [[nodiscard]] const InputProblem* error() const final { return source_.error(); }
    [[nodiscard]] uint64_t bytesConsumed() const final { return source_.bytesConsumed(); }
    [[nodiscard]] uint64_t fileSize() const final { return source_.fileSize(); }
    [[nodiscard]] const std::string& path() const final { return source_.name(); }

protected:
    SourceBackedReader(ByteSource source, std::string container)
        : source_(std::move(source)), format_{std::move(container), compressionName(source_.compression())} {}

    /// "1 byte", "N bytes": for messages.
    static std::string bytesText(uint64_t count) { return std::to_string(count) + (count == 1 ? " byte" : " bytes"); }

    /// Throws CaptureError for a problem that makes the file unreadable from the start.
    [[noreturn]] void reject(uint64_t offset, std::string reason) const {
        throw CaptureError(InputProblem{source_.name(), offset, std::move(reason)});
    }

    ByteSource source_;
    CaptureFormat format_;
};

}  // namespace tcpscope
