// A problem file (YAML, docs/problems.md): which quantities of Nori's system are known, unknown or
// measured, and by which sensors. The file's name without .yaml names the problem.
//
//   joint_accelerations: known | unknown       (default known: q̈ from STATE.json's "a")
//   joint_forces: unknown | known              (default unknown; known: τ from STATE.json's "tau");
//                                              a floating base's force is zero unless declared under joints
//   joints: {<joint>: {acceleration: known|unknown, force: known|unknown}}   per-joint exceptions
//   links: {<link>: unknown}                   a contact whose wrench is unknown; other links have none
//   sensors: {<sensor>: {type: <type>, link: <link> | joint: <joint>}}
//     force_torque      the link's wrench, all six components [n; f]
//     load_cells        three-axis (eq. 18): f_z, n_x, n_y measured; f_x, f_y, n_z unknown
//     slippery_contact  eq. 23: f_x = f_y = 0, f_z, n_x, n_y measured, n_z unknown
//     joint_torque      the joint's force τ
//     accelerometer     the link frame origin's proper acceleration (classical acceleration minus
//                       gravity) in the link frame, [ax, ay, az]: what an IMU's accelerometer reads
//   contacts: {<link>: 6d | point | {type: 6d|point, kd: <1/s>, kp: <1/s²>}}
//                     rigid contacts (Featherstone RBDA ch. 8): a 6d contact holds the link frame still
//                     (its angular and its origin's classical acceleration zero), a point contact its
//                     origin (3 rows; its wrench a force, no torque about the origin). Their wrenches are
//                     unknowns; with contacts, joint_accelerations default to unknown and joint_forces to
//                     known (a floating base's zero). Baumgarte stabilization, per contact, default off:
//                     the held acceleration is −kd times the frame's velocity (kd) minus kp times its
//                     position error, read from the measurements "<link>.e<component>" (kp).
//                     Several contacts on one body share its wrench: returned once, in the body's link
//                     frame; their redundant rows go to the LU's least-squares tail.
//   impulse: true     an inelastic impact instead (Pinocchio's impulseDynamics): the contacts' velocities
//                     after it are zero; returns the joint velocities after it (qd_plus) and the contacts'
//                     impulses. No joint impulse: the joint forces are zero.
//   unknowns: [joint_forces, joint_accelerations, link_wrenches]   what <name>_lu returns (default all)
// A link's wrench is in its URDF frame, about its origin: a merged (fixed-joint) link's own frame.
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "model/error.hpp"
#include "model/xml_text.hpp"
#include "sparse/classical_orderings.hpp"
#include "sparse/problem.hpp"

namespace rbdgen {
namespace {

const char* const kWrench[6] = {"nx", "ny", "nz", "fx", "fy", "fz"};

struct Reader {
    const Model& model;
    std::string file;

    [[noreturn]] void fail(const YAML::Node& at, const std::string& what) const {
        const YAML::Mark m = at.Mark();
        throw Error(m.is_null() ? file + ": " + what : file + ":" + std::to_string(m.line + 1) + ": " + what);
    }
    std::string scalar(const YAML::Node& n, const std::string& what) const {
        if (!n.IsScalar()) fail(n, what + " must be a single word");
        // Names reach the report and the generated sources; YAML is UTF-8 text (YAML 1.2 §5.2).
        if (!valid_utf8(n.Scalar())) fail(n, what + " has bytes that are not valid UTF-8; save the file as UTF-8");
        return n.Scalar();
    }
    bool known(const YAML::Node& n, const std::string& what) const {
        const std::string v = scalar(n, what);
        if (v != "known" && v != "unknown") fail(n, what + " is '" + v + "'; use known or unknown");
        return v == "known";
    }
    int body_of_joint(const YAML::Node& at, const std::string& joint) const {
        for (int i = 0; i < model.N(); ++i)
            if (model.bodies[i].joint_name == joint) return i;
        std::string names;
        for (const Body& b : model.bodies) names += (names.empty() ? "" : ", ") + b.joint_name;
        fail(at, "no moving joint '" + joint + "' in " + model.source + "; its joints are " + names);
    }
    // The link's frame: its body and ᶠX_body in the body's (internal) frame.
    std::pair<int, Transform<double>> link(const YAML::Node& at, const std::string& name) const {
        const std::optional<LinkFrame> f = link_frame(model, name);
        if (!f) fail(at, "no link '" + name + "' in " + model.source + "; the closest are " + closest_link_names(model, name));
        if (f->body < 0)
            fail(at, "link '" + name + "' is welded to the fixed base of " + model.source +
                         ": nothing moves it, so no sensor or contact on it enters the dynamics; name a moving link "
                         "(or load the robot with a floating base)");
        return {f->body, f->X};
    }
};

// The problem a problem file's map declares: `in.file` names it in messages, `p` holds its name, doc and source.
Problem problem_of(const Reader& in, const YAML::Node& root, Problem p) {
    const Model& model = in.model;
    if (!root.IsMap()) in.fail(root, "a problem file is a map of joint_accelerations, joint_forces, joints, links, contacts, impulse, sensors, unknowns");
    const std::set<std::string> keys{"joint_accelerations", "joint_forces", "joints", "links", "contacts", "impulse", "sensors", "unknowns"};
    for (const auto& kv : root) {
        const std::string key = in.scalar(kv.first, "a key");
        if (!keys.count(key))
            in.fail(kv.first, "unknown key '" + key + "'; a problem file has joint_accelerations, joint_forces, joints, links, contacts, impulse, sensors, unknowns");
    }
    if (const YAML::Node i = root["impulse"]) {
        const std::string v = in.scalar(i, "impulse");
        if (v != "true" && v != "false") in.fail(i, "impulse is '" + v + "'; use true or false");
        p.impulse = v == "true";
        if (p.impulse && !root["contacts"]) in.fail(i, "impulse: true needs the contacts of the impact: declare them under contacts");
    }
    const NewtonEulerLayout l = newton_euler_layout(model);
    const std::vector<std::string> dofs = model.dof_names();
    // Per joint: q̈ and τ known? (τ measured by a sensor counts as neither.) With contacts, constrained
    // dynamics by default: q̈ unknown, τ known.
    const bool contact_dynamics = static_cast<bool>(root["contacts"]);
    const bool all_qdd = root["joint_accelerations"] ? in.known(root["joint_accelerations"], "joint_accelerations") : !contact_dynamics;
    const bool all_tau = root["joint_forces"] ? in.known(root["joint_forces"], "joint_forces") : contact_dynamics;
    if (p.impulse && (root["joint_accelerations"] || root["joint_forces"] || root["joints"] || root["sensors"]))
        in.fail(root, "an impulse problem has the contacts alone: the joint velocities after the impact unknown, no joint "
                      "impulse; leave out joint_accelerations, joint_forces, joints and sensors");
    std::vector<bool> qdd_known(model.N(), all_qdd), tau_known(model.N(), all_tau), tau_sensed(model.N(), false),
        tau_zero(model.N(), false);
    for (int i = 0; i < model.N(); ++i)  // nothing drives a floating base
        if (model.bodies[i].joint.type == JointType::Floating) tau_zero[i] = true, tau_known[i] = false;
    std::map<int, std::string> tau_declared;  // joints whose force the file declares, and how
    if (const YAML::Node joints = root["joints"]) {
        if (!joints.IsMap()) in.fail(joints, "joints is a map from joint name to {acceleration, force}");
        for (const auto& kv : joints) {
            const std::string name = in.scalar(kv.first, "a joint name");
            const int i = in.body_of_joint(kv.first, name);
            if (!kv.second.IsMap()) in.fail(kv.second, "joint '" + name + "': give {acceleration: known|unknown, force: known|unknown}");
            for (const auto& q : kv.second) {
                const std::string what = in.scalar(q.first, "a joint quantity");
                if (what == "acceleration") qdd_known[i] = in.known(q.second, "joint '" + name + "' acceleration");
                else if (what == "force")
                    tau_known[i] = in.known(q.second, "joint '" + name + "' force"), tau_zero[i] = false, tau_declared[i] = "joints";
                else in.fail(q.first, "joint '" + name + "': unknown quantity '" + what + "'; use acceleration or force");
            }
        }
    }
    // Per body: the wrench f^x — zero unless a contact or a sensor is declared on one of its links.
    struct Contact {
        std::string link, declared;
        Transform<double> X;  // ᶠX_body
    };
    std::map<int, Contact> contacts;
    auto claim = [&](const YAML::Node& at, const std::string& link, const std::string& by) {
        const auto [body, X] = in.link(at, link);
        if (contacts.count(body))
            in.fail(at, by + ": link '" + link + "' moves with '" + contacts[body].link + "', already declared by " +
                            contacts[body].declared + ": one contact or sensor a rigid body; declare it once");
        contacts[body] = {link, by, X};
        return body;
    };
    if (const YAML::Node links = root["links"]) {
        if (!links.IsMap()) in.fail(links, "links is a map from link name to unknown");
        for (const auto& kv : links) {
            const std::string name = in.scalar(kv.first, "a link name");
            if (in.scalar(kv.second, "link '" + name + "'") != "unknown")
                in.fail(kv.second, "link '" + name + "': a contact's wrench is 'unknown' (measure it with a sensor instead)");
            claim(kv.first, name, "links");
        }
    }
    // Sensors: rows Σ c d = y, y from the input "measurements"; contacts: rows on their frames' motion.
    ProblemInput measured{"measurements", "sensor readings (STATE.json \"measurements\"), sensor by sensor", {}};
    std::vector<MeasurementRow> sensor_rows;
    std::map<int, bool> point_contact;  // body → a point contact (its wrench a force), or 6D
    std::map<int, HeldFrame> held_frames;  // body → its contact, for the articulated-body solve (one a body)
    if (const YAML::Node cs = root["contacts"]) {
        if (!cs.IsMap() || cs.size() == 0) in.fail(cs, "contacts is a map from link name to 6d, point or {type: 6d|point, kd: .., kp: ..}");
        struct Held {
            std::string name;
            bool point;
            double kd, kp;
            int body;
            Transform<double> X;  // ᶠX_body
        };
        std::vector<Held> held;
        std::map<int, std::vector<std::string>> on_body;  // body → its contacts' links
        for (const auto& kv : cs) {
            const std::string name = in.scalar(kv.first, "a contact's link name");
            std::string type;
            double kd = 0, kp = 0;
            if (kv.second.IsMap()) {
                for (const auto& f : kv.second) {
                    const std::string k = in.scalar(f.first, "contact '" + name + "' key");
                    if (k == "type") type = in.scalar(f.second, "contact '" + name + "' type");
                    else if (k == "kd" || k == "kp") {
                        double& gain = k == "kd" ? kd : kp;
                        try {
                            gain = f.second.as<double>();
                        } catch (const YAML::Exception&) {
                            in.fail(f.second, "contact '" + name + "' " + k + " is not a number");
                        }
                        if (!(gain >= 0) || !std::isfinite(gain)) in.fail(f.second, "contact '" + name + "' " + k + " must be a finite number ≥ 0");
                        if (p.impulse) in.fail(f.first, "contact '" + name + "': " + k + " is Baumgarte's stabilization of accelerations; an impulse problem has none");
                    } else in.fail(f.first, "contact '" + name + "': unknown key '" + k + "'; a contact has type, kd and kp");
                }
                if (type.empty()) in.fail(kv.second, "contact '" + name + "': give its type: 6d or point");
            } else type = in.scalar(kv.second, "contact '" + name + "'");
            if (type != "6d" && type != "point") in.fail(kv.second, "contact '" + name + "' is '" + type + "'; use 6d or point");
            const auto [body, X] = in.link(kv.first, name);
            if (!on_body.count(body)) claim(kv.first, name, "contacts");
            on_body[body].push_back(name);
            held.push_back({name, type == "point", kd, kp, body, X});
            p.contacts.push_back(name);
        }
        // Several contacts on one rigid body (a flat foot's corners): their wrenches are one, the
        // body's, returned in its own link's frame; their rows hold the same body, a redundant but
        // consistent set that the LU solves in the least-squares sense (its tail).
        for (const Held& h : held) point_contact[h.body] = on_body[h.body].size() == 1 && h.point;
        for (const auto& [body, links] : on_body)
            if (links.size() > 1) contacts[body] = {model.bodies[body].name, "contacts", link_frame(model, model.bodies[body].name)->X};
        for (const Held& h : held) {
            const std::string& name = h.name;
            const int body = h.body;
            const Transform<double> X = h.X;
            const bool point = h.point;
            const double kd = h.kd, kp = h.kp;
            // In the body's axes (sparse/problem.hpp): r = X.r, F's origin in the body. A point contact
            // transmits no torque about its origin: n − r × f = 0 of f^x.
            const Vec3<double> o = X.r;
            const double rx[3][3] = {{0, -o[2], o[1]}, {o[2], 0, -o[0]}, {-o[1], o[0], 0}};  // r×
            for (int k = 0; point_contact[body] && k < 3; ++k) {
                MeasurementRow r;
                r.terms.push_back({l.bodies[body].f_x + k, 1.0});
                for (int j = 0; j < 3; ++j)
                    if (rx[k][j] != 0) r.terms.push_back({l.bodies[body].f_x + 3 + j, -rx[k][j]});
                sensor_rows.push_back(r);
            }
            // Baumgarte's position error, from the measurements: the frame's, in its own coordinates
            const int error_element = measured.size();
            held_frames[body] = {body, X, point, kd, kp, kp != 0 ? error_element : -1};
            for (int c = held_frames[body].first(); kp != 0 && c < 6; ++c)
                measured.element_names.push_back(name + ".e" + (c < 3 ? "w" : "") + std::string(1, "xyz"[c % 3]));
            // The frame held, in the body's axes: a 6D contact's spatial acceleration ᶠX⁻¹(ᶠX a + m) = 0,
            // a point contact's linear acceleration of F's origin, a − r × ω̇ + Eᵀ m = 0 (m: the motion
            // terms, or Baumgarte's −kp e).
            for (int k = 0; k < (point ? 3 : 6); ++k) {
                MeasurementRow r;
                const int c = point ? 3 + k : k;  // the component of a_body the row holds
                r.terms.push_back({l.bodies[body].a + c, 1.0});
                for (int j = 0; point && j < 3; ++j)
                    if (rx[k][j] != 0) r.terms.push_back({l.bodies[body].a + j, -rx[k][j]});
                std::sort(r.terms.begin(), r.terms.end());
                for (int m = 0; m < 6; ++m) {
                    Vec6<double> e = Vec6<double>::Zero();
                    e[m] = 1;
                    r.mix[m] = point ? (m >= 3 ? X.E(m - 3, k) : 0.0) : X.inverse_apply(e)[k];
                }
                if (!p.impulse) {
                    r.body = body, r.X = X;
                    r.velocity_product = r.gravity = true;
                    r.damping = kd;
                    if (kp != 0) r.stiffness = kp, r.error_input = 0, r.error_element = error_element, r.error_size = point ? 3 : 6;
                }
                sensor_rows.push_back(r);
            }
        }
    }
    std::map<int, std::vector<int>> wrench_rows;  // body → components (of its link's wrench) measured or known 0
    if (const YAML::Node sensors = root["sensors"]) {
        if (!sensors.IsMap()) in.fail(sensors, "sensors is a map from a sensor name to {type, link or joint}");
        for (const auto& kv : sensors) {
            const std::string name = in.scalar(kv.first, "a sensor name");
            const YAML::Node s = kv.second;
            if (!s.IsMap() || !s["type"]) in.fail(kv.second, "sensor '" + name + "': give {type: ..., link: ... or joint: ...}");
            const std::string type = in.scalar(s["type"], "sensor '" + name + "' type");
            for (const auto& f : s) {
                const std::string k = in.scalar(f.first, "a sensor key");
                if (k != "type" && k != "link" && k != "joint") in.fail(f.first, "sensor '" + name + "': unknown key '" + k + "'; a sensor has type and link or joint");
            }
            if (type == "joint_torque") {
                if (!s["joint"]) in.fail(s, "sensor '" + name + "' (joint_torque): give the joint: joint: <name>");
                const std::string joint = in.scalar(s["joint"], "sensor '" + name + "' joint");
                const int i = in.body_of_joint(s["joint"], joint);
                if (tau_declared.count(i))
                    in.fail(s["joint"], "sensor '" + name + "': joint '" + joint + "''s force is declared " +
                                            (tau_known[i] ? "known" : "unknown") + " under " + tau_declared[i] + " and measured here; declare it once");
                tau_declared[i] = "sensor '" + name + "'";
                tau_known[i] = tau_zero[i] = false, tau_sensed[i] = true;
                for (int e = 0; e < l.bodies[i].n; ++e) {
                    sensor_rows.push_back({{{l.bodies[i].tau + e, 1.0}}, 0, measured.size()});
                    measured.element_names.push_back(name + "." + (l.bodies[i].n == 1 ? "tau" : dofs[model.bodies[i].v_index + e]));
                }
                continue;
            }
            if (type == "accelerometer") {
                if (!s["link"]) in.fail(s, "sensor '" + name + "' (accelerometer): give the link: link: <name>");
                const auto [body, X] = in.link(s["link"], in.scalar(s["link"], "sensor '" + name + "' link"));
                // a_body holds the spatial acceleration plus gravity reversed (a_0 = −a_g), so the
                // linear part of ᶠX a at F plus ω × v is the proper acceleration F feels.
                for (int c = 0; c < 3; ++c) {
                    MeasurementRow r{{}, 0, measured.size()};
                    Vec6<double> e;
                    for (int k = 0; k < 6; ++k) {
                        e.setZero();
                        e[k] = 1;
                        const double x = X.apply(e)[3 + c];
                        if (x != 0) r.terms.push_back({l.bodies[body].a + k, x});
                    }
                    r.body = body, r.X = X, r.velocity_product = true;
                    r.mix[3 + c] = 1;
                    sensor_rows.push_back(r);
                    measured.element_names.push_back(name + "." + "a" + std::string(1, "xyz"[c]));
                }
                continue;
            }
            std::vector<int> components, zero;  // of the link's wrench [n; f]
            if (type == "force_torque") components = {0, 1, 2, 3, 4, 5};
            else if (type == "load_cells") components = {5, 0, 1};
            else if (type == "slippery_contact") components = {5, 0, 1}, zero = {3, 4};
            else in.fail(s["type"], "sensor '" + name + "': unknown type '" + type + "'; the types are force_torque, load_cells, slippery_contact, joint_torque, accelerometer");
            if (!s["link"]) in.fail(s, "sensor '" + name + "' (" + type + "): give the link: link: <name>");
            const int body = claim(s["link"], in.scalar(s["link"], "sensor '" + name + "' link"), "sensor '" + name + "'");
            const Transform<double>& X = contacts[body].X;
            auto row = [&](int component, int input, int element) {
                Vec6<double> e = Vec6<double>::Zero();
                MeasurementRow r{{}, input, element};
                for (int k = 0; k < 6; ++k) {  // component of ᶠX_body* f^x: row `component` of that matrix
                    e.setZero();
                    e[k] = 1;
                    const double c = X.apply_force(e)[component];
                    if (c != 0) r.terms.push_back({l.bodies[body].f_x + k, c});
                }
                return r;
            };
            for (int c : zero) sensor_rows.push_back(row(c, -1, 0));
            for (int c : components) {
                sensor_rows.push_back(row(c, 0, measured.size()));
                measured.element_names.push_back(name + "." + kWrench[c]);
            }
        }
    }
    // The rows: known q̈ and τ (inputs qdd, tau), the zero wrenches, then the sensors'.
    ProblemInput qdd{"qdd", "joint accelerations (read where known)", dofs}, tau{"tau", "joint forces (read where known)", dofs};
    const bool any_qdd = std::count(qdd_known.begin(), qdd_known.end(), true) > 0;
    if (p.impulse)  // no joint impulse: every τ zero
        for (int i = 0; i < model.N(); ++i) tau_zero[i] = tau_zero[i] || tau_known[i], tau_known[i] = false;
    const bool any_tau = std::count(tau_known.begin(), tau_known.end(), true) > 0;
    const int qdd_input = any_qdd ? static_cast<int>(p.inputs.size()) : -1;
    if (any_qdd) p.inputs.push_back(qdd);
    const int tau_input = any_tau ? static_cast<int>(p.inputs.size()) : -1;
    if (any_tau) p.inputs.push_back(tau);
    const int measured_input = measured.size() > 0 ? static_cast<int>(p.inputs.size()) : -1;
    if (measured.size() > 0) p.inputs.push_back(measured);
    for (int i = 0; i < model.N(); ++i) {
        const auto& k = l.bodies[i];
        const int v = model.bodies[i].v_index;
        if (!contacts.count(i))
            for (int e = 0; e < 6; ++e) p.rows.push_back({{{k.f_x + e, 1.0}}, -1, 0});
        for (int e = 0; e < k.n; ++e) {
            if (qdd_known[i]) p.rows.push_back({{{k.qdd + e, 1.0}}, qdd_input, v + e});
            if (tau_known[i]) p.rows.push_back({{{k.tau + e, 1.0}}, tau_input, v + e});
            if (tau_zero[i]) p.rows.push_back({{{k.tau + e, 1.0}}, -1, 0});
        }
    }
    for (MeasurementRow r : sensor_rows) {
        if (r.input == 0) r.input = measured_input;
        if (r.error_input == 0) r.error_input = measured_input;
        p.rows.push_back(r);
    }
    // What the fused kernel returns.
    std::set<std::string> wanted{"joint_forces", "joint_accelerations", "link_wrenches"};
    if (const YAML::Node u = root["unknowns"]) {
        if (!u.IsSequence()) in.fail(u, "unknowns is a list of joint_forces, joint_accelerations, link_wrenches");
        wanted.clear();
        for (const auto& x : u) {
            const std::string w = in.scalar(x, "an unknown");
            if (w != "joint_forces" && w != "joint_accelerations" && w != "link_wrenches")
                in.fail(x, "unknown '" + w + "'; use joint_forces, joint_accelerations, link_wrenches");
            wanted.insert(w);
        }
    }
    for (int i = 0; i < model.N(); ++i)
        for (int e = 0; e < l.bodies[i].n; ++e) {
            const std::string& dof = dofs[model.bodies[i].v_index + e];
            if (wanted.count("joint_forces") && !tau_known[i] && !tau_sensed[i] && !tau_zero[i])
                p.wanted.push_back({{l.bodies[i].tau + e, 1.0}}), p.wanted_names.push_back("tau[" + dof + "]");
            if (wanted.count("joint_accelerations") && !qdd_known[i])
                p.wanted.push_back({{l.bodies[i].qdd + e, 1.0}}), p.wanted_names.push_back((p.impulse ? "qd_plus[" : "qdd[") + dof + "]");
        }
    if (wanted.count("link_wrenches"))
        for (const auto& [body, c] : contacts)
            for (int component = point_contact.count(body) && point_contact[body] ? 3 : 0; component < 6; ++component) {
                std::vector<std::pair<int, double>> form;
                Vec6<double> e;
                for (int k = 0; k < 6; ++k) {
                    e.setZero();
                    e[k] = 1;
                    const double x = c.X.apply_force(e)[component];
                    if (x != 0) form.push_back({l.bodies[body].f_x + k, x});
                }
                p.wanted.push_back(form);
                p.wanted_names.push_back((p.impulse ? "impulse[" : "fx[") + c.link + "]." + kWrench[component]);
            }
    if (p.wanted.empty()) in.fail(root, "the problem has no unknowns to return; list some under unknowns");
    // Constrained dynamics (every q̈ unknown, every τ known or zero): the ABA with the contacts last.
    if (contact_dynamics && std::none_of(qdd_known.begin(), qdd_known.end(), [](bool k) { return k; }) && !root["sensors"] &&
        std::none_of(tau_sensed.begin(), tau_sensed.end(), [](bool k) { return k; }) && !root["links"]) {
        std::vector<int> bodies;
        for (const auto& [body, point] : point_contact) bodies.push_back(body);
        bool complete = p.contacts.size() == bodies.size();  // one contact a body, every τ pinned: known or zero
        for (int i = 0; i < model.N(); ++i) complete = complete && (tau_known[i] || tau_zero[i]);
        if (complete) p.hand_made_orders.push_back({"aba-contacts", contact_ordering(model, p.rows, bodies)});
        // and the articulated-body solve (<name>_aba), when it returns what the LU does: q̈ and the wrenches, in p.wanted's order
        if (complete && wanted.count("joint_accelerations") && wanted.count("link_wrenches")) {
            for (const auto& [body, h] : held_frames) p.held.push_back(h);
            p.tau_known.assign(model.nv, false);
            for (int i = 0; i < model.N(); ++i)
                for (int e = 0; e < l.bodies[i].n; ++e) p.tau_known[model.bodies[i].v_index + e] = tau_known[i];
            p.tau_input = tau_input, p.error_input = measured_input;
        }
    }
    p.output_name = "unknowns";
    p.output_doc = "the unknowns, in the order of report.json's problems." + p.name + ".unknowns";
    return p;
}

}  // namespace

Problem read_problem_file(const Model& model, const std::string& path) {
    Reader in{model, path};
    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::BadFile&) {
        throw Error(path + ": cannot read the problem file");
    } catch (const YAML::ParserException& e) {
        throw Error(path + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
    }
    Problem p;
    p.source = path;
    p.name = std::filesystem::path(path).stem().string();
    bool identifier = !p.name.empty() && std::isalpha(static_cast<unsigned char>(p.name[0]));
    for (char ch : p.name) identifier = identifier && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    if (!identifier)
        throw Error(path + ": the file's name '" + p.name + "' names the problem's kernels and must be a C++ identifier "
                    "(letters, digits, underscores, a letter first); rename the file");
    p.doc = "Problem " + p.name + " on Nori's sparse system (" + std::filesystem::path(path).filename().string() +
            "): its unknowns from q, qd, the known quantities, the measurements and gravity, by the static-pivot LU.";
    return problem_of(in, root, p);
}

Problem contact_problem(const Model& model, const std::string& spec, bool impulse) {
    const std::string kind = impulse ? "impulse" : "contact";
    Reader in{model, "--problem " + kind + ":" + spec};
    YAML::Node root;
    for (size_t from = 0; from <= spec.size();) {
        const size_t comma = std::min(spec.find(',', from), spec.size());
        const std::string item = spec.substr(from, comma - from);
        const size_t colon = item.find(':');
        const std::string link = item.substr(0, colon), type = colon == std::string::npos ? "6d" : item.substr(colon + 1);
        if (link.empty())
            throw Error(in.file + ": give each contact's link: " + kind + ":LINK[:point],... (e.g. " + kind + ":l_sole,r_sole)");
        if (root["contacts"][link]) throw Error(in.file + ": link '" + link + "' is named twice; name each contact once");
        root["contacts"][link] = type;
        from = comma + 1;
    }
    if (impulse) root["impulse"] = "true";
    Problem p;
    p.source = in.file;
    p.name = kind;
    p.doc = impulse ? "Impulse dynamics on Nori's sparse system: the joint velocities after an inelastic impact of the contacts (" + spec +
                          ") and its impulses, from q and qd, by the static-pivot LU."
                    : "Contact dynamics on Nori's sparse system: the joint accelerations with the contacts (" + spec +
                          ") held, and their wrenches, from q, qd, tau and gravity, by the static-pivot LU.";
    return problem_of(in, root, p);
}

}  // namespace rbdgen
