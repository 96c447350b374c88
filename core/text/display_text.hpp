#pragma once
#include <string>
#include <string_view>

namespace tcpscope {

/// Whether a text may keep its line breaks where it is placed.
enum class LineBreaks : bool { Spaces, Kept };

/// `text` as a markup writer (Markdown, HTML, Mermaid) places it: valid UTF-8 (validUtf8), every
/// control character (NUL, ESC, DEL, CR, ...) a space, and line feeds and tabs too unless kept,
/// so that no string from an input can end a line, a table row or a note early.
std::string displayText(std::string_view text, LineBreaks breaks);

}  // namespace tcpscope
