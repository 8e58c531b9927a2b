// One libFuzzer target: LLVMFuzzerTestOneInput writes the input to a file and runs rbdgen's command
// line on it in process (fuzz_commands.hpp), with its output discarded. rbdgen::Error is a refusal,
// as the user sees it; anything else escaping is a finding, as are the sanitizers' reports.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "cli/commands.hpp"
#include "fuzz_commands.hpp"
#include "model/error.hpp"

namespace rbdgen::fuzz {

inline int run_once(const std::string& target, const uint8_t* data, size_t size) {
    static const std::filesystem::path dir = [] {
        const auto d = std::filesystem::temp_directory_path() / ("rbdgen_fuzz_" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    const std::filesystem::path input = dir / input_name(target);
    std::ofstream(input, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    const std::vector<std::string> args = arguments(target, input.string(), (dir / "out").string(), RBDGEN_SOURCE_DIR);
    std::vector<const char*> argv{"rbdgen"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    std::ostringstream discard;
    std::streambuf* out = std::cout.rdbuf(discard.rdbuf());
    std::streambuf* err = std::cerr.rdbuf(discard.rdbuf());
    try {
        run_command_line(static_cast<int>(argv.size()), argv.data());
    } catch (const Error&) {
    }
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    return 0;
}

}  // namespace rbdgen::fuzz

#define RBDGEN_FUZZ_TARGET(name) \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return rbdgen::fuzz::run_once(name, data, size); }
