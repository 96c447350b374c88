#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace tcpscope {

/// Whether `text` is well-formed UTF-8 (RFC 3629): no stray continuation byte, no overlong form,
/// no encoded surrogate (U+D800 to U+DFFF), nothing above U+10FFFF, no sequence cut short.
/// NUL and control characters are well-formed: writers escape them.
bool isValidUtf8(std::string_view text);

/// `text` as well-formed UTF-8: each maximal ill-formed part (Unicode's "substitution of maximal
/// subparts", as WHATWG's decoder and Python's errors='replace' do it) becomes U+FFFD; well-formed
/// text comes back unchanged. The one rule for strings from inputs (capture comments, strace
/// lines, names and texts given by the user): the reader that yields them calls this, so that no
/// writer ever sees ill-formed text.
std::string validUtf8(std::string_view text);

/// validUtf8() in place; true if `text` had to change.
bool makeValidUtf8(std::string& text);

/// The longest prefix of `text` of at most `maxBytes` that does not end inside a UTF-8 sequence:
/// a cut that keeps valid text valid.
std::string_view utf8Prefix(std::string_view text, size_t maxBytes);

}  // namespace tcpscope
