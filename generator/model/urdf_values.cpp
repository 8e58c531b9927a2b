// check_urdf_text (model/xml_text.hpp): every number urdfdom would read, read first here, strictly.
// urdfdom drops an <inertial> it cannot read and carries on (the link loads massless); a value that
// is not finite would poison every result. Both are refused here, naming the link or joint.
#include <tinyxml.h>

#include <charconv>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/xml_text.hpp"

namespace rbdgen {

bool parse_number(const std::string& token, double& x, std::string& why) {
    const char* first = token.data() + (!token.empty() && token[0] == '+' ? 1 : 0);
    const char* last = token.data() + token.size();
    const auto [end, error] = std::from_chars(first, last, x);
    if (error == std::errc::result_out_of_range) {
        why = "is out of the range of a double";
        return false;
    }
    if (error != std::errc() || end != last || first == last) {
        why = "is not a number";
        return false;
    }
    if (!std::isfinite(x)) {
        why = "is not finite";
        return false;
    }
    return true;
}

std::vector<std::string> tokens(const std::string& text) {
    std::vector<std::string> out;
    std::string t;
    for (char c : text + " ") {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!t.empty()) out.push_back(t);
            t.clear();
        } else {
            t += c;
        }
    }
    return out;
}

namespace {

// The numeric attributes of URDF's elements (urdfdom's parser), with how many numbers each holds.
struct Attribute {
    const char* name;
    int count;
};
const std::map<std::string, std::vector<Attribute>>& numeric_attributes() {
    static const std::map<std::string, std::vector<Attribute>> table = {
        {"origin", {{"xyz", 3}, {"rpy", 3}}},
        {"mass", {{"value", 1}}},
        {"inertia", {{"ixx", 1}, {"ixy", 1}, {"ixz", 1}, {"iyy", 1}, {"iyz", 1}, {"izz", 1}}},
        {"axis", {{"xyz", 3}}},
        {"limit", {{"lower", 1}, {"upper", 1}, {"effort", 1}, {"velocity", 1}}},
        {"dynamics", {{"damping", 1}, {"friction", 1}}},
        {"calibration", {{"rising", 1}, {"falling", 1}, {"reference_position", 1}}},
        {"safety_controller", {{"soft_lower_limit", 1}, {"soft_upper_limit", 1}, {"k_position", 1}, {"k_velocity", 1}}},
        {"mimic", {{"multiplier", 1}, {"offset", 1}}},
    };
    return table;
}

// Attributes without which urdfdom drops the element (it logs and goes on) rather than using a default.
const std::map<std::string, std::vector<const char*>>& required_attributes() {
    static const std::map<std::string, std::vector<const char*>> table = {
        {"mass", {"value"}}, {"inertia", {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}}};
    return table;
}

struct Checker {
    const std::string& file;

    std::string where(const TiXmlElement& e, const std::string& owner) const {
        return file + ":" + std::to_string(e.Row()) + ": " + owner;
    }

    void check_element(const TiXmlElement& e, const std::string& owner, const std::string& path) const {
        const std::string tag = e.Value();
        if (const auto it = required_attributes().find(tag); it != required_attributes().end())
            for (const char* a : it->second)
                if (!e.Attribute(a))
                    throw Error(where(e, owner) + ": <" + path + "> has no " + a + "; write " + a + "=\"<number>\"");
        if (const auto it = numeric_attributes().find(tag); it != numeric_attributes().end()) {
            for (const Attribute& a : it->second) {
                const char* value = e.Attribute(a.name);
                if (!value) continue;  // absent: urdfdom's default (zero, or no limit)
                const std::vector<std::string> parts = tokens(value);
                const std::string what = where(e, owner) + ": <" + path + " " + a.name + "=\"" + value + "\">";
                if (static_cast<int>(parts.size()) != a.count)
                    throw Error(what + " must hold " + (a.count == 1 ? "one number" : std::to_string(a.count) + " numbers") +
                                "; write " + (a.count == 1 ? "a finite number" : "three finite numbers separated by spaces"));
                for (const std::string& part : parts) {
                    double x;
                    std::string why;
                    if (!parse_number(part, x, why))
                        throw Error(what + ": '" + part + "' " + why + "; write a finite number in decimal or scientific notation");
                }
            }
        }
        for (const TiXmlElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement())
            check_element(*c, owner, path + "><" + c->Value());
    }

    // A link, joint or robot name as the user can read it in a message: bytes that are not
    // printable UTF-8 as \xNN.
    static std::string printable(const std::string& name) {
        std::string out;
        const bool utf8 = valid_utf8(name);
        for (unsigned char ch : name) {
            if (ch < 0x20 || ch == 0x7f || (ch >= 0x80 && !utf8)) {
                static const char* hex = "0123456789ABCDEF";
                out += std::string("\\x") + hex[ch >> 4] + hex[ch & 15];
            } else {
                out += static_cast<char>(ch);
            }
        }
        return out;
    }

    // Control characters are fine (names reach the sources escaped); bytes that are no UTF-8 are
    // not: JSON, the reports and the user's STATE.json could not carry them.
    void check_name(const TiXmlElement& e, const std::string& kind) const {
        const char* name = e.Attribute("name");
        if (!name || valid_utf8(name)) return;
        throw Error(where(e, kind) + " '" + printable(name) +
                    "': the name has a character reference to no Unicode character (a surrogate); rename it");
    }
};


// Joints whose links form a loop (a link its own ancestor): refused here, before urdfdom, which links
// a parent to its children by shared pointers, so that the links of a loop would hold each other and
// never be freed, whether it then refuses the file or not (found by fuzz_urdf: tests/fuzz/regressions/urdf/).
void refuse_loops(const TiXmlElement& robot, const std::string& file) {
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> children;  // parent link: (joint, child link)
    for (const TiXmlElement* j = robot.FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
        const TiXmlElement* parent = j->FirstChildElement("parent");
        const TiXmlElement* child = j->FirstChildElement("child");
        const char* p = parent ? parent->Attribute("link") : nullptr;
        const char* c = child ? child->Attribute("link") : nullptr;
        if (p && c) children[p].push_back({j->Attribute("name") ? j->Attribute("name") : "", c});
    }
    // Depth first from every link; a link met again on the current path closes a loop.
    std::map<std::string, int> state;  // absent: not visited; 1: on the path; 2: done
    std::vector<std::string> path_joints;
    for (const auto& start : children) {
        if (state.count(start.first)) continue;
        std::vector<std::pair<std::string, size_t>> stack{{start.first, 0}};
        state[start.first] = 1;
        while (!stack.empty()) {
            auto& [link, next] = stack.back();
            const auto& out = children[link];
            if (next == out.size()) {
                state[link] = 2;
                stack.pop_back();
                if (!path_joints.empty()) path_joints.pop_back();
                continue;
            }
            const auto& [joint, child] = out[next++];
            if (state[child] == 1) {  // path_joints[d] leads from stack[d] to stack[d + 1]
                size_t d = 0;
                while (stack[d].first != child) ++d;
                std::string loop;
                for (size_t k = d; k < path_joints.size(); ++k) loop += "'" + path_joints[k] + "', ";
                loop += "'" + joint + "'";
                throw Error(file + ": joints " + loop + " form a loop (link '" + child +
                            "' is its own ancestor); a URDF must be a tree: remove a joint of the loop");
            }
            if (state[child] == 2) continue;
            state[child] = 1;
            path_joints.push_back(joint);
            stack.push_back({child, 0});
        }
    }
}

// The first mark of xacro (ROS's macro language over URDF) in e or below: an <xacro:...> element, or
// an attribute with ${...} (a mesh's filename also with $(...)); its line, or 0 for none. Not the
// xacro namespace alone: xacro keeps it in the URDFs it writes (Panda's, Talos', UR5's).
int xacro_line(const TiXmlElement& e) {
    if (std::string(e.Value()).rfind("xacro:", 0) == 0) return e.Row();
    for (const TiXmlAttribute* a = e.FirstAttribute(); a; a = a->Next()) {
        const std::string name = a->Name(), value = a->Value();
        if (value.find("${") != std::string::npos || (name != "filename" && value.find("$(") != std::string::npos)) return e.Row();
    }
    for (const TiXmlElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement())
        if (const int line = xacro_line(*c)) return line;
    return 0;
}

}  // namespace

void check_well_formed(const std::string& utf8_xml, const std::string& file) {
    TiXmlDocument doc;
    doc.Parse(utf8_xml.c_str(), nullptr, TIXML_ENCODING_UTF8);
    if (doc.Error())
        throw Error(file + ":" + std::to_string(doc.ErrorRow()) + ":" + std::to_string(doc.ErrorCol()) + ": not well-formed XML (" +
                    doc.ErrorDesc() + "); fix the XML at that line");
}

void check_urdf_text(const std::string& utf8_xml, const std::string& file) {
    TiXmlDocument doc;
    doc.Parse(utf8_xml.c_str(), nullptr, TIXML_ENCODING_UTF8);
    // A xacro file passed by habit: said before anything it would otherwise fail on.
    for (const TiXmlElement* e = doc.FirstChildElement(); e; e = e->NextSiblingElement())
        if (const int line = xacro_line(*e))
            throw Error(file + ":" + std::to_string(line) + ": " + file + " is a xacro file: expand it first (`xacro " + file +
                        " > robot.urdf`), and give rbdgen robot.urdf");
    if (doc.Error()) check_well_formed(utf8_xml, file);
    // The element urdfdom reads: the first <robot> at the top, which other top-level elements may
    // precede (TinyXML accepts several; a loop behind them leaked, found by fuzz_urdf).
    const TiXmlElement* robot = doc.FirstChildElement("robot");
    if (!robot) return;  // urdfdom says there is no robot in its own words
    const Checker c{file};
    c.check_name(*robot, "robot");
    for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
        const std::string tag = e->Value();
        if (tag != "link" && tag != "joint") continue;
        const char* name = e->Attribute("name");
        c.check_name(*e, tag);
        const std::string owner = tag + " '" + (name ? name : "") + "'";
        for (const TiXmlElement* child = e->FirstChildElement(); child; child = child->NextSiblingElement())
            c.check_element(*child, owner, child->Value());
    }
    refuse_loops(*robot, file);
}

}  // namespace rbdgen
