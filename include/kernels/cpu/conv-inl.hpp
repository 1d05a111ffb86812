#pragma once
// Out-of-line part of conv.hpp (compiled in src/kernels/conv.cpp):
// aten::convolution. The checks follow ATen 1.13's _convolution and
// check_shape_forward (ConvUtils.h) in their order; the work goes to
// kernels::conv2d (nn.hpp) for 1-D and 2-D without transposition, and to the
// two generic paths below otherwise, which treat every convolution as 3-D
// (a 1-D or 2-D one has unit leading spatial sizes):
//   direct:     per image and group, col (cg*K, S_out) by im2col, then
//               out (og, S_out) = W (og, cg*K) @ col;
//   transposed: per image and group, col (og*K, S_in) = W^T (og*K, cg) @ x (cg, S_in),
//               then col2im adds each column into the output (bias first).
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/conv.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/im2col.hpp"
#include "kernels/cpu/linalg.hpp"
#include "kernels/cpu/nn.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels {

namespace conv_detail {

inline void check_device(const Tensor& t, const char* arg) {
  OPD_CHECK(t.defined(), "convolution: argument '", arg, "' is an undefined tensor");
  OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), "convolution: the CPU kernel got argument '", arg,
            "' on device ", t.device());
}

// ATen's expand_param_if_needed: one value for every dimension, or one each.
inline std::vector<int64_t> expand_param(std::span<const int64_t> v, const char* name, int64_t dims) {
  if (v.size() == 1) return std::vector<int64_t>(static_cast<std::size_t>(dims), v[0]);
  OPD_CHECK(static_cast<int64_t>(v.size()) == dims, "expected ", name,
            " to be a single integer value or a list of ", dims,
            " values to match the convolution dimensions, but got ", name, "=", IntArrayRef(v.data(), v.size()));
  return std::vector<int64_t>(v.begin(), v.end());
}

template <class T>
void fill_bias(const Tensor& out, const std::optional<Tensor>& bias, int64_t batch, int64_t channels, int64_t plane) {
  T* o = out.data_ptr<T>();
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      const T b = bias ? bias->data_ptr<T>()[c * bias->stride(0)] : T(0);
      std::fill(o + (n * channels + c) * plane, o + (n * channels + c + 1) * plane, b);
    }
  }
}

template <class T>
void conv_direct(const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias, const Tensor& out,
                 const Geometry3& g, int64_t groups) {
  const int64_t batch = x.size(0), cin = x.size(1), cout = out.size(1);
  const int64_t cg = cin / groups, og = cout / groups, kdim = cg * g.k_size(), ivol = g.in_size(), ovol = g.out_size();
  fill_bias<T>(out, bias, batch, cout, ovol);
  std::vector<T> col_buffer(static_cast<std::size_t>(kdim * ovol));
  const int64_t col_sizes[] = {kdim * ovol}, col_strides[] = {1};
  const Tensor col = opd::from_blob(col_buffer.data(), col_sizes, col_strides, x.dtype());
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t gi = 0; gi < groups; ++gi) {
      im2col3<T>(x.data_ptr<T>() + (n * cin + gi * cg) * ivol, cg, g, col_buffer.data());
      detail::batched_gemm("convolution", matrix(w, gi * og * kdim, og, kdim), matrix(col, 0, kdim, ovol), Scalar(1),
                           Scalar(1), matrix(out, (n * cout + gi * og) * ovol, og, ovol));
    }
  }
}

template <class T>
void conv_transposed(const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias, const Tensor& out,
                     const Geometry3& g, int64_t groups) {
  // Here g.in is the transposed convolution's input (the direct one's output).
  const int64_t batch = x.size(0), cin = x.size(1), cout = out.size(1);
  const int64_t cg = cin / groups, og = cout / groups, rows = og * g.k_size(), ivol = g.in_size(), ovol = g.out_size();
  fill_bias<T>(out, bias, batch, cout, ovol);
  std::vector<T> col_buffer(static_cast<std::size_t>(rows * ivol));
  const int64_t col_sizes[] = {rows * ivol}, col_strides[] = {1};
  const Tensor col = opd::from_blob(col_buffer.data(), col_sizes, col_strides, x.dtype());
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t gi = 0; gi < groups; ++gi) {
      // weight[gi*cg .. (gi+1)*cg] is (cg, og*K): its transpose (og*K, cg).
      detail::batched_gemm("convolution", matrix(w, gi * cg * rows, rows, cg, /*transposed=*/true),
                           matrix(x, (n * cin + gi * cg) * ivol, cg, ivol), Scalar(0), Scalar(1),
                           matrix(col, 0, rows, ivol));
      col2im3_add<T>(col_buffer.data(), og, g, out.data_ptr<T>() + (n * cout + gi * og) * ovol);
    }
  }
}

// A view of t with a unit dimension inserted at `dim`.
inline Tensor unsqueezed(const Tensor& t, int64_t dim) {
  std::vector<int64_t> sizes = t.sizes().vec(), strides = t.strides().vec();
  const int64_t stride = dim < t.dim() ? strides[static_cast<std::size_t>(dim)] * sizes[static_cast<std::size_t>(dim)] : 1;
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return t.as_strided(sizes, strides, t.storage_offset());
}

inline Tensor squeezed(const Tensor& t, int64_t dim) {
  std::vector<int64_t> sizes = t.sizes().vec(), strides = t.strides().vec();
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return t.as_strided(sizes, strides, t.storage_offset());
}

}  // namespace conv_detail

OPD_FUNC Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt,
                            std::span<const int64_t> stride_arg, std::span<const int64_t> padding_arg,
                            std::span<const int64_t> dilation_arg, bool transposed,
                            std::span<const int64_t> output_padding_arg, int64_t groups) {
  using namespace conv_detail;
  check_device(input, "input");
  check_device(weight, "weight");
  const bool has_bias = bias_opt.has_value() && bias_opt->defined();
  if (has_bias) check_device(*bias_opt, "bias");
  const int64_t dims = weight.dim() - 2;
  OPD_CHECK(dims > 0, "weight should have at least three dimensions");
  const std::vector<int64_t> stride = expand_param(stride_arg, "stride", dims);
  const std::vector<int64_t> padding = expand_param(padding_arg, "padding", dims);
  const std::vector<int64_t> dilation = expand_param(dilation_arg, "dilation", dims);
  const std::vector<int64_t> output_padding = expand_param(output_padding_arg, "output_padding", dims);
  OPD_CHECK(groups > 0, "non-positive groups is not supported");
  for (int64_t i = 0; i < dims; ++i) {
    const auto u = static_cast<std::size_t>(i);
    OPD_CHECK(padding[u] >= 0, "negative padding is not supported");
    OPD_CHECK(output_padding[u] >= 0, "negative output_padding is not supported");
    OPD_CHECK(stride[u] > 0, "non-positive stride is not supported");
    OPD_CHECK(dilation[u] > 0, "dilation should be greater than zero");
  }
  const IntArrayRef ws = weight.sizes();
  OPD_CHECK(input.dim() == weight.dim(), "Expected ", weight.dim(), "-dimensional input for ", weight.dim(),
            "-dimensional weight ", ws, ", but got ", input.dim(), "-dimensional input of size ", input.sizes(),
            " instead");
  OPD_CHECK(ws[0] >= groups, "Given groups=", groups, ", expected weight to be at least ", groups,
            " at dimension 0, but got weight of size ", ws, " instead");
  OPD_CHECK(ws[0] % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ", groups,
            " at dimension 0, but got weight of size [", ws, "] instead");
  const int64_t cout = transposed ? ws[1] * groups : ws[0];
  if (!transposed) {
    OPD_CHECK(input.size(1) == ws[1] * groups, "Given groups=", groups, ", weight of size ", ws, ", expected input",
              input.sizes(), " to have ", ws[1] * groups, " channels, but got ", input.size(1), " channels instead");
  } else {
    OPD_CHECK(input.size(1) == ws[0], "Given transposed=", transposed, ", weight of size ", ws,
              ", expected input", input.sizes(), " to have ", ws[0], " channels, but got ", input.size(1),
              " channels instead");
  }
  OPD_CHECK(!has_bias || (bias_opt->dim() == 1 && bias_opt->size(0) == cout), "Given weight of size ", ws,
            ", expected bias to be 1-dimensional with ", cout, " elements, but got bias of size ",
            has_bias ? bias_opt->sizes() : IntArrayRef{}, " instead");
  Geometry3 g;
  std::vector<int64_t> out_sizes{input.size(0), cout};
  for (int64_t i = 0; i < dims; ++i) {
    const auto u = static_cast<std::size_t>(i), a = static_cast<std::size_t>(3 - dims + i);
    const int64_t in = input.size(i + 2), k = ws[static_cast<std::size_t>(i + 2)];
    int64_t out = 0;
    if (!transposed) {
      const int64_t padded = in + 2 * padding[u], eff_k = dilation[u] * (k - 1) + 1;
      OPD_CHECK(padded >= eff_k, "Calculated padded input size per channel: (", padded,
                "). Kernel size: (", eff_k, "). Kernel size can't be greater than actual input size");
      out = (padded - eff_k) / stride[u] + 1;
    } else {
      OPD_CHECK(output_padding[u] < stride[u] || output_padding[u] < dilation[u],
                "output padding must be smaller than either stride or dilation, but got output_padding=",
                IntArrayRef(output_padding), ", stride=", IntArrayRef(stride), ", dilation=", IntArrayRef(dilation));
      out = (in - 1) * stride[u] - 2 * padding[u] + dilation[u] * (k - 1) + output_padding[u] + 1;
      OPD_CHECK(out > 0, "Given input size per channel: (", input.sizes().slice(2),
                "). Calculated output size per channel: (", out, "). Output size is too small");
    }
    out_sizes.push_back(out);
    g.in[a] = in;
    g.out[a] = out;
    g.k[a] = k;
    g.s[a] = stride[u];
    g.p[a] = padding[u];
    g.d[a] = dilation[u];
  }
  OPD_CHECK(input.dtype() == weight.dtype(), "expected scalar type ", input.dtype(), " but found ", weight.dtype());
  OPD_CHECK(!has_bias || bias_opt->dtype() == input.dtype(), "expected scalar type ", input.dtype(), " but found ",
            bias_opt->dtype());

  // 1-D and 2-D without transposition: conv2d's paths (1-D with a unit height).
  if (!transposed && dims == 2) return kernels::conv2d(input, weight, bias_opt, stride, padding, dilation, groups);
  if (!transposed && dims == 1) {
    const int64_t s2[] = {1, stride[0]}, p2[] = {0, padding[0]}, d2[] = {1, dilation[0]};
    return squeezed(kernels::conv2d(unsqueezed(input, 2), unsqueezed(weight, 2), bias_opt, s2, p2, d2, groups), 2);
  }
  OPD_CHECK(dims <= 3, "convolution: ", dims, "-D convolutions are not supported (1-D, 2-D and 3-D are)");
  const ScalarType dt = input.dtype();
  // ATen 1.13's slow_conv_transpose{2,3}d also take Long (exact in any summation order).
  if (dt != ScalarType::Float && dt != ScalarType::Double && !(transposed && dt == ScalarType::Long))
    throw_not_implemented_for("convolution", dt);
  const bool meta = input.is_meta() || weight.is_meta() || (has_bias && bias_opt->is_meta());
  Tensor out = opd::empty(out_sizes, dt, meta ? Device::meta() : Device::cpu());
  if (meta || out.numel() == 0) return out;
  const Tensor x = input.is_contiguous() ? input : contiguous_clone(input);
  const Tensor w = weight.is_contiguous() ? weight : contiguous_clone(weight);
  const std::optional<Tensor> bias = has_bias ? bias_opt : std::nullopt;
  if (transposed) {
    Geometry3 tg = g;  // col2im's "in" is the input, its "out" the output
    if (dt == ScalarType::Float) conv_transposed<float>(x, w, bias, out, tg, groups);
    else if (dt == ScalarType::Long) conv_transposed<int64_t>(x, w, bias, out, tg, groups);
    else conv_transposed<double>(x, w, bias, out, tg, groups);
  } else if (dt == ScalarType::Float) {
    conv_direct<float>(x, w, bias, out, g, groups);
  } else {
    conv_direct<double>(x, w, bias, out, g, groups);
  }
  return out;
}

}  // namespace opd::kernels
