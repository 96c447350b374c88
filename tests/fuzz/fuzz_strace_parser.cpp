// Fuzz target for the strace parser: arbitrary bytes are parsed as a log (and again with
// tight limits and a forced relative clock), then every record, decoration and ready fd is read,
// so a bad index or view is caught by AddressSanitizer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "strace/strace_reader.hpp"

namespace {

uint64_t digest(const tcpscope::StraceLog& log) {
    uint64_t sum = log.stats.lines + log.stats.unparsedLines + log.stats.joinedCalls;
    for (const tcpscope::SyscallRecord& record : log.records) {
        sum += static_cast<uint64_t>(record.tsNs) + static_cast<uint64_t>(record.pid) + record.flags;
        sum += log.nameOf(record).size();
        for (const uint32_t index : {record.fdDecoration, record.otherFdDecoration}) {
            if (const tcpscope::FdDecoration* decoration = log.decoration(index)) {
                sum += decoration->text.size() + decoration->local.port + decoration->remote.port;
            }
        }
        for (const tcpscope::ReadyFd& ready : log.readyFdsOf(record)) {
            sum += static_cast<uint64_t>(ready.fd) + ready.events;
        }
        sum += record.address.port;
    }
    for (const int32_t pid : log.pids()) {
        for (const uint32_t index : log.recordIndexesOf(pid)) {
            sum += static_cast<uint64_t>(log.records.at(index).tsNs);
        }
    }
    for (const auto& example : log.unparsedExamples) {
        sum += example.text.size() + example.reason.size();
    }
    sum += log.format.describe().size();
    return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    uint64_t sum = digest(tcpscope::parseStraceText(text));

    tcpscope::StraceParseOptions tight;
    tight.maxLineBytes = 64;
    tight.keepOtherCalls = false;
    tight.defaultPid = 42;
    tight.timeBase = tcpscope::StraceTimeBase::Relative;
    sum += digest(tcpscope::parseStraceText(text, tight));

    volatile uint64_t sink = sum;  // keeps the reads above from being optimised away
    (void)sink;
    return 0;
}
