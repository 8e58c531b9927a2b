// The command line each fuzz target runs on its input: shared by the fuzzers (fuzz_target.hpp), which
// run it in process, and by FuzzRegressions (test_bad_input.cpp), which runs every input kept in
// tests/fuzz/regressions/<target>/ through the rbdgen executable. An input may make rbdgen refuse
// (status 1, a message); it may not crash it, hang it, or end in an internal error (status 3).
#pragma once

#include <string>
#include <vector>

namespace rbdgen::fuzz {

inline const std::vector<std::string> kTargets{"urdf", "state", "problem", "motion", "mjcf", "sdf"};

// The input's file name: its extension is what the command expects, and a problem file's name
// names its kernels.
inline std::string input_name(const std::string& target) {
    return target == "urdf" ? "input.urdf" : target == "mjcf" ? "input.xml" : target == "sdf" ? "input.sdf" : target == "problem" ? "input.yaml" : "input.json";
}

inline std::vector<std::string> arguments(const std::string& target, const std::string& input, const std::string& out_dir,
                                          const std::string& source_dir) {
    const std::string arm7 = source_dir + "/models/arm7.urdf";
    // URDF text -> model -> a kernel of each kind (a recursion each way, and the link poses) into a folder.
    if (target == "urdf") return {"generate", input, "-o", out_dir, "--kernels", "rnea,aba,fk"};
    // MJCF text -> model (defaults, orientations, geoms' inertia, several joints a body) -> the same kernels.
    if (target == "mjcf") return {"generate", input, "-o", out_dir, "--kernels", "rnea,aba,fk"};
    // SDFormat text -> libsdformat -> model (nested models, poses, universal joints) -> the same kernels.
    if (target == "sdf") return {"generate", input, "-o", out_dir, "--kernels", "rnea,aba,fk"};
    // STATE.json -> eval, with a problem's measurements read from it.
    if (target == "state")
        return {"eval", arm7, "--state", input, "--problem", source_dir + "/tests/fuzz/seeds/problem/arm7_sensors.yaml"};
    // A problem file -> assembly, well-posedness, orderings, pivot check, emission.
    if (target == "problem") return {"generate", arm7, "-o", out_dir, "--kernels", "rnea", "--problem", input};
    // The N-CMTM motion input (the floating base's and a ball joint's arrays too) -> eval of ncmtm_fk and
    // cornea, on an MJCF robot of a free joint, a ball joint and hinges.
    if (target == "motion")
        return {"eval", source_dir + "/models/mjcf/forms_degree.xml", "--ncmtm-order", "2", "--state", input};
    return {};
}

}  // namespace rbdgen::fuzz
