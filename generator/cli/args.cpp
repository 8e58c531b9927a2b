#include <algorithm>

#include "cli/commands.hpp"
#include "cli/state.hpp"
#include "model/urdf_loader.hpp"
#include <iostream>

namespace rbdgen {

bool ParsedArgs::has(const std::string& name) const {
    return std::any_of(options.begin(), options.end(), [&](const auto& o) { return o.first == name; });
}

std::string ParsedArgs::value(const std::string& name, const std::string& fallback) const {
    for (const auto& [n, v] : options)
        if (n == name) return v;
    return fallback;
}

Layout model_layout(const Model& model) {
    Layout layout;
    layout.source = model.source;
    layout.nq = model.nq;
    layout.nv = model.nv;
    layout.dof_names = model.dof_names();
    for (const Body& b : model.bodies)
        layout.joints.push_back({b.joint_name, b.joint.type == JointType::Floating, b.q_index, b.v_index});
    return layout;
}

LoadOptions load_options(const ParsedArgs& args) {
    return {args.has("--floating-base"), args.has("--strict-inertia")};
}

Model load_model(const std::string& path, const LoadOptions& options) {
    Model model = load_urdf(path, options);
    for (const std::string& w : model.warnings) std::cerr << "rbdgen: warning: " << w << "\n";
    return model;
}

ParsedArgs parse_args(const std::string& command, const Args& args, const std::vector<std::string>& flags,
                      const std::vector<std::string>& with_value) {
    auto contains = [](const std::vector<std::string>& list, const std::string& s) {
        return std::find(list.begin(), list.end(), s) != list.end();
    };
    ParsedArgs parsed;
    for (size_t k = 0; k < args.size(); ++k) {
        const std::string& a = args[k];
        if (a.size() < 2 || a[0] != '-') {
            parsed.positional.push_back(a);
        } else if (contains(flags, a)) {
            parsed.options.emplace_back(a, "");
        } else if (contains(with_value, a)) {
            if (k + 1 >= args.size()) throw Error("rbdgen " + command + ": option " + a + " needs a value");
            parsed.options.emplace_back(a, args[++k]);
        } else {
            std::string known;
            for (const auto& f : flags) known += " " + f;
            for (const auto& f : with_value) known += " " + f;
            throw Error("rbdgen " + command + ": unknown option '" + a + "'; options are" + known);
        }
    }
    return parsed;
}

}  // namespace rbdgen
