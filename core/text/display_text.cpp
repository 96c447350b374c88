#include "text/display_text.hpp"

#include "text/valid_utf8.hpp"

namespace tcpscope {

std::string displayText(std::string_view text, LineBreaks breaks) {
    std::string shown = validUtf8(text);
    for (char& c : shown) {
        const auto byte = static_cast<unsigned char>(c);
        const bool lineBreak = c == '\n' || c == '\t';
        if ((byte < 0x20 || byte == 0x7F) && !(lineBreak && breaks == LineBreaks::Kept)) {
            c = ' ';
        }
    }
    return shown;
}

}  // namespace tcpscope
