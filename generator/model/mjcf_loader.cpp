#include "model/mjcf_loader.hpp"

#include <tinyxml.h>

#include <fmt/format.h>

#include <Eigen/Geometry>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "model/error.hpp"
#include "model/xml_text.hpp"

namespace rbdgen {
namespace {

using V3 = Vec3<double>;
using M3 = Mat3<double>;
using X = Transform<double>;

constexpr double kPi = 3.14159265358979323846;

// ᶜX_p of a frame at position t in its parent, with its axes the columns of R (parent coordinates).
X placed(const M3& R, const V3& t) { return {R.transpose(), t}; }

// MuJoCo's mjuu_z2quat: the rotation taking the z axis to v by the shortest arc, about x when v = −z.
M3 z_to(const V3& v) {
    V3 axis = V3::UnitZ().cross(v);
    const double s = axis.norm();
    axis = s < 1e-10 ? V3::UnitX() : V3(axis / s);
    return Eigen::AngleAxisd(std::atan2(s, v.z()), axis).toRotationMatrix();
}

// What one <compiler> (or several) says.
struct Compiler {
    bool degree = true;  // MuJoCo's default unit for angles
    std::string eulerseq = "xyz";
    std::string inertiafromgeom = "auto";
    int group_min = 0, group_max = 5;
    double settotalmass = -1;
    bool discardvisual = false;
};

// A <default> class: its parent and, for each element kind, the attributes it sets.
struct DefaultClass {
    std::string parent;
    std::map<std::string, std::map<std::string, std::string>> attributes;  // kind → name → value
};

// The mass, centre of mass and rotational inertia of a primitive geom (MuJoCo's mjCGeom::SetInertia),
// its volume for a density.
struct Solid {
    double volume = 0;
    V3 moments = V3::Zero();  // per unit mass, about the geom's centre, in its axes
};

class Reader {
public:
    Reader(const std::string& file, const LoadOptions& options) : file_(file), options_(options) {}

    Model read(const std::string& bytes) {
        const TiXmlElement& root = parse(bytes, file_);
        if (std::string(root.Value()) != "mujoco")
            throw Error(where(root) + ": the root element is <" + root.Value() + ">, not <mujoco>; this is no MJCF file");
        model_.name = attribute(root, "model") ? attribute(root, "model") : "MuJoCo Model";
        model_.source = file_;
        model_.files = {file_};
        model_.root_link = "world";
        const std::vector<const TiXmlElement*> top = children(root);
        for (const TiXmlElement* e : top)
            if (tag(*e) == "compiler") compiler(*e);
        for (const TiXmlElement* e : top)
            if (tag(*e) == "default") default_class(*e, "");
        std::set<std::string> ignored;
        std::vector<const TiXmlElement*> worldbodies;
        for (const TiXmlElement* e : top) {
            const std::string t = tag(*e);
            if (t == "worldbody")
                worldbodies.push_back(e);
            else if (t == "option")
                option(*e);
            else if (t == "equality") {
                if (!children(*e).empty())
                    model_.ignored.push_back("<equality> (" + std::to_string(children(*e).size()) +
                                             " constraints: closed loops and couplings are not modelled; the tree is used)");
            } else if (t != "compiler" && t != "default")
                ignored.insert("<" + t + ">");
        }
        for (const TiXmlElement* w : worldbodies) number(*w);
        // The bodies with a free joint first: the floating base is body 0.
        for (int pass = 0; pass < 2; ++pass)
            for (const TiXmlElement* w : worldbodies) world_children(*w, pass == 0);
        std::string list;
        for (const std::string& t : ignored) list += (list.empty() ? "" : ", ") + t;
        if (!list.empty()) model_.ignored.insert(model_.ignored.begin(), list + " (they do not change the rigid-body model)");
        if (options_.floating_base && !model_.floating_base)
            throw Error(file_ + ": --floating-base on an MJCF file, which says its floating base itself; give the root body a <freejoint/>");
        if (compiler_.settotalmass > 0) scale_to_total_mass();
        if (model_.bodies.empty())
            throw Error(file_ + ": the model has no joint; give a body a <joint> or a <freejoint/>");
        assign_indices(model_);
        return std::move(model_);
    }

private:
    const std::string file_;
    const LoadOptions& options_;
    Model model_;
    Compiler compiler_;
    std::map<std::string, DefaultClass> classes_;
    std::vector<std::unique_ptr<TiXmlDocument>> documents_;
    std::map<const TiXmlDocument*, std::string> document_file_;
    std::set<std::string> including_;  // the include chain, against a file including itself
    std::map<const TiXmlElement*, std::vector<const TiXmlElement*>> included_;  // an <include>'s elements
    std::set<std::string> frame_names_, joint_names_;
    // MuJoCo's ids of bodies, joints and sites (depth first, in the file's order; the world is body
    // 0), which name those the file leaves unnamed: body<id>, joint<id>, site<id>.
    std::map<const TiXmlElement*, int> id_;
    int body_count_ = 1, joint_count_ = 0, site_count_ = 0;

    void number(const TiXmlElement& e) {  // a body's joints and sites, then its children, each and its subtree
        const std::vector<const TiXmlElement*> members = flattened(e);
        for (const TiXmlElement* c : members) {
            const std::string t = tag(*c);
            if (t == "joint" || t == "freejoint") id_[c] = joint_count_++;
            if (t == "site") id_[c] = site_count_++;
        }
        for (const TiXmlElement* c : members)
            if (tag(*c) == "body") {
                id_[c] = body_count_++;
                number(*c);
            }
    }
    // The children of a body, those of its <frame>s in their place.
    std::vector<const TiXmlElement*> flattened(const TiXmlElement& e) {
        std::vector<const TiXmlElement*> out;
        for (const TiXmlElement* c : children(e)) {
            if (tag(*c) != "frame") {
                out.push_back(c);
                continue;
            }
            for (const TiXmlElement* d : flattened(*c)) out.push_back(d);
        }
        return out;
    }

    // ---- the XML -------------------------------------------------------------------------------

    const TiXmlElement& parse(const std::string& bytes, const std::string& file) {
        auto doc = std::make_unique<TiXmlDocument>();
        const std::string xml = xml_to_utf8(bytes, file);
        doc->Parse(xml.c_str(), nullptr, TIXML_ENCODING_UTF8);
        if (doc->Error())
            throw Error(fmt::format("{}:{}:{}: not well-formed XML ({}); fix the XML", file, doc->ErrorRow(), doc->ErrorCol(),
                                    doc->ErrorDesc()));
        const TiXmlElement* root = doc->RootElement();
        if (!root) throw Error(file + ": no root element; an MJCF file is one <mujoco> element");
        document_file_[doc.get()] = file;
        documents_.push_back(std::move(doc));
        return *root;
    }

    static std::string tag(const TiXmlElement& e) { return e.Value(); }
    static const char* attribute(const TiXmlElement& e, const char* name) { return e.Attribute(name); }

    // "file:line: <tag name='...'>" for a message.
    std::string where(const TiXmlElement& e) const {
        const TiXmlDocument* doc = e.GetDocument();
        const auto it = document_file_.find(doc);
        std::string s = (it == document_file_.end() ? file_ : it->second) + ":" + std::to_string(e.Row()) + ": <" + e.Value();
        if (const char* n = e.Attribute("name")) s += " name='" + std::string(n) + "'";
        return s + ">";
    }

    // The element's children, each <include file> replaced by the children of that file's <mujoco>
    // (its path relative to the model file's folder, as MuJoCo reads it).
    std::vector<const TiXmlElement*> children(const TiXmlElement& e) {
        std::vector<const TiXmlElement*> out;
        for (const TiXmlElement* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
            if (tag(*c) != "include") {
                out.push_back(c);
                continue;
            }
            if (const auto it = included_.find(c); it != included_.end()) {  // read once
                out.insert(out.end(), it->second.begin(), it->second.end());
                continue;
            }
            const char* name = attribute(*c, "file");
            if (!name) throw Error(where(*c) + " has no file; write file=\"<path of the MJCF file to include>\"");
            const std::string path = (std::filesystem::path(file_).parent_path() / name).string();
            if (including_.count(path)) throw Error(where(*c) + ": '" + name + "' includes itself; remove the cycle of includes");
            std::error_code ec;
            std::ifstream in;
            if (std::filesystem::is_regular_file(path, ec)) in.open(path);
            if (!in.is_open() || !in) throw Error(where(*c) + ": cannot open '" + path + "' as a file; check the path (relative to the model file's folder)");
            std::stringstream text;
            text << in.rdbuf();
            const TiXmlElement& root = parse(text.str(), path);
            model_.files.push_back(path);
            if (tag(root) != "mujoco") throw Error(where(root) + ": an included file's root element must be <mujoco>");
            including_.insert(path);
            const std::vector<const TiXmlElement*> inner = children(root);
            including_.erase(path);
            included_[c] = inner;
            out.insert(out.end(), inner.begin(), inner.end());
        }
        return out;
    }

    // The numbers of an attribute's value, as many as `counts` allows (else an error naming it).
    std::vector<double> numbers(const TiXmlElement& e, const char* name, const std::string& value, std::vector<int> counts) {
        std::vector<double> x;
        for (const std::string& t : tokens(value)) {
            double v;
            std::string why;
            if (!parse_number(t, v, why))
                throw Error(where(e) + ": " + name + "=\"" + value + "\": '" + t + "' " + why +
                            "; write finite numbers in decimal or scientific notation");
            x.push_back(v);
        }
        for (int n : counts)
            if (static_cast<int>(x.size()) == n) return x;
        std::string allowed;
        for (size_t k = 0; k < counts.size(); ++k) allowed += (k ? " or " : "") + std::to_string(counts[k]);
        throw Error(where(e) + ": " + name + "=\"" + value + "\" holds " + std::to_string(x.size()) + " numbers; write " + allowed);
    }

    // ---- <compiler>, <option>, <default> --------------------------------------------------------

    void compiler(const TiXmlElement& e) {
        if (const char* a = attribute(e, "angle")) {
            const std::string s = a;
            if (s != "degree" && s != "radian") throw Error(where(e) + ": angle=\"" + s + "\"; write degree or radian");
            compiler_.degree = s == "degree";
        }
        if (const char* a = attribute(e, "eulerseq")) {
            const std::string s = a;
            if (s.size() != 3 || s.find_first_not_of("xyzXYZ") != std::string::npos)
                throw Error(where(e) + ": eulerseq=\"" + s + "\"; write three of x, y, z (intrinsic) or X, Y, Z (extrinsic)");
            compiler_.eulerseq = s;
        }
        if (const char* a = attribute(e, "inertiafromgeom")) {
            const std::string s = a;
            if (s != "auto" && s != "true" && s != "false") throw Error(where(e) + ": inertiafromgeom=\"" + s + "\"; write auto, true or false");
            compiler_.inertiafromgeom = s;
        }
        if (const char* a = attribute(e, "inertiagrouprange")) {
            const std::vector<double> g = numbers(e, "inertiagrouprange", a, {2});
            compiler_.group_min = static_cast<int>(g[0]);
            compiler_.group_max = static_cast<int>(g[1]);
        }
        if (const char* a = attribute(e, "settotalmass")) compiler_.settotalmass = numbers(e, "settotalmass", a, {1})[0];
        if (const char* a = attribute(e, "discardvisual")) compiler_.discardvisual = std::string(a) == "true";
        if (const char* a = attribute(e, "coordinate"); a && std::string(a) != "local")
            throw Error(where(e) + ": coordinate=\"" + a + "\" (MuJoCo 2's global coordinates) is not read; convert the file to local coordinates");
        for (const char* bound : {"boundmass", "boundinertia"})
            if (const char* a = attribute(e, bound); a && numbers(e, bound, a, {1})[0] != 0)
                throw Error(where(e) + ": " + bound + " changes the file's masses and inertias, which rbdgen does not do; remove it and write the values");
        if (const char* a = attribute(e, "balanceinertia"); a && std::string(a) == "true")
            throw Error(where(e) + ": balanceinertia changes the file's inertias, which rbdgen does not do; remove it and write the values");
        if (const char* a = attribute(e, "shellinertia"); a && std::string(a) == "true")
            throw Error(where(e) + ": shellinertia is not modelled; remove it, or give the bodies <inertial>");
    }

    void option(const TiXmlElement& e) {
        if (const char* g = attribute(e, "gravity")) {
            const std::vector<double> v = numbers(e, "gravity", g, {3});
            model_.gravity = V3(v[0], v[1], v[2]);
        }
    }

    void default_class(const TiXmlElement& e, const std::string& parent) {
        const char* c = attribute(e, "class");
        std::string name = c ? c : "main";
        if (!parent.empty() && !c) throw Error(where(e) + ": a nested <default> needs a class; write class=\"<name>\"");
        // top-level <default>s (an included file's and the model's) add to one main class, as in MuJoCo
        if (classes_.count(name) && !parent.empty()) throw Error(where(e) + ": class '" + name + "' is defined twice; rename one");
        DefaultClass& d = classes_[name];
        d.parent = parent;
        for (const TiXmlElement* k : children(e)) {
            if (tag(*k) == "default") {
                default_class(*k, name);
                continue;
            }
            auto& set = d.attributes[tag(*k)];
            for (const TiXmlAttribute* a = k->FirstAttribute(); a; a = a->Next()) set[a->Name()] = a->Value();
        }
    }

    // An element's class: its own, else the nearest childclass of its bodies (`childclass`), else main.
    std::string class_of(const TiXmlElement& e, const std::string& childclass) const {
        const char* c = attribute(e, "class");
        const std::string name = c ? c : childclass.empty() ? "main" : childclass;
        if (name != "main" && !classes_.count(name)) throw Error(where(e) + ": class '" + name + "' is not defined; define it in <default> or fix the name");
        return name;
    }

    // An attribute as written on the element, else as its class (and the class's parents) sets it.
    const char* value(const TiXmlElement& e, const std::string& cls, const char* name) const {
        if (const char* v = attribute(e, name)) return v;
        for (std::string c = cls; !c.empty();) {
            const auto it = classes_.find(c);
            if (it == classes_.end()) break;
            if (const auto kind = it->second.attributes.find(tag(e)); kind != it->second.attributes.end())
                if (const auto a = kind->second.find(name); a != kind->second.end()) return a->second.c_str();
            c = it->second.parent;
        }
        return nullptr;
    }

    std::vector<double> numbers_or(const TiXmlElement& e, const std::string& cls, const char* name, std::vector<double> fallback,
                                   std::vector<int> counts) {
        const char* v = value(e, cls, name);
        return v ? numbers(e, name, v, counts) : fallback;
    }

    double angle(double a) const { return compiler_.degree ? a * kPi / 180 : a; }

    // ---- frames ---------------------------------------------------------------------------------

    // The element's orientation in its parent (columns: its axes), from whichever of quat, axisangle,
    // euler, xyaxes and zaxis it has, else its class's.
    M3 orientation(const TiXmlElement& e, const std::string& cls) {
        static const char* forms[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
        const char* form = nullptr;
        for (const char* f : forms)
            if (attribute(e, f)) {
                if (form) throw Error(where(e) + " has both " + form + " and " + f + "; keep one orientation");
                form = f;
            }
        if (!form)
            for (const char* f : forms)
                if (value(e, cls, f)) {
                    form = f;
                    break;
                }
        if (!form) return M3::Identity();
        const std::string f = form;
        const char* v = value(e, cls, form);
        if (f == "quat") {
            const std::vector<double> q = numbers(e, form, v, {4});
            const Eigen::Vector4d w(q[0], q[1], q[2], q[3]);
            if (w.norm() < 1e-12) throw Error(where(e) + ": quat=\"" + v + "\" is zero; write a unit quaternion w x y z");
            return Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();  // MuJoCo normalizes
        }
        if (f == "axisangle") {
            const std::vector<double> a = numbers(e, form, v, {4});
            const V3 axis(a[0], a[1], a[2]);
            if (axis.norm() < 1e-12) throw Error(where(e) + ": axisangle=\"" + v + "\" has a zero axis; write x y z angle");
            return Eigen::AngleAxisd(angle(a[3]), axis.normalized()).toRotationMatrix();
        }
        if (f == "euler") {
            const std::vector<double> a = numbers(e, form, v, {3});
            M3 R = M3::Identity();
            for (int k = 0; k < 3; ++k) {
                const char axis = compiler_.eulerseq[k];
                const M3 Rk = Eigen::AngleAxisd(angle(a[k]), V3::Unit(std::tolower(axis) - 'x')).toRotationMatrix();
                R = std::islower(axis) ? M3(R * Rk) : M3(Rk * R);  // intrinsic: about the moving axes
            }
            return R;
        }
        if (f == "xyaxes") {
            const std::vector<double> a = numbers(e, form, v, {6});
            V3 x(a[0], a[1], a[2]), y(a[3], a[4], a[5]);
            if (x.norm() < 1e-12) throw Error(where(e) + ": xyaxes=\"" + v + "\" has a zero x axis; write two independent axes");
            x.normalize();
            y -= x.dot(y) * x;
            if (y.norm() < 1e-12) throw Error(where(e) + ": xyaxes=\"" + v + "\" has y along x; write two independent axes");
            y.normalize();
            M3 R;
            R << x, y, x.cross(y);
            return R;
        }
        const std::vector<double> a = numbers(e, form, v, {3});
        const V3 z(a[0], a[1], a[2]);
        if (z.norm() < 1e-12) throw Error(where(e) + ": zaxis=\"" + v + "\" is zero; write a nonzero axis");
        return z_to(z.normalized());
    }

    // ᵉX_p: the element's frame from its parent's, by pos and orientation.
    X placement(const TiXmlElement& e, const std::string& cls) {
        const std::vector<double> p = numbers_or(e, cls, "pos", {0, 0, 0}, {3});
        return placed(orientation(e, cls), V3(p[0], p[1], p[2]));
    }

    // ---- bodies ---------------------------------------------------------------------------------

    // Where an MJCF body sits: on model body `body` (−1: the world), with ᵇX_U from that body's MJCF
    // frame U (its X_urdf's link frame).
    struct Attachment {
        int body = -1;
        X X_U;
        std::string childclass;
    };

    void world_children(const TiXmlElement& world, bool free_bodies) {
        Attachment at;
        walk(world, at, free_bodies ? 1 : 2, world);
    }

    static bool has_free_joint(const std::vector<const TiXmlElement*>& kids) {
        for (const TiXmlElement* k : kids) {
            const std::string t = tag(*k);
            if (t == "freejoint") return true;
            if (t == "joint" && k->Attribute("type") && std::string(k->Attribute("type")) == "free") return true;
        }
        return false;
    }

    // The children of a body (or <worldbody>, or a <frame> inside one) attached at `at`. pass: 0 every
    // child; at the world, 1 the bodies with a free joint only and 2 the others.
    void walk(const TiXmlElement& e, const Attachment& at, int pass, const TiXmlElement& owner) {
        for (const TiXmlElement* c : children(e)) {
            const std::string t = tag(*c);
            if (t == "body") {
                if (pass != 0 && has_free_joint(children(*c)) != (pass == 1)) continue;
                body(*c, at);
            } else if (t == "frame") {
                Attachment inner = at;
                if (const char* cc = attribute(*c, "childclass")) inner.childclass = cc;
                inner.X_U = placement(*c, class_of(*c, at.childclass)) * at.X_U;
                walk(*c, inner, pass, owner);
            } else if (pass == 2 || pass == 0) {
                if (t == "site") {
                    site(*c, at);
                } else if (t == "joint" || t == "freejoint") {
                    if (&owner == &e && tag(owner) != "body")
                        throw Error(where(*c) + ": a joint in <worldbody> moves nothing; put it in a <body>");
                } else if (t == "composite" || t == "flexcomp" || t == "replicate" || t == "attach") {
                    throw Error(where(*c) + ": <" + t + "> makes bodies that rbdgen does not read; expand it into <body> elements");
                } else if (t != "geom" && t != "inertial" && t != "camera" && t != "light" && t != "plugin") {
                    throw Error(where(*c) + ": <" + t + "> is not an element of a body; remove it or fix the name");
                }
            }
        }
    }

    std::string unique_frame_name(const TiXmlElement& e, const std::string& kind, int id) {
        const char* n = attribute(e, "name");
        std::string name = n ? n : kind + std::to_string(id);
        if (!frame_names_.insert(name).second)
            throw Error(where(e) + ": the name '" + name + "' is already a body's or site's; rename one (bodies and sites are frames of one namespace here)");
        return name;
    }

    void site(const TiXmlElement& e, const Attachment& at) {
        const std::string name = unique_frame_name(e, "site", id_.at(&e));
        model_.frames.push_back({name, at.body, placement(e, class_of(e, at.childclass)) * at.X_U, RigidBodyInertia<double>(), true});
    }

    void body(const TiXmlElement& e, const Attachment& parent) {
        Attachment at = parent;
        if (const char* cc = attribute(e, "childclass")) {
            at.childclass = cc;
            if (!classes_.count(cc)) throw Error(where(e) + ": childclass '" + std::string(cc) + "' is not defined; define it in <default> or fix the name");
        }
        const std::string name = unique_frame_name(e, "body", id_.at(&e));
        const X X_parent = placed(orientation(e, ""), [&] {
            const std::vector<double> p = numbers_or(e, "", "pos", {0, 0, 0}, {3});
            return V3(p[0], p[1], p[2]);
        }());  // ᵉX_parent's MJCF frame (a body's pos and orientation have no defaults)
        const std::vector<const TiXmlElement*> kids = children(e);
        std::vector<const TiXmlElement*> joints;
        for (const TiXmlElement* k : kids)
            if (tag(*k) == "joint" || tag(*k) == "freejoint") joints.push_back(k);
        const RigidBodyInertia<double> I = inertia(e, kids, at.childclass);  // in this body's MJCF frame
        if (joints.empty()) {  // welded to its parent's body
            at.X_U = X_parent * parent.X_U;
            if (at.body >= 0) {
                Body& b = model_.bodies[at.body];
                b.I = b.I + I.expressed_in_parent(at.X_U * b.X_urdf);
                b.merged_links.push_back(name);
            }
            model_.frames.push_back({name, at.body, at.X_U, I});
            walk(e, at, 0, e);
            return;
        }
        // One model body a joint, in the joint's frame: at its anchor, with the MJCF body's axes.
        X X_tree = X_parent * parent.X_U * (parent.body >= 0 ? model_.bodies[parent.body].X_urdf : X());
        V3 anchor_before = V3::Zero();
        const auto type_of = [&](const TiXmlElement& j) {
            const char* t = value(j, class_of(j, at.childclass), "type");
            return tag(j) == "freejoint" ? std::string("free") : std::string(t ? t : "hinge");
        };
        for (size_t k = 0; k < joints.size(); ++k) {
            const TiXmlElement& j = *joints[k];
            const std::string cls = class_of(j, at.childclass);
            Body b;
            b.lambda = k == 0 ? parent.body : model_.N() - 1;
            const int jid = id_.at(&j);
            const char* jn = attribute(j, "name");
            const std::string type = type_of(j);
            const bool free = type == "free";
            b.joint_name = jn ? jn : free && !joint_names_.count("floating_base") ? "floating_base" : "joint" + std::to_string(jid);
            if (!joint_names_.insert(b.joint_name).second) throw Error(where(j) + ": a second joint named '" + b.joint_name + "'; rename one");
            b.name = k + 1 == joints.size() ? name : b.joint_name;
            if (k + 1 < joints.size()) {
                b.joint_only = true;
                if (!frame_names_.insert(b.name).second)
                    throw Error(where(j) + ": joint '" + b.name + "' of a body of several joints names a massless body of its own, and a body or site has that name; rename one");
            }
            if (free) {
                if (joints.size() > 1) throw Error(where(j) + ": a free joint must be its body's only joint; remove the others");
                if (parent.body >= 0 || !parent.X_U.E.isIdentity(0) || !parent.X_U.r.isZero(0))
                    throw Error(where(j) + ": a free joint must be in a child of <worldbody>; move it");
                if (options_.floating_base) throw Error(where(j) + ": the file has a free joint already; drop --floating-base");
                b.joint.type = JointType::Floating;
                model_.floating_base = true;
                X_tree = X();
            } else {
                if (type != "hinge" && type != "slide" && type != "ball")
                    throw Error(where(j) + ": type=\"" + type + "\"; write hinge, slide, ball or free");
                const std::vector<double> p = numbers_or(j, cls, "pos", {0, 0, 0}, {3});
                const V3 anchor(p[0], p[1], p[2]);
                V3 shift = anchor - anchor_before;  // MuJoCo's q − ref moves the joint: the slide's ref in X_tree
                if (type == "ball") {  // turns the body about its anchor, in the body's axes: no axis, no ref
                    for (size_t later = k + 1; later < joints.size(); ++later)
                        if (type_of(*joints[later]) != "slide")
                            throw Error(where(j) + ": a ball joint followed by a rotation in its body (MuJoCo refuses it too); put the ball joint last, or the other joint in a child body");
                    b.joint.type = JointType::Ball;
                } else {
                    const std::vector<double> a = numbers_or(j, cls, "axis", {0, 0, 1}, {3});
                    const V3 axis(a[0], a[1], a[2]);
                    if (axis.norm() < 1e-12) throw Error(where(j) + ": axis=\"" + std::string(value(j, cls, "axis")) + "\" is zero; write a nonzero axis");
                    const double ref = numbers_or(j, cls, "ref", {0}, {1})[0];
                    b.joint.type = type == "hinge" ? JointType::Revolute : JointType::Prismatic;
                    b.joint.axis = axis.normalized();
                    if (type == "hinge")
                        b.joint.offset = -angle(ref);
                    else
                        shift -= ref * b.joint.axis;
                }
                X_tree = placed(M3::Identity(), shift) * X_tree;
                anchor_before = anchor;
            }
            b.joint.armature = numbers_or(j, cls, "armature", {0}, {1})[0];
            if (b.joint.armature < 0) throw Error(where(j) + ": a negative armature; write armature >= 0");
            if (b.joint.armature != 0) b.armature_from = "the file";
            b.X_tree = X_tree;
            X_tree = X();
            model_.bodies.push_back(b);
        }
        Body& last = model_.bodies.back();
        last.X_urdf = placed(M3::Identity(), -anchor_before);  // ᵁX_N: the MJCF frame from the last joint's
        last.I = I.expressed_in_parent(last.X_urdf);
        at.body = model_.N() - 1;
        at.X_U = X();
        model_.frames.push_back({name, at.body, X(), I});
        walk(e, at, 0, e);
    }

    // ---- inertia --------------------------------------------------------------------------------

    // The body's own inertia in its MJCF frame: its <inertial>, or its geoms' (compiler inertiafromgeom).
    RigidBodyInertia<double> inertia(const TiXmlElement& body, const std::vector<const TiXmlElement*>& kids, const std::string& childclass) {
        const TiXmlElement* inertial = nullptr;
        for (const TiXmlElement* k : kids)
            if (tag(*k) == "inertial") inertial = k;
        const bool from_geoms = compiler_.inertiafromgeom == "true" || (compiler_.inertiafromgeom == "auto" && !inertial);
        RigidBodyInertia<double> I;
        if (!from_geoms) {
            if (!inertial) return I;
            const TiXmlElement& e = *inertial;
            const char* m = attribute(e, "mass");
            if (!m) throw Error(where(e) + " has no mass; write mass=\"<kg>\"");
            const double mass = numbers(e, "mass", m, {1})[0];
            M3 Ic;
            if (const char* d = attribute(e, "diaginertia")) {
                const std::vector<double> v = numbers(e, "diaginertia", d, {3});
                const M3 R = orientation(e, "");
                Ic = R * V3(v[0], v[1], v[2]).asDiagonal() * R.transpose();
            } else if (const char* f = attribute(e, "fullinertia")) {
                const std::vector<double> v = numbers(e, "fullinertia", f, {6});  // ixx iyy izz ixy ixz iyz
                Ic << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
                if (attribute(e, "quat") || attribute(e, "axisangle") || attribute(e, "euler") || attribute(e, "xyaxes") || attribute(e, "zaxis"))
                    throw Error(where(e) + ": fullinertia with an orientation; MuJoCo takes fullinertia in the body frame: remove the orientation");
            } else {
                throw Error(where(e) + " has neither diaginertia nor fullinertia; write one");
            }
            check_inertia(e, mass, Ic);
            const std::vector<double> p = numbers_or(e, "", "pos", {0, 0, 0}, {3});
            return about_origin(mass, V3(p[0], p[1], p[2]), Ic);
        }
        add_geoms(body, kids, X(), childclass, I);
        return I;
    }

    // The geoms of a body and of its <frame>s, each at ᵉX_body = X_e.
    void add_geoms(const TiXmlElement& body, const std::vector<const TiXmlElement*>& kids, const X& X_e, const std::string& childclass,
                   RigidBodyInertia<double>& I) {
        for (const TiXmlElement* k : kids) {
            if (tag(*k) == "geom") I = I + geom_inertia(*k, class_of(*k, childclass), body).expressed_in_parent(X_e);
            if (tag(*k) != "frame") continue;
            const std::string cc = attribute(*k, "childclass") ? attribute(*k, "childclass") : childclass;
            add_geoms(body, children(*k), placement(*k, class_of(*k, childclass)) * X_e, cc, I);
        }
    }

    void check_inertia(const TiXmlElement& e, double mass, const M3& Ic) {
        if (mass < 0) throw Error(where(e) + ": a negative mass; write mass >= 0");
        check_rotational_inertia(Ic, where(e), "its diaginertia or fullinertia", options_, model_.warnings);  // MuJoCo refuses the triangle's
    }

    // Mass m with centre c and rotational inertia Ic about c, as the spatial inertia about the origin.
    static RigidBodyInertia<double> about_origin(double m, const V3& c, const M3& Ic) {
        RigidBodyInertia<double> I;
        I.m = m;
        I.h = m * c;
        I.Ibar = Ic - m * skew<double>(c) * skew<double>(c);
        return I;
    }

    RigidBodyInertia<double> geom_inertia(const TiXmlElement& g, const std::string& cls, const TiXmlElement& body) {
        const int group = static_cast<int>(numbers_or(g, cls, "group", {0}, {1})[0]);
        if (group < compiler_.group_min || group > compiler_.group_max) return {};
        if (compiler_.discardvisual && numbers_or(g, cls, "contype", {1}, {1})[0] == 0 && numbers_or(g, cls, "conaffinity", {1}, {1})[0] == 0)
            return {};
        const std::string type = value(g, cls, "type") ? value(g, cls, "type") : "sphere";
        if (type == "plane" || type == "hfield") return {};
        const char* mass_attr = value(g, cls, "mass");
        const double density = numbers_or(g, cls, "density", {1000}, {1})[0];
        if (mass_attr ? numbers(g, "mass", mass_attr, {1})[0] == 0 : density == 0) return {};
        if (type == "mesh" || type == "sdf")
            throw Error(where(g) + ": the inertia of body '" + std::string(body.Attribute("name") ? body.Attribute("name") : "") +
                        "' would come from this " + type + " geom, which rbdgen does not compute; give the body an <inertial>, or the geom mass=\"0\"");
        std::vector<double> size = numbers_or(g, cls, "size", {0, 0, 0}, {1, 2, 3});
        size.resize(3, 0.0);
        M3 R = orientation(g, cls);
        std::vector<double> p = numbers_or(g, cls, "pos", {0, 0, 0}, {3});
        V3 c(p[0], p[1], p[2]);
        if (const char* ft = value(g, cls, "fromto")) {
            const std::vector<double> f = numbers(g, "fromto", ft, {6});
            const V3 from(f[0], f[1], f[2]), to(f[3], f[4], f[5]);
            if ((to - from).norm() < 1e-12) throw Error(where(g) + ": fromto has its two ends equal; write two distinct points");
            c = (from + to) / 2;
            R = z_to((to - from).normalized());
            (type == "box" || type == "ellipsoid" ? size[2] : size[1]) = (to - from).norm() / 2;
        }
        Solid s;
        const double r = size[0];
        if (type == "sphere") {
            s.volume = 4 * kPi * r * r * r / 3;
            s.moments = V3::Constant(2 * r * r / 5);
        } else if (type == "capsule") {
            const double h = 2 * size[1];
            s.volume = kPi * (r * r * h + 4 * r * r * r / 3);
            const double sphere = 4 * r / (4 * r + 3 * h), cylinder = 1 - sphere;  // mass fractions
            const double across = cylinder * (3 * r * r + h * h) / 12 + sphere * (2 * r * r / 5 + h * (3 * r + 2 * h) / 8);
            s.moments = V3(across, across, cylinder * r * r / 2 + sphere * 2 * r * r / 5);
        } else if (type == "cylinder") {
            const double h = 2 * size[1];
            s.volume = kPi * r * r * h;
            s.moments = V3((3 * r * r + h * h) / 12, (3 * r * r + h * h) / 12, r * r / 2);
        } else if (type == "ellipsoid") {
            s.volume = 4 * kPi * size[0] * size[1] * size[2] / 3;
            s.moments = V3(size[1] * size[1] + size[2] * size[2], size[0] * size[0] + size[2] * size[2], size[0] * size[0] + size[1] * size[1]) / 5;
        } else if (type == "box") {
            s.volume = 8 * size[0] * size[1] * size[2];
            s.moments = V3(size[1] * size[1] + size[2] * size[2], size[0] * size[0] + size[2] * size[2], size[0] * size[0] + size[1] * size[1]) / 3;
        } else {
            throw Error(where(g) + ": type=\"" + type + "\"; write plane, sphere, capsule, ellipsoid, cylinder, box or mesh");
        }
        const double mass = mass_attr ? numbers(g, "mass", mass_attr, {1})[0] : density * s.volume;
        if (mass < 0) throw Error(where(g) + ": a negative mass or density; write a value >= 0");
        return about_origin(mass, c, R * (mass * s.moments).asDiagonal() * R.transpose());
    }

    // compiler settotalmass: every mass and inertia scaled so that they add up to it.
    void scale_to_total_mass() {
        double total = 0;
        for (const Body& b : model_.bodies) total += b.I.m;
        if (total <= 0) return;
        const double k = compiler_.settotalmass / total;
        for (Body& b : model_.bodies) b.I = {k * b.I.m, k * b.I.h, k * b.I.Ibar};
        for (Frame& f : model_.frames) f.I = {k * f.I.m, k * f.I.h, k * f.I.Ibar};
    }
};

}  // namespace

Model load_mjcf_string(const std::string& bytes, const std::string& file, const LoadOptions& options) {
    return Reader(file, options).read(bytes);
}

}  // namespace rbdgen
