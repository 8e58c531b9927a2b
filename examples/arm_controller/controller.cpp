// A computed-torque step with the generated kernels: plain arrays in and out, no allocation.
#include <cstdio>

#include "arm.hpp"

int main() {
    arm::Scalar q[arm::NQ] = {0.3, -0.5, 0.8, 1.2, -0.4, 0.6, 0.1}, qd[arm::NV] = {}, qdd[arm::NV] = {1, -1, 0.5};
    const arm::Scalar gravity[3] = {0, 0, -9.81};
    arm::Scalar tau[arm::NV], back[arm::NV];
    arm::rnea(q, qd, qdd, gravity, tau);    // inverse dynamics
    arm::aba(q, qd, tau, gravity, back);    // forward dynamics gives qdd back
    for (int i = 0; i < arm::NV; ++i) std::printf("%-10s tau %12.6f   qdd %9.6f -> %9.6f\n", arm::joints[i].name, tau[i], qdd[i], back[i]);
    return 0;
}
