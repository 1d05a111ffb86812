// Reflection and replication padding of the last 1, 2 or 3 dimensions on CPU
// (ATen 1.13's reflection_pad{1,2,3}d / replication_pad{1,2,3}d: semantics,
// checks and messages):
//
//   pad("reflection_pad2d", PadMode::Reflect, 2, self, padding)   padding = (left, right, top, bottom)
//
// The spatial dimensions are the last k (1, 2 or 3), padding holds 2k pads
// (the last dimension's first); before them one
// channel dimension and an optional batch dimension (which may be 0). A
// negative pad crops. Reflection mirrors about the edge element (a pad must
// be less than its dimension); replication repeats the edge element.
// Floating dtypes (Half, BFloat16, Float, Double; integral and Bool refused, as
// ATen 1.13's): elements are copied, whatever their layout (strided inputs are
// read in place). A Meta input gets a Meta result after the checks.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

enum class PadMode : uint8_t { Reflect, Replicate };

// op: the operator's name for messages ("reflection_pad2d").
OPD_API Tensor pad(std::string_view op, PadMode mode, int k, const Tensor& self, std::span<const int64_t> padding);

// The gradient of pad with respect to self (ATen 1.13's *_pad{1,2,3}d_backward):
// each element of grad_output added into the element of self it was copied
// from (an edge element gets several), in ATen's order. self gives the sizes,
// grad_output must have the padded ones.
OPD_API Tensor pad_backward(std::string_view op, PadMode mode, int k, const Tensor& grad_output, const Tensor& self,
                            std::span<const int64_t> padding);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/padding-inl.hpp"
#endif
