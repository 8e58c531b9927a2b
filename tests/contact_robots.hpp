// The floating robots the contact tests hold at their feet (test_contacts.cpp, test_contact_derivatives.cpp):
// both feet of the humanoids in 6D contact, a quadruped's four feet in point contact, arm7 held at its
// flange, an MJCF robot at two sites. A fixture loads the model and the contacts' frames.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "emit/prepare.hpp"
#include "model/load_model.hpp"
#include "test_support.hpp"

namespace rbdgen::test {

struct Contacts {
    std::string urdf;
    std::vector<std::string> links;
    bool point = false, shared = false;
    bool add_floating_base = true;  // --floating-base (an MJCF file's free joint is its own)
};
inline void PrintTo(const Contacts& c, std::ostream* os) { *os << c.urdf; }

inline std::vector<Contacts> contact_robots() {
    std::vector<Contacts> r{{project_model("humanoid30.urdf"), {"link006", "link012"}},
                            {project_model("quadruped.urdf"), {"link003", "link006", "link009", "link012"}, true},
                            {project_model("arm7.urdf"), {"link007"}}};
    // MJCF: its own free joint, bodies of several joints; point contacts at sites, one beyond a ball joint (the neck)
    r.push_back({project_model("mjcf/forms_degree.xml"), {"sole", "eye"}, true, false, false});
#ifdef RBDGEN_SANITIZED_MODELS  // the sanitized build: the three of the project's models (test_support.hpp)
    r.erase(r.begin());
    return r;
#endif
    r.push_back({shared_model("solo12.urdf"), {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"}, true, true});
    r.push_back({shared_model("talos_reduced.urdf"), {"left_sole_link", "right_sole_link"}, false, true});
    r.push_back({shared_model("talos_full_v2.urdf"), {"left_sole_link", "right_sole_link"}, false, true});
    return r;
}

// What follows contact: or impulse: in --problem.
inline std::string contact_list(const Contacts& c) {
    std::string s;
    for (const std::string& l : c.links) s += (s.empty() ? "" : ",") + l + (c.point ? ":point" : "");
    return s;
}

inline std::string contact_case_name(const ::testing::TestParamInfo<Contacts>& i) {
    std::string n = std::filesystem::path(i.param.urdf).stem().string();
    for (char& ch : n) ch = std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    return n;
}

class ContactTest : public ::testing::TestWithParam<Contacts> {
protected:
    void SetUp() override {
        if (GetParam().shared && !shared_models_present())
            GTEST_SKIP() << RBDGEN_SHARED_MODELS << " is absent (a user's own clone): " << GetParam().urdf << " not tested";
        model = prepare_model(load_model(GetParam().urdf, {.floating_base = GetParam().add_floating_base})).model;
        for (const std::string& l : GetParam().links) frames.push_back(*link_frame(model, l));
        // the wrenches come in body order, as the problem lists its contacts
        std::sort(frames.begin(), frames.end(), [](const LinkFrame& a, const LinkFrame& b) { return a.body < b.body; });
    }
    int rows_a_contact() const { return GetParam().point ? 3 : 6; }
    Model model;
    std::vector<LinkFrame> frames;
};

}  // namespace rbdgen::test
