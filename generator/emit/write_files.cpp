#include <filesystem>
#include <fstream>

#include "emit/generate.hpp"
#include "model/error.hpp"

namespace rbdgen {

void write_atomically(const std::string& dir, const Files& files) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw Error(dir + ": cannot create the output directory (" + ec.message() + "); choose a writable -o DIR");
    std::vector<fs::path> written;
    auto discard = [&] {
        for (const fs::path& p : written) fs::remove(p, ec);
    };
    for (const auto& [name, text] : files) {
        const fs::path tmp = fs::path(dir) / ("." + name + ".rbdgen-tmp");
        std::ofstream out(tmp, std::ios::binary);
        written.push_back(tmp);
        if (!(out << text) || !(out.flush())) {
            discard();
            throw Error(dir + ": cannot write " + name + " there; check permissions and free space (nothing was changed)");
        }
    }
    for (const auto& [name, text] : files) {
        fs::rename(fs::path(dir) / ("." + name + ".rbdgen-tmp"), fs::path(dir) / name, ec);
        if (ec) {
            discard();
            throw Error(dir + ": cannot replace " + name + " (" + ec.message() + ")");
        }
    }
}

std::string fnv1a_hex(const std::string& bytes) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

}  // namespace rbdgen
