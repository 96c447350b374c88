#include "annotate/note_sidecar.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "annotate/note_json.hpp"
#include "text/json_text.hpp"

namespace tcpscope {

namespace {

constexpr const char* kFormatName = "tcpscope-notes";

[[noreturn]] void fail(const std::string& path, uint64_t offset, std::string reason) {
    throw NoteFileError(InputProblem{path, offset, std::move(reason)});
}

std::string readWholeFile(const std::string& path, bool& exists) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    exists = !error;
    if (!exists) {
        return {};
    }
    if (size > kMaxNoteSidecarBytes) {
        fail(path, 0, fmt::format("notes file of {} bytes is larger than the {} MiB limit", size,
                                  kMaxNoteSidecarBytes >> 20));
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail(path, 0, fmt::format("cannot open: {}", std::strerror(errno)));
    }
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) {
        fail(path, 0, "read error");
    }
    return text;
}

void writeAll(int fd, const std::string& text, const std::string& path) {
    size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            fail(path, written, fmt::format("cannot write: {}", std::strerror(errno)));
        }
        written += static_cast<size_t>(n);
    }
}

}  // namespace

NoteFileError::NoteFileError(InputProblem problem) : std::runtime_error(problem.describe()), problem_(std::move(problem)) {}

std::string noteSidecarPath(const std::string& capturePath) {
    if (capturePath.empty() || capturePath == "-") {
        return {};
    }
    return capturePath + kNoteSidecarSuffix;
}

std::optional<NoteSidecar> readNoteSidecar(const std::string& path) {
    bool exists = false;
    const std::string text = readWholeFile(path, exists);
    if (!exists) {
        return std::nullopt;
    }
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& error) {
        fail(path, error.byte > 0 ? error.byte - 1 : 0, "not a valid notes file (JSON syntax error)");
    }
    if (!document.is_object() || document.value("format", std::string()) != kFormatName) {
        fail(path, 0, fmt::format("not a tcpscope notes file (no \"format\": \"{}\")", kFormatName));
    }
    const auto version = document.find("version");
    if (version == document.end() || !version->is_number_integer()) {
        fail(path, 0, "notes file without a format version");
    }
    if (version->get<int64_t>() > kNoteSidecarVersion) {
        fail(path, 0, fmt::format("notes format version {} is newer than this tcpscope reads ({}); "
                                  "open it with a newer tcpscope",
                                  version->get<int64_t>(), kNoteSidecarVersion));
    }
    NoteSidecar sidecar;
    try {
        sidecar.captures = document.value("captures", std::vector<std::string>());
    } catch (const nlohmann::json::exception&) {
        fail(path, 0, "field 'captures' is not a list of file names");
    }
    const auto notes = document.find("notes");
    if (notes == document.end() || !notes->is_array()) {
        fail(path, 0, "field 'notes' is missing or not a list");
    }
    for (size_t i = 0; i < notes->size(); ++i) {
        try {
            sidecar.notes.push_back(noteFromJson((*notes)[i]));
        } catch (const std::invalid_argument& error) {
            fail(path, 0, fmt::format("note {}: {}", i + 1, error.what()));
        }
    }
    return sidecar;
}

void writeNoteSidecar(const std::string& path, const NoteSidecar& sidecar) {
    if (!path.ends_with(kNoteSidecarSuffix)) {
        fail(path, 0, fmt::format("refusing to write notes to a file whose name does not end with {}",
                                  kNoteSidecarSuffix));
    }
    nlohmann::ordered_json document = nlohmann::ordered_json::object();
    document["format"] = kFormatName;
    document["version"] = kNoteSidecarVersion;
    document["captures"] = sidecar.captures;
    auto& notes = document["notes"] = nlohmann::ordered_json::array();
    for (const Note& note : sidecar.notes) {
        if (!note.readOnly()) {
            notes.push_back(noteToJson(note, NoteTimeForm::Nanoseconds));
        }
    }
    const std::string text = jsonText(document, 2) + "\n";

    const std::string temporary = fmt::format("{}.tmp-{}", path, ::getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fail(path, 0, fmt::format("cannot create {}: {}", temporary, std::strerror(errno)));
    }
    try {
        writeAll(fd, text, temporary);
        if (::fsync(fd) != 0) {
            fail(temporary, 0, fmt::format("cannot flush: {}", std::strerror(errno)));
        }
    } catch (...) {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw;
    }
    ::close(fd);
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        const int renameErrno = errno;
        ::unlink(temporary.c_str());
        fail(path, 0, fmt::format("cannot replace: {}", std::strerror(renameErrno)));
    }
}

}  // namespace tcpscope
