#include "model/load_model.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "model/error.hpp"
#include "model/mjcf_loader.hpp"
#include "model/sdf_loader.hpp"
#include "model/xml_text.hpp"

namespace rbdgen {

std::string root_element(const std::string& xml) {
    size_t i = 0;
    while (i < xml.size()) {
        i = xml.find('<', i);
        if (i == std::string::npos || i + 1 >= xml.size()) return "";
        if (xml.compare(i, 4, "<!--") == 0) {
            i = xml.find("-->", i);
            if (i == std::string::npos) return "";
        } else if (xml[i + 1] == '?' || xml[i + 1] == '!') {
            i = xml.find('>', i);
            if (i == std::string::npos) return "";
        } else {
            const size_t end = xml.find_first_of(" \t\r\n/>", i + 1);
            return xml.substr(i + 1, end == std::string::npos ? std::string::npos : end - i - 1);
        }
        ++i;
    }
    return "";
}

namespace {
// --armature JOINT=VALUE,...: each joint's armature set (replacing the file's).
Model with_armature(Model model, const LoadOptions& options) {
    for (const auto& [joint, value] : options.armature) {
        Body* found = nullptr;
        for (Body& b : model.bodies)
            if (b.joint_name == joint) found = &b;
        if (!found) {
            std::string names;
            for (const Body& b : model.bodies) names += (names.empty() ? "" : ", ") + b.joint_name;
            throw Error("--armature: " + model.source + " has no moving joint '" + joint + "'; its joints are " + names);
        }
        if (!(value >= 0) || !std::isfinite(value))
            throw Error("--armature: joint '" + joint + "' = " + std::to_string(value) + "; write a finite armature >= 0 (kg m^2, or kg for a prismatic joint)");
        found->joint.armature = value;
        found->armature_from = "--armature";
    }
    return model;
}

Model read_file(const std::string& path, const LoadOptions& options) {
    const std::string bytes = file_bytes(path, "robot's file");
    const std::string root = root_element(xml_to_utf8(bytes, path));
    if (root == "mujoco") return load_mjcf_string(bytes, path, options);
    if (root == "sdf") return load_sdf_string(bytes, path, options);
    return load_urdf_string(bytes, path, options);  // its own messages for a file that is no URDF
}
}  // namespace

Model load_model(const std::string& path, const LoadOptions& options) {
    Model model = with_armature(read_file(path, options), options);
    if (model.files.empty()) model.files = {path};
    return model;
}

}  // namespace rbdgen
