// A URDF's bytes as the UTF-8 text every later stage expects, and its numbers checked as written.
//
// urdfdom's XML parser (TinyXML) reads any file declared in an encoding other than UTF-8 as raw
// bytes ("legacy" mode), so a name in ISO-8859-1, or an ASCII file's character reference `&#233;`,
// would reach the generator as bytes that are not UTF-8. And where urdfdom cannot read a number of
// <inertial> it logs, drops the whole element and carries on: the link becomes massless. These two
// steps run before urdfdom so that neither can happen silently.
#pragma once

#include <string>
#include <vector>

namespace rbdgen {

// The file's text in UTF-8 with its XML declaration saying so. The source encoding is the one the
// byte-order mark or the XML declaration names (UTF-8 when neither does), converted with iconv.
// Throws rbdgen::Error naming `file` for an encoding iconv does not know or bytes that are not
// valid in the declared one (with their line).
std::string xml_to_utf8(const std::string& bytes, const std::string& file);

// A robot file's bytes; throws rbdgen::Error "<path>: cannot open the <what>; check the path and its
// permissions".
std::string file_bytes(const std::string& path, const std::string& what);

// One number as written: decimal or scientific notation (a leading '+' allowed), the whole token,
// finite; else false with `why` ("is not a number", "is not finite", ...).
bool parse_number(const std::string& token, double& x, std::string& why);
// The whitespace-separated tokens of an attribute's value.
std::vector<std::string> tokens(const std::string& text);

// Whether `s` is well-formed UTF-8 (RFC 3629: no overlong forms, surrogates, or code points past U+10FFFF).
bool valid_utf8(const std::string& s);

// Throws rbdgen::Error "<file>:<line>:<column>: not well-formed XML (...)" unless the text is well-formed.
void check_well_formed(const std::string& utf8_xml, const std::string& file);

// Every number of every <inertial> (<origin>, <mass>, <inertia>), and of every joint's and link's
// <origin>, <axis>, <limit>, <dynamics>, <calibration>, <safety_controller> and <mimic>, parses as
// written and is finite; names of links, joints and the robot are valid UTF-8; no joints form a loop.
// Before these: the text is well-formed XML (else the error names its line and column) and not an
// unexpanded xacro file (<xacro:...> elements, ${...} in attributes). Throws rbdgen::Error naming
// `file`, the link or joint, the attribute and the value (the loop's joints).
void check_urdf_text(const std::string& utf8_xml, const std::string& file);

}  // namespace rbdgen
