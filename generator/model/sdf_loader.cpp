#include "model/sdf_loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <console_bridge/console.h>
#include <sdf/sdf.hh>
#include <set>
#include <tinyxml.h>

#include "model/error.hpp"
#include "model/xml_text.hpp"

namespace rbdgen {
namespace sdf_reading {  // named: the build compiles the readers in one unit

using X = Transform<double>;
using V3 = Vec3<double>;
using M3 = Mat3<double>;

// A frame's pose in the top model's frame: its axes (columns of R) and origin.
struct Pose {
    M3 R = M3::Identity();
    V3 p = V3::Zero();
    Pose operator*(const Pose& b) const { return {R * b.R, R * b.p + p}; }
};

Pose pose_of(const ignition::math::Pose3d& x) {
    const ignition::math::Quaterniond& q = x.Rot();
    Pose r;
    r.R = Eigen::Quaterniond(q.W(), q.X(), q.Y(), q.Z()).toRotationMatrix();
    r.p = V3(x.Pos().X(), x.Pos().Y(), x.Pos().Z());
    return r;
}

V3 vec(const ignition::math::Vector3d& v) { return V3(v.X(), v.Y(), v.Z()); }

// ᶜX_p: the frame c from the frame p, both posed in one frame.
X relative(const Pose& p, const Pose& c) { return {(p.R.transpose() * c.R).transpose(), p.R.transpose() * (c.p - p.p)}; }

struct SdfLink {
    std::string name;  // scoped from the top model: "nested::link"
    Pose T;
    RigidBodyInertia<double> I;  // in the link's frame
    std::string where;
};

struct SdfFrame {
    std::string name, link;  // scoped; the link it is attached to ("world": the fixed base)
    Pose T;
    std::string where;
};

struct SdfJoint {
    std::string name, parent, child;  // scoped; parent "world" for the world
    sdf::JointType type;
    Pose T;
    std::vector<V3> axes;  // in the top model's frame
    double armature = 0;
    std::string where;
};

class Reader {
public:
    Reader(const std::string& file, const LoadOptions& options) : file_(file), options_(options) {}

    Model read(const std::string& bytes) {
        sdf::Console::Instance()->SetQuiet(true);  // its errors come back as sdf::Errors, reported below
        sdf::ParserConfig config;
        config.SetWarningsPolicy(sdf::EnforcementPolicy::LOG);
        config.SetUnrecognizedElementsPolicy(sdf::EnforcementPolicy::LOG);
        // A relative URI of an included file's own <include> from the model file's folder; model:// URIs
        // are not found.
        const std::filesystem::path folder = std::filesystem::path(file_).parent_path();
        config.SetFindCallback([folder](const std::string& uri) {
            std::error_code ec;
            const std::filesystem::path path = folder / uri;
            return uri.rfind("model://", 0) != 0 && std::filesystem::exists(path, ec) ? path.string() : std::string();
        });
        sdf::Root root;
        const std::string text = included_from_folder(xml_to_utf8(bytes, file_));
        check_well_formed(text, file_);  // with its line and column, which libsdformat does not give
        check_version(text);
        // libsdformat tries what it cannot read as SDF as a URDF too, and urdfdom logs through console_bridge: kept quiet
        const console_bridge::LogLevel level = console_bridge::getLogLevel();
        console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
        sdf::Errors errors;
        try {
            errors = root.LoadSdfString(text, config);
        } catch (const std::exception& e) {  // what libsdformat throws instead of reporting, should more than the version do so
            console_bridge::setLogLevel(level);
            throw Error(fmt::format("{}: libsdformat cannot read this file or one it includes ({}); check them against the SDFormat specification", file_, e.what()));
        }
        console_bridge::setLogLevel(level);
        if (!errors.empty()) throw Error(message(errors.front()));
        const sdf::Model* model = root.Model();
        if (!model) {
            if (root.WorldCount() != 1 || root.WorldByIndex(0)->ModelCount() != 1)
                throw Error(file_ + ": no robot to read: give a <model>, or a <world> with exactly one <model> (this file has " +
                            std::to_string(root.WorldCount()) + " worlds" +
                            (root.WorldCount() == 1 ? " and " + std::to_string(root.WorldByIndex(0)->ModelCount()) + " models" : "") + ")");
            const sdf::World& world = *root.WorldByIndex(0);
            model = world.ModelByIndex(0);
            model_.gravity = vec(world.Gravity());
            note_ignored(world.Element());
        }
        model_.name = model->Name();
        model_.source = file_;
        collect(*model, "", Pose());
        note_ignored(model->Element());
        model_.files = {file_};  // and each file it includes
        note_files(model->Element());
        std::string list;
        for (const std::string& t : ignored_) list += (list.empty() ? "" : ", ") + t;
        if (!list.empty()) model_.ignored.push_back(list + " (they do not change the rigid-body model)");
        build();
        return std::move(model_);
    }

private:
    // <sdf version="...">: libsdformat converts a file of another version than its own through
    // ignition::math::SemanticVersion, which throws std::invalid_argument where the version does not
    // begin with a number ("1.x", ".1"). Refused here with what to write instead.
    void check_version(const std::string& text) const {
        TiXmlDocument doc;
        doc.Parse(text.c_str(), nullptr, TIXML_ENCODING_UTF8);
        const TiXmlElement* sdf = doc.FirstChildElement("sdf");
        const char* version = sdf ? sdf->Attribute("version") : nullptr;
        static const std::regex number(R"(\s*[0-9]{1,4}(\.[0-9]{1,4}){0,2}\s*)");
        if (!version || std::regex_match(version, number)) return;  // no version: libsdformat's own message
        std::string shown(version);
        if (shown.size() > 40) shown = shown.substr(0, 40) + "...";
        throw Error(fmt::format("{}:{}: <sdf version=\"{}\"> is not an SDFormat version; write the one the file follows, such as \"1.9\"",
                                file_, sdf->Row(), shown));
    }

    // The text with each <include>'s relative <uri> made a path from the model file's folder, where
    // libsdformat, reading a string, would look in the working directory first. Lines are kept.
    std::string included_from_folder(const std::string& text) const {
        static const std::regex uri(R"((<include\b[^>]*>[^]*?<uri>)\s*([^<\s]+)\s*(</uri>))");
        const std::filesystem::path folder = std::filesystem::path(file_).parent_path();
        std::string out;
        auto from = text.cbegin();
        for (std::sregex_iterator m(text.begin(), text.end(), uri), end; m != end; ++m) {
            const std::string u = (*m)[2].str();
            const bool relative = u.find("://") == std::string::npos && !std::filesystem::path(u).is_absolute();
            out.append(from, (*m)[0].first);
            out += (*m)[1].str() + (relative ? (folder / u).string() : u) + (*m)[3].str();
            from = (*m)[0].second;
        }
        return out.append(from, text.cend());
    }

    // What the file says that does not change the rigid-body model (each element's tag, once), for
    // `rbdgen info`: under e, its links', joints' and nested models' too. Joints' <dynamics> and
    // <limit> (passive and contact forces) are left out without a word, as an MJCF joint's damping.
    void note_ignored(const sdf::ElementPtr& e) {
        static const std::set<std::string> kIgnored{"plugin", "visual", "collision", "sensor", "light", "projector", "audio_sink",
                                                    "audio_source", "battery", "particle_emitter", "gripper", "physics", "scene",
                                                    "atmosphere", "magnetic_field", "spherical_coordinates", "wind", "actor", "gui"};
        for (sdf::ElementPtr c = e ? e->GetFirstElement() : nullptr; c; c = c->GetNextElement()) {
            const std::string tag = c->GetName();
            if (kIgnored.count(tag) && c->GetExplicitlySetInFile()) ignored_.insert("<" + tag + ">");
            else if (tag == "link" || tag == "joint" || tag == "model") note_ignored(c);
        }
    }

    // The files the elements under e came from (an <include>'s), each once, after the model's own.
    void note_files(const sdf::ElementPtr& e) {
        for (sdf::ElementPtr c = e ? e->GetFirstElement() : nullptr; c; c = c->GetNextElement()) {
            const std::string& path = c->FilePath();
            if (!path.empty() && path != file_ && std::find(model_.files.begin(), model_.files.end(), path) == model_.files.end())
                model_.files.push_back(path);
            note_files(c);
        }
    }

    std::string message(const sdf::Error& e) const {
        std::string text = e.Message();
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '.')) text.pop_back();
        return file_ + (e.LineNumber() ? ":" + std::to_string(*e.LineNumber()) : "") + ": " + text + " (libsdformat); fix the SDF there";
    }

    std::string where(const sdf::ElementPtr& e, const std::string& kind, const std::string& name) const {
        return file_ + (e && e->LineNumber() ? ":" + std::to_string(*e->LineNumber()) : "") + ": " + kind + " '" + name + "'";
    }

    template <class T> Pose resolve(const T& element, const std::string& what) {
        ignition::math::Pose3d x;
        if (const sdf::Errors errors = element.SemanticPose().Resolve(x, "__model__"); !errors.empty())
            throw Error(message(errors.front()) + " (the pose of " + what + ")");
        return pose_of(x);
    }

    // The links, joints and frames of model m (prefix: its scope, "" at the top; X_top_m: its frame).
    void collect(const sdf::Model& m, const std::string& prefix, const Pose& X_top_m) {
        for (uint64_t i = 0; i < m.LinkCount(); ++i) {
            const sdf::Link& l = *m.LinkByIndex(i);
            SdfLink link{prefix + l.Name(), X_top_m * resolve(l, "link '" + l.Name() + "'"), {}, where(l.Element(), "link", prefix + l.Name())};
            const ignition::math::Inertiald& inertial = l.Inertial();
            const Pose com = pose_of(inertial.Pose());  // the inertial frame in the link's
            const double mass = inertial.MassMatrix().Mass();
            const ignition::math::Matrix3d& moi = inertial.MassMatrix().Moi();
            M3 Ic;
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) Ic(r, c) = moi(r, c);
            if (!(mass >= 0) || !std::isfinite(mass)) throw Error(link.where + ": a negative or non-finite mass; write <mass> >= 0");
            if (!Ic.allFinite() || !com.p.allFinite() || !com.R.allFinite())
                throw Error(link.where + ": a non-finite inertia or inertial pose; write finite numbers");
            Ic = com.R * Ic * com.R.transpose();
            check_rotational_inertia(Ic, link.where, "<inertial><inertia>", options_, model_.warnings);
            if (!l.Element() || !l.Element()->HasElement("inertial"))
                model_.warnings.push_back(link.where + " has no <inertial>: SDFormat gives it mass 1 kg and inertia 1 kg m^2 about its origin (libsdformat's default); give it an <inertial>");
            link.I.m = mass;
            link.I.h = mass * com.p;
            link.I.Ibar = Ic - mass * skew<double>(com.p) * skew<double>(com.p);
            if (!link_index_.emplace(link.name, links_.size()).second) throw Error(link.where + ": a second link of that name; rename one");
            links_.push_back(link);
        }
        for (uint64_t i = 0; i < m.JointCount(); ++i) {
            const sdf::Joint& j = *m.JointByIndex(i);
            SdfJoint joint;
            joint.name = prefix + j.Name();
            joint.where = where(j.Element(), "joint", joint.name);
            joint.type = j.Type();
            std::string parent, child;
            if (const sdf::Errors e = j.ResolveParentLink(parent); !e.empty()) throw Error(message(e.front()) + " (" + joint.where + ")");
            if (const sdf::Errors e = j.ResolveChildLink(child); !e.empty()) throw Error(message(e.front()) + " (" + joint.where + ")");
            joint.parent = parent == "world" ? parent : prefix + parent;
            joint.child = prefix + child;
            joint.T = X_top_m * resolve(j, joint.where);
            for (unsigned a = 0; a < 2; ++a)
                if (const sdf::JointAxis* axis = j.Axis(a)) {
                    ignition::math::Vector3d xyz;
                    if (const sdf::Errors e = axis->ResolveXyz(xyz, "__model__"); !e.empty()) throw Error(message(e.front()) + " (" + joint.where + ")");
                    joint.axes.push_back(X_top_m.R * vec(xyz));
                }
            joint.armature = armature(j, joint.where);
            joints_.push_back(joint);
        }
        for (uint64_t i = 0; i < m.FrameCount(); ++i) {
            const sdf::Frame& f = *m.FrameByIndex(i);
            SdfFrame frame{prefix + f.Name(), "", X_top_m * resolve(f, "frame '" + f.Name() + "'"), where(f.Element(), "frame", prefix + f.Name())};
            std::string link;
            if (const sdf::Errors e = f.ResolveAttachedToBody(link); !e.empty()) throw Error(message(e.front()) + " (" + frame.where + ")");
            frame.link = link == "world" ? link : prefix + link;
            if (frame.link != "world" && !link_index_.count(frame.link))
                throw Error(frame.where + ": it is attached to '" + frame.link + "', which is no link of the model; attach it to a link");
            frames_.push_back(frame);
        }
        for (uint64_t i = 0; i < m.ModelCount(); ++i) {
            const sdf::Model& nested = *m.ModelByIndex(i);
            collect(nested, prefix + nested.Name() + "::", X_top_m * resolve(nested, "model '" + nested.Name() + "'"));
        }
    }

    // Drake's reflected rotor inertia: drake:rotor_inertia × drake:gear_ratio² (its SDFormat extension).
    double armature(const sdf::Joint& j, const std::string& where) {
        const sdf::ElementPtr e = j.Element();
        const auto value = [&](const char* name, double otherwise) {
            if (!e || !e->HasElement(name)) return otherwise;
            const std::string text = e->GetElement(name)->GetValue() ? e->GetElement(name)->GetValue()->GetAsString() : "";
            double v = 0;
            try {
                size_t used = 0;
                v = std::stod(text, &used);
                if (text.find_first_not_of(" \t\r\n", used) != std::string::npos) throw std::invalid_argument(text);
            } catch (const std::exception&) {
                throw Error(where + ": <" + std::string(name) + "> is '" + text + "'; write a number");
            }
            if (!std::isfinite(v) || v < 0) throw Error(where + ": <" + std::string(name) + "> is " + text + "; write a finite value >= 0");
            return v;
        };
        const double rotor = value("drake:rotor_inertia", 0), gear = value("drake:gear_ratio", 1);
        return rotor * gear * gear;
    }

    // ---- the tree ------------------------------------------------------------------------------

    void build() {
        std::map<std::string, std::vector<const SdfJoint*>> children;  // of each link, and of "world"
        std::set<std::string> has_parent;
        for (const SdfJoint& j : joints_) {
            for (const std::string& l : {j.parent, j.child})
                if (l != "world" && !link_index_.count(l)) throw Error(j.where + ": link '" + l + "' is not in the model");
            if (j.child == "world") throw Error(j.where + ": the world is its child; make the world a joint's parent");
            if (!has_parent.insert(j.child).second)
                throw Error(j.where + ": link '" + j.child + "' is the child of a second joint, which closes a loop; rbdgen reads a tree: remove one of the joints");
            children[j.parent].push_back(&j);
        }
        std::vector<const SdfLink*> roots;
        for (const SdfLink& l : links_)
            if (!has_parent.count(l.name)) roots.push_back(&l);
        if (roots.size() + (children.count("world") ? 1 : 0) > 1) {
            std::string names;
            for (const SdfLink* r : roots) names += (names.empty() ? "'" : ", '") + r->name + "'";
            throw Error(file_ + ": " + (children.count("world") ? "the world and " : "") + "links " + names +
                        " are each no joint's child: the model is not one tree; connect them with joints");
        }
        if (roots.empty() && !children.count("world")) throw Error(file_ + ": every link is some joint's child, so the joints form a loop; remove one");
        children_ = &children;
        // The root: the one link no joint's child, or the world its joints hang from (as a URDF's
        // root link 'world'); with --floating-base it floats, else it is the fixed base.
        model_.root_link = roots.empty() ? "world" : roots[0]->name;
        if (options_.floating_base) {
            Body b;
            b.name = model_.root_link;
            b.joint_name = "floating_base";
            b.joint.type = JointType::Floating;
            model_.bodies.push_back(b);
            model_.floating_base = true;
            base_ = 0;
            if (roots.empty()) model_.frames.push_back({"world", 0, X(), {}});  // the floating world, a frame as a URDF's link 'world'
        }
        if (!roots.empty()) visit(*roots[0], base_, base_ < 0 ? relative(Pose(), roots[0]->T) : X());
        for (const SdfJoint* j : children["world"]) attach(*j, base_, Pose(), X());
        if (model_.frames.size() != links_.size() + (options_.floating_base && roots.empty() ? 1 : 0)) {
            for (const SdfLink& l : links_) {
                bool found = false;
                for (const Frame& f : model_.frames) found = found || f.name == l.name;
                if (!found) throw Error(l.where + " is not connected to the rest; connect it with a joint or remove it");
            }
        }
        for (const SdfFrame& f : frames_) named_frame(f);
        if (model_.bodies.empty()) throw Error(file_ + ": the robot has no moving joint; add one, or use --floating-base for a free body");
        assign_indices(model_);
    }

    // `link` rigidly on `body` (−1: the fixed base) with ˡX_U, from the body's link frame U.
    void visit(const SdfLink& link, int body, const X& X_link_U) {
        link_body_[link.name] = {body, X_link_U};
        if (body >= 0) {
            Body& b = model_.bodies[body];
            b.I = b.I + link.I.expressed_in_parent(X_link_U * b.X_urdf);
            if (b.name != link.name) b.merged_links.push_back(link.name);
        }
        model_.frames.push_back({link.name, body, X_link_U, link.I});
        const auto it = children_->find(link.name);
        if (it == children_->end()) return;
        for (const SdfJoint* j : it->second) attach(*j, body, link.T, X_link_U);
    }

    // Joint j of a link posed at T_link, on `body` with ˡX_U.
    void attach(const SdfJoint& j, int body, const Pose& T_link, const X& X_link_U) {
        const SdfLink& child = links_[link_index_.at(j.child)];
        const X X_U_body = body >= 0 ? model_.bodies[body].X_urdf : X();
        if (j.type == sdf::JointType::FIXED) {
            visit(child, body, relative(T_link, child.T) * X_link_U);
            return;
        }
        const char* refused = j.type == sdf::JointType::REVOLUTE2 ? "a revolute2 joint, which rbdgen does not model; write a universal joint or two revolute joints"
                              : j.type == sdf::JointType::SCREW     ? "a screw joint, which rbdgen does not model; write a revolute or a prismatic joint"
                              : j.type == sdf::JointType::GEARBOX   ? "a gearbox joint, which rbdgen does not model; write revolute joints"
                              : j.type == sdf::JointType::INVALID   ? "a joint of no known type; write revolute, continuous, prismatic, universal, ball or fixed"
                                                                    : nullptr;
        if (refused) throw Error(j.where + " is " + refused);
        const bool ball = j.type == sdf::JointType::BALL;  // turns the child about the joint's origin, in the joint's axes
        const size_t n = j.type == sdf::JointType::UNIVERSAL ? 2 : 1;
        if (!ball && j.axes.size() < n) throw Error(j.where + " has no <axis" + std::string(n == 2 ? "2" : "") + ">; give it one");
        X X_tree = relative(T_link, j.T) * X_link_U * X_U_body;  // the joint's frame from the body's
        int parent = body;
        for (size_t k = 0; k < n; ++k) {
            const V3 axis = ball ? V3::UnitZ() : V3(j.T.R.transpose() * j.axes[k]);
            if (!axis.allFinite() || axis.norm() < 1e-12) throw Error(j.where + ": a zero or non-finite axis; give a nonzero <xyz>");
            Body b;
            b.lambda = parent;
            b.joint_name = n == 1 ? j.name : j.name + (k == 0 ? ".axis" : ".axis2");
            b.name = k + 1 == n ? child.name : b.joint_name;
            b.joint_only = k + 1 < n;
            if (b.joint_only && (link_index_.count(b.name) || joint_names_.count(b.name)))
                throw Error(j.where + ": a universal joint names its coordinates " + j.name + ".axis and .axis2, and the model has a link or joint '" + b.name + "'; rename one");
            if (!joint_names_.insert(b.joint_name).second) throw Error(j.where + ": a second joint of that name; rename one");
            b.joint.type = ball ? JointType::Ball : j.type == sdf::JointType::PRISMATIC ? JointType::Prismatic : JointType::Revolute;
            b.joint.axis = axis.normalized();
            if (j.armature != 0) b.joint.armature = j.armature, b.armature_from = "the file";
            b.X_tree = X_tree;
            model_.bodies.push_back(b);
            parent = model_.N() - 1;
            X_tree = X();
        }
        Body& last = model_.bodies.back();
        last.X_urdf = relative(j.T, child.T);  // ᵁX_N: the child link's frame from the joint's
        visit(child, parent, X());
    }

    // A <frame>: on the body of the link it is attached to (libsdformat resolves attached_to chains),
    // posed from that link's frame.
    void named_frame(const SdfFrame& f) {
        for (const Frame& m : model_.frames)
            if (m.name == f.name) throw Error(f.where + ": a link or frame has that name already; rename one");
        if (f.link == "world") {
            model_.frames.push_back({f.name, base_, relative(Pose(), f.T), {}, true});
            return;
        }
        const auto& [body, X_link_U] = link_body_.at(f.link);
        model_.frames.push_back({f.name, body, relative(links_[link_index_.at(f.link)].T, f.T) * X_link_U, {}, true});
    }

    std::string file_;
    const LoadOptions& options_;
    Model model_;
    std::vector<SdfLink> links_;
    std::map<std::string, size_t> link_index_;
    std::vector<SdfJoint> joints_;
    std::vector<SdfFrame> frames_;
    std::map<std::string, std::pair<int, X>> link_body_;
    std::set<std::string> joint_names_;
    int base_ = -1;  // the body of the root link or the world: the floating base's, or the fixed base
    std::set<std::string> ignored_;
    const std::map<std::string, std::vector<const SdfJoint*>>* children_ = nullptr;
};

}  // namespace sdf_reading

Model load_sdf_string(const std::string& bytes, const std::string& file, const LoadOptions& options) {
    return sdf_reading::Reader(file, options).read(bytes);
}

}  // namespace rbdgen
