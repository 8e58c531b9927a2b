// rbdgen runtime: the one header that generated kernels include besides <cmath>.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define RBDGEN_RESTRICT __restrict__
#else
#define RBDGEN_RESTRICT
#endif
