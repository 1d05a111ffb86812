#pragma once
// Out-of-line part of padding.hpp (compiled in src/kernels/padding.cpp).
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

OPD_FUNC Tensor pad(std::string_view op, PadMode mode, int k, const Tensor& self, std::span<const int64_t> padding) {
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
  // ATen 1.13 pads floating and complex tensors only (reflection_pad3d: also
  // Half and BFloat16, which the others take here too).
  if (!is_floating_type(self.dtype()) && !is_complex_kernel_dtype(self.dtype()))
    throw_not_implemented_for(std::string(op).c_str(), self.dtype());
  static constexpr const char* names[3] = {"D", "H", "W"};
  std::vector<int64_t> out_sizes(self.sizes().begin(), self.sizes().end());
  std::vector<int64_t> src[3] = {{0}, {0}, {0}};
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
    out_sizes[static_cast<std::size_t>(dim)] = out;
    src[3 - k + d] = padding_detail::source_index(mode, in, lo, out);
  }
  Tensor out = opd::empty(out_sizes, self.dtype(), self.device());
  if (self.is_meta() || out.numel() == 0) return out;
  detail::gather_spatial(op, self, out, k, src);
  return out;
}

}  // namespace opd::kernels
