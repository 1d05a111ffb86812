// The ids of add (alpha 1), sub (add with alpha -1), mul and true division
// for their vector rows (arith_simd.hpp): the binary family's ops
// (binary_loops-inl.hpp), which have no PointwiseOp. Apart, so that the
// per-target bodies (arith_simd_targets-inl.hpp) include only this.
#pragma once

#include <cstdint>

namespace opd::kernels {

enum class BasicArith : uint8_t { Add, Sub, Mul, Div };

}  // namespace opd::kernels
