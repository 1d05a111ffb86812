#pragma once
// Out-of-line part of ops_conv.hpp (compiled in src/kernels/register_conv.cpp).
#include <span>
#include <string>

#include "kernels/ops_conv.hpp"

namespace opd::kernels {

namespace conv_ops_detail {

using ints = std::span<const int64_t>;

inline Tensor convolution_kernel(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                                 ints stride, ints padding, ints dilation, bool transposed, ints output_padding,
                                 int64_t groups) {
  return kernels::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups);
}

inline Tensor add_batch_dim(const Tensor& t) {
  std::vector<int64_t> sizes = t.sizes().vec(), strides = t.strides().vec();
  sizes.insert(sizes.begin(), 1);
  strides.insert(strides.begin(), t.dim() > 0 ? t.stride(0) * t.size(0) : 1);
  return t.as_strided(sizes, strides, t.storage_offset());
}

inline Tensor drop_batch_dim(const Tensor& t) {
  std::vector<int64_t> sizes = t.sizes().vec(), strides = t.strides().vec();
  sizes.erase(sizes.begin());
  strides.erase(strides.begin());
  return t.as_strided(sizes, strides, t.storage_offset());
}

// ATen's batchify: an input of dims + 1 dimensions is one unbatched sample.
[[gnu::cold, gnu::noinline]] inline void throw_conv_input_dims(const char* name, int64_t dims, const Tensor& input) {
  throw Error(opd::detail::str_cat("Expected ", dims + 1, "D (unbatched) or ", dims + 2, "D (batched) input to ", name,
                                   ", but got input of size: ", input.sizes()));
}

inline Tensor front_end(const char* name, int64_t dims, const Tensor& input, const Tensor& weight,
                        const std::optional<Tensor>& bias, ints stride, ints padding, ints dilation, bool transposed,
                        ints output_padding, int64_t groups) {
  OPD_CHECK(input.defined(), name, ": argument 'input' is an undefined tensor");
  if (input.dim() != dims + 1 && input.dim() != dims + 2) throw_conv_input_dims(name, dims, input);
  const bool unbatched = input.dim() == dims + 1;
  const Tensor out = call<ops::convolution>(unbatched ? add_batch_dim(input) : input, weight, bias, stride, padding,
                                            dilation, transposed, output_padding, groups);
  return unbatched ? drop_batch_dim(out) : out;
}

template <int Dims>
Tensor conv_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, ints stride,
               ints padding, ints dilation, int64_t groups) {
  static constexpr const char* names[] = {"", "conv1d", "conv2d", "conv3d"};
  const int64_t zeros[] = {0, 0, 0};
  return front_end(names[Dims], Dims, input, weight, bias, stride, padding, dilation, false, ints(zeros, Dims), groups);
}

template <int Dims>
Tensor conv_transpose_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, ints stride,
                         ints padding, ints output_padding, int64_t groups, ints dilation) {
  static constexpr const char* names[] = {"", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"};
  return front_end(names[Dims], Dims, input, weight, bias, stride, padding, dilation, true, output_padding, groups);
}

}  // namespace conv_ops_detail

OPD_FUNC RegistrationSet register_conv() {
  namespace c = conv_ops_detail;
  constexpr DispatchKey implicit_ = DispatchKey::CompositeImplicitAutograd;
  RegistrationSet set;
  set.add(register_kernel<ops::convolution, &c::convolution_kernel>(DispatchKey::CPU));
  // Meta: the same kernel, which returns right after its checks on Meta tensors.
  set.add(register_kernel<ops::convolution, &c::convolution_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::conv1d, &c::conv_nd<1>>(implicit_));
  set.add(register_kernel<ops::conv2d, &c::conv_nd<2>>(implicit_));
  set.add(register_kernel<ops::conv3d, &c::conv_nd<3>>(implicit_));
  set.add(register_kernel<ops::conv_transpose1d, &c::conv_transpose_nd<1>>(implicit_));
  set.add(register_kernel<ops::conv_transpose2d, &c::conv_transpose_nd<2>>(implicit_));
  set.add(register_kernel<ops::conv_transpose3d, &c::conv_transpose_nd<3>>(implicit_));
  return set;
}

}  // namespace opd::kernels
