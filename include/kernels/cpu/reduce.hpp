// Reductions on CPU, ATen 1.13's semantics, as functional kernels (the
// operators of kernels/ops_reductions.hpp register them and derive out=).
//
//   dims: a list of dimensions (wrapped, no duplicates); an absent or EMPTY
//   list reduces every dimension (ATen 1.13's `int[1]? dim` / `int[1] dim=[]`).
//   keepdim keeps the reduced dimensions with size 1.
//
// Output dtypes and accumulation (as ATen's CPU kernels):
//   sum, prod, cumsum, cumprod   `dtype` if given, else Long for integral and Bool
//                                inputs, else the input's. Floating sums accumulate
//                                in float (double for Double) in pairwise order;
//                                integers in int64 (wrapping); cumsum/cumprod of
//                                Float accumulate in double, as ATen's acc_type.
//   mean                          floating only (or a floating `dtype`): sum, then / count.
//   var, std                      floating only; two-pass in double; divisor
//                                 max(0, N - correction), correction defaults to 1.
//   norm                          floating only; p = 2 when absent; 0, 1, 2, inf,
//                                 -inf and any other p (sum |x|^p)^(1/p).
//   amax, amin, max, min          input dtype, NaN propagates; empty reductions throw.
//   max_dim, min_dim, argmax...   indices are Long, the first extreme (or NaN) wins.
//   logsumexp                     integral inputs compute in the default float dtype.
//   all, any                      Bool (Byte for a Byte input); NaN counts as true.
//   count_nonzero                 Long.
// Dtypes ATen 1.13's CPU loops lack are refused with its errors ("\"prod_cpu\"
// not implemented for 'Half'"): prod of Half/BFloat16, cumsum/cumprod and
// logsumexp of Half, argmax/argmin of Bool.
// Errors are opd::Error family exceptions prefixed with the operator's name;
// inputs are never written.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <tuple>

#include "dispatch/config.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

using DimList = std::span<const int64_t>;
using OptDimList = std::optional<std::span<const int64_t>>;

OPD_API Tensor sum(const Tensor& self, std::optional<ScalarType> dtype);
OPD_API Tensor sum_dim(const Tensor& self, OptDimList dim, bool keepdim, std::optional<ScalarType> dtype);
OPD_API Tensor mean(const Tensor& self, std::optional<ScalarType> dtype);
OPD_API Tensor mean_dim(const Tensor& self, OptDimList dim, bool keepdim, std::optional<ScalarType> dtype);
OPD_API Tensor prod(const Tensor& self, std::optional<ScalarType> dtype);
OPD_API Tensor prod_dim(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype);

OPD_API Tensor amax(const Tensor& self, DimList dim, bool keepdim);
OPD_API Tensor amin(const Tensor& self, DimList dim, bool keepdim);
OPD_API std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim);
OPD_API std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim);
OPD_API Tensor max(const Tensor& self);
OPD_API Tensor min(const Tensor& self);
OPD_API Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim);
OPD_API Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim);

// var / std: (N - correction) as the divisor; std is sqrt(var). (`std` would
// hide namespace std inside opd::kernels, hence std_dev.)
OPD_API Tensor var(const Tensor& self, OptDimList dim, std::optional<int64_t> correction, bool keepdim);
OPD_API Tensor std_dev(const Tensor& self, OptDimList dim, std::optional<int64_t> correction, bool keepdim);

OPD_API Tensor norm(const Tensor& self, const std::optional<Scalar>& p, DimList dim, bool keepdim,
                    std::optional<ScalarType> dtype);
OPD_API Tensor logsumexp(const Tensor& self, DimList dim, bool keepdim);
namespace reduce_detail {
// logsumexp with the result rounded once to `dtype` (logsumexp.out: out's dtype).
OPD_API Tensor logsumexp_as(const Tensor& self, DimList dim, bool keepdim, ScalarType dtype);
}  // namespace reduce_detail

OPD_API Tensor all(const Tensor& self);
OPD_API Tensor all_dim(const Tensor& self, int64_t dim, bool keepdim);
OPD_API Tensor any(const Tensor& self);
OPD_API Tensor any_dim(const Tensor& self, int64_t dim, bool keepdim);
OPD_API Tensor count_nonzero(const Tensor& self, DimList dim);

OPD_API Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
OPD_API Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/reduce-inl.hpp"
#endif
