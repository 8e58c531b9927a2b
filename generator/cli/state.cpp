#include "cli/state.hpp"

#include <cmath>
#include <fstream>
#include <map>

#include "model/error.hpp"

namespace rbdgen {
namespace {

double number(const nlohmann::json& j, const std::string& file, const std::string& key) {
    if (!j.is_number()) throw Error(file + ": '" + key + "' is " + j.dump() + ", not a number; write a number there");
    return j.get<double>();
}

void read_array(const nlohmann::json& j, double* out, int n, const std::string& file, const std::string& key) {
    if (!j.is_array() || static_cast<int>(j.size()) != n)
        throw Error(file + ": '" + key + "' must be an array of " + std::to_string(n) + " numbers");
    for (int k = 0; k < n; ++k) out[k] = number(j[k], file, key + "[" + std::to_string(k) + "]");
}

void check_keys(const nlohmann::json& j, const std::string& file, const std::string& where,
                std::initializer_list<const char*> allowed) {
    if (!j.is_object()) throw Error(file + ": '" + where + "' must be a JSON object");
    for (const auto& [key, value] : j.items()) {
        bool ok = false;
        std::string list;
        for (const char* a : allowed) {
            ok = ok || key == a;
            list += (list.empty() ? "" : ", ") + std::string(a);
        }
        if (!ok) throw Error(file + ": unknown key '" + key + "' in " + where + "; expected one of " + list);
    }
}

const JointLayout* floating_root(const Layout& layout) {
    for (const JointLayout& j : layout.joints)
        if (j.floating) return &j;
    return nullptr;
}

}  // namespace

State parse_state(const Layout& model, const nlohmann::json& json, const std::string& file) {
    check_keys(json, file, "the state", {"q", "v", "a", "tau", "gravity", "base", "measurements"});
    State s;
    s.file = file;
    if (json.contains("measurements")) {
        const nlohmann::json& m = json["measurements"];
        if (!m.is_object()) throw Error(file + ": 'measurements' must be an object {\"<sensor>\": [values], ...}");
        for (const auto& [sensor, values] : m.items()) {
            if (!values.is_array()) throw Error(file + ": 'measurements." + sensor + "' must be an array of numbers");
            std::vector<double>& out = s.measurements[sensor];
            for (size_t k = 0; k < values.size(); ++k)
                out.push_back(number(values[k], file, "measurements." + sensor + "[" + std::to_string(k) + "]"));
        }
    }
    s.q = VecX<double>::Zero(model.nq);
    s.v = s.a = s.tau = VecX<double>::Zero(model.nv);
    std::map<std::string, const JointLayout*> by_name;
    for (const JointLayout& j : model.joints)
        if (!j.floating) by_name[j.name] = &j;
    const JointLayout* base = floating_root(model);
    if (base) s.q[base->q_index + 6] = 1.0;  // identity quaternion

    const std::pair<const char*, double*> vectors[] = {{"q", nullptr}, {"v", s.v.data()}, {"a", s.a.data()}, {"tau", s.tau.data()}};
    for (const auto& [section, out] : vectors) {
        if (!json.contains(section)) continue;
        const nlohmann::json& j = json.at(section);
        if (!j.is_object()) throw Error(file + ": '" + section + "' must be an object {\"<joint>\": value, ...}");
        for (const auto& [joint, value] : j.items()) {
            const auto it = by_name.find(joint);
            if (it == by_name.end())
                throw Error(file + ": '" + section + "' names joint '" + joint + "', which " + model.source +
                            " does not have as a moving joint; use one of the joints `rbdgen info` lists");
            const double x = number(value, file, std::string(section) + "." + joint);
            if (out) out[it->second->v_index] = x;
            else s.q[it->second->q_index] = x;
        }
    }
    if (json.contains("gravity")) read_array(json["gravity"], s.gravity.data(), 3, file, "gravity");
    if (json.contains("base")) {
        if (!base)
            throw Error(file + ": the state has a 'base' but the model has no floating base; drop it, or use --floating-base");
        const nlohmann::json& b = json["base"];
        check_keys(b, file, "base", {"position", "quaternion", "velocity", "acceleration", "wrench"});
        if (b.contains("position")) read_array(b["position"], s.q.data() + base->q_index, 3, file, "base.position");
        if (b.contains("quaternion")) {
            double* quat = s.q.data() + base->q_index + 3;
            read_array(b["quaternion"], quat, 4, file, "base.quaternion");
            const double norm = Eigen::Map<Eigen::Vector4d>(quat).norm();
            if (std::abs(norm - 1.0) > 1e-3)
                throw Error(file + ": 'base.quaternion' has norm " + std::to_string(norm) +
                            "; give a unit quaternion [x, y, z, w]");
            Eigen::Map<Eigen::Vector4d>(quat) /= norm;
        }
        if (b.contains("velocity")) read_array(b["velocity"], s.v.data() + base->v_index, 6, file, "base.velocity");
        if (b.contains("acceleration")) read_array(b["acceleration"], s.a.data() + base->v_index, 6, file, "base.acceleration");
        if (b.contains("wrench")) read_array(b["wrench"], s.tau.data() + base->v_index, 6, file, "base.wrench");
    }
    return s;
}

std::vector<double> measurement_array(const State& state, const std::vector<std::string>& element_names) {
    std::vector<double> out;
    for (size_t e = 0; e < element_names.size();) {
        const std::string sensor = element_names[e].substr(0, element_names[e].rfind('.'));
        size_t n = 0;
        while (e + n < element_names.size() && element_names[e + n].substr(0, element_names[e + n].rfind('.')) == sensor) ++n;
        const auto it = state.measurements.find(sensor);
        std::string components;
        for (size_t k = 0; k < n; ++k) components += (k ? ", " : "") + element_names[e + k].substr(sensor.size() + 1);
        if (it == state.measurements.end())
            throw Error(state.file + ": no measurements for sensor '" + sensor + "'; give \"measurements\": {\"" + sensor +
                        "\": [" + components + "]}");
        if (it->second.size() != n)
            throw Error(state.file + ": 'measurements." + sensor + "' has " + std::to_string(it->second.size()) +
                        " values; the sensor gives " + std::to_string(n) + ": [" + components + "]");
        out.insert(out.end(), it->second.begin(), it->second.end());
        e += n;
    }
    return out;
}

State read_state(const Layout& model, const std::string& file) {
    std::ifstream in(file);
    if (!in) throw Error(file + ": cannot open the state file; check the path");
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
        throw Error(file + ": not valid JSON (" + e.what() + ")");
    }
    return parse_state(model, json, file);
}

namespace {

// A result that overflowed (or lost all meaning) is an error naming it, never JSON's null.
void check_finite(const Layout& layout, double x, const std::string& result, const std::string& entry) {
    if (std::isfinite(x)) return;
    throw Error(layout.source + ": " + result + " of " + entry + " is " + (std::isnan(x) ? "not a number" : "infinite") +
                ": the model's values overflow double arithmetic; check the masses, inertias and lengths of its links "
                "(<inertial>, <origin>) and the state's values");
}

nlohmann::ordered_json joint_vector_json(const Layout& layout, const std::vector<double>& x, const std::string& result) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    for (const JointLayout& j : layout.joints) {
        if (j.floating) {
            for (int k = 0; k < 6; ++k) check_finite(layout, x[j.v_index + k], result, "the floating base");
            out["base"] = std::vector<double>(x.begin() + j.v_index, x.begin() + j.v_index + 6);
        } else {
            check_finite(layout, x[j.v_index], result, "joint '" + j.name + "'");
            out[j.name] = x[j.v_index];
        }
    }
    return out;
}

nlohmann::ordered_json joint_matrix_json(const Layout& layout, const std::vector<double>& x, const std::string& result) {
    const int n = layout.nv;
    nlohmann::ordered_json matrix = nlohmann::ordered_json::array();
    for (int row = 0; row < n; ++row) {
        for (int col = 0; col < n; ++col)
            check_finite(layout, x[row * n + col], result,
                         "entry (" + layout.dof_names[row] + ", " + layout.dof_names[col] + ")");
        matrix.push_back(std::vector<double>(x.begin() + row * n, x.begin() + (row + 1) * n));
    }
    return {{"order", layout.dof_names}, {"matrix", matrix}};
}

}  // namespace

nlohmann::ordered_json eval_json(const Layout& layout, const EvalResults& r) {
    nlohmann::ordered_json j;
    std::vector<std::string> names;
    for (const JointLayout& joint : layout.joints) names.push_back(joint.name);
    j["joints"] = names;
    for (const EvalResult& result : r.results) {
        const std::string what = "the result of kernel " + result.name;
        if (result.form == EvalResult::Form::Named) {
            nlohmann::ordered_json named = nlohmann::ordered_json::object();
            for (size_t k = 0; k < result.values.size(); ++k) {
                check_finite(layout, result.values[k], what, result.names.at(k));
                named[result.names[k]] = result.values[k];
            }
            j[result.name] = named;
            continue;
        }
        j[result.name] = result.form == EvalResult::Form::JointVector ? joint_vector_json(layout, result.values, what)
                                                                      : joint_matrix_json(layout, result.values, what);
    }
    if (!r.fd_error.empty()) j["fd_error"] = r.fd_error;
    return j;
}

}  // namespace rbdgen
