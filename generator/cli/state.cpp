#include "cli/state.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

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

// A unit quaternion [x, y, z, w] (within 1e-3; scaled to 1).
void read_unit_quaternion(const nlohmann::json& j, double* out, const std::string& file, const std::string& key) {
    read_array(j, out, 4, file, key);
    const double norm = Eigen::Map<Eigen::Vector4d>(out).norm();
    if (std::abs(norm - 1.0) > 1e-3)
        throw Error(file + ": '" + key + "' has norm " + std::to_string(norm) + "; give a unit quaternion [x, y, z, w]");
    Eigen::Map<Eigen::Vector4d>(out) /= norm;
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

State parse_state(const Layout& model, const nlohmann::json& json, const std::string& file) {
    check_keys(json, file, "the state",
               {"q", "v", "a", "tau", "gravity", "base", "measurements", "motion", "external_wrenches", "parameters"});
    State s;
    s.file = file;
    if (json.contains("parameters")) {
        const nlohmann::json& w = json["parameters"];
        if (!w.is_object())
            throw Error(file + ": 'parameters' must be an object {\"<link>\": [m, mcx, mcy, mcz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz], ...}");
        for (const auto& [link, values] : w.items()) {
            s.parameters.push_back({link, std::vector<double>(10)});
            read_array(values, s.parameters.back().second.data(), 10, file, "parameters." + link);
        }
    }
    if (json.contains("external_wrenches")) {
        const nlohmann::json& w = json["external_wrenches"];
        if (!w.is_object())
            throw Error(file + ": 'external_wrenches' must be an object {\"<link>\": [nx, ny, nz, fx, fy, fz], ...}");
        for (const auto& [link, values] : w.items()) {
            s.external_wrenches.push_back({link, Vec6<double>::Zero()});
            read_array(values, s.external_wrenches.back().second.data(), 6, file, "external_wrenches." + link);
        }
    }
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
    if (base) s.quaternion_w.push_back(base->q_index + 6);
    for (const JointLayout& j : model.joints)
        if (j.ball) s.quaternion_w.push_back(j.q_index + 3);
    for (const int w : s.quaternion_w) s.q[w] = 1.0;  // identity quaternions

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
            const std::string key = std::string(section) + "." + joint;
            if (it->second->ball) {  // [x, y, z, w] in q, [3] otherwise
                if (out) read_array(value, out + it->second->v_index, 3, file, key + " (a ball joint's, about its body's axes)");
                else read_unit_quaternion(value, s.q.data() + it->second->q_index, file, key + " (a ball joint's quaternion [x, y, z, w])");
                continue;
            }
            const double x = number(value, file, key);
            if (out) out[it->second->v_index] = x;
            else s.q[it->second->q_index] = x;
        }
    }
    s.gravity = model.gravity;
    if (json.contains("gravity")) read_array(json["gravity"], s.gravity.data(), 3, file, "gravity");
    if (json.contains("motion")) {
        const nlohmann::json& m = json["motion"];
        if (!m.is_object()) throw Error(file + ": 'motion' must be an object {\"<joint>\": [q, q', q'', ...], ...}");
        s.has_motion = true;
        for (const auto& [joint, values] : m.items()) {
            const auto it = by_name.find(joint);
            if (it == by_name.end())
                throw Error(file + ": 'motion' names joint '" + joint + "', which " + model.source +
                            " does not have as a moving joint; use one of the joints `rbdgen info` lists (a floating base: "
                            "\"base\": {\"motion\": [...]})");
            if (!values.is_array() || values.empty())
                throw Error(file + ": 'motion." + joint + "' must be a non-empty array [q, q', q'', ...] (N + 2 values for --ncmtm-order N)");
            State::MotionEntry e{joint, *it->second, {}};
            for (size_t k = 0; k < values.size(); ++k) {
                const std::string key = "motion." + joint + "[" + std::to_string(k) + "]";
                if (!it->second->ball) {
                    e.values.push_back({number(values[k], file, key)});
                } else if (k == 0) {
                    e.values.emplace_back(4);
                    read_unit_quaternion(values[k], e.values.back().data(), file, key + " (a ball joint's quaternion [x, y, z, w])");
                } else {
                    e.values.emplace_back(3);
                    read_array(values[k], e.values.back().data(), 3, file, key + " (a ball joint's, about its body's axes)");
                }
            }
            s.motion.push_back(e);
        }
    }
    if (json.contains("base")) {
        if (!base)
            throw Error(file + ": the state has a 'base' but the model has no floating base; drop it, or use --floating-base");
        const nlohmann::json& b = json["base"];
        check_keys(b, file, "base", {"position", "quaternion", "velocity", "acceleration", "wrench", "motion"});
        if (b.contains("motion")) {
            const nlohmann::json& m = b["motion"];
            if (!m.is_array() || m.empty())
                throw Error(file + ": 'base.motion' must be an array [[position 3, quaternion 4], [velocity 6], [acceleration 6], ...]");
            s.has_motion = true;
            State::MotionEntry e{"base", *base, {}};
            for (size_t k = 0; k < m.size(); ++k) {
                const std::string key = "base.motion[" + std::to_string(k) + "]";
                e.values.emplace_back(k == 0 ? 7 : 6);
                read_array(m[k], e.values.back().data(), k == 0 ? 7 : 6, file, key);
            }
            const double norm = Eigen::Map<Eigen::Vector4d>(e.values[0].data() + 3).norm();
            if (std::abs(norm - 1.0) > 1e-3)
                throw Error(file + ": 'base.motion[0]' has a quaternion of norm " + std::to_string(norm) +
                            "; give a unit quaternion [x, y, z, w] after the position");
            Eigen::Map<Eigen::Vector4d>(e.values[0].data() + 3) /= norm;
            s.motion.push_back(e);
        }
        if (b.contains("position")) read_array(b["position"], s.q.data() + base->q_index, 3, file, "base.position");
        if (b.contains("quaternion")) read_unit_quaternion(b["quaternion"], s.q.data() + base->q_index + 3, file, "base.quaternion");
        if (b.contains("velocity")) read_array(b["velocity"], s.v.data() + base->v_index, 6, file, "base.velocity");
        if (b.contains("acceleration")) read_array(b["acceleration"], s.a.data() + base->v_index, 6, file, "base.acceleration");
        if (b.contains("wrench")) read_array(b["wrench"], s.tau.data() + base->v_index, 6, file, "base.wrench");
    }
    return s;
}
}  // namespace

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

namespace {
// The row of `link` among the links the kernels take `section` of, or an error naming the option that adds it.
size_t link_row(const State& state, const std::string& section, const std::string& link, const std::vector<std::string>& links,
                const std::string& option) {
    const auto at = std::find(links.begin(), links.end(), link);
    if (at != links.end()) return static_cast<size_t>(at - links.begin());
    std::string list;
    for (const std::string& l : links) list += (list.empty() ? "" : ", ") + l;
    throw Error(state.file + ": '" + section + "' names link '" + link + "', but these kernels take " + section +
                (links.empty() ? std::string(" of no link") : " of " + list + " only") + "; generate them with " + option + " " + link);
}
}  // namespace

std::vector<double> external_wrench_array(const State& state, const std::vector<std::string>& links) {
    std::vector<double> out(6 * links.size(), 0.0);
    for (const auto& [link, f] : state.external_wrenches) {
        const size_t row = link_row(state, "external_wrenches", link, links, "--external-forces");
        for (int k = 0; k < 6; ++k) out[6 * row + k] = f[k];
    }
    return out;
}

std::vector<double> parameter_array(const State& state, const std::vector<std::string>& links, const std::vector<double>& urdf) {
    std::vector<double> out = urdf;
    for (const auto& [link, pi] : state.parameters) {
        const size_t row = link_row(state, "parameters", link, links, "--parameters");
        // physically valid: m > 0 and the rotational inertia about the centre of mass, Ī − m (|c|² 1 − c cᵀ), positive definite
        const double m = pi[0];
        const Vec3<double> c = Vec3<double>(pi[1], pi[2], pi[3]) / m;
        Mat3<double> I;
        I << pi[4], pi[5], pi[7], pi[5], pi[6], pi[8], pi[7], pi[8], pi[9];
        const Mat3<double> I_c = I - m * (c.squaredNorm() * Mat3<double>::Identity() - c * c.transpose());
        if (!(m > 0) || !(Eigen::SelfAdjointEigenSolver<Mat3<double>>(I_c).eigenvalues().minCoeff() > 0))
            throw Error(state.file + ": 'parameters." + link + "' is not a physical body: " +
                        (m > 0 ? "its rotational inertia about the centre of mass is not positive definite"
                               : "its mass is not positive") +
                        "; give [m, m cx, m cy, m cz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz] about the link's origin");
        std::copy(pi.begin(), pi.end(), out.begin() + 10 * row);
    }
    return out;
}

namespace {
void require_motion(const State& state, int order) {
    if (!state.has_motion)
        throw Error(state.file + ": the N-CMTM kernels (order " + std::to_string(order) + ") read the state's \"motion\": give "
                    "\"motion\": {\"<joint>\": [q, q', ..., q^(" + std::to_string(order + 1) + ")]} (and \"base\": {\"motion\": "
                    "[...]} for a floating base)");
}
}  // namespace

std::vector<double> motion_positions(const State& state) {
    std::vector<double> q(state.q.size(), 0.0);
    for (const int w : state.quaternion_w) q[w] = 1.0;  // identity quaternions
    for (const State::MotionEntry& e : state.motion)
        for (size_t k = 0; k < e.values.at(0).size(); ++k) q[e.joint.q_index + k] = e.values[0][k];
    return q;
}

std::vector<double> motion_derivatives(const State& state, int order) {
    require_motion(state, order);
    const long nv = state.v.size();
    std::vector<double> psi((order + 1) * nv, 0.0);
    for (const State::MotionEntry& e : state.motion) {
        if (static_cast<int>(e.values.size()) != order + 2)
            throw Error(state.file + ": '" + (e.joint.floating ? std::string("base.motion") : "motion." + e.name) + "' has " +
                        std::to_string(e.values.size()) + " entries; the N-CMTM kernels of order " + std::to_string(order) +
                        " need " + std::to_string(order + 2) + ": the position and its derivatives to order " +
                        std::to_string(order + 1));
        for (int k = 0; k <= order; ++k)
            for (size_t c = 0; c < e.values[k + 1].size(); ++c) psi[k * nv + e.joint.v_index + c] = e.values[k + 1][c];
    }
    return psi;
}

State read_state(const Layout& model, const std::string& file) {
    std::ifstream in(file);
    if (!in) throw Error(file + ": cannot open the state file; check the path");
    return read_state(model, in, file);
}

State read_state(const Layout& model, std::istream& in, const std::string& file) {
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
        throw Error(file + ": not valid JSON (" + e.what() + ")");
    } catch (const nlohmann::json::out_of_range& e) {  // a number beyond double's range, as 1e3080 (found by fuzz_motion)
        throw Error(file + ": a number out of range (" + e.what() + "); write finite numbers within +-1.8e308");
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
        } else if (j.ball) {
            for (int k = 0; k < 3; ++k) check_finite(layout, x[j.v_index + k], result, "joint '" + j.name + "'");
            out[j.name] = std::vector<double>(x.begin() + j.v_index, x.begin() + j.v_index + 3);
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

// A result under its name: "kernel.output" (a kernel of several printed outputs) under its kernel.
void put(nlohmann::ordered_json& j, const std::string& name, const nlohmann::ordered_json& value) {
    const size_t dot = name.find('.');
    if (dot != std::string::npos)
        j[name.substr(0, dot)][name.substr(dot + 1)] = value;
    else
        j[name] = value;
}


nlohmann::ordered_json eval_json(const Layout& layout, const EvalResults& r) {
    nlohmann::ordered_json j;
    std::vector<std::string> names;
    for (const JointLayout& joint : layout.joints) names.push_back(joint.name);
    j["joints"] = names;
    for (const EvalResult& result : r.results) {
        const std::string what = "the result of kernel " + result.name;
        if (result.form == EvalResult::Form::JointDerivatives) {  // {"<joint>": [x, x', ...], "base": [[6], ...]}
            const size_t orders = result.values.size() / layout.nv;
            nlohmann::ordered_json d = nlohmann::ordered_json::object();
            for (size_t k = 0; k < orders; ++k) {
                const std::vector<double> row(result.values.begin() + k * layout.nv, result.values.begin() + (k + 1) * layout.nv);
                const nlohmann::ordered_json one = joint_vector_json(layout, row, what + " (derivative " + std::to_string(k) + ")");
                for (const auto& [joint, x] : one.items()) d[joint].push_back(x);
            }
            j[result.name] = d;
            continue;
        }
        if (result.form == EvalResult::Form::LinkMotions) {  // {"<link>": [[6], [6], ...]}
            nlohmann::ordered_json links = nlohmann::ordered_json::object();
            const size_t per_link = result.values.size() / result.names.size();
            for (size_t i = 0; i < result.names.size(); ++i) {
                nlohmann::ordered_json orders = nlohmann::ordered_json::array();
                for (size_t k = 0; k < per_link / 6; ++k) {
                    const size_t at = i * per_link + 6 * k;
                    for (size_t c = 0; c < 6; ++c)
                        check_finite(layout, result.values[at + c], what, "link '" + result.names[i] + "' (derivative " + std::to_string(k) + ")");
                    orders.push_back(std::vector<double>(result.values.begin() + at, result.values.begin() + at + 6));
                }
                links[result.names[i]] = orders;
            }
            j[result.name] = links;
            continue;
        }
        if (result.form == EvalResult::Form::LinkPoses) {  // {"<link>": {"R": [[3], [3], [3]], "p": [3]}}
            if (12 * result.names.size() != result.values.size())
                throw std::logic_error("the names of " + result.name + "'s links do not match its size");
            nlohmann::ordered_json links = nlohmann::ordered_json::object();
            for (size_t i = 0; i < result.names.size(); ++i) {
                const double* x = result.values.data() + 12 * i;
                for (size_t c = 0; c < 12; ++c) check_finite(layout, x[c], what, "link '" + result.names[i] + "'");
                links[result.names[i]] = {{"R", {std::vector<double>(x, x + 3), std::vector<double>(x + 3, x + 6), std::vector<double>(x + 6, x + 9)}},
                                          {"p", std::vector<double>(x + 9, x + 12)}};
            }
            put(j, result.name, links);
            continue;
        }
        if (result.form == EvalResult::Form::Matrix) {  // {"rows": [...], "columns": [...], "matrix": [[...], ...]}
            const size_t cols = result.names.size();
            if (cols * result.row_names.size() != result.values.size())
                throw std::logic_error("the names of " + result.name + "'s rows and columns do not match its size");
            nlohmann::ordered_json matrix = nlohmann::ordered_json::array();
            for (size_t r = 0; r < result.row_names.size(); ++r) {
                for (size_t c = 0; c < cols; ++c)
                    check_finite(layout, result.values[r * cols + c], what, "entry (" + result.row_names[r] + ", " + result.names[c] + ")");
                matrix.push_back(std::vector<double>(result.values.begin() + r * cols, result.values.begin() + (r + 1) * cols));
            }
            const nlohmann::ordered_json m{{"rows", result.row_names}, {"columns", result.names}, {"matrix", matrix}};
            put(j, result.name, m);
            continue;
        }
        if (result.form == EvalResult::Form::Named && result.names.size() == 1 &&
            result.name.substr(result.name.find('.') + 1) == result.names[0]) {  // a number named as its output: "energy": {"T": x}
            check_finite(layout, result.values.at(0), what, result.names[0]);
            put(j, result.name, result.values[0]);
            continue;
        }
        if (result.form == EvalResult::Form::Named) {
            nlohmann::ordered_json named = nlohmann::ordered_json::object();
            for (size_t k = 0; k < result.values.size(); ++k) {
                check_finite(layout, result.values[k], what, result.names.at(k));
                named[result.names[k]] = result.values[k];
            }
            put(j, result.name, named);
            continue;
        }
        const size_t dot = result.name.find('.');
        if (result.form == EvalResult::Form::JointMatrix && dot != std::string::npos) {  // a kernel's matrices, one "order"
            const nlohmann::ordered_json m = joint_matrix_json(layout, result.values, what);
            nlohmann::ordered_json& kernel = j[result.name.substr(0, dot)];
            kernel["order"] = m["order"];
            kernel[result.name.substr(dot + 1)] = m["matrix"];
            continue;
        }
        j[result.name] = result.form == EvalResult::Form::JointVector ? joint_vector_json(layout, result.values, what)
                                                                      : joint_matrix_json(layout, result.values, what);
    }
    if (!r.fd_error.empty()) j["fd_error"] = r.fd_error;
    return j;
}
}  // namespace

void write_eval_json(std::ostream& out, const Layout& layout, const EvalResults& results) {
    out << eval_json(layout, results).dump(2) << "\n";
}

}  // namespace rbdgen
