// MuJoCo (Debian's libmujoco-dev) reading a URDF with its own reader, for tests/test_mujoco.cpp and
// bench/bench_whole_body.cpp.
#pragma once

#include <mujoco/mujoco.h>

#include <algorithm>
#include <regex>
#include <stdexcept>
#include <string>

#include <fstream>
#include <iterator>

#include "temp_file.hpp"

namespace rbdgen::test {


// MuJoCo's model of the URDF at `path` (meshes removed; with a free joint on its root for a floating
// base), or the reason it gives for refusing it.
struct Mujoco {
    mjModel* m = nullptr;
    mjData* d = nullptr;
    std::string refusal;
    ~Mujoco() {
        if (d) mj_deleteData(d);
        if (m) mj_deleteModel(m);
    }
};
inline void load_mujoco(const std::string& path, bool floating, Mujoco& out) {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text = std::regex_replace(text, std::regex("<visual[\\s\\S]*?</visual>"), "");
    text = std::regex_replace(text, std::regex("<collision[\\s\\S]*?</collision>"), "");
    // keep the root link a body of its own (MuJoCo fuses bodies without joints into their parents)
    text = std::regex_replace(text, std::regex("(<robot[^>]*>)"), "$1<mujoco><compiler fusestatic=\"false\"/></mujoco>");
    const TempFile urdf("mujoco.urdf", text);
    char error[1000] = "";
    out.m = mj_loadXML(urdf.str().c_str(), nullptr, error, sizeof error);
    if (!out.m) {
        out.refusal = error;
        return;
    }
    if (floating) {  // the model as MJCF, with a free joint in its first body
        const TempFile mjcf("mujoco.xml", "");
        if (!mj_saveLastXML(mjcf.str().c_str(), out.m, error, sizeof error)) throw std::runtime_error(error);
        std::ifstream saved(mjcf.str());
        std::string xml((std::istreambuf_iterator<char>(saved)), std::istreambuf_iterator<char>());
        xml = std::regex_replace(xml, std::regex("(<worldbody>\\s*<body[^>]*>)"), "$1<freejoint/>");
        const TempFile floating_file("mujoco_floating.xml", xml);
        mjModel* fixed = out.m;
        out.m = mj_loadXML(floating_file.str().c_str(), nullptr, error, sizeof error);
        if (!out.m) throw std::runtime_error(error);
        // MJCF holds fewer digits than MuJoCo's model: its bodies' and joints' numbers copied back
        if (out.m->nbody != fixed->nbody || out.m->njnt != fixed->njnt + 1) throw std::runtime_error("the free joint did not go in");
        const auto copy = [](mjtNum* to, const mjtNum* from, int n) { std::copy(from, from + n, to); };
        copy(out.m->body_pos, fixed->body_pos, 3 * fixed->nbody), copy(out.m->body_quat, fixed->body_quat, 4 * fixed->nbody);
        copy(out.m->body_ipos, fixed->body_ipos, 3 * fixed->nbody), copy(out.m->body_iquat, fixed->body_iquat, 4 * fixed->nbody);
        copy(out.m->body_mass, fixed->body_mass, fixed->nbody), copy(out.m->body_inertia, fixed->body_inertia, 3 * fixed->nbody);
        copy(out.m->jnt_pos + 3, fixed->jnt_pos, 3 * fixed->njnt), copy(out.m->jnt_axis + 3, fixed->jnt_axis, 3 * fixed->njnt);
        mj_deleteModel(fixed);
        mjData* d = mj_makeData(out.m);
        mj_setConst(out.m, d);  // the subtree masses of the copied masses
        mj_deleteData(d);
    }
    out.m->opt.enableflags |= mjENBL_ENERGY;
    out.d = mj_makeData(out.m);
}

}  // namespace rbdgen::test
