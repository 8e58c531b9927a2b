// The generator runs each algorithm in two scalars: double (the reference, the generator's checks,
// `rbdgen eval`) and sym::Expr (the tracer). Each is compiled once for both, in instances/double.cpp
// and instances/expr.cpp, and not again in every file that calls it: the kernel specification files
// and the tests called aba, rnea and crba in each of them, and the instantiations over sym::Expr were
// most of the generator's build time (docs/testing.md, "The build").
//
// An algorithm's header names its signature as a macro of the scalar, RBDGEN_<NAME>(S), and declares
// the two instances extern with RBDGEN_COMPILED_ONCE; instances/instances.hpp lists the macros. Other
// scalars (ADOL-C's in the tests) are instantiated where they are used, as any template is.
#pragma once

#include "sym/step.hpp"  // declares sym::Expr

#define RBDGEN_COMPILED_ONCE(SIGNATURE)   \
    extern template SIGNATURE(double); \
    extern template SIGNATURE(sym::Expr);
