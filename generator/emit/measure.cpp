#include "emit/measure.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "model/error.hpp"

namespace rbdgen {

namespace fs = std::filesystem;

namespace {

template <typename T>
T read_at(const std::string& bytes, size_t offset) {
    if (offset + sizeof(T) > bytes.size()) throw Error("truncated ELF object");
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

// A word for the shell, in single quotes.
std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// A kernel's stack from its GCC/Clang stack-usage file (lines "file:line:col:function<TAB>bytes<TAB>qualifiers"):
// its worst frame, plus, for a compact kernel, the worst of its step functions' (emit/compact.hpp: the
// kernel calls them one at a time, and each calls nothing). A frame that is "static", or "dynamic,bounded"
// (the bytes are then GCC's bound: a uniform kernel's loop over its call table pushes arguments), counts;
// any other (a variable-length array, alloca) has no bound: -1.
long kernel_stack(const fs::path& su) {
    std::ifstream in(su);
    long worst = 0, worst_step = 0;
    static const std::regex step(R"(_step[0-9]+(\(|$))");
    std::string line;
    while (std::getline(in, line)) {
        const size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
        if (t1 == std::string::npos || t2 == std::string::npos) continue;
        const std::string qualifiers = line.substr(t2 + 1);
        if (qualifiers != "static" && qualifiers != "dynamic,bounded") return -1;
        const long bytes = std::stol(line.substr(t1 + 1, t2 - t1 - 1));
        long& w = std::regex_search(line.substr(0, t1), step) ? worst_step : worst;
        w = std::max(w, bytes);
    }
    return worst + worst_step;
}

}  // namespace

ElfBytes elf_bytes(const std::string& object_path) {
    std::ifstream in(object_path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < 52 || bytes.compare(0, 4, "\x7f" "ELF") != 0 || bytes[5] != 1)
        throw Error(object_path + ": not a little-endian ELF object");
    const bool wide = bytes[4] == 2;  // ELFCLASS64
    const uint64_t shoff = wide ? read_at<uint64_t>(bytes, 0x28) : read_at<uint32_t>(bytes, 0x20);
    const uint16_t shentsize = read_at<uint16_t>(bytes, wide ? 0x3A : 0x2E);
    const uint16_t shnum = read_at<uint16_t>(bytes, wide ? 0x3C : 0x30);
    const uint16_t shstrndx = read_at<uint16_t>(bytes, wide ? 0x3E : 0x32);
    const auto offset = [&](size_t h) { return wide ? read_at<uint64_t>(bytes, h + 24) : read_at<uint32_t>(bytes, h + 16); };
    const uint64_t names = offset(shoff + size_t{shstrndx} * shentsize);  // the section names' string table
    ElfBytes out;
    for (uint16_t i = 0; i < shnum; ++i) {
        const size_t h = shoff + size_t{i} * shentsize;
        const uint64_t flags = wide ? read_at<uint64_t>(bytes, h + 8) : read_at<uint32_t>(bytes, h + 8);
        const long size = static_cast<long>(wide ? read_at<uint64_t>(bytes, h + 32) : read_at<uint32_t>(bytes, h + 20));
        const size_t at = names + read_at<uint32_t>(bytes, h);
        if (at >= bytes.size()) throw Error(object_path + ": truncated ELF object");
        const char* name = bytes.c_str() + at;  // NUL-terminated: std::string's own terminator at worst
        const bool own = std::strncmp(name, "rbdgen_", 7) == 0;  // templates/kernel.cpp.in's sections
        if (flags & 0x4) {  // SHF_EXECINSTR
            out.text += size;
            if (own) out.own_code += size;
        } else if (own || std::strncmp(name, ".rodata", 7) == 0 || std::strncmp(name, ".data", 5) == 0) {
            out.data += size;
            if (own) out.own_tables += size;
        }
        if (own) out.own_lines += (size + 63) / 64;
    }
    return out;
}

void measure_kernels(Files& files, const std::string& name, const std::string& compiler) {
    const fs::path dir = fs::temp_directory_path() / fmt::format("rbdgen_measure_{}_{}", name, ::getpid());
    fs::create_directories(dir);
    struct Cleanup {
        fs::path d;
        ~Cleanup() { std::error_code ec; fs::remove_all(d, ec); }
    } cleanup{dir};
    for (const auto& [file, text] : files) std::ofstream(dir / file) << text;

    nlohmann::ordered_json kernels = nlohmann::ordered_json::object();
    std::string table = "\n## Machine code and stack\n\nEach kernel compiled by `" + compiler + " " + kMeasureFlags +
                        "` (`--measure`): its machine code and its stack: its worst frame, plus a compact kernel's largest "
                        "step function's. A kernel calls nothing else but libm's sin, cos and sqrt, so that is its stack "
                        "beyond those routines'. Its data: the tables and constants it reads.\n\n"
                        "warm(): the bytes of its own sections, code and tables, that warm() reads, and their cache lines "
                        "of 64 bytes (the rest of its data: the compiler's pool of constants).\n\n"
                        "| kernel | machine code (bytes) | data (bytes) | stack (bytes) | warm(): code + tables (bytes) | cache lines |\n"
                        "|---|---:|---:|---:|---:|---:|\n";
    const std::string prefix = name + "_";
    for (const auto& entry : files) {
        const std::string& file = entry.first;
        if (file.rfind(prefix, 0) != 0 || file.size() < 4 || file.compare(file.size() - 4, 4, ".cpp") != 0) continue;
        const std::string kernel = file.substr(prefix.size(), file.size() - prefix.size() - 4);
        if (kernel == "eval" || kernel == "bench") continue;
        const fs::path object = dir / (prefix + kernel + ".o"), log = dir / "compile.log";
        const std::string command = fmt::format("cd {} && {} {} -c {} -o {} >{} 2>&1", quoted(dir.string()), quoted(compiler),
                                                kMeasureFlags, quoted(file), quoted(object.string()), quoted(log.string()));
        if (std::system(command.c_str()) != 0) {
            std::ifstream l(log);
            std::stringstream why;
            why << l.rdbuf();
            throw Error(fmt::format("--measure {}: compiling kernel '{}' failed; give a C++17 compiler of GCC's or Clang's "
                                    "flags (e.g. --measure c++): {}", compiler, kernel, why.str().substr(0, 2000)));
        }
        const fs::path su = dir / (prefix + kernel + ".su");
        if (!fs::exists(su))
            throw Error(fmt::format("--measure {}: the compiler wrote no stack usage for kernel '{}' (-fstack-usage); use GCC or Clang",
                                    compiler, kernel));
        const long stack = kernel_stack(su);
        const ElfBytes size = elf_bytes(object.string());
        kernels[kernel] = {{"text_bytes", size.text},
                           {"data_bytes", size.data},
                           {"warm", {{"code_bytes", size.own_code}, {"table_bytes", size.own_tables}, {"cache_lines", size.own_lines}}},
                           {"stack_bytes", stack < 0 ? nlohmann::ordered_json("unbounded") : nlohmann::ordered_json(stack)}};
        table += fmt::format("| {} | {} | {} | {} | {} + {} | {} |\n", kernel, size.text, size.data,
                             stack < 0 ? std::string("unbounded") : std::to_string(stack), size.own_code, size.own_tables, size.own_lines);
    }
    nlohmann::ordered_json report = nlohmann::ordered_json::parse(files.at("report.json"));
    report["host_build"] = {{"compiler", compiler}, {"flags", kMeasureFlags}, {"kernels", kernels}};
    files["report.json"] = report.dump(2) + "\n";
    files["report.md"] += table;
}

}  // namespace rbdgen
