#include "emit/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace rbdgen {
namespace {

const std::set<std::string>& keywords() {
    static const std::set<std::string> k = {
        "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
        "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
        "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
        "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
        "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
        "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
        "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
        "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
        "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "std",
        "main", "NULL", "errno", "assert", "offsetof", "override", "final", "import", "module"};
    return k;
}

bool alnum(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

}  // namespace

std::string sanitize_identifier(const std::string& name) {
    std::string id;
    for (unsigned char c : name) {
        if (alnum(c)) id += static_cast<char>(c);
        else if (!id.empty() && id.back() != '_') id += '_';
    }
    while (!id.empty() && id.back() == '_') id.pop_back();
    if (id.empty() || (id[0] >= '0' && id[0] <= '9') || keywords().count(id)) id = "r_" + id;
    if (id.back() == '_') id.pop_back();
    return id;
}

std::vector<std::string> unique_identifiers(const std::vector<std::string>& names, const std::string& prefix) {
    std::vector<std::string> ids;
    std::set<std::string> taken;
    for (const std::string& n : names) {
        const std::string base = prefix.empty() ? sanitize_identifier(n) : prefix + "_" + sanitize_identifier(n);
        std::string id = base;
        for (int k = 2; taken.count(id); ++k) id = base + "_" + std::to_string(k);
        taken.insert(id);
        ids.push_back(id);
    }
    return ids;
}

std::string comment_text(const std::string& text) {
    std::string out;
    for (unsigned char c : text) {
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '%') out += static_cast<char>(c);
        else out += fmt::format("%{:02X}", c);
    }
    // "*/" cannot end a // comment, but keep the text inert in /* */ contexts too.
    for (size_t p; (p = out.find("*/")) != std::string::npos;) out.replace(p, 2, "*%2F");
    return out;
}

std::string string_literal(const std::string& text) {
    std::string out = "\"";
    for (unsigned char c : text) {
        if (alnum(c) || c == ' ' || c == '_' || c == '-' || c == '.' || c == '/' || c == ':') out += static_cast<char>(c);
        else out += fmt::format("\\{:03o}", c);  // octal escapes end after three digits: no run-on
    }
    return out + "\"";
}

}  // namespace rbdgen
