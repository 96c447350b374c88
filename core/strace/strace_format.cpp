#include "strace/strace_format.hpp"

namespace tcpscope {

const char* straceTimeBaseName(StraceTimeBase base) {
    switch (base) {
        case StraceTimeBase::None: return "none";
        case StraceTimeBase::TimeOfDay: return "time_of_day";
        case StraceTimeBase::Epoch: return "epoch";
        case StraceTimeBase::Relative: return "relative";
    }
    return "none";
}

std::string StraceFormat::describe() const {
    std::string text;
    const auto add = [&text](const char* option) {
        if (!text.empty()) {
            text += ' ';
        }
        text += option;
    };
    switch (pidStyle) {
        case StracePidStyle::None: break;
        case StracePidStyle::Bracketed: add("-f"); break;
        case StracePidStyle::Column: add("-f -o FILE"); break;
        case StracePidStyle::FileName: add("-ff -o NAME"); break;
    }
    const bool nanoseconds = fractionDigits == 9;
    switch (timeBase) {
        case StraceTimeBase::None: break;
        case StraceTimeBase::TimeOfDay:
            add(nanoseconds ? "--timestamps=time,ns" : fractionDigits == 0 ? "-t" : "-tt");
            break;
        case StraceTimeBase::Epoch:
            add(nanoseconds ? "--timestamps=unix,ns" : fractionDigits == 0 ? "--timestamps=unix,s" : "-ttt");
            break;
        case StraceTimeBase::Relative: add("-r"); break;
    }
    if (durations) {
        add("-T");
    }
    switch (fdStyle) {
        case StraceFdStyle::None: break;
        case StraceFdStyle::Paths: add("-y"); break;
        case StraceFdStyle::Endpoints: add("-yy"); break;
    }
    return text;
}

}  // namespace tcpscope
