#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "records/record_sink.hpp"

namespace tcpscope {

/// Writes records as NDJSON into zstd files, one per host and UTC hour of the record's time:
/// ROOT/host=HOST/YYYY-MM-DD/HH.ndjson.zst (docs/records.md). A file that exists gets a new zstd
/// frame appended, so earlier exports stay readable as one stream. Throws std::runtime_error with
/// the path and the reason when a file cannot be written, std::invalid_argument for a host name that
/// isValidHostName() refuses.
class DirectorySink : public RecordSink {
public:
    DirectorySink(std::filesystem::path root, std::string host, int compressionLevel = 3);
    ~DirectorySink() override;
    DirectorySink(const DirectorySink&) = delete;
    DirectorySink& operator=(const DirectorySink&) = delete;

    void write(RecordType type, int64_t tsNs, std::string_view line) override;
    /// Ends the frame of every open file and closes it; the sink takes more records after it.
    void finish();
    /// As finish(): what was written so far becomes readable (a new zstd frame follows).
    void flush() override { finish(); }

    [[nodiscard]] uint64_t recordsWritten() const { return recordsWritten_; }
    /// The files written to, in the order they were first opened.
    [[nodiscard]] const std::vector<std::filesystem::path>& files() const { return files_; }

private:
    struct HourFile;
    HourFile& fileOf(int64_t hour);
    void close(HourFile& file);

    std::filesystem::path hostDir_;
    int compressionLevel_;
    std::vector<std::unique_ptr<HourFile>> open_;  // the most recently used last
    std::vector<std::filesystem::path> files_;
    uint64_t recordsWritten_ = 0;
};

}  // namespace tcpscope
