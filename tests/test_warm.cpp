// rbdgen_warm (the runtime header) reads exactly the lines of an extent: a range between two pages
// that may not be read is warmed without a fault, and a range that reaches into one of them faults,
// so the reads cover the range's first and last lines and nothing beyond.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include "eval_arm.hpp"  // any generated robot brings the runtime header

namespace {

class Warm : public ::testing::Test {
protected:
    void SetUp() override {
        page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        void* m = mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(m, MAP_FAILED);
        base = static_cast<char*>(m);
        // pages 0 and 3 may not be read: the readable pages 1 and 2 between them
        ASSERT_EQ(mprotect(base, page, PROT_NONE), 0);
        ASSERT_EQ(mprotect(base + 3 * page, page, PROT_NONE), 0);
    }
    void TearDown() override { munmap(base, 4 * page); }
    rbdgen_extent extent(const char* begin, const char* end) { return {{{begin, end}, {nullptr, nullptr}, {nullptr, nullptr}}}; }
    size_t page = 0;
    char* base = nullptr;
};

TEST_F(Warm, ReadsNothingOutsideItsRange) {
    rbdgen_warm(extent(base + page, base + 3 * page));            // both pages, to their last byte
    rbdgen_warm(extent(base + page + 1, base + 3 * page - 1));      // starting and ending inside a line
    rbdgen_warm(extent(base + 2 * page - 3, base + 2 * page + 5));  // across the two pages
    rbdgen_warm({{{base + page, base + 2 * page}, {base + 2 * page, base + 3 * page}, {nullptr, nullptr}}});
    SUCCEED();
}

TEST_F(Warm, ReadsTheFirstAndLastLinesOfItsRange) {
    // one byte of the unreadable page: its line is in the range, so warm reads it and faults
    EXPECT_DEATH(rbdgen_warm(extent(base + page, base + 3 * page + 1)), "");
    EXPECT_DEATH(rbdgen_warm(extent(base + page - 1, base + 2 * page)), "");
    // a range in the tables' place is read too
    EXPECT_DEATH(rbdgen_warm({{{base + page, base + page + 64}, {base + 3 * page, base + 3 * page + 8}, {nullptr, nullptr}}}), "");
}

}  // namespace
