// A temporary file for the tests (and bench/, which shares tests/mujoco_model.hpp).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace rbdgen::test {

// A file in the system's temporary folder, named after the process, removed when it goes out of scope.
class TempFile {
public:
    TempFile(const std::string& name, const std::string& text)
        : path_(std::filesystem::temp_directory_path() / ("rbdgen_test_" + std::to_string(::getpid()) + "_" + name)) {
        std::ofstream(path_) << text;
    }
    ~TempFile() { std::filesystem::remove(path_); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    std::string str() const { return path_.string(); }

private:
    std::filesystem::path path_;
};

}  // namespace rbdgen::test
