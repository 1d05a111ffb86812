// scatter_reduce.two on CPU (ATen 1.13's semantics and checks):
//
//   scatter_reduce(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor
//       A contiguous copy of self into which every element of src (at the
//       positions of index's shape) is reduced at the position index names
//       along `dim`: "sum", "prod", "mean", "amax" (NaN wins) or "amin"
//       (NaN wins). Without include_self, each position that index names
//       starts from the reduction's identity instead of self's value. "mean"
//       divides by the number of values reduced (self's counting once with
//       include_self; floor division for integral dtypes). Every dtype of the
//       kernels; index Long; self and src of one dtype. A Meta input gets a
//       Meta output after the checks.
#pragma once

#include <cstdint>
#include <string_view>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor scatter_reduce_two(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                                  std::string_view reduce, bool include_self);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/scatter_reduce-inl.hpp"
#endif
