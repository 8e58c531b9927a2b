// URDF (urdfdom) → Model: fixed joints merged into their parent body, inertias combined and
// expressed at the body frame, an optional floating base added at the root link.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/error.hpp"
#include "model/model.hpp"

namespace rbdgen {

struct LoadOptions {
    bool floating_base = false;
    // Inertias whose principal moments violate the triangle inequality cannot belong to a rigid
    // body, yet real URDFs have them (allegro, talos) and their spatial inertia stays positive
    // definite: by default they load with a warning; strict makes them an error.
    bool strict_inertia = false;
    // --armature JOINT=VALUE,...: the rotor inertias of formats without a field for them (URDF), or
    // in place of the file's; applied by load_model to whatever file it reads.
    std::vector<std::pair<std::string, double>> armature;
};

// A reader's rotational inertia Ic (about the centre of mass), checked as every reader checks it: not
// positive semi-definite throws; principal moments that violate the triangle inequality warn (no
// rigid body has them, yet real files do and the spatial inertia stays positive definite), or throw
// with strict_inertia. `where` names the file and the link or element, `fix` what to change.
void check_rotational_inertia(const Mat3<double>& Ic, const std::string& where, const std::string& fix, const LoadOptions& options,
                              std::vector<std::string>& warnings);

// Throws rbdgen::Error with a message naming the file and the offending link or joint.
Model load_urdf(const std::string& path, const LoadOptions& options = {});
Model load_urdf_string(const std::string& xml, const std::string& source_name,
                       const LoadOptions& options = {});

}  // namespace rbdgen
