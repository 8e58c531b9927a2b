#include "model/load_model.hpp"

#include <fstream>
#include <sstream>

#include "model/error.hpp"
#include "model/mjcf_loader.hpp"
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

Model load_model(const std::string& path, const LoadOptions& options) {
    std::ifstream in(path);
    if (!in) throw Error(path + ": cannot open the robot's file; check the path and its permissions");
    std::stringstream text;
    text << in.rdbuf();
    const std::string bytes = text.str();
    const std::string root = root_element(xml_to_utf8(bytes, path));
    if (root == "mujoco") return load_mjcf_string(bytes, path, options);
    if (root == "sdf") throw Error(path + ": an SDF file, which rbdgen does not read yet; write the robot as URDF or MJCF");
    return load_urdf_string(bytes, path, options);  // its own messages for a file that is no URDF
}

}  // namespace rbdgen
