#include "filter/filter_parser.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>

namespace tcpscope::filter {

DisplayFilterError::DisplayFilterError(std::string expression, size_t offset, std::string reason)
    : std::runtime_error(fmt::format("'{}': at offset {}: {}", expression, offset, reason)),
      expression_(std::move(expression)),
      offset_(offset),
      reason_(std::move(reason)) {}

namespace {

constexpr std::string_view kFieldHint = "tcpscope filters TCP, IP and frame fields: see docs/cli.md";

enum class TokenKind : uint8_t {
    End,
    Word,
    String,
    LeftParen,
    RightParen,
    LeftBrace,
    RightBrace,
    Comma,
    DotDot,
    Compare,
    And,
    Or,
    Not,
    In,
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string_view text;
    size_t offset = 0;
    CompareOp op = CompareOp::Equal;
};

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == ':' || c == '/';
}

std::string lower(std::string_view text) {
    std::string result(text);
    std::transform(result.begin(), result.end(), result.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return result;
}

// Operators written as words, and the symbols they stand for.
struct WordOperator {
    std::string_view word;
    TokenKind kind;
    CompareOp op;
};
constexpr std::array kWordOperators{
    WordOperator{"and", TokenKind::And, CompareOp::Equal},
    WordOperator{"or", TokenKind::Or, CompareOp::Equal},
    WordOperator{"not", TokenKind::Not, CompareOp::Equal},
    WordOperator{"in", TokenKind::In, CompareOp::Equal},
    WordOperator{"eq", TokenKind::Compare, CompareOp::Equal},
    WordOperator{"any_eq", TokenKind::Compare, CompareOp::Equal},
    WordOperator{"ne", TokenKind::Compare, CompareOp::NotEqual},
    WordOperator{"all_ne", TokenKind::Compare, CompareOp::NotEqual},
    WordOperator{"all_eq", TokenKind::Compare, CompareOp::AllEqual},
    WordOperator{"any_ne", TokenKind::Compare, CompareOp::AnyNotEqual},
    WordOperator{"lt", TokenKind::Compare, CompareOp::Less},
    WordOperator{"le", TokenKind::Compare, CompareOp::LessEqual},
    WordOperator{"gt", TokenKind::Compare, CompareOp::Greater},
    WordOperator{"ge", TokenKind::Compare, CompareOp::GreaterEqual},
    WordOperator{"bitwise_and", TokenKind::Compare, CompareOp::BitAnd},
};

// Symbols, longest first so that "===" is not read as "==" and "=".
struct SymbolOperator {
    std::string_view symbol;
    TokenKind kind;
    CompareOp op;
};
constexpr std::array kSymbols{
    SymbolOperator{"===", TokenKind::Compare, CompareOp::AllEqual},
    SymbolOperator{"!==", TokenKind::Compare, CompareOp::AnyNotEqual},
    SymbolOperator{"==", TokenKind::Compare, CompareOp::Equal},
    SymbolOperator{"!=", TokenKind::Compare, CompareOp::NotEqual},
    SymbolOperator{"~=", TokenKind::Compare, CompareOp::AnyNotEqual},
    SymbolOperator{"<=", TokenKind::Compare, CompareOp::LessEqual},
    SymbolOperator{">=", TokenKind::Compare, CompareOp::GreaterEqual},
    SymbolOperator{"&&", TokenKind::And, CompareOp::Equal},
    SymbolOperator{"||", TokenKind::Or, CompareOp::Equal},
    SymbolOperator{"..", TokenKind::DotDot, CompareOp::Equal},
    SymbolOperator{"<", TokenKind::Compare, CompareOp::Less},
    SymbolOperator{">", TokenKind::Compare, CompareOp::Greater},
    SymbolOperator{"&", TokenKind::Compare, CompareOp::BitAnd},
    SymbolOperator{"!", TokenKind::Not, CompareOp::Equal},
    SymbolOperator{"(", TokenKind::LeftParen, CompareOp::Equal},
    SymbolOperator{")", TokenKind::RightParen, CompareOp::Equal},
    SymbolOperator{"{", TokenKind::LeftBrace, CompareOp::Equal},
    SymbolOperator{"}", TokenKind::RightBrace, CompareOp::Equal},
    SymbolOperator{",", TokenKind::Comma, CompareOp::Equal},
};

// Wireshark fields a user may expect that the packet index does not hold, with the reason.
struct UnsupportedField {
    std::string_view prefix;
    std::string_view reason;
};
constexpr std::array kUnsupportedFields{
    UnsupportedField{"frame.time_delta_displayed", "it depends on the packets shown; frame.time_delta is supported"},
    UnsupportedField{"frame.time", "tcpscope filters on frame.time_relative and frame.time_delta"},
    UnsupportedField{"ip.", "of the IP header tcpscope filters on ip.src, ip.dst, ip.addr, ip.ttl and ip.id"},
    UnsupportedField{"ipv6.", "of the IPv6 header tcpscope filters on ipv6.src, ipv6.dst, ipv6.addr and ipv6.hlim"},
    UnsupportedField{"tcp.options.",
                     "of the TCP options tcpscope filters on tcp.options.mss_val, "
                     "tcp.options.wscale.shift, tcp.options.sack_perm and tcp.options.timestamp.*"},
    UnsupportedField{"tcp.analysis.", "it is not one of the analysis flags tcpscope computes"},
};

std::string unsupportedFieldReason(std::string_view name) {
    for (const UnsupportedField& known : kUnsupportedFields) {
        if (name.starts_with(known.prefix)) {
            return fmt::format("field {} is not supported: {} ({})", name, known.reason, kFieldHint);
        }
    }
    return fmt::format("field {} is not supported ({})", name, kFieldHint);
}

std::string_view typeName(FieldType type) {
    switch (type) {
        case FieldType::Unsigned: return "an unsigned integer";
        case FieldType::Boolean: return "a boolean (1, 0, True or False)";
        case FieldType::Time: return "a time in seconds, e.g. 1.5";
        case FieldType::Ipv4: return "an IPv4 address, e.g. 10.0.0.1 or 10.0.0.0/8";
        case FieldType::Ipv6: return "an IPv6 address, e.g. 2001:db8::1 or 2001:db8::/32";
        case FieldType::Label: return "nothing";
    }
    return "a value";
}

std::optional<uint64_t> parseUnsigned(std::string_view text) {
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    } else if (text.size() > 1 && text[0] == '0') {
        base = 8;  // as Wireshark (strtoul with base 0)
        text.remove_prefix(1);
    }
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc() || end != text.data() + text.size() || text.empty() ||
        value > static_cast<uint64_t>(INT64_MAX)) {
        return std::nullopt;
    }
    return value;
}

// "12", "1.5", ".25": seconds as nanoseconds, digits past the ninth decimal ignored.
std::optional<int64_t> parseSeconds(std::string_view text) {
    const size_t dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
    if ((whole.empty() && fraction.empty()) || whole.size() > 10 ||
        !std::all_of(whole.begin(), whole.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        !std::all_of(fraction.begin(), fraction.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    int64_t seconds = 0;
    for (const char c : whole) {
        seconds = seconds * 10 + (c - '0');
    }
    int64_t nanoseconds = 0;
    for (size_t i = 0; i < 9; ++i) {
        nanoseconds = nanoseconds * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
    }
    return seconds * 1'000'000'000 + nanoseconds;
}

std::optional<unsigned> parsePrefix(std::string_view text, unsigned maximum) {
    unsigned value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty() || value > maximum) {
        return std::nullopt;
    }
    return value;
}

std::optional<KeyRange> parseAddress(std::string_view text, bool v6) {
    const size_t slash = text.find('/');
    const std::string address(text.substr(0, slash));
    const unsigned bits = v6 ? 128 : 32;
    unsigned prefix = bits;
    if (slash != std::string_view::npos) {
        const std::optional<unsigned> given = parsePrefix(text.substr(slash + 1), bits);
        if (!given) {
            return std::nullopt;
        }
        prefix = *given;
    }
    if (!v6) {
        in_addr parsed{};
        // inet_pton takes dotted quads only; Wireshark would also resolve host names, tcpscope does not.
        if (inet_pton(AF_INET, address.c_str(), &parsed) != 1) {
            return std::nullopt;
        }
        const uint64_t value = ntohl(parsed.s_addr);
        const uint64_t hostBits = prefix == 0 ? 0xffffffffULL : (uint64_t{1} << (32 - prefix)) - 1;
        return KeyRange{{0, value & ~hostBits}, {0, value | hostBits}};
    }
    in6_addr parsed{};
    if (inet_pton(AF_INET6, address.c_str(), &parsed) != 1) {
        return std::nullopt;
    }
    FilterKey key;
    for (size_t i = 0; i < 8; ++i) {
        key.high = key.high << 8 | parsed.s6_addr[i];
        key.low = key.low << 8 | parsed.s6_addr[i + 8];
    }
    // The host bits of each word: all of a word past the prefix, none of a word before it.
    const auto hostBitsOf = [prefix](unsigned wordStart) -> uint64_t {
        if (prefix <= wordStart) {
            return ~uint64_t{0};
        }
        if (prefix >= wordStart + 64) {
            return 0;
        }
        return (uint64_t{1} << (wordStart + 64 - prefix)) - 1;
    };
    const uint64_t highHost = hostBitsOf(0);
    const uint64_t lowHost = hostBitsOf(64);
    return KeyRange{{key.high & ~highHost, key.low & ~lowHost}, {key.high | highHost, key.low | lowHost}};
}

std::optional<KeyRange> parseLiteral(std::string_view text, FieldType type) {
    const auto single = [](FilterKey key) { return KeyRange{key, key}; };
    switch (type) {
        case FieldType::Boolean: {
            const std::string word = lower(text);
            if (word == "true") {
                return single(FilterKey::ofSigned(1));
            }
            if (word == "false") {
                return single(FilterKey::ofSigned(0));
            }
            [[fallthrough]];
        }
        case FieldType::Unsigned:
            if (const std::optional<uint64_t> value = parseUnsigned(text)) {
                return single(FilterKey::ofSigned(static_cast<int64_t>(*value)));
            }
            return std::nullopt;
        case FieldType::Time:
            if (const std::optional<int64_t> ns = parseSeconds(text)) {
                return single(FilterKey::ofSigned(*ns));
            }
            return std::nullopt;
        case FieldType::Ipv4: return parseAddress(text, false);
        case FieldType::Ipv6: return parseAddress(text, true);
        case FieldType::Label: return std::nullopt;
    }
    return std::nullopt;
}

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) { advance(); }

    FilterProgram parse() {
        if (current_.kind == TokenKind::End) {
            fail(0, "the expression is empty");
        }
        program_.root = parseOr();
        if (current_.kind != TokenKind::End) {
            fail(current_.offset, fmt::format("\"{}\" was unexpected here", current_.text));
        }
        return std::move(program_);
    }

private:
    [[noreturn]] void fail(size_t offset, std::string reason) const {
        throw DisplayFilterError(std::string(text_), offset, std::move(reason));
    }

    void advance() {
        while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_])) != 0) {
            ++position_;
        }
        current_ = Token{TokenKind::End, {}, position_, CompareOp::Equal};
        if (position_ >= text_.size()) {
            return;
        }
        const std::string_view rest = text_.substr(position_);
        if (rest[0] == '"') {
            const size_t close = rest.find('"', 1);
            if (close == std::string_view::npos) {
                fail(position_, "a string without its closing quote");
            }
            current_ = Token{TokenKind::String, rest.substr(0, close + 1), position_, CompareOp::Equal};
            position_ += close + 1;
            return;
        }
        if (isWordChar(rest[0]) && !rest.starts_with("..")) {
            size_t length = 0;
            while (length < rest.size() && isWordChar(rest[length]) && !rest.substr(length).starts_with("..")) {
                ++length;
            }
            current_ = Token{TokenKind::Word, rest.substr(0, length), position_, CompareOp::Equal};
            position_ += length;
            const std::string word = lower(current_.text);
            for (const WordOperator& op : kWordOperators) {
                if (word == op.word) {
                    current_.kind = op.kind;
                    current_.op = op.op;
                }
            }
            return;
        }
        for (const SymbolOperator& symbol : kSymbols) {
            if (rest.starts_with(symbol.symbol)) {
                current_ = Token{symbol.kind, rest.substr(0, symbol.symbol.size()), position_, symbol.op};
                position_ += symbol.symbol.size();
                return;
            }
        }
        fail(position_, fmt::format("\"{}\" is not part of tcpscope's filter syntax", rest.substr(0, 1)));
    }

    uint32_t add(FilterNode node) {
        program_.nodes.push_back(node);
        return static_cast<uint32_t>(program_.nodes.size() - 1);
    }

    uint32_t logical(NodeKind kind, uint32_t left, uint32_t right) {
        FilterNode node;
        node.kind = kind;
        node.left = left;
        node.right = right;
        return add(node);
    }

    void enter(size_t offset) {
        if (++depth_ > kMaxFilterDepth) {
            fail(offset, fmt::format("more than {} nested parentheses or negations", kMaxFilterDepth));
        }
    }

    // or binds weaker than and, as in Wireshark: "a || b && c" is "a || (b && c)".
    uint32_t parseOr() {
        uint32_t left = parseAnd();
        while (current_.kind == TokenKind::Or) {
            advance();
            left = logical(NodeKind::Or, left, parseAnd());
        }
        return left;
    }

    uint32_t parseAnd() {
        uint32_t left = parseUnary();
        while (current_.kind == TokenKind::And) {
            advance();
            left = logical(NodeKind::And, left, parseUnary());
        }
        return left;
    }

    uint32_t parseUnary() {
        const size_t offset = current_.offset;
        if (current_.kind == TokenKind::Not) {
            enter(offset);
            advance();
            const uint32_t operand = parseUnary();
            --depth_;
            return logical(NodeKind::Not, operand, 0);
        }
        if (current_.kind == TokenKind::LeftParen) {
            enter(offset);
            advance();
            const uint32_t inner = parseOr();
            if (current_.kind != TokenKind::RightParen) {
                fail(current_.offset, fmt::format("the parenthesis at offset {} is not closed", offset));
            }
            advance();
            --depth_;
            return inner;
        }
        return parseTest();
    }

    FieldInfo parseField() {
        if (current_.kind == TokenKind::End) {
            fail(current_.offset, "the expression ends where a field was expected");
        }
        if (current_.kind != TokenKind::Word) {
            fail(current_.offset, fmt::format("a field was expected, not \"{}\"", current_.text));
        }
        const std::optional<FieldInfo> field = findField(current_.text);
        if (!field) {
            const bool looksLikeField = std::isalpha(static_cast<unsigned char>(current_.text[0])) != 0;
            fail(current_.offset, looksLikeField ? unsupportedFieldReason(current_.text)
                                                 : fmt::format("a field was expected, not \"{}\"", current_.text));
        }
        advance();
        return *field;
    }

    KeyRange parseValue(const FieldInfo& field) {
        if (current_.kind == TokenKind::String) {
            fail(current_.offset, fmt::format("{} takes {}, not a string", field.name, typeName(field.type)));
        }
        if (current_.kind != TokenKind::Word) {
            fail(current_.offset,
                 current_.kind == TokenKind::End
                     ? fmt::format("the expression ends where a value for {} was expected", field.name)
                     : fmt::format("a value for {} was expected, not \"{}\"", field.name, current_.text));
        }
        if (findField(current_.text)) {
            fail(current_.offset, "comparing a field with another field is not supported");
        }
        const std::optional<KeyRange> value = parseLiteral(current_.text, field.type);
        if (!value) {
            fail(current_.offset, fmt::format("\"{}\" is not a valid value for {}: it takes {}", current_.text,
                                              field.name, typeName(field.type)));
        }
        advance();
        return *value;
    }

    uint32_t parseTest() {
        FilterNode node;
        node.field = parseField();
        if (current_.kind == TokenKind::Word &&
            (lower(current_.text) == "contains" || lower(current_.text) == "matches")) {
            fail(current_.offset, fmt::format("the operator {} is not supported: tcpscope's fields are numbers and "
                                              "addresses",
                                              current_.text));
        }
        if (current_.kind != TokenKind::Compare && current_.kind != TokenKind::In) {
            node.kind = NodeKind::Present;
            return add(node);
        }
        if (node.field.type == FieldType::Label) {
            fail(current_.offset, fmt::format("{} has no value to compare: test it alone, as in \"{}\"",
                                              node.field.name, node.field.name));
        }
        if (current_.kind == TokenKind::In) {
            advance();
            return parseSet(node);
        }
        node.kind = NodeKind::Compare;
        node.op = current_.op;
        const size_t opOffset = current_.offset;
        advance();
        if (node.op == CompareOp::BitAnd && node.field.type != FieldType::Unsigned &&
            node.field.type != FieldType::Boolean) {
            fail(opOffset, fmt::format("{} is no integer: the bitwise and (&) does not apply", node.field.name));
        }
        node.operand = parseValue(node.field);
        if (node.op == CompareOp::BitAnd && current_.kind == TokenKind::Compare) {
            fail(current_.offset, "comparing the result of & is not supported: write \"tcp.flags & 0x12\" alone");
        }
        return add(node);
    }

    uint32_t parseSet(FilterNode node) {
        if (current_.kind != TokenKind::LeftBrace) {
            fail(current_.offset, "\"in\" takes a set in braces, e.g. tcp.port in {80, 443, 8000..8080}");
        }
        const size_t braceOffset = current_.offset;
        advance();
        node.kind = NodeKind::InSet;
        node.setBegin = static_cast<uint32_t>(program_.setElements.size());
        while (current_.kind != TokenKind::RightBrace) {
            if (current_.kind == TokenKind::End) {
                fail(current_.offset, fmt::format("the set opened at offset {} is not closed", braceOffset));
            }
            KeyRange element = parseValue(node.field);
            if (current_.kind == TokenKind::DotDot) {
                advance();
                const KeyRange upper = parseValue(node.field);
                element.high = upper.high;
            }
            program_.setElements.push_back(element);
            if (current_.kind == TokenKind::Comma) {
                advance();
            }
        }
        if (program_.setElements.size() == node.setBegin) {
            fail(current_.offset, "the set is empty");
        }
        advance();
        node.setEnd = static_cast<uint32_t>(program_.setElements.size());
        return add(node);
    }

    std::string_view text_;
    size_t position_ = 0;
    size_t depth_ = 0;
    Token current_;
    FilterProgram program_;
};

}  // namespace

FilterProgram parseDisplayFilter(std::string_view expression) {
    if (expression.size() > kMaxFilterLength) {
        throw DisplayFilterError(std::string(expression.substr(0, 80)) + "...", kMaxFilterLength,
                                 fmt::format("the expression is longer than {} bytes", kMaxFilterLength));
    }
    return Parser(expression).parse();
}

}  // namespace tcpscope::filter
