#pragma once
#include <array>
#include <cstddef>
#include <string_view>

namespace tcpscope {

/// The top-level arguments of one call, as views into its line(s). Splits at commas outside
/// quotes, braces, brackets, parentheses and fd decorations, so `"a, \"b\" {c}"...`,
/// `{sa_family=AF_INET, ...}` and `5<TCP:[1.2.3.4:5->6.7.8.9:10]>` each stay one argument.
/// Fixed capacity: no allocation.
class ArgumentList {
public:
    /// Arguments kept; later ones are dropped (no call the parser reads needs more).
    static constexpr size_t kMaxArguments = 8;

    /// Splits `text` and appends its arguments. A call split by "<unfinished ...>" is read by
    /// appending the unfinished part, then the resumed part.
    void append(std::string_view text);
    /// Forgets all arguments.
    void clear() { count_ = 0; }
    /// Number of arguments kept.
    [[nodiscard]] size_t size() const { return count_; }
    /// Argument `index` without surrounding blanks; "" past the end.
    [[nodiscard]] std::string_view operator[](size_t index) const {
        return index < count_ ? items_[index] : std::string_view();
    }

private:
    void push(std::string_view item);

    std::array<std::string_view, kMaxArguments> items_{};
    size_t count_ = 0;
};

}  // namespace tcpscope
