#include "annotate/note_json.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "annotate/overloaded.hpp"

namespace tcpscope {

namespace {

using Json = nlohmann::ordered_json;

void putTime(Json& object, const char* name, int64_t tsNs, NoteTimeForm form, TimeOrigin origin) {
    if (form == NoteTimeForm::Nanoseconds) {
        object[std::string(name) + "_ns"] = tsNs;
    } else {
        // Microsecond fractions, as every time of the report.
        const double seconds = static_cast<double>(tsNs / 1000) / 1e6;
        object[name] = origin.isEpoch() ? seconds : static_cast<double>(origin.epochSeconds) + seconds;
    }
}

template <class T>
T field(const nlohmann::json& object, const char* name) {
    const auto found = object.find(name);
    if (found == object.end()) {
        throw std::invalid_argument(std::string("missing field '") + name + "'");
    }
    try {
        return found->get<T>();
    } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument(std::string("field '") + name + "' has the wrong type");
    }
}

NoteTarget targetFromJson(const nlohmann::json& target) {
    if (!target.is_object()) {
        throw std::invalid_argument("field 'target' is not an object");
    }
    const auto type = field<std::string>(target, "type");
    if (type == "packet") {
        return PacketNoteTarget{field<uint32_t>(target, "frame"), field<std::string>(target, "file"),
                                field<int64_t>(target, "ts_ns")};
    }
    if (type == "syscall") {
        return SyscallNoteTarget{field<std::string>(target, "log"), field<uint32_t>(target, "line"),
                                 field<int64_t>(target, "ts_ns")};
    }
    if (type == "finding") {
        const auto kindName = field<std::string>(target, "kind");
        const std::optional<FindingKind> kind = parseFindingKind(kindName);
        if (!kind) {
            throw std::invalid_argument("unknown finding kind '" + kindName + "'");
        }
        return FindingNoteTarget{*kind, field<std::string>(target, "connection"), field<int64_t>(target, "ts_ns")};
    }
    if (type == "span") {
        SpanNoteTarget span{field<int64_t>(target, "start_ns"), field<int64_t>(target, "end_ns")};
        if (span.endNs < span.startNs) {
            throw std::invalid_argument("span ends before it starts");
        }
        return span;
    }
    throw std::invalid_argument("unknown target type '" + type + "'");
}

}  // namespace

Json noteToJson(const Note& note, NoteTimeForm form, TimeOrigin captureOrigin) {
    Json target = Json::object();
    target["type"] = noteTargetTypeName(note.target);
    std::visit(Overloaded{[&](const PacketNoteTarget& packet) {
                              target["frame"] = packet.frame;
                              target["file"] = packet.file;
                              putTime(target, "ts", packet.tsNs, form, captureOrigin);
                          },
                          [&](const SyscallNoteTarget& call) {
                              target["log"] = call.logFile;
                              target["line"] = call.line;
                              putTime(target, "ts", call.tsNs, form, captureOrigin);
                          },
                          [&](const FindingNoteTarget& finding) {
                              target["kind"] = std::string(findingKindName(finding.kind));
                              target["connection"] = finding.connection;
                              putTime(target, "ts", finding.tsNs, form, captureOrigin);
                          },
                          [&](const SpanNoteTarget& span) {
                              putTime(target, form == NoteTimeForm::Nanoseconds ? "start" : "ts", span.startNs, form,
                                      captureOrigin);
                              putTime(target, form == NoteTimeForm::Nanoseconds ? "end" : "end_ts", span.endNs, form,
                                      captureOrigin);
                          }},
               note.target);
    Json object = Json::object();
    object["id"] = note.id;
    object["text"] = note.text;
    if (note.readOnly()) {
        object[form == NoteTimeForm::Nanoseconds ? "created_ns" : "created"] = nullptr;  // unknown for a capture's comment
    } else {
        putTime(object, "created", note.createdNs, form, TimeOrigin{});  // the wall clock, not the capture's
    }
    object["origin"] = noteOriginName(note.origin);
    object["target"] = std::move(target);
    return object;
}

Note noteFromJson(const nlohmann::json& object) {
    if (!object.is_object()) {
        throw std::invalid_argument("a note is not an object");
    }
    Note note;
    note.id = field<uint64_t>(object, "id");
    note.text = field<std::string>(object, "text");
    note.createdNs = field<int64_t>(object, "created_ns");
    const auto target = object.find("target");
    if (target == object.end()) {
        throw std::invalid_argument("missing field 'target'");
    }
    note.target = targetFromJson(*target);
    note.origin = NoteOrigin::User;  // capture comments are never saved; whatever a file says, it is the user's
    return note;
}

}  // namespace tcpscope
