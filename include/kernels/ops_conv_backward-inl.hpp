#pragma once
// Out-of-line part of ops_conv_backward.hpp (compiled in src/kernels/conv_backward.cpp).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/im2col.hpp"
#include "kernels/cpu/linalg.hpp"
#include "kernels/cpu/onednn_conv.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/ops_conv.hpp"
#include "kernels/ops_conv_backward.hpp"
#include "kernels/ops_reductions.hpp"

namespace opd::kernels {

namespace conv_backward_detail {

using ints = std::span<const int64_t>;

// One spatial parameter list as three values (a missing dimension: size 1,
// stride 1, padding 0, dilation 1), one value standing for every dimension.
inline std::array<int64_t, 3> three(ints v, int64_t dims, int64_t fill, const char* what) {
  OPD_CHECK(v.size() == 1 || static_cast<int64_t>(v.size()) == dims, "convolution_backward: expected ", what,
            " to be a single integer value or a list of ", dims, " values to match the convolution dimensions, but got ",
            what, "=", IntArrayRef(v.data(), v.size()));
  std::array<int64_t, 3> out{fill, fill, fill};
  for (int64_t i = 0; i < dims; ++i) out[static_cast<std::size_t>(3 - dims + i)] = v.size() == 1 ? v[0] : v[static_cast<std::size_t>(i)];
  return out;
}

inline std::array<int64_t, 3> spatial(const Tensor& t, int64_t dims) {
  std::array<int64_t, 3> out{1, 1, 1};
  for (int64_t i = 0; i < dims; ++i) out[static_cast<std::size_t>(3 - dims + i)] = t.size(2 + i);
  return out;
}

// grad_weight[a, b, k] = sum over n and the positions q of `small`:
// small[n, a, q] * big[n, group(a) * big_per_group + b, q * stride - padding + k * dilation].
// For a convolution small is grad_output and big the input; for a
// transposed one small is the input and big grad_output (weight (Cin, Cout/g, k)).
// As matrix products, per image and group: the columns of big over small's
// positions (im2col3: rows (b, k), one column per q), then
// grad_weight[group] (a, (b, k)) += small[n, group] (a, q) @ columns^T.
template <class T>
void grad_weight_gemm(const Tensor& small, const Tensor& big, const Tensor& gw, int64_t groups,
                      std::array<int64_t, 3> ps, std::array<int64_t, 3> pb, std::array<int64_t, 3> k,
                      std::array<int64_t, 3> stride, std::array<int64_t, 3> pad, std::array<int64_t, 3> dil) {
  using conv_detail::matrix;
  const int64_t batch = small.size(0), c_small = small.size(1), c_big = big.size(1);
  const int64_t spg = c_small / groups, bpg = c_big / groups;
  conv_detail::Geometry3 g;
  g.in = pb;
  g.out = ps;
  g.k = k;
  g.s = stride;
  g.p = pad;
  g.d = dil;
  const int64_t rows = bpg * g.k_size(), vol_s = g.out_size(), vol_b = g.in_size();
  std::vector<T> col_buffer(static_cast<std::size_t>(rows * vol_s));
  const int64_t col_sizes[] = {rows * vol_s}, col_strides[] = {1};
  const Tensor col = opd::from_blob(col_buffer.data(), col_sizes, col_strides, small.dtype());
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t gi = 0; gi < groups; ++gi) {
      conv_detail::im2col3<T>(big.data_ptr<T>() + (n * c_big + gi * bpg) * vol_b, bpg, g, col_buffer.data());
      detail::batched_gemm("convolution_backward", matrix(small, (n * c_small + gi * spg) * vol_s, spg, vol_s),
                           matrix(col, 0, vol_s, rows, /*transposed=*/true), Scalar(n == 0 ? 0 : 1), Scalar(1),
                           matrix(gw, gi * spg * rows, spg, rows));
    }
  }
}

inline Tensor contiguous_of(const Tensor& t) { return t.is_contiguous() ? t : contiguous_clone(t); }

inline std::tuple<Tensor, Tensor, Tensor> convolution_backward(const Tensor& grad_output, const Tensor& input,
                                                               const Tensor& weight,
                                                               std::optional<ints> bias_sizes, ints stride,
                                                               ints padding, ints dilation, bool transposed,
                                                               ints output_padding, int64_t groups,
                                                               std::array<bool, 3> output_mask) {
  constexpr const char* op = "convolution_backward";
  for (const auto& [t, name] : {std::pair<const Tensor&, const char*>{grad_output, "grad_output"},
                                {input, "input"}, {weight, "weight"}}) {
    OPD_CHECK(t.defined(), op, ": argument '", name, "' is an undefined tensor");
    OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": the CPU kernel got argument '", name, "' on device ",
              t.device());
  }
  const ScalarType dt = input.dtype();
  // The forward's checks and output size, from Meta tensors of the same sizes
  // (convolution's own checks, in its order; nothing is computed).
  const Device meta = Device::meta();
  const Tensor expected = call<ops::convolution>(
      opd::empty(input.sizes(), dt, meta), opd::empty(weight.sizes(), weight.dtype(), meta), std::nullopt, stride,
      padding, dilation, transposed, output_padding, groups);
  OPD_CHECK(grad_output.sizes() == expected.sizes(), op, ": expected grad_output of size ", expected.sizes(),
            " (the forward's output), but got ", grad_output.sizes());
  OPD_CHECK(grad_output.dtype() == dt, op, ": expected grad_output of dtype ", dt, ", but got ", grad_output.dtype());
  const int64_t dims = weight.dim() - 2;
  const int64_t out_channels = transposed ? weight.size(1) * groups : weight.size(0);
  if (bias_sizes && output_mask[2]) {
    OPD_CHECK(bias_sizes->size() == 1 && (*bias_sizes)[0] == out_channels, op, ": expected bias_sizes [",
              out_channels, "], but got ", IntArrayRef(bias_sizes->data(), bias_sizes->size()));
  }
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("convolution_backward", dt);
  const bool on_meta = input.is_meta() || weight.is_meta() || grad_output.is_meta();
  const auto s3 = three(stride, dims, 1, "stride"), p3 = three(padding, dims, 0, "padding"),
             d3 = three(dilation, dims, 1, "dilation");
  Tensor grad_input, grad_weight, grad_bias;
  // 2-D Float convolutions with groups or a kernel larger than 1x1: oneDNN's
  // backward primitives where built in (where ATen 1.13 takes its ideep path
  // too; [1, 64, 56, 56] 3x3: 3.46 -> 2.05 ms one thread, ATen 2.1 to 2.5);
  // grad_bias from the backward-weights primitive when grad_weight is wanted.
  if (!on_meta && !transposed && dims == 2 && input.dim() == 4 && dt == ScalarType::Float &&
      weight.dtype() == dt && (groups > 1 || weight.size(2) * weight.size(3) > 1) && input.numel() > 0 &&
      grad_output.numel() > 0 && weight.numel() > 0) {
    const std::array<int64_t, 2> st{s3[1], s3[2]}, pd{p3[1], p3[2]}, dl{d3[1], d3[2]};
    if (output_mask[0]) grad_input = opd::empty(input.sizes(), dt, Device::cpu());
    if (output_mask[1]) grad_weight = opd::empty(weight.sizes(), dt, Device::cpu());
    if (output_mask[1] && output_mask[2]) grad_bias = opd::empty(IntArrayRef(&out_channels, 1), dt, Device::cpu());
    const bool done = (!output_mask[0] && !output_mask[1]) ||
                      detail::onednn_conv2d_backward(contiguous_of(grad_output), contiguous_of(input),
                                                     contiguous_of(weight), grad_input, grad_weight, grad_bias, st, pd,
                                                     dl, groups);
    if (done) {
      if (output_mask[2] && !grad_bias.defined()) {
        const std::vector<int64_t> reduce{0, 2, 3};
        grad_bias = call<ops::sum_dim>(grad_output, std::optional<ints>(ints(reduce)), false, std::nullopt);
      }
      return {grad_input, grad_weight, grad_bias};
    }
    grad_input = grad_weight = grad_bias = Tensor();  // oneDNN not built in: the library's own paths
  }
  if (output_mask[0]) {
    if (on_meta) {
      grad_input = opd::empty(input.sizes(), dt, meta);
    } else if (!transposed) {
      // the transposed convolution of grad_output, output_padding giving back input's size
      const auto in3 = spatial(input, dims), go3 = spatial(grad_output, dims), k3 = spatial(weight, dims);
      std::vector<int64_t> op_pad(static_cast<std::size_t>(dims));
      for (int64_t i = 0; i < dims; ++i) {
        const auto j = static_cast<std::size_t>(3 - dims + i);
        op_pad[static_cast<std::size_t>(i)] = in3[j] - ((go3[j] - 1) * s3[j] - 2 * p3[j] + d3[j] * (k3[j] - 1) + 1);
      }
      grad_input = call<ops::convolution>(grad_output, weight, std::nullopt, stride, padding, dilation, true,
                                          ints(op_pad), groups);
    } else {
      const std::vector<int64_t> zeros(static_cast<std::size_t>(dims), 0);
      grad_input = call<ops::convolution>(grad_output, weight, std::nullopt, stride, padding, dilation, false,
                                          ints(zeros), groups);
    }
  }
  if (output_mask[1]) {
    if (on_meta) {
      grad_weight = opd::empty(weight.sizes(), dt, meta);
    } else {
      grad_weight = opd::empty(weight.sizes(), dt, Device::cpu());
      const Tensor go = contiguous_of(grad_output), x = contiguous_of(input);
      const Tensor& small = transposed ? x : go;
      const Tensor& big = transposed ? go : x;
      const auto run = [&](auto tag) {
        using T = typename decltype(tag)::type;
        if (small.size(0) == 0) {  // no image: a zero gradient
          std::fill(grad_weight.data_ptr<T>(), grad_weight.data_ptr<T>() + grad_weight.numel(), T(0));
          return;
        }
        grad_weight_gemm<T>(small, big, grad_weight, groups, spatial(small, dims), spatial(big, dims),
                            spatial(weight, dims), s3, p3, d3);
      };
      if (dt == ScalarType::Float) run(type_tag<float>{});
      else run(type_tag<double>{});
    }
  }
  if (output_mask[2]) {
    if (on_meta) {
      const int64_t c = out_channels;
      grad_bias = opd::empty(IntArrayRef(&c, 1), dt, meta);
    } else {
      std::vector<int64_t> reduce{0};
      for (int64_t i = 0; i < dims; ++i) reduce.push_back(2 + i);
      grad_bias = call<ops::sum_dim>(grad_output, std::optional<ints>(ints(reduce)), false, std::nullopt);
    }
  }
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace conv_backward_detail

OPD_FUNC RegistrationSet register_conv_backward() {
  RegistrationSet set;
  // Meta: the same kernel, which computes nothing on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::convolution_backward, &conv_backward_detail::convolution_backward>(key));
  }
  return set;
}

}  // namespace opd::kernels
