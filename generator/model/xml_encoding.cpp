// xml_to_utf8 (model/xml_text.hpp): the declared encoding read as XML 1.0 §4.3.3 and Appendix F
// describe it (byte-order mark first, then the XML declaration), the conversion left to iconv.
#include <iconv.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>

#include "model/error.hpp"
#include "model/xml_text.hpp"

namespace rbdgen {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

// The XML declaration at the start of an ASCII-compatible text: where its encoding's value sits.
struct Declaration {
    size_t end = 0;                       // one past "?>"; 0: no declaration
    size_t value = 0, value_length = 0;  // the encoding's value; length 0: none given
};
Declaration find_declaration(const std::string& text) {
    Declaration d;
    if (!starts_with(text, "<?xml")) return d;
    const size_t close = text.find("?>");
    if (close == std::string::npos) return d;
    d.end = close + 2;
    const size_t key = text.find("encoding", 0);
    if (key == std::string::npos || key > close) return d;
    size_t p = key + 8;
    while (p < close && (text[p] == ' ' || text[p] == '=' || text[p] == '\t')) ++p;
    if (p >= close || (text[p] != '"' && text[p] != '\'')) return d;
    const size_t end = text.find(text[p], p + 1);
    if (end == std::string::npos || end > close) return d;
    d.value = p + 1;
    d.value_length = end - p - 1;
    return d;
}

int line_at(const std::string& text, size_t offset) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(std::min(offset, text.size())), '\n'));
}

// The offset of the first byte that is not part of a well-formed UTF-8 sequence (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or npos.
size_t invalid_utf8(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        int n = 0;
        unsigned lo = 0x80, hi = 0xBF;  // bounds of the second byte
        if (c < 0x80) n = 0;
        else if (c >= 0xC2 && c <= 0xDF) n = 1;
        else if (c == 0xE0) n = 2, lo = 0xA0;
        else if (c == 0xED) n = 2, hi = 0x9F;
        else if (c >= 0xE1 && c <= 0xEF) n = 2;
        else if (c == 0xF0) n = 3, lo = 0x90;
        else if (c >= 0xF1 && c <= 0xF3) n = 3;
        else if (c == 0xF4) n = 3, hi = 0x8F;
        else return i;
        if (n > 0 && i + n >= s.size()) return i;
        for (int k = 1; k <= n; ++k) {
            const unsigned char b = static_cast<unsigned char>(s[i + k]);
            if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return i;
        }
        i += n + 1;
    }
    return std::string::npos;
}

std::string convert(const std::string& bytes, const std::string& encoding, const std::string& file) {
    iconv_t cd = iconv_open("UTF-8", encoding.c_str());
    if (cd == reinterpret_cast<iconv_t>(-1))
        throw Error(file + ": the XML declaration names encoding '" + encoding +
                    "', which this system cannot convert; save the file as UTF-8 (iconv -f <encoding> -t UTF-8)");
    std::string out(bytes.size() * 4 + 16, '\0');
    char* in_p = const_cast<char*>(bytes.data());
    size_t in_left = bytes.size();
    char* out_p = out.data();
    size_t out_left = out.size();
    const size_t status = iconv(cd, &in_p, &in_left, &out_p, &out_left);
    const int error = errno;
    iconv_close(cd);
    if (status == static_cast<size_t>(-1)) {
        const size_t at = bytes.size() - in_left;
        const std::string converted(out.data(), out.size() - out_left);
        throw Error(file + ": line " + std::to_string(line_at(converted, converted.size())) + " has " +
                    (error == EINVAL ? "an incomplete character at the end of the file" : "bytes that are not valid " + encoding) +
                    " (byte offset " + std::to_string(at) + "); fix them, or declare the file's real encoding in <?xml ... encoding=\"...\"?>");
    }
    out.resize(out.size() - out_left);
    return out;
}

}  // namespace

bool valid_utf8(const std::string& s) { return invalid_utf8(s) == std::string::npos; }

std::string xml_to_utf8(const std::string& bytes, const std::string& file) {
    // Encodings that are not ASCII-compatible announce themselves by a byte-order mark or by how
    // "<?" is spelt (XML 1.0 Appendix F).
    std::string text;
    const struct { std::string prefix; const char* encoding; bool bom; } wide[] = {
        {std::string("\xFF\xFE\0\0", 4), "UTF-32LE", true}, {std::string("\0\0\xFE\xFF", 4), "UTF-32BE", true},
        {"\xFF\xFE", "UTF-16LE", true}, {"\xFE\xFF", "UTF-16BE", true},
        {std::string("<\0?\0", 4), "UTF-16LE", false}, {std::string("\0<\0?", 4), "UTF-16BE", false}};
    bool converted = false;
    for (const auto& w : wide) {
        if (!starts_with(bytes, w.prefix)) continue;
        text = convert(bytes.substr(w.bom ? w.prefix.size() : 0), w.encoding, file);
        converted = true;
        break;
    }
    if (!converted) {
        text = starts_with(bytes, "\xEF\xBB\xBF") ? bytes.substr(3) : bytes;
        const Declaration d = find_declaration(text);
        const std::string declared = upper(text.substr(d.value, d.value_length));
        if (d.value_length > 0 && declared != "UTF-8" && declared != "UTF8") text = convert(text, declared, file);
    }
    if (const size_t bad = invalid_utf8(text); bad != std::string::npos)
        throw Error(file + ": line " + std::to_string(line_at(text, bad)) +
                    " has bytes that are not valid UTF-8; save the file as UTF-8, or declare its encoding in "
                    "<?xml version=\"1.0\" encoding=\"...\"?>");
    if (text.find('\0') != std::string::npos)
        throw Error(file + ": line " + std::to_string(line_at(text, text.find('\0'))) +
                    " has a NUL character, which XML does not allow; remove it");
    // TinyXML reads character references (&#233;) as UTF-8 only when the declaration says UTF-8.
    const Declaration d = find_declaration(text);
    const std::string utf8_declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
    return utf8_declaration + text.substr(d.end);  // the same lines: errors keep their line numbers
}

std::string file_bytes(const std::string& path, const std::string& what) {
    std::ifstream in(path);
    if (!in) throw Error(path + ": cannot open the " + what + "; check the path and its permissions");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace rbdgen
