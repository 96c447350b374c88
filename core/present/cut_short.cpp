#include "present/cut_short.hpp"

#include <fmt/format.h>

#include "text/valid_utf8.hpp"

namespace tcpscope {

std::string cutShortText(const InputSummary& input) {
    if (!input.cutShort) {
        return {};
    }
    const CutShort& cut = *input.cutShort;
    return fmt::format(
        "{} ends {} {} into the record at byte {}: the capture was cut short there, the partial "
        "packet is left out",
        validUtf8(input.path), cut.bytesLeft, cut.bytesLeft == 1 ? "byte" : "bytes", cut.recordOffset);
}

}  // namespace tcpscope
