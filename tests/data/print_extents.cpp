// For tests/warm.sh: warms every kernel of robot ROBOT (warm_all), then prints extent() of each,
// "kernel range begin end" in hex (range 0 code, 1 tables, 2 call tables), for sections.py to
// compare with the linker's symbols. KERNELS: the kernels' names in the order of enum class Kernel.
#include ROBOT_HEADER

#include <cstdio>

int main() {
    ROBOT::warm_all();
    const char* names[] = {KERNELS};
    static_assert(sizeof names / sizeof names[0] == ROBOT::kernel_count, "KERNELS names every kernel");
    for (int k = 0; k < ROBOT::kernel_count; ++k) {
        const rbdgen_extent e = ROBOT::extent(static_cast<ROBOT::Kernel>(k));
        for (int r = 0; r < 3; ++r)
            std::printf("%s %d %lx %lx\n", names[k], r, reinterpret_cast<unsigned long>(e.range[r][0]),
                        reinterpret_cast<unsigned long>(e.range[r][1]));
    }
}
