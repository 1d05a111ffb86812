#pragma once
// Out-of-line part of ops_padding.hpp (compiled in src/kernels/padding.cpp).
#include <span>
#include <vector>

#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_padding.hpp"
#include "kernels/ops_views.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace padding_ops_detail {

using ints = std::span<const int64_t>;

template <fixed_string Name, PadMode Mode, int K>
Tensor pad_kernel(const Tensor& self, ints padding) {
  return kernels::pad(Name.view(), Mode, K, self, padding);
}

template <fixed_string Name, PadMode Mode, int K>
Tensor pad_backward_kernel(const Tensor& grad_output, const Tensor& self, ints padding) {
  return kernels::pad_backward(Name.view(), Mode, K, grad_output, self, padding);
}

// ATen 1.13's constant_pad_nd, step by step: crop by the negative pads
// (narrow), and when no pad is positive that crop's copy is the result;
// otherwise a tensor of the padded shape filled with `value`, its interior
// (narrowed by the positive pads) overwritten by the crop.
inline Tensor constant_pad_nd(const Tensor& self, ints pad, const Scalar& value) {
  constexpr std::string_view op = "aten::constant_pad_nd";
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  OPD_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals ", pad.size());
  const int64_t l_inp = self.dim(), l_pad = static_cast<int64_t>(pad.size()) / 2, l_diff = l_inp - l_pad;
  OPD_CHECK(l_inp >= l_pad,
            "Length of pad should be no more than twice the number of dimensions of the input. Pad length is ",
            pad.size(), "while the input has ", l_inp, "dimensions.");
  const auto lo = [&](int64_t i) { return pad[static_cast<std::size_t>(2 * (l_inp - i - 1))]; };
  const auto hi = [&](int64_t i) { return pad[static_cast<std::size_t>(2 * (l_inp - i - 1) + 1)]; };
  // the new shape first (its checks before any call), as ATen's
  std::vector<int64_t> new_shape(self.sizes().begin(), self.sizes().end());
  bool all_non_positive = true;
  for (int64_t i = l_diff; i < l_inp; ++i) {
    const int64_t new_dim = self.size(i) + lo(i) + hi(i);
    OPD_CHECK(new_dim > 0, "The input size ", self.size(i), ", plus negative padding ", lo(i), " and ", hi(i),
              " resulted in a negative output size, which is invalid. Check dimension ", i, " of your input.");
    new_shape[static_cast<std::size_t>(i)] = new_dim;
    all_non_positive = all_non_positive && lo(i) <= 0 && hi(i) <= 0;
  }
  Tensor crop = self;
  for (int64_t i = l_diff; i < l_inp; ++i) {
    if (lo(i) < 0) crop = call<ops::narrow>(crop, i, -lo(i), crop.size(i) + lo(i));
    if (hi(i) < 0) crop = call<ops::narrow>(crop, i, int64_t{0}, crop.size(i) + hi(i));
  }
  if (all_non_positive) return call<ops::clone>(crop, std::nullopt);
  Tensor out = call<ops::empty>(std::span<const int64_t>(new_shape), arg<"dtype"> = self.dtype(),
                                arg<"device"> = self.device());
  call<ops::fill_>(out, value);
  Tensor interior = out;
  for (int64_t i = l_diff; i < l_inp; ++i) {
    if (lo(i) > 0) interior = call<ops::narrow>(interior, i, lo(i), interior.size(i) - lo(i));
    if (hi(i) > 0) interior = call<ops::narrow>(interior, i, int64_t{0}, interior.size(i) - hi(i));
  }
  call<ops::copy_>(interior, crop, false);
  return out;
}

}  // namespace padding_ops_detail

OPD_FUNC RegistrationSet register_padding() {
  namespace p = padding_ops_detail;
  using M = PadMode;
  RegistrationSet set;
  // Meta: the same kernels, which stop after their checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::reflection_pad1d, &p::pad_kernel<"reflection_pad1d", M::Reflect, 1>>(key));
    set.add(register_kernel<ops::reflection_pad2d, &p::pad_kernel<"reflection_pad2d", M::Reflect, 2>>(key));
    set.add(register_kernel<ops::reflection_pad3d, &p::pad_kernel<"reflection_pad3d", M::Reflect, 3>>(key));
    set.add(register_kernel<ops::replication_pad1d, &p::pad_kernel<"replication_pad1d", M::Replicate, 1>>(key));
    set.add(register_kernel<ops::replication_pad2d, &p::pad_kernel<"replication_pad2d", M::Replicate, 2>>(key));
    set.add(register_kernel<ops::replication_pad3d, &p::pad_kernel<"replication_pad3d", M::Replicate, 3>>(key));
    set.add(derive_missing_variants<ops::reflection_pad1d, void, ops::reflection_pad1d_out>(key));
    set.add(derive_missing_variants<ops::reflection_pad2d, void, ops::reflection_pad2d_out>(key));
    set.add(derive_missing_variants<ops::reflection_pad3d, void, ops::reflection_pad3d_out>(key));
    set.add(derive_missing_variants<ops::replication_pad1d, void, ops::replication_pad1d_out>(key));
    set.add(derive_missing_variants<ops::replication_pad2d, void, ops::replication_pad2d_out>(key));
    set.add(derive_missing_variants<ops::replication_pad3d, void, ops::replication_pad3d_out>(key));
    set.add(register_kernel<ops::reflection_pad1d_backward, &p::pad_backward_kernel<"reflection_pad1d_backward", M::Reflect, 1>>(key));
    set.add(register_kernel<ops::reflection_pad2d_backward, &p::pad_backward_kernel<"reflection_pad2d_backward", M::Reflect, 2>>(key));
    set.add(register_kernel<ops::reflection_pad3d_backward, &p::pad_backward_kernel<"reflection_pad3d_backward", M::Reflect, 3>>(key));
    set.add(register_kernel<ops::replication_pad1d_backward, &p::pad_backward_kernel<"replication_pad1d_backward", M::Replicate, 1>>(key));
    set.add(register_kernel<ops::replication_pad2d_backward, &p::pad_backward_kernel<"replication_pad2d_backward", M::Replicate, 2>>(key));
    set.add(register_kernel<ops::replication_pad3d_backward, &p::pad_backward_kernel<"replication_pad3d_backward", M::Replicate, 3>>(key));
    set.add(derive_missing_variants<ops::reflection_pad1d_backward, void, ops::reflection_pad1d_backward_grad_input>(key));
    set.add(derive_missing_variants<ops::reflection_pad2d_backward, void, ops::reflection_pad2d_backward_grad_input>(key));
    set.add(derive_missing_variants<ops::reflection_pad3d_backward, void, ops::reflection_pad3d_backward_grad_input>(key));
    set.add(derive_missing_variants<ops::replication_pad1d_backward, void, ops::replication_pad1d_backward_grad_input>(key));
    set.add(derive_missing_variants<ops::replication_pad2d_backward, void, ops::replication_pad2d_backward_grad_input>(key));
    set.add(derive_missing_variants<ops::replication_pad3d_backward, void, ops::replication_pad3d_backward_grad_input>(key));
  }
  set.add(register_kernel<ops::constant_pad_nd, &p::constant_pad_nd>(DispatchKey::CompositeExplicitAutograd));
  return set;
}

}  // namespace opd::kernels
