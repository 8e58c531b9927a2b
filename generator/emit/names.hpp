// What of a URDF may reach emitted code: names as sanitized identifiers, escaped comments and
// escaped string literals. Nothing else from the file is ever pasted into a source.
#pragma once

#include <string>
#include <vector>

namespace rbdgen {

// A C++ identifier: letters and digits kept, every other run of bytes one '_', never a keyword, never
// starting with a digit or '_', never holding "__". Not injective by itself: see unique_identifiers.
std::string sanitize_identifier(const std::string& name);

// Sanitized identifiers for a list of names; distinct names stay distinct (suffixes _2, _3, ...).
std::vector<std::string> unique_identifiers(const std::vector<std::string>& names, const std::string& prefix = "");

// Text safe inside a // comment: printable ASCII except '\' kept, every other byte as %XX.
std::string comment_text(const std::string& text);

// A C++ string literal (with quotes) holding exactly the bytes of `text`.
std::string string_literal(const std::string& text);

}  // namespace rbdgen
