// A kernel's operations as report.json counts them (`ops`: add, mul, div, sqrt, sin, cos), summed.
#pragma once

#include <nlohmann/json.hpp>

namespace rbdgen::bench {

inline long total_ops(const nlohmann::json& kernel) {
    long t = 0;
    for (const auto& [k, v] : kernel["ops"].items()) t += v.get<long>();
    return t;
}

}  // namespace rbdgen::bench
