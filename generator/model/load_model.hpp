// A robot's file, whatever its format, as the one Model: URDF, MJCF or SDFormat, recognised by the
// root element (<robot>, <mujoco>, <sdf>) whatever the file's extension.
#pragma once

#include <string>

#include "model/model.hpp"
#include "model/urdf_loader.hpp"

namespace rbdgen {

// Throws rbdgen::Error naming the file and what to change.
Model load_model(const std::string& path, const LoadOptions& options = {});

// The name of the text's root element ("" when there is none to read).
std::string root_element(const std::string& utf8_xml);

}  // namespace rbdgen
