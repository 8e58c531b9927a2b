// rbdgen generate ROBOT.urdf -o DIR [options]: the robot's straight-line kernels, header, drivers and report.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "emit/generate.hpp"
#include "emit/kernel.hpp"
#include "emit/compact.hpp"
#include "emit/measure.hpp"
#include "model/snap.hpp"
#include <fmt/format.h>
#include "emit/names.hpp"
#include "model/urdf_loader.hpp"

namespace rbdgen {

namespace {

struct GenerateArgs {
    ModelArgs model;
    std::string dir, name, scalar = "double", measure, emission = "auto";
    std::string max_operations = std::to_string(sym::Graph::default_max_nodes);
    std::string snap_tolerance = fmt::format("{:g}", kSnapTolerance), snap_max_effect = fmt::format("{:g}", kSnapMaxEffect);
    std::vector<std::string> kernels, problems, external_forces, frames, parameters, methods;
    bool trig_entry_points = false, keep_divisions = false, lanes = false, python = false, depfile = false;
    int ncmtm_order = 0, batch = 0;
    bool ncmtm = false;  // --ncmtm-order given (0 included: it is out of range)
};

void generate(const GenerateArgs& a, const std::string& command_line, std::ostream& out) {
    const Model model = load_model(a.model);
    std::ifstream in(a.model.urdf);
    std::stringstream text;
    text << in.rdbuf();

    GenerateOptions o;
    o.name = a.name.empty() ? sanitize_identifier(model.name) : a.name;
    o.scalar = a.scalar;
    for (const std::string& k : a.kernels)
        if (!k.empty()) o.kernels.push_back(k);
    try {
        o.max_operations = std::stoi(a.max_operations);
    } catch (const std::exception&) {
        throw Error("--max-operations must be an integer");
    }
    try {
        o.snap_tolerance = std::stod(a.snap_tolerance);
    } catch (const std::exception&) {
        throw Error("--snap-tolerance must be a number (0 disables snapping)");
    }
    if (!(o.snap_tolerance >= 0 && o.snap_tolerance <= 1e-3))
        throw Error("--snap-tolerance must be between 0 and 1e-3 (it snaps entries meant to be exactly 0 or 1)");
    try {
        o.snap_max_effect = std::stod(a.snap_max_effect);
    } catch (const std::exception&) {
        throw Error("--snap-max-effect must be a number (0 disables snapping)");
    }
    if (!(o.snap_max_effect >= 0 && o.snap_max_effect <= 1))
        throw Error("--snap-max-effect must be between 0 and 1 (the largest relative change a snap may make to any kernel's output)");
    o.command_line = command_line;
    o.urdf_text = text.str();
    o.trig_entry_points = a.trig_entry_points;
    o.keep_divisions = a.keep_divisions;
    o.lanes = a.lanes;
    o.python = a.python;
    o.batch = a.batch;
    o.emission = a.emission;
    o.problems = a.problems;
    o.ncmtm_order = a.ncmtm_order;
    for (const std::string& l : a.external_forces)
        if (!l.empty()) o.external_forces.push_back(l);
    for (const std::string& l : a.frames)
        if (!l.empty()) o.frames.push_back(l);
    for (const std::string& l : a.parameters)
        if (!l.empty()) o.parameters.push_back(l);
    for (const std::string& m : a.methods) {
        const size_t eq = m.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == m.size())
            throw Error("--method: '" + m + "' is not KERNEL=METHOD; write e.g. --method aba_derivatives=articulated-body");
        o.methods[m.substr(0, eq)] = m.substr(eq + 1);
    }
    if (a.ncmtm) ncmtm_kernel_specs(model, a.ncmtm_order);  // an order out of range, before any work
    if (!forward_dynamics_refusal(model).empty())
        std::cerr << "rbdgen: warning: " << forward_dynamics_refusal(model)
                  << " (its forward-dynamics kernels return NaN)\n";

    std::vector<std::string> warnings;
    Files files = generate_sources(model, o, &warnings);
    for (const std::string& w : warnings) std::cerr << "rbdgen: warning: " << w << "\n";
    if (!a.measure.empty()) measure_kernels(files, o.name, a.measure);
    if (a.depfile) {  // Make's syntax: the header depends on every file the robot was read from
        const auto escaped = [](const std::string& path) {
            std::string e;
            for (char ch : path) e += ch == ' ' || ch == '#' || ch == '\\' ? std::string("\\") + ch : ch == '$' ? std::string("$$") : std::string(1, ch);
            return e;
        };
        std::string deps = escaped((std::filesystem::path(a.dir) / (o.name + ".hpp")).string()) + ":";
        for (const std::string& f : model.files) deps += " " + escaped(std::filesystem::absolute(f).string());
        files[o.name + ".d"] = deps + "\n";
    }
    write_atomically(a.dir, files);
    out << "rbdgen: wrote " << files.size() << " files for " << o.name << " to " << a.dir << "\n";
}

}  // namespace

void add_generate_command(CLI::App& app, std::ostream& out) {
    CLI::App* c = app.add_subcommand("generate", "write the robot's straight-line kernels, header, eval and bench "
                                                 "drivers and report into DIR (or nothing, on any error)");
    auto a = std::make_shared<GenerateArgs>();
    add_model_args(*c, a->model);
    c->add_option("-o,--output", a->dir, "the output folder DIR (created if absent)")->required()->type_name("DIR");
    c->add_option("--name", a->name, "C++ identifier for the namespace, files and targets (default: the URDF's "
                                     "robot name as an identifier)")->type_name("NAME");
    c->add_option("--scalar", a->scalar, "the kernels' arithmetic: double (default) or float")->type_name("double|float");
    std::string list;
    for (const std::string& k : kernel_names()) list += (list.empty() ? "" : ",") + k;
    std::string on_request;
    for (const std::string& k : kernel_names(true)) on_request += (on_request.empty() ? "" : ",") + k;
    c->add_option("--kernels", a->kernels, "comma-separated kernels to emit (default: all of " + list + "); also " + on_request +
                                               ", emitted only when named (large: NV x NV outputs, the derivatives 6 to 20 times rnea's operations, "
                                               "docs/derivatives.md)")->delimiter(',')->type_name("LIST")->allow_extra_args(false);
    c->add_option("--method", a->methods,
                  "comma-separated KERNEL=METHOD: how a kernel of several methods computes (minv and aba_derivatives: ltdl or "
                  "articulated-body), in place of the generator's choice for the robot, which report.json's \"method\" gives "
                  "with each method's cost")->delimiter(',')->type_name("KERNEL=METHOD,...")->allow_extra_args(false);
    c->add_option("--external-forces", a->external_forces,
                  "comma-separated links (all: every body's own link) whose external wrench rnea, aba and fd_crba_ltdl take "
                  "as input f_ext, a row of 6 a link: [torque; force] in the link's URDF frame, about its origin; a link "
                  "merged by a fixed joint (a sole, a tool flange) keeps its own frame")->delimiter(',')->type_name("LINKS")->allow_extra_args(false);
    c->add_option("--frames", a->frames,
                  "comma-separated links (a tool flange, a sole, a camera: fixed links merged into a body keep their frame) "
                  "whose pose fk also returns (output frame_pose), with kernels frame_jacobians (6 x NV a frame), frame_jacobians_dot (its rate) and "
                  "frame_motion (velocity and classical acceleration), world-aligned, and frame_motion_derivatives")->delimiter(',')->type_name("LINKS")->allow_extra_args(false);
    c->add_option("--parameters", a->parameters,
                  "comma-separated links (a gripper, a tool) whose 10 inertial parameters rnea, gravity, nle, crba, aba and "
                  "fd_crba_ltdl take as input pi (a payload changed at run time); the header's parameters_urdf holds the "
                  "URDF's")->delimiter(',')->type_name("LINKS")->allow_extra_args(false);
    c->add_option("--max-operations", a->max_operations,
                  "refuse a kernel of more expression nodes than N, too large to be worth compiling (default " +
                      a->max_operations + ")")->type_name("N");
    c->add_option("--snap-tolerance", a->snap_tolerance,
                  "snap rotation, translation and axis entries within T of 0 or +-1 to exact values, 0 to keep all (default " + a->snap_tolerance +
                      ", at most 1e-3) where the change is below --snap-max-effect")->type_name("T");
    c->add_option("--snap-max-effect", a->snap_max_effect,
                  "snap a group of near-exact constants (a joint's rotation, translation or axis) only when it changes no kernel's "
                  "output by more than E relative to max(1, |x|) at random states (default " + a->snap_max_effect + "; 0 snaps nothing)")
        ->type_name("E");
    c->add_option("--problem", a->problems,
                  "also emit a problem on Nori's sparse system, solved by a static-pivot LU: id (inverse dynamics), fd "
                  "(forward dynamics), contact:LINK[:point],... (constrained dynamics: each link in 6D contact, or in point "
                  "contact with :point), impulse:LINK[:point],... (an inelastic impact of those contacts) or FILE.yaml (a "
                  "sensor set or contacts, docs/problems.md); repeatable")
        ->type_name("id|fd|contact:LINKS|impulse:LINKS|FILE")->allow_extra_args(false);
    CLI::Option* ncmtm = c->add_option("--ncmtm-order", a->ncmtm_order,
                  "also emit the N-CMTM kernels of order N (1 to " + std::to_string(kMaxNcmtmOrder) + ", Samy et al.): ncmtm_fk "
                  "(link velocities and N derivatives), cornea (joint forces and N - 1 derivatives), ncmtm_fd (the joint "
                  "motion's N derivatives from them); --kernels may name some of them, to emit only those, and the Jacobians "
                  "ncmtm_jacobian and ncmtm_torque_jacobian, emitted only when named")->type_name("N");
    c->add_flag("--depfile", a->depfile,
                "also write DIR/NAME.d, Make's dependency syntax: the header depends on every file the robot was read "
                "from (an MJCF file's includes), for a build system to regenerate when one changes (rbdgen_add_robot uses it)");
    c->add_option("--measure", a->measure,
                  "compile every kernel with COMPILER (GCC or Clang, e.g. c++ or arm-none-eabi-g++) at -Os and report its "
                  "machine code and stack in report.json (\"host_build\") and report.md")->type_name("COMPILER");
    c->add_flag("--keep-divisions", a->keep_divisions,
                "emit every division as the algorithm writes it instead of one reciprocal and multiplications a shared "
                "divisor (x86-64's pipelined divider: LTDL 5% faster with AVX2, bench/RESULTS.md)");
    c->add_flag("--lanes", a->lanes,
                "in compact kernels, run like steps that read none of one another's values (a body of each limb) as one "
                "call, a step a lane of a vector: for builds with AVX (-march=native, -mavx2), 1.4-1.5x faster RNEA, CRBA "
                "and ABA on a four-limbed robot, 1.7-2x their machine code (docs/emission.md \"Lane calls\")");
    c->add_option("--emission", a->emission,
                  "straight: every kernel straight-line code; compact: each kind of step (one body of one pass) one "
                  "function, called a body with its constants from tables, code that fits an instruction cache; uniform: "
                  "compact with the model's placements and inertias as table values, never folded, so that the bodies of one "
                  "joint type share one function, each screw factor a step and the calls loops over tables (the least code; more operations, slower hot, faster cold); auto (default): compact for kernels of more than " + std::to_string(kCompactAbove) + " operations whose steps average " +
                  std::to_string(kCompactMinOpsPerCall) + " or more (docs/emission.md)")
        ->type_name("straight|compact|uniform|auto");
    c->add_option("--batch", a->batch,
                  "also emit batch::<kernel> for every kernel: W states a call (2, 4 or 8), structure of arrays, on the "
                  "compiler's vector extensions (GCC, Clang), for throughput (docs/emission.md \"Batched kernels\")")->type_name("W");
    c->add_flag("--trig-entry-points", a->trig_entry_points,
                "also emit <kernel>_sc(sin_q, cos_q, ...) taking sin and cos of q from the caller, and NAME::sincos");
    c->add_flag("--python", a->python,
                "also write NAME_python.cpp and rbdgen_python.hpp: the robot as a Python module of NumPy functions "
                "(pybind11; rbdgen_add_robot's PYTHON builds it)");
    c->callback([a, c, ncmtm, &out] {
        a->ncmtm = ncmtm->count() > 0;
        // The banner's command line: what was asked, in one canonical order, without the output
        // folder (where the files go does not change what they say).
        std::string line = "rbdgen generate " + a->model.urdf;
        for (const CLI::Option* o : c->get_options()) {
            if (o->get_positional() || o->count() == 0 || o->get_name() == "--output" || o->get_name() == "--help") continue;
            if (o->get_name() == "--problem") {  // repeated, one a problem
                for (const std::string& p : o->results()) line += " --problem " + p;
                continue;
            }
            line += " " + o->get_name();
            if (o->get_items_expected_min() != 0) line += " " + CLI::detail::join(o->results(), ",");
        }
        generate(*a, line, out);
    });
}

}  // namespace rbdgen
