// Composite-rigid-body algorithm computing only the nonzeros of H (Featherstone §5, eq. 5; RBDA
// Table 6.2 for multi-DoF joints). Branch-induced zeros of H are set to zero and never touched.
#pragma once

#include <vector>

#include "algorithms/compiled_once.hpp"
#include "algorithms/jcalc.hpp"

namespace rbdgen {

template <class S> MatX<S> crba(const Model& model, const VecX<S>& q, const BodyInertias<S>* inertias = nullptr) {
    const int N = model.N();
    std::vector<ScrewChain<S>> X(N);
    std::vector<RigidBodyInertia<S>> I_c(N);
    for (int i = 0; i < N; ++i) {
        const Step<S> step;
        X[i] = X_up<S>(model.bodies[i], q.data());
        I_c[i] = body_inertia<S>(model, i, inertias);
    }
    MatX<S> H = MatX<S>::Zero(model.nv, model.nv);
    for (int i = N - 1; i >= 0; --i) {
        const Step<S> step;
        const Body& b = model.bodies[i];
        if (b.lambda >= 0) I_c[b.lambda] = I_c[b.lambda] + X[i].inertia_in_parent(I_c[i]);
        for (int k = 0; k < b.joint.nv(); ++k) {
            Vec6<S> f = I_c[i] * motion_axis(b.joint, k).cast<S>();  // f = I_i^c s_i
            const int row = b.v_index + k;
            project<S>(b.joint, f, &H(b.v_index, row));              // H_ii = s_iᵀ f (column block)
            if (b.joint.armature != 0) H(row, row) += S(b.joint.armature);  //  + armature
            for (int j = i; model.bodies[j].lambda >= 0;) {
                const UniformStep<S> hop;  // one ancestor (sym/step.hpp)
                f = X[j].transpose_apply(f);                          // f = λ(j)X_j* f
                j = model.bodies[j].lambda;
                const Body& bj = model.bodies[j];
                project<S>(bj.joint, f, &H(bj.v_index, row));         // H_ji = s_jᵀ f
            }
        }
    }
    // Column i holds H_ji for the ancestors j of i, above the diagonal; mirror it (H_ij = H_ji).
    for (int c = 0; c < model.nv; ++c)
        for (int r = c + 1; r < model.nv; ++r) H(r, c) = H(c, r);
    return H;
}

// Compiled once for double and sym::Expr (algorithms/compiled_once.hpp).
#define RBDGEN_CRBA(S) MatX<S> crba(const Model&, const VecX<S>&, const BodyInertias<S>*)
RBDGEN_COMPILED_ONCE(RBDGEN_CRBA)

}  // namespace rbdgen
