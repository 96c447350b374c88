#include "strace/strace_reader.hpp"

#include <algorithm>
#include <cstring>

#include "capture/byte_source.hpp"
#include "strace/strace_file_name.hpp"
#include "strace/strace_log_builder.hpp"
#include "text/valid_utf8.hpp"

namespace tcpscope {
namespace {

constexpr size_t kChunkBytes = size_t{1} << 20;

/// Cuts a byte stream into lines for the builder; skips lines longer than the limit.
class LineFeeder {
public:
    LineFeeder(StraceLogBuilder& builder, size_t maxLineBytes) : builder_(builder), maxLineBytes_(maxLineBytes) {}

    /// Feeds the complete lines of `window` and returns the bytes used; with `atEnd` the last,
    /// unterminated line too. A partial line longer than the limit is dropped as it comes.
    size_t feed(std::string_view window, bool atEnd) {
        size_t position = 0;
        while (position < window.size()) {
            const void* newline = std::memchr(window.data() + position, '\n', window.size() - position);
            if (newline == nullptr) {
                break;
            }
            const auto end = static_cast<size_t>(static_cast<const char*>(newline) - window.data());
            line(window.substr(position, end - position));
            position = end + 1;
        }
        const size_t rest = window.size() - position;
        if (atEnd) {
            if (rest > 0 || dropping_) {
                line(window.substr(position));
            }
            return window.size();
        }
        if (dropping_ || rest > maxLineBytes_) {
            dropping_ = true;
            droppedBytes_ += rest;
            return window.size();
        }
        return position;
    }

private:
    void line(std::string_view text) {
        if (dropping_) {
            builder_.addOverlongLine(droppedBytes_ + text.size());
            dropping_ = false;
            droppedBytes_ = 0;
        } else if (text.size() > maxLineBytes_) {
            builder_.addOverlongLine(text.size());
        } else if (isValidUtf8(text)) {
            builder_.addLine(text);
        } else {
            // Every string the log yields (arguments, paths, unparsed examples) is then valid UTF-8.
            repaired_ = validUtf8(text);
            builder_.addLine(repaired_);
        }
    }

    StraceLogBuilder& builder_;
    size_t maxLineBytes_;
    bool dropping_ = false;
    uint64_t droppedBytes_ = 0;
    std::string repaired_;  ///< the current line when its bytes were not valid UTF-8
};

bool stopRequested(const StraceParseOptions& options) {
    return options.stop != nullptr && options.stop->stopRequested();
}

void addDone(const StraceParseOptions& options, uint64_t bytes) {
    if (options.progress != nullptr) {
        options.progress->bytesDone.fetch_add(bytes, std::memory_order_relaxed);
    }
}

/// Reads one file into the builder; false if a stop request ended it.
bool readFile(const std::string& path, int32_t defaultPid, bool pidFromName, const StraceParseOptions& options,
              StraceLogBuilder& builder) {
    ByteSource source = ByteSource::openFile(path);
    if (options.progress != nullptr) {
        options.progress->bytesTotal.fetch_add(source.fileSize(), std::memory_order_relaxed);
    }
    builder.beginFile(path, defaultPid, pidFromName);
    builder.reserveFor(source.fileSize());
    LineFeeder feeder(builder, options.maxLineBytes);
    uint64_t reported = 0;
    bool stopped = false;
    while (true) {
        const size_t have = source.available();
        if (have > 0) {
            const auto* window = reinterpret_cast<const char*>(source.ensure(have));
            source.consume(feeder.feed(std::string_view(window, have), false));
        }
        const uint64_t consumed = source.bytesConsumed();
        addDone(options, consumed - reported);
        reported = consumed;
        if (stopRequested(options)) {
            stopped = true;
            break;
        }
        if (source.ensure(source.available() + 1) == nullptr) {
            const size_t left = source.available();
            const auto* window = left > 0 ? reinterpret_cast<const char*>(source.ensure(left)) : "";
            feeder.feed(std::string_view(window, left), true);
            source.consume(left);
            break;
        }
    }
    addDone(options, source.bytesConsumed() - reported);
    for (const InputProblem& warning : source.warnings()) {
        builder.addProblem(warning);
    }
    if (const InputProblem* error = source.error()) {
        builder.addProblem(*error);
    }
    builder.endFile(source.offset());
    return !stopped;
}

/// The pid lines of `path` get when they print none.
int32_t defaultPidFor(const std::string& path, const StraceParseOptions& options, bool& fromName) {
    fromName = false;
    if (options.defaultPid != 0) {
        return options.defaultPid;
    }
    if (const auto name = parseStraceFileName(path)) {
        fromName = true;
        return name->pid;
    }
    return 0;
}

}  // namespace

StraceLog parseStraceText(std::string_view text, const StraceParseOptions& options) {
    StraceLogBuilder builder(options);
    builder.beginFile("-", options.defaultPid, false);
    builder.reserveFor(text.size());
    LineFeeder feeder(builder, options.maxLineBytes);
    size_t offset = 0;
    while (offset < text.size()) {
        const size_t window = std::min(kChunkBytes, text.size() - offset);
        const bool atEnd = offset + window == text.size();
        // A window without a newline is passed whole; the feeder drops it if it is too long,
        // otherwise the next round sees it again with more bytes.
        size_t used = feeder.feed(text.substr(offset, window), atEnd);
        if (used == 0) {
            const size_t longer = std::min(options.maxLineBytes + 1, text.size() - offset);
            used = feeder.feed(text.substr(offset, longer), offset + longer == text.size());
        }
        offset += used;
        addDone(options, used);
        if (stopRequested(options) && offset < text.size()) {
            builder.markStopped();
            break;
        }
    }
    builder.endFile(offset);
    return builder.finish();
}

StraceLog parseStraceFile(const std::string& path, const StraceParseOptions& options) {
    return parseStraceFiles({path}, options);
}

StraceLog parseStraceFiles(const std::vector<std::string>& paths, const StraceParseOptions& options) {
    // The parent of a -ff run has the lowest pid; its first line is the day's reference.
    std::vector<std::string> ordered = paths;
    std::stable_sort(ordered.begin(), ordered.end(), [](const std::string& a, const std::string& b) {
        const auto nameA = parseStraceFileName(a);
        const auto nameB = parseStraceFileName(b);
        return (nameA ? nameA->pid : 0) < (nameB ? nameB->pid : 0);
    });
    StraceLogBuilder builder(options);
    for (const std::string& path : ordered) {
        bool fromName = false;
        const int32_t defaultPid = defaultPidFor(path, options, fromName);
        if (!readFile(path, defaultPid, fromName, options, builder)) {
            builder.markStopped();
            break;
        }
    }
    if (options.progress != nullptr) {
        options.progress->finished.store(true, std::memory_order_relaxed);
    }
    return builder.finish();
}

}  // namespace tcpscope
