#include "strace/argument_list.hpp"

#include <array>

#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

/// Characters that matter outside and inside an fd decoration; everything else is skipped fast.
struct CharClasses {
    std::array<bool, 256> outside{};
    std::array<bool, 256> inside{};

    constexpr CharClasses() {
        for (const unsigned char c : std::string_view("\"{[()]}<,")) {
            outside[c] = true;
        }
        for (const unsigned char c : std::string_view("\"\\[]<>")) {
            inside[c] = true;
        }
    }
};

constexpr CharClasses kClasses;

}  // namespace

void ArgumentList::push(std::string_view item) {
    if (count_ < kMaxArguments) {
        items_[count_++] = strace_text::trim(item);
    }
}

void ArgumentList::append(std::string_view text) {
    // One pass: a scan per decoration could turn quadratic on hostile lines like "1<<>1<<>...".
    size_t depth = 0;            // braces, brackets and parentheses outside decorations
    size_t angleDepth = 0;       // inside an fd decoration "5<...>" (nested for "/dev/pts/0<char 136:0>")
    size_t decorationDepth = 0;  // "NAME:[...]" groups inside a decoration, where "->" is no '>'
    size_t start = 0;
    for (size_t position = 0; position < text.size(); ++position) {
        const auto& special = angleDepth > 0 ? kClasses.inside : kClasses.outside;
        while (position < text.size() && !special[static_cast<unsigned char>(text[position])]) {
            ++position;
        }
        if (position == text.size()) {
            break;
        }
        const char c = text[position];
        if (c == '"') {
            position = strace_text::skipQuoted(text, position) - 1;
            continue;
        }
        if (angleDepth > 0) {
            if (c == '\\') {
                ++position;
            } else if (c == '[' && (decorationDepth > 0 || text[position - 1] == ':')) {
                ++decorationDepth;
            } else if (c == ']' && decorationDepth > 0) {
                --decorationDepth;
            } else if (decorationDepth == 0 && c == '<') {
                ++angleDepth;
            } else if (decorationDepth == 0 && c == '>') {
                --angleDepth;
            }
            continue;
        }
        switch (c) {
            case '{':
            case '[':
            case '(': ++depth; break;
            case '}':
            case ']':
            case ')': depth = depth > 0 ? depth - 1 : 0; break;
            case '<':
                if (position > 0 && strace_text::isDigit(text[position - 1])) {
                    angleDepth = 1;
                    decorationDepth = 0;
                }
                break;
            case ',':
                if (depth == 0) {
                    push(text.substr(start, position - start));
                    start = position + 1;
                }
                break;
            default: break;
        }
    }
    // The piece after the last comma; empty when an unfinished call stopped right after a comma.
    const std::string_view last = strace_text::trim(text.substr(start < text.size() ? start : text.size()));
    if (!last.empty()) {
        push(last);
    }
}

}  // namespace tcpscope
