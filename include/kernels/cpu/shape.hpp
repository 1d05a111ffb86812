#pragma once
// Shape and indexing kernels (CPU): concatenation, gathers and scatters,
// index/index_put_ (advanced indexing), masks, sorting, and the range
// factories. Each is a plain function computing a fresh contiguous result
// (the in-place ones write into self); kernels/ops_shape.hpp registers them
// as ATen's operators and derives the out= variants.
//
// Operations that only move elements (cat, stack, index_select, gather,
// scatter without reduce, flip, roll, repeat, index, index_put_ without
// accumulate, masked_select) work for every dtype: their loops are chosen by
// element size (1, 2, 4, 8 or 16 bytes), not by dtype. Those that look at
// values (nonzero, sort, topk, scatter with reduce, index_put_ with
// accumulate, tril/triu's zeros aside) take the ten kernel dtypes.
//
// Errors read like PyTorch's, prefixed with the ATen operator's name
// ("aten::index_select: index out of range in self"); an index or dimension
// out of range is an opd::IndexError. A failing call writes nothing: every
// index is checked before the first element moves.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

// cat(Tensor[] tensors, int dim=0): promoted dtype (result_type of all
// tensors); 1-d empty tensors are skipped, as ATen's legacy rule.
OPD_API Tensor cat(std::span<const Tensor> tensors, int64_t dim);
// stack(Tensor[] tensors, int dim=0): cat of the tensors unsqueezed at dim.
OPD_API Tensor stack(std::span<const Tensor> tensors, int64_t dim);

OPD_API Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
OPD_API Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);

// scatter's `reduce` argument; ATen accepts "add" and "multiply".
enum class ScatterReduce { None, Add, Multiply };
// Throws opd::Error "<op>: reduce argument must be either add or multiply." otherwise.
OPD_API ScatterReduce scatter_reduce_of(std::string_view op, std::string_view reduce);
// A copy of self with src's elements (or value) written at index along dim.
OPD_API Tensor scatter(std::string_view op, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                       ScatterReduce reduce);
OPD_API Tensor scatter_value(std::string_view op, const Tensor& self, int64_t dim, const Tensor& index,
                             const Scalar& value, ScatterReduce reduce);

OPD_API Tensor flip(const Tensor& self, IntArrayRef dims);
OPD_API Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims);
OPD_API Tensor repeat(const Tensor& self, IntArrayRef repeats);
OPD_API Tensor tril(const Tensor& self, int64_t diagonal);
OPD_API Tensor triu(const Tensor& self, int64_t diagonal);
// In place, through self's strides, row after row: on a self whose rows
// share memory (expanded) the zeros accumulate, as ATen's in-place kernel.
OPD_API Tensor& tril_(Tensor& self, int64_t diagonal);
OPD_API Tensor& triu_(Tensor& self, int64_t diagonal);

// Indices (Long, [count, self.dim()]) of the nonzero elements, row-major.
OPD_API Tensor nonzero(const Tensor& self);
// where(condition): nonzero's columns (contiguous copies).
OPD_API std::vector<Tensor> nonzero_numpy(const Tensor& condition);
OPD_API Tensor masked_select(const Tensor& self, const Tensor& mask);

// index.Tensor: advanced indexing. None indices take a whole dimension;
// Bool/Byte masks stand for their nonzero() columns; the index tensors
// broadcast together. The broadcast dimensions replace the indexed ones in
// place when those are adjacent, else they come first (NumPy's rule).
OPD_API Tensor index(const Tensor& self, std::span<const std::optional<Tensor>> indices);
// self[indices] = values (broadcast to the indexing result), or += with
// accumulate (duplicates accumulate; without it, the last write wins).
OPD_API Tensor& index_put_(Tensor& self, std::span<const std::optional<Tensor>> indices, const Tensor& values,
                           bool accumulate);

// Sort along dim (NaN greater than everything, as ATen); values and Long
// indices. Equal values keep their order when `stable`, else come in the
// order ATen 1.13's unstable CPU sort gives them.
OPD_API std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending, bool stable);
// The k largest (smallest) along dim, sorted unless !sorted; equal values in
// the order ATen 1.13's CPU topk gives them.
OPD_API std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted);

// arange(start, end, step): without dtype, Long when all three are integral
// (or bool), else the default dtype (Float). Values start + i * step
// computed in double (int64 for Long) and converted.
OPD_API Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
                      std::optional<ScalarType> dtype = std::nullopt, std::optional<Device> device = std::nullopt);
// linspace: default dtype Float; ATen's two-sided formula (start + i * step
// for the first half, end - (steps - 1 - i) * step for the second).
OPD_API Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                        std::optional<ScalarType> dtype = std::nullopt, std::optional<Device> device = std::nullopt);
// eye(n, m): ones on the diagonal; default dtype Float.
OPD_API Tensor eye(int64_t n, int64_t m, std::optional<ScalarType> dtype = std::nullopt,
                   std::optional<Device> device = std::nullopt);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/shape-inl.hpp"
#include "kernels/cpu/shape_sort-inl.hpp"
#endif
