#pragma once
// Out-of-line part of padding.hpp (compiled in src/kernels/padding.cpp).
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/padding.hpp"
#include "kernels/cpu/spatial_gather-inl.hpp"

namespace opd::kernels {

namespace padding_detail {

// For each output position along one dimension, the input position it reads
// (ATen's index arithmetic: output j maps into the padded input, then back by
// the crop of a negative pad).
inline std::vector<int64_t> source_index(PadMode mode, int64_t in, int64_t pad_lo, int64_t out) {
  std::vector<int64_t> idx(static_cast<std::size_t>(out));
  const int64_t i_start = std::max<int64_t>(0, -pad_lo), o_start = std::max<int64_t>(0, pad_lo);
  for (int64_t j = 0; j < out; ++j) {
    int64_t i = j;
    if (j < pad_lo) i = mode == PadMode::Reflect ? pad_lo * 2 - j : pad_lo;
    else if (j >= in + pad_lo) i = mode == PadMode::Reflect ? (in + pad_lo - 1) * 2 - j : in + pad_lo - 1;
    idx[static_cast<std::size_t>(j)] = i - o_start + i_start;
  }
  return idx;
}

}  // namespace padding_detail

namespace padding_detail {

// The checks of ATen 1.13's pad and pad backward on self, and the padded
// output's sizes with each spatial dimension's source index map.
struct PadGeometry {
  std::vector<int64_t> out_sizes;
  std::vector<int64_t> src[3] = {{0}, {0}, {0}};
};
inline PadGeometry pad_geometry(std::string_view op, PadMode mode, int k, const Tensor& self,
                                std::span<const int64_t> padding) {
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  OPD_CHECK(k >= 1 && k <= 3, op, ": pads 1, 2 or 3 dimensions, not ", k);
  OPD_CHECK(padding.size() == static_cast<std::size_t>(2 * k), op, ": padding size is expected to be ", 2 * k,
            ", got ", padding.size());
  OPD_CHECK(self.device().is_cpu() || self.is_meta(), op, ": the CPU kernel got a tensor on ", self.device());
  const int64_t nd = self.dim();
  bool dims_ok = nd == k + 1 || nd == k + 2;
  for (int64_t d = nd == k + 2 ? 1 : 0; dims_ok && d < nd; ++d) dims_ok = self.size(d) != 0;
  OPD_CHECK(dims_ok, op, ": Expected ", k + 1, "D or ", k + 2,
                  "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ",
                  self.sizes());
  static constexpr const char* names[3] = {"D", "H", "W"};
  PadGeometry g;
  g.out_sizes.assign(self.sizes().begin(), self.sizes().end());
  for (int d = 0; d < k; ++d) {
    const int64_t dim = nd - k + d;  // padding's last pair pads the first spatial dimension
    const int64_t lo = padding[static_cast<std::size_t>(2 * (k - 1 - d))];
    const int64_t hi = padding[static_cast<std::size_t>(2 * (k - 1 - d) + 1)];
    const int64_t in = self.size(dim);
    if (mode == PadMode::Reflect) {
      OPD_CHECK(lo < in && hi < in, op,
                      ": Padding size should be less than the corresponding input dimension, but got: padding (", lo,
                      ", ", hi, ") at dimension ", dim, " of input ", self.sizes());
    }
    const int64_t out = in + lo + hi;
    OPD_CHECK(out >= 1, op, ": input (", names[3 - k + d], ": ", in, ") is too small. Calculated output ",
                    names[3 - k + d], ": ", out);
    g.out_sizes[static_cast<std::size_t>(dim)] = out;
    g.src[3 - k + d] = source_index(mode, in, lo, out);
  }
  return g;
}

}  // namespace padding_detail

OPD_FUNC Tensor pad(std::string_view op, PadMode mode, int k, const Tensor& self, std::span<const int64_t> padding) {
  const padding_detail::PadGeometry g = padding_detail::pad_geometry(op, mode, k, self, padding);
  // ATen 1.13 pads floating and complex tensors only (reflection_pad3d: also
  // Half and BFloat16, which the others take here too).
  if (!is_floating_type(self.dtype()) && !is_complex_kernel_dtype(self.dtype()))
    throw_not_implemented_for(std::string(op).c_str(), self.dtype());
  Tensor out = opd::empty(g.out_sizes, self.dtype(), self.device());
  if (self.is_meta() || out.numel() == 0) return out;
  detail::gather_spatial(op, self, out, k, g.src);
  return out;
}

OPD_FUNC Tensor pad_backward(std::string_view op, PadMode mode, int k, const Tensor& grad_output, const Tensor& self,
                             std::span<const int64_t> padding) {
  OPD_CHECK(grad_output.defined(), op, ": argument 'grad_output' is an undefined tensor");
  const padding_detail::PadGeometry g = padding_detail::pad_geometry(op, mode, k, self, padding);
  const bool reflect = mode == PadMode::Reflect;
  // ATen 1.13's messages: reflection_pad1d/3d's structured checks say
  // grad_output, the others gradOutput (replication_pad1d without a comma).
  static constexpr const char* names[3] = {"depth", "height", "width"};
  const std::string_view who = reflect && k != 2 ? "grad_output" : "gradOutput";
  const std::string_view sep = !reflect && k == 1 ? "" : ",";
  OPD_CHECK(grad_output.dim() == self.dim(), op, ": Expected grad_output of ", self.dim(), " dimensions, got ",
            grad_output.dim());
  for (int d = k - 1; d >= 0; --d) {  // the width first, as ATen checks it
    const int64_t dim = self.dim() - k + d;
    const int64_t want = g.out_sizes[static_cast<std::size_t>(dim)];
    OPD_CHECK(grad_output.size(dim) == want, who, " ", names[3 - k + d], " unexpected. Expected: ", want, sep,
              " Got: ", grad_output.size(dim));
  }
  // ATen 1.13 reads the leading dimensions unchecked (out of bounds when they
  // differ): here they must match.
  for (int64_t d = 0; d < self.dim() - k; ++d) {
    OPD_CHECK(grad_output.size(d) == self.size(d), op, ": Expected grad_output of size ",
              IntArrayRef(g.out_sizes.data(), g.out_sizes.size()), " but got ", grad_output.sizes());
  }
  OPD_CHECK(grad_output.dtype() == self.dtype(), "expected scalar type ",
            reflect ? grad_output.dtype() : self.dtype(), " but found ", reflect ? self.dtype() : grad_output.dtype());
  // ATen 1.13: floating and complex; Half and BFloat16 only for reflection_pad3d.
  const ScalarType dt = self.dtype();
  const bool reduced = dt == ScalarType::Half || dt == ScalarType::BFloat16;
  if ((!is_floating_type(dt) && !is_complex_kernel_dtype(dt)) || (reduced && !(reflect && k == 3)))
    throw_not_implemented_for(std::string(op).c_str(), dt);
  Tensor grad_input = opd::empty(self.sizes(), dt, self.device());
  if (self.is_meta() || grad_input.numel() == 0) return grad_input;
  const std::string name(op);
  dispatch_dtype_with_complex(dt, name.c_str(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_like_v<T> || is_complex_v<T>) detail::scatter_add_spatial<T>(grad_output, grad_input, k, g.src);
  });
  return grad_input;
}

}  // namespace opd::kernels
