// Pairwise distances on CPU (ATen 1.13's semantics and checks):
//
//   _cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor
//       x1 (B..., R1, M), x2 (B..., R2, M), batch dimensions broadcast:
//       (B..., R1, R2) distances ||x1[i] - x2[j]||_p (p = 0 counts the
//       differing coordinates, p = inf takes the largest). For p = 2 with
//       compute_mode 1, or 0 ("use_mm_for_euclid_dist_if_necessary") and more
//       than 25 rows on either side, ATen's _euclidean_dist: the squared
//       distance as |x1|^2 - 2 x1.x2 + |x2|^2, clamped at 0, then sqrt.
//       Float and Double.
//   _pdist_forward(Tensor self, float p=2) -> Tensor
//       self (N, M), contiguous: the N (N - 1) / 2 distances of rows i < j,
//       in row-major order of (i, j). Float and Double.
//   _pdist_backward(Tensor grad, Tensor self, float p, Tensor pdist) -> Tensor
//       _pdist_forward's gradient by self (N, M), from grad and pdist (the
//       N (N - 1) / 2 distances, contiguous): each pair's term added to row i
//       and subtracted from row j, in ATen's order. Float and Double.
// Meta inputs get Meta outputs after the checks.
#pragma once

#include <cstdint>
#include <optional>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor cdist_forward(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode);
OPD_API Tensor pdist_forward(const Tensor& self, double p);
OPD_API Tensor pdist_backward(const Tensor& grad, const Tensor& self, double p, const Tensor& pdist);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/distance-inl.hpp"
#endif
