#pragma once
// Out-of-line part of nn.hpp (compiled in src/kernels/nn.cpp): embedding,
// dropout, conv2d (im2col + detail::batched_gemm of linalg.hpp, shifted GEMMs
// for stride 1, Winograd for 3x3 stride 1 in conv_winograd-inl.hpp), max_pool2d,
// avg_pool2d, adaptive_avg_pool2d and the two average pools' backward.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/binary_ops.hpp"
#include "kernels/cpu/conv_winograd-inl.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/copy_memory.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/linalg.hpp"
#include "kernels/cpu/nn.hpp"
#include "kernels/cpu/onednn_conv.hpp"
#include "kernels/cpu/scratch-inl.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/pool_shape-inl.hpp"
#include "kernels/cpu/reduce_simd.hpp"

namespace opd::kernels {

namespace detail {

// The kernels below are also the Meta kernels: every check runs on Meta
// tensors too, and a Meta input gets its Meta output right after the output's
// sizes are known, before anything is read (so both devices raise the same
// errors, and Meta computes nothing).

// ATen's deprecated type name in argument checks: "CPUFloatType".
inline std::string cpu_type_name(ScalarType t) { return opd::detail::str_cat("CPU", t, "Type"); }

// Copies `count` elements of `size` bytes each from src (element stride
// `src_stride`) to contiguous dst.
inline void copy_strided_elements(char* dst, const char* src, int64_t count, int64_t src_stride, std::size_t size) {
  if (src_stride == 1) {
    copy_memory(dst, src, static_cast<std::size_t>(count) * size);
    return;
  }
  for (int64_t i = 0; i < count; ++i) std::memcpy(dst + i * static_cast<int64_t>(size), src + i * src_stride * static_cast<int64_t>(size), size);
}

inline Tensor contiguous_or_self(const Tensor& t) { return t.is_contiguous() ? t : contiguous_clone(t); }

// A (begin .. begin+n) slice of the first dimension of a contiguous tensor, as `sizes`.
inline Tensor contiguous_view(const Tensor& t, int64_t element_offset, std::vector<int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t s = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(sizes[i], 1);
  }
  return t.as_strided(sizes, strides, t.storage_offset() + element_offset);
}

}  // namespace detail

// --------------------------------------------------------------- embedding ---

OPD_FUNC Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                          bool sparse) {
  (void)padding_idx;  // backward-only, as scale_grad_by_freq and sparse
  (void)scale_grad_by_freq;
  (void)sparse;
  detail::nn_check_cpu("embedding", weight, "weight");
  detail::nn_check_cpu("embedding", indices, "indices");
  OPD_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  OPD_CHECK(indices.dtype() == ScalarType::Long || indices.dtype() == ScalarType::Int,
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ",
            detail::cpu_type_name(indices.dtype()), " instead (while checking arguments for embedding)");
  const int64_t rows = weight.size(0), dim = weight.size(1);
  if (weight.is_meta() || indices.is_meta()) {  // Meta: the indices' values are not checked (there are none)
    std::vector<int64_t> sizes = indices.sizes().vec();
    sizes.push_back(dim);
    return opd::empty(sizes, weight.dtype(), Device::meta());
  }
  // Every index checked before anything is written.
  const Tensor idx = detail::contiguous_or_self(indices);
  const int64_t n = idx.numel();
  // The indices widened once and checked in one branch-free pass (an index
  // read through data_ptr and checked one by one took a fifth of the time).
  std::vector<int64_t> picked(static_cast<std::size_t>(n));
  if (idx.dtype() == ScalarType::Long) {
    const int64_t* v = idx.data_ptr<int64_t>();
    std::copy(v, v + n, picked.begin());
  } else {
    const int32_t* v = idx.data_ptr<int32_t>();
    std::copy(v, v + n, picked.begin());
  }
  bool out_of_range = false;
  for (const int64_t v : picked) out_of_range |= static_cast<uint64_t>(v) >= static_cast<uint64_t>(rows);
  OPD_CHECK(!out_of_range, "index out of range in self");
  std::vector<int64_t> sizes = indices.sizes().vec();
  sizes.push_back(dim);
  Tensor out = opd::empty(sizes, weight.dtype(), Device::cpu());
  const std::size_t size = weight.itemsize();
  char* dst = static_cast<char*>(out.data_ptr());
  const char* src = static_cast<const char*>(weight.data_ptr());
  const int64_t row_bytes = dim * static_cast<int64_t>(size), src_row_bytes = weight.stride(0) * static_cast<int64_t>(size);
  const int64_t column_stride = weight.stride(1);
  // rows across threads, as ATen's index_select path splits them
  parallel_for(0, n, std::max<int64_t>(1, grain_size / std::max<int64_t>(dim, 1)), [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      detail::copy_strided_elements(dst + i * row_bytes, src + picked[static_cast<std::size_t>(i)] * src_row_bytes, dim,
                                    column_stride, size);
    }
  });
  return out;
}

// The gradient of embedding with respect to its weight (ATen 1.13's
// embedding_dense_backward_cpu): grad_output's row i added to row indices[i]
// (padding_idx's row left zero; with scale_grad_by_freq, each row scaled by
// 1 / the number of times its index occurs). An index outside
// [0, num_weights) is refused (ATen 1.13 skips it, after counting it out of bounds).
OPD_FUNC Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                         int64_t padding_idx, bool scale_grad_by_freq) {
  constexpr const char* op = "embedding_dense_backward";
  detail::nn_check_cpu(op, grad_output, "grad_output");
  detail::nn_check_cpu(op, indices, "indices");
  OPD_CHECK(indices.dtype() == ScalarType::Long || indices.dtype() == ScalarType::Int,
            "Expected tensor for argument #2 'indices' to have one of the following scalar types: Long, Int; but got ",
            detail::cpu_type_name(indices.dtype()), " instead (while checking arguments for embedding_backward)");
  OPD_CHECK(num_weights >= 0, op, ": num_weights must be non-negative, got ", num_weights);
  OPD_CHECK(grad_output.dim() >= 1, op, ": grad_output must have at least one dimension");
  const int64_t dim = grad_output.size(grad_output.dim() - 1), n = indices.numel();
  OPD_CHECK(grad_output.numel() == n * dim, op, ": grad_output ", grad_output.sizes(), " does not hold one row of ",
            dim, " per index of ", indices.sizes());
  const ScalarType dt = grad_output.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for(op, dt);
  Tensor grad_weight = kernels::zeros(std::vector<int64_t>{num_weights, dim}, dt, grad_output.device());
  if (grad_weight.is_meta() || indices.is_meta()) return grad_weight;
  const Tensor idx = detail::contiguous_or_self(indices);
  std::vector<int64_t> rows(static_cast<std::size_t>(n));
  std::vector<int64_t> counts(scale_grad_by_freq ? static_cast<std::size_t>(num_weights) : 0u);
  for (int64_t i = 0; i < n; ++i) {  // every index checked before anything is written
    const int64_t v = idx.dtype() == ScalarType::Long ? idx.data_ptr<int64_t>()[i] : idx.data_ptr<int32_t>()[i];
    OPD_CHECK_INDEX(v >= 0 && v < num_weights, op, ": index ", v, " is out of bounds for ", num_weights, " weights");
    rows[static_cast<std::size_t>(i)] = v;
    if (scale_grad_by_freq) ++counts[static_cast<std::size_t>(v)];
  }
  const Tensor g = detail::contiguous_or_self(grad_output);
  dispatch_floating_dtype(dt, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      const T* gp = g.data_ptr<T>();
      T* w = grad_weight.data_ptr<T>();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t k = rows[static_cast<std::size_t>(i)];
        if (k == padding_idx) continue;
        const T scale = scale_grad_by_freq ? T(1) / static_cast<T>(counts[static_cast<std::size_t>(k)]) : T(1);
        for (int64_t j = 0; j < dim; ++j) w[k * dim + j] += gp[i * dim + j] * scale;
      }
    }
  });
  return grad_weight;
}

// ----------------------------------------------------------------- dropout ---

OPD_FUNC Tensor dropout(const Tensor& input, double p, bool train) {
  OPD_CHECK(input.defined(), "dropout: argument 'input' is an undefined tensor");
  OPD_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  if (p == 1) {  // ATen: input * 0 (NaN stays NaN)
    Tensor out = empty_from_meta(mul_scalar_meta(input, Scalar(0)), input.device());
    if (!out.is_meta()) mul_scalar_impl(input, Scalar(0), out);
    return out;
  }
  // the random mask is native_dropout's, an operator of its own: aten::dropout through the dispatcher
  // (ops_nn-inl.hpp) calls it
  throw Error(opd::detail::str_cat("dropout: train=True with p=", p,
                                   " draws a random mask: call aten::dropout through the dispatcher "
                                   "(opd::call<ops::dropout>), which takes aten::native_dropout's"));
}

// ------------------------------------------------------------------ conv2d ---

namespace detail {

inline std::vector<int64_t> conv_param(std::span<const int64_t> v, const char* name, int64_t dims) {
  if (v.size() == 1) return std::vector<int64_t>(static_cast<std::size_t>(dims), v[0]);
  OPD_CHECK(static_cast<int64_t>(v.size()) == dims, "expected ", name,
            " to be a single integer value or a list of ", dims,
            " values to match the convolution dimensions, but got ", name, "=", IntArrayRef(v.data(), v.size()));
  return std::vector<int64_t>(v.begin(), v.end());
}

// col (C*kh*kw, oh*ow) from one image's C planes (contiguous), zero padded.
// Element-size generic: the values are copied, never computed.
template <class E>
void im2col(const E* in, int64_t channels, int64_t ih, int64_t iw, int64_t kh, int64_t kw, int64_t ph, int64_t pw,
            int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t oh, int64_t ow, E* col) {
  const int64_t rows = channels * kh * kw;
  parallel_for(0, rows, std::max<int64_t>(1, grain_size / std::max<int64_t>(oh * ow, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t c = r / (kh * kw), ki = (r / kw) % kh, kj = r % kw;
      const E* plane = in + c * ih * iw;
      E* dst = col + r * oh * ow;
      for (int64_t y = 0; y < oh; ++y) {
        const int64_t iy = y * sh - ph + ki * dh;
        E* row = dst + y * ow;
        if (iy < 0 || iy >= ih) {
          std::fill(row, row + ow, E{});
          continue;
        }
        const E* src = plane + iy * iw;
        // Output columns x whose input column ix = x * sw - pw + kj * dw is
        // inside the image: [x0, x1); zeros on either side.
        const int64_t off = kj * dw - pw;
        const int64_t x0 = std::min<int64_t>(ow, off >= 0 ? 0 : (-off + sw - 1) / sw);
        const int64_t x1 = std::max<int64_t>(x0, std::min<int64_t>(ow, iw - off <= 0 ? 0 : (iw - off + sw - 1) / sw));
        std::fill(row, row + x0, E{});
        if (sw == 1) {
          std::copy(src + x0 + off, src + x1 + off, row + x0);
        } else {
          for (int64_t x = x0; x < x1; ++x) row[x] = src[x * sw + off];
        }
        std::fill(row + x1, row + ow, E{});
      }
    }
  });
}

template <class E>
void im2col_bytes(const Tensor& input, int64_t offset, int64_t channels, const std::vector<int64_t>& geometry,
                  const Tensor& col) {
  const E* in = static_cast<const E*>(input.data_ptr()) + offset;
  im2col<E>(in, channels, geometry[0], geometry[1], geometry[2], geometry[3], geometry[4], geometry[5], geometry[6],
            geometry[7], geometry[8], geometry[9], geometry[10], geometry[11], static_cast<E*>(col.data_ptr()));
}

// The shape classes (Float) that conv2d gives to oneDNN when it is built in
// (onednn_conv.hpp), measured against the library's own paths, one thread
// (docs/benchmarks.md, "Operators of torchvision's CNNs"):
//   - grouped convolutions (mobilenet's depthwise layers, resnext's groups of
//     4 and 8 channels): the own paths run one thin GEMM per group, oneDNN a
//     direct grouped kernel (mobilenet_v2's depthwise layers: 0.03x-1.04x the time);
//   - the im2col cases (a stride, or too few outputs per image for the shifted
//     GEMMs) with a kernel larger than 1x1.
// 1x1 convolutions stay on the library's GEMM (mobilenet_v2's: oneDNN 1.0x-1.8x
// its time), and so do the shapes Winograd or the shifted GEMMs serve (`own_fast`).
inline bool conv2d_prefers_onednn(int64_t groups, int64_t kh, int64_t kw, bool own_fast) {
  return groups > 1 || (kh * kw > 1 && !own_fast);
}

// Stride-1 convolution without an unfolded matrix: each image, zero-padded
// once, is read by kh*kw GEMMs, one per kernel offset (ki, kj):
//   acc (og, oh*Wp) += W[:, :, ki, kj] (og, cg) @ xp shifted by (ki*dh, kj*dw),
// the shifted input viewed as (cg, oh*Wp) with row stride Hp*Wp (a matrix the
// BLAS reads in place). Columns x >= ow of each output row run past the
// padded row's end; they are computed and dropped.
template <class T>
void conv2d_shifted(const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias, const Tensor& out,
                    int64_t groups, int64_t ph, int64_t pw, int64_t dh, int64_t dw) {
  const int64_t batch = x.size(0), cin = x.size(1), ih = x.size(2), iw = x.size(3);
  const int64_t cout = w.size(0), cg = w.size(1), kh = w.size(2), kw = w.size(3), og = cout / groups;
  const int64_t oh = out.size(2), ow = out.size(3);
  const int64_t hp = ih + 2 * ph, wp = iw + 2 * pw, plane = hp * wp, cols = oh * wp;
  const ScalarType dt = x.dtype();
  // The three temporaries in the thread's scratch block (scratch-inl.hpp):
  // fresh ones cost a page fault per 4 KB each call. Each starts 64-byte aligned.
  const auto rounded = [](int64_t n) { return (n * static_cast<int64_t>(sizeof(T)) + 63) / 64 * 64; };
  const int64_t xp_n = cin * plane + (kw - 1) * dw, wk_n = kh * kw * cout * cg, acc_n = og * cols;
  const Scratch scratch(static_cast<std::size_t>(rounded(xp_n) + rounded(wk_n) + rounded(acc_n)));
  char* base = static_cast<char*>(scratch.data());
  const auto view = [&](int64_t byte_offset, int64_t n) {
    const int64_t size[] = {n}, stride[] = {1};
    return opd::from_blob(base + byte_offset, size, stride, dt);
  };
  const Tensor xp = view(0, xp_n);
  T* pxp = xp.data_ptr<T>();
  // Only the padding is zeroed (the image rows are overwritten per image):
  // the top and bottom ph rows, the pw columns either side of each image
  // row (the right ones run into the next row's left ones), and the tail.
  for (int64_t c = 0; c < cin; ++c) {
    T* p = pxp + c * plane;
    std::fill(p, p + ph * wp + pw, T(0));
    for (int64_t y = 0; y + 1 < ih; ++y) std::fill(p + (y + ph) * wp + pw + iw, p + (y + ph + 1) * wp + pw, T(0));
    std::fill(p + (ih - 1 + ph) * wp + pw + iw, p + plane, T(0));
  }
  std::fill(pxp + cin * plane, pxp + xp_n, T(0));
  // The weights by kernel offset: wk[kk][o][c] = w[o][c][kk].
  const Tensor wk = view(rounded(xp_n), wk_n);
  const T* wsrc = w.data_ptr<T>();
  T* wdst = wk.data_ptr<T>();
  for (int64_t o = 0; o < cout; ++o)
    for (int64_t c = 0; c < cg; ++c)
      for (int64_t kk = 0; kk < kh * kw; ++kk) wdst[(kk * cout + o) * cg + c] = wsrc[(o * cg + c) * kh * kw + kk];
  const Tensor acc = view(rounded(xp_n) + rounded(wk_n), acc_n);
  T* pacc = acc.data_ptr<T>();
  // The copies in and out stay on this thread: an OpenMP region between the
  // BLAS calls leaves OpenMP's workers spinning while OpenBLAS's own threads
  // want the cores (measured: the mt row 8x slower with them split).
  for (int64_t n = 0; n < batch; ++n) {
    const T* src = x.data_ptr<T>() + n * cin * ih * iw;
    for (int64_t c = 0; c < cin; ++c)
      for (int64_t y = 0; y < ih; ++y)
        std::copy(src + (c * ih + y) * iw, src + (c * ih + y + 1) * iw, pxp + c * plane + (y + ph) * wp + pw);
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t c_sizes[] = {1, og, cols}, c_strides[] = {0, cols, 1};
      const Tensor c3 = acc.as_strided(c_sizes, c_strides, acc.storage_offset());
      for (int64_t kk = 0; kk < kh * kw; ++kk) {
        const int64_t ki = kk / kw, kj = kk % kw;
        const int64_t a_sizes[] = {1, og, cg}, a_strides[] = {0, cg, 1};
        const int64_t b_sizes[] = {1, cg, cols}, b_strides[] = {0, plane, 1};
        batched_gemm("conv2d", wk.as_strided(a_sizes, a_strides, (kk * cout + g * og) * cg),
                     xp.as_strided(b_sizes, b_strides, g * cg * plane + ki * dh * wp + kj * dw), Scalar(kk == 0 ? 0 : 1),
                     Scalar(1), c3);
      }
      // The valid columns of each row into out, plus the bias (added here
      // rather than as the GEMMs' starting value: one pass over acc less).
      T* dst = out.data_ptr<T>() + (n * cout + g * og) * oh * ow;
      for (int64_t o = 0; o < og; ++o) {
        const T b = bias ? bias->data_ptr<T>()[(g * og + o) * bias->stride(0)] : T(0);
        for (int64_t y = 0; y < oh; ++y) {
          const T* row = pacc + o * cols + y * wp;
          T* d = dst + (o * oh + y) * ow;
          if (bias) {
            for (int64_t i = 0; i < ow; ++i) d[i] = row[i] + b;
          } else {
            std::copy(row, row + ow, d);
          }
        }
      }
    }
  }
}

}  // namespace detail

OPD_FUNC Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt,
                       std::span<const int64_t> stride_arg, std::span<const int64_t> padding_arg,
                       std::span<const int64_t> dilation_arg, int64_t groups) {
  detail::nn_check_cpu("conv2d", input, "input");
  detail::nn_check_cpu("conv2d", weight, "weight");
  const bool has_bias = bias_opt.has_value() && bias_opt->defined();
  if (has_bias) detail::nn_check_cpu("conv2d", *bias_opt, "bias");
  OPD_CHECK(input.dim() == 3 || input.dim() == 4,
            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: ", input.sizes());
  const bool unbatched = input.dim() == 3;
  const Tensor in4 = unbatched ? detail::contiguous_view(detail::contiguous_or_self(input), 0,
                                                         {1, input.size(0), input.size(1), input.size(2)})
                               : input;
  const int64_t dims = std::max<int64_t>(weight.dim() - 2, 0);
  if (weight.dim() != 4) {
    OPD_CHECK(false, "expected output_padding to be a single integer value or a list of ", dims,
              " values to match the convolution dimensions, but got output_padding=[0, 0]");
  }
  const std::vector<int64_t> stride = detail::conv_param(stride_arg, "stride", 2);
  const std::vector<int64_t> padding = detail::conv_param(padding_arg, "padding", 2);
  const std::vector<int64_t> dilation = detail::conv_param(dilation_arg, "dilation", 2);
  OPD_CHECK(dilation[0] > 0 && dilation[1] > 0, "dilation should be greater than zero, but got ",
            IntArrayRef(dilation));
  OPD_CHECK(groups > 0, "non-positive groups is not supported");
  OPD_CHECK(padding[0] >= 0 && padding[1] >= 0, "negative padding is not supported");
  OPD_CHECK(stride[0] > 0 && stride[1] > 0, "non-positive stride is not supported");
  const IntArrayRef ws = weight.sizes();
  OPD_CHECK(ws[0] >= groups, "Given groups=", groups, ", expected weight to be at least ", groups,
            " at dimension 0, but got weight of size ", ws, " instead");
  OPD_CHECK(ws[0] % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ", groups,
            " at dimension 0, but got weight of size [", ws, "] instead");
  OPD_CHECK(in4.size(1) == ws[1] * groups, "Given groups=", groups, ", weight of size ", ws, ", expected input",
            in4.sizes(), " to have ", ws[1] * groups, " channels, but got ", in4.size(1), " channels instead");
  OPD_CHECK(!has_bias || (bias_opt->dim() == 1 && bias_opt->size(0) == ws[0]), "Given weight of size ", ws,
            ", expected bias to be 1-dimensional with ", ws[0], " elements, but got bias of size ",
            has_bias ? bias_opt->sizes() : IntArrayRef{}, " instead");
  const int64_t ih = in4.size(2), iw = in4.size(3), kh = ws[2], kw = ws[3];
  const int64_t padded_h = ih + 2 * padding[0], padded_w = iw + 2 * padding[1];
  const int64_t eff_kh = dilation[0] * (kh - 1) + 1, eff_kw = dilation[1] * (kw - 1) + 1;
  OPD_CHECK(padded_h >= eff_kh && padded_w >= eff_kw, "Calculated padded input size per channel: (", padded_h,
            " x ", padded_w, "). Kernel size: (", eff_kh, " x ", eff_kw,
            "). Kernel size can't be greater than actual input size");
  OPD_CHECK(input.dtype() == weight.dtype(), "expected scalar type ", input.dtype(), " but found ", weight.dtype());
  OPD_CHECK(!has_bias || bias_opt->dtype() == input.dtype(), "expected scalar type ", input.dtype(), " but found ",
            bias_opt->dtype());
  if (input.dtype() == ScalarType::Bool) throw_not_implemented_for("conv2d", input.dtype());

  const int64_t batch = in4.size(0), cin = in4.size(1), cout = ws[0];
  const int64_t oh = (padded_h - eff_kh) / stride[0] + 1, ow = (padded_w - eff_kw) / stride[1] + 1;
  const int64_t cg = cin / groups, og = cout / groups, kdim = cg * kh * kw, spatial = oh * ow;
  const bool meta = input.is_meta() || weight.is_meta() || (has_bias && bias_opt->is_meta());
  Tensor out = opd::empty(std::vector<int64_t>{batch, cout, oh, ow}, input.dtype(), meta ? Device::meta() : Device::cpu());
  if (meta) return unbatched ? detail::contiguous_view(out, 0, {cout, oh, ow}) : out;
  if (out.numel() > 0) {
    const Tensor x = detail::contiguous_or_self(in4);
    const Tensor w = detail::contiguous_or_self(weight);
    const bool stride1 = stride[0] == 1 && stride[1] == 1 && kh * kw > 1 && kdim > 0 &&
                         (input.dtype() == ScalarType::Float || input.dtype() == ScalarType::Double);
    const bool winograd = stride1 && detail::winograd_applies(kh, kw, stride[0], stride[1], dilation[0], dilation[1],
                                                              cg, og, batch * spatial);
    // The shifted GEMMs from 256 outputs per image: below, one im2col GEMM beats kh*kw thin
    // ones (resnet18's 14x14 and 7x7 layers at batch 1: 1.70x -> 1.13x and 2.54x -> 0.93x ATen's time).
    const bool shifted = stride1 && !winograd && spatial >= 256;
    // oneDNN where it beats the library's own paths: detail::conv2d_prefers_onednn.
    if (input.dtype() == ScalarType::Float && kdim > 0 &&
        detail::conv2d_prefers_onednn(groups, kh, kw, winograd || shifted) &&
        detail::onednn_conv2d(x, w, has_bias ? bias_opt : std::nullopt, out, stride, padding, dilation, groups)) {
      if (unbatched) return detail::contiguous_view(out, 0, {cout, oh, ow});
      return out;
    }
    if (winograd || shifted) {
      const std::optional<Tensor> bias = has_bias ? bias_opt : std::nullopt;
      if (winograd) {
        if (input.dtype() == ScalarType::Float) {
          detail::conv2d_winograd<float>(x, w, bias, out, groups, padding[0], padding[1]);
        } else {
          detail::conv2d_winograd<double>(x, w, bias, out, groups, padding[0], padding[1]);
        }
      } else if (input.dtype() == ScalarType::Float) {
        detail::conv2d_shifted<float>(x, w, bias, out, groups, padding[0], padding[1], dilation[0], dilation[1]);
      } else {
        detail::conv2d_shifted<double>(x, w, bias, out, groups, padding[0], padding[1], dilation[0], dilation[1]);
      }
      if (unbatched) return detail::contiguous_view(out, 0, {cout, oh, ow});
      return out;
    }
    if (has_bias) {  // out[n, o, :, :] = bias[o], then the GEMM adds with beta = 1
      const int64_t sizes[] = {batch, cout, oh, ow}, strides[] = {0, bias_opt->stride(0), 0, 0};
      copy_elements(OperandRef::of(out), OperandRef::of(bias_opt->as_strided(sizes, strides, bias_opt->storage_offset())));
    }
    const bool direct = kh == 1 && kw == 1 && stride[0] == 1 && stride[1] == 1 && padding[0] == 0 &&
                        padding[1] == 0;  // a 1x1 convolution reads the input as its col
    const bool unfold = !direct && kdim > 0;
    const std::vector<int64_t> geometry{ih, iw, kh, kw, padding[0], padding[1], stride[0], stride[1],
                                        dilation[0], dilation[1], oh, ow};
    // Images [n, batch) stepping by `step`, each group's unfolded matrix in
    // the thread's scratch block (reused across calls), then one GEMM.
    const auto images = [&](int64_t first, int64_t step) {
      const detail::Scratch scratch(unfold ? static_cast<std::size_t>(kdim * spatial) * input.itemsize() : 0);
      const int64_t col_sizes[] = {kdim, spatial}, col_strides[] = {spatial, 1};
      Tensor col = unfold ? opd::from_blob(scratch.data(), col_sizes, col_strides, input.dtype()) : Tensor();
      for (int64_t n = first; n < batch; n += step) {
        for (int64_t g = 0; g < groups; ++g) {
          const int64_t in_offset = (n * cin + g * cg) * ih * iw;
          Tensor cols;
          if (direct) {
            cols = detail::contiguous_view(x, in_offset, {1, kdim, spatial});
          } else if (kdim > 0) {
            switch (input.itemsize()) {
              case 1: detail::im2col_bytes<uint8_t>(x, in_offset, cg, geometry, col); break;
              case 2: detail::im2col_bytes<uint16_t>(x, in_offset, cg, geometry, col); break;
              case 4: detail::im2col_bytes<uint32_t>(x, in_offset, cg, geometry, col); break;
              default: detail::im2col_bytes<uint64_t>(x, in_offset, cg, geometry, col); break;
            }
            cols = detail::contiguous_view(col, 0, {1, kdim, spatial});
          } else {
            cols = detail::contiguous_view(x, 0, {1, 0, spatial});
          }
          const Tensor wg = detail::contiguous_view(w, g * og * kdim, {1, og, kdim});
          const Tensor og_out = detail::contiguous_view(out, (n * cout + g * og) * spatial, {1, og, spatial});
          detail::batched_gemm("conv2d", wg, cols, has_bias ? Scalar(1) : Scalar(0), Scalar(1), og_out);
        }
      }
    };
    // Several images: one thread's images each, their GEMMs on that thread
    // (one parallel region, not one per image's GEMM, none of which would be
    // split under OMP_WAIT_POLICY=passive); one image: its GEMMs split.
    const int64_t tasks = std::min<int64_t>(batch, get_num_threads());
    if (tasks > 1 && batch * cout * spatial * std::max<int64_t>(kdim, 1) >= detail::sgemm_thread_min_work * grain_scale()) {
      parallel_tasks(tasks, [&](int64_t t) { images(t, tasks); });
    } else {
      images(0, 1);
    }
  }
  if (unbatched) return detail::contiguous_view(out, 0, {cout, oh, ow});
  return out;
}

// -------------------------------------------------------------- max_pool2d ---

OPD_FUNC Tensor max_pool2d(const Tensor& self, std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                           std::span<const int64_t> padding, std::span<const int64_t> dilation, bool ceil_mode) {
  const detail::Pool2dShape s = detail::max_pool2d_shape("max_pool2d", self, kernel_size, stride, padding, dilation, ceil_mode);
  // ATen 1.13's CPU kernel: Float, Double and BFloat16
  if (self.dtype() != ScalarType::Float && self.dtype() != ScalarType::Double && self.dtype() != ScalarType::BFloat16)
    throw_not_implemented_for("max_pool2d", self.dtype());
  Tensor out = detail::pool_output(self, s);
  if (out.is_meta()) return out;
  const Tensor x = detail::contiguous_or_self(self);
  dispatch_floating_dtype(self.dtype(), "max_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, BFloat16>) {
      detail::max_pool_planes<T>(s, x.data_ptr<T>(), out.data_ptr<T>(), nullptr);
    }
  });
  return out;
}

// -------------------------------------------------------------- avg_pool2d ---

OPD_FUNC Tensor avg_pool2d(const Tensor& self, std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                           std::span<const int64_t> padding, bool ceil_mode, bool count_include_pad,
                           std::optional<int64_t> divisor_override) {
  const detail::Pool2dShape s =
      detail::avg_pool2d_shape("avg_pool2d", self, kernel_size, stride, padding, ceil_mode, divisor_override);
  const ScalarType dt = self.dtype();
  // ATen 1.13's CPU kernel: Float, Double, Long and BFloat16 (summed in float here)
  if (dt != ScalarType::Float && dt != ScalarType::Double && dt != ScalarType::Long && dt != ScalarType::BFloat16)
    throw_not_implemented_for("avg_pool2d", dt);
  Tensor out = detail::pool_output(self, s);
  if (out.is_meta()) return out;
  const Tensor x = detail::contiguous_or_self(self);
  dispatch_dtype(dt, "avg_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int64_t> ||
                  std::is_same_v<T, BFloat16>) {
      using M = std::conditional_t<std::is_same_v<T, BFloat16>, float, T>;
      const T* in = x.data_ptr<T>();
      T* o = out.data_ptr<T>();
      detail::for_each_plane(s, s.oh * s.ow * s.kh * s.kw, [&](int64_t p) {
        const T* plane = in + p * s.ih * s.iw;
        T* dst = o + p * s.oh * s.ow;
        for (int64_t y = 0; y < s.oh; ++y) {
          for (int64_t xo = 0; xo < s.ow; ++xo) {
            const detail::AvgWindow w = detail::avg_window(s, y, xo, count_include_pad, divisor_override);
            if (w.empty()) {
              dst[y * s.ow + xo] = T(0);
              continue;
            }
            M sum = 0;
            for (int64_t h = w.h0; h < w.h1; ++h)
              for (int64_t c = w.w0; c < w.w1; ++c) sum += static_cast<M>(plane[h * s.iw + c]);
            dst[y * s.ow + xo] = static_cast<T>(sum / static_cast<M>(w.divide));
          }
        }
      });
    }
  });
  return out;
}

// grad_input[window] += grad_output / divide, over the windows of the forward.
OPD_FUNC Tensor avg_pool2d_backward(const Tensor& grad_output, const Tensor& self,
                                    std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                                    std::span<const int64_t> padding, bool ceil_mode, bool count_include_pad,
                                    std::optional<int64_t> divisor_override) {
  constexpr const char* op = "avg_pool2d_backward";
  detail::nn_check_cpu(op, grad_output, "grad_output");
  const detail::Pool2dShape s =
      detail::avg_pool2d_shape(op, self, kernel_size, stride, padding, ceil_mode, divisor_override);
  detail::check_pool_grad_output(op, grad_output, self, s);
  const ScalarType dt = self.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for(op, dt);
  Tensor grad_input = kernels::zeros(self.sizes(), dt, self.device());
  if (grad_input.is_meta()) return grad_input;
  const Tensor g = detail::contiguous_or_self(grad_output);
  dispatch_floating_dtype(dt, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      const T* go = g.data_ptr<T>();
      T* gi = grad_input.data_ptr<T>();
      detail::for_each_plane(s, s.oh * s.ow * s.kh * s.kw, [&](int64_t p) {
        const T* src = go + p * s.oh * s.ow;
        T* plane = gi + p * s.ih * s.iw;
        for (int64_t y = 0; y < s.oh; ++y) {
          for (int64_t xo = 0; xo < s.ow; ++xo) {
            const detail::AvgWindow w = detail::avg_window(s, y, xo, count_include_pad, divisor_override);
            if (w.empty()) continue;
            const T delta = src[y * s.ow + xo] / static_cast<T>(w.divide);
            for (int64_t h = w.h0; h < w.h1; ++h)
              for (int64_t c = w.w0; c < w.w1; ++c) plane[h * s.iw + c] += delta;
          }
        }
      });
    }
  });
  return grad_input;
}

// ----------------------------------------------------- adaptive_avg_pool2d ---

OPD_FUNC Tensor adaptive_avg_pool2d(const Tensor& self, std::span<const int64_t> output_size) {
  detail::nn_check_cpu("adaptive_avg_pool2d", self, "self");
  OPD_CHECK(output_size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  OPD_CHECK(output_size[0] >= 0 && output_size[1] >= 0,
            "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {",
            output_size[0], ", ", output_size[1], "}");
  const int64_t nd = self.dim();
  OPD_CHECK(nd == 3 || nd == 4, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ", self.sizes());
  for (int64_t i : {nd - 2, nd - 1}) {
    OPD_CHECK(self.size(i) > 0, "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
              "dimensions, but input has sizes ", self.sizes(), " with dimension ", i, " being empty");
  }
  // ATen 1.13's CPU kernel: Float, Double and BFloat16 (summed in float here)
  if (self.dtype() != ScalarType::Float && self.dtype() != ScalarType::Double && self.dtype() != ScalarType::BFloat16)
    throw_not_implemented_for("adaptive_avg_pool2d", self.dtype());
  detail::Pool2dShape s{};
  s.batch = nd == 4 ? self.size(0) : 1;
  s.planes = self.size(nd - 3);
  s.ih = self.size(nd - 2);
  s.iw = self.size(nd - 1);
  s.oh = output_size[0];
  s.ow = output_size[1];
  Tensor out = detail::pool_output(self, s);
  if (out.is_meta()) return out;
  const Tensor x = detail::contiguous_or_self(self);
  dispatch_floating_dtype(self.dtype(), "adaptive_avg_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, BFloat16>) {
      using M = std::conditional_t<std::is_same_v<T, BFloat16>, float, T>;
      const T* in = x.data_ptr<T>();
      T* o = out.data_ptr<T>();
      if constexpr (std::is_floating_point_v<T>) {
        if (s.oh == 1 && s.ow == 1) {
          // Global pooling: ATen takes mean(-1, -2) (a sum divided by the
          // count); the vectorized pairwise row sum of the reductions.
          const int64_t n = s.ih * s.iw;
          detail::for_each_plane(s, n, [&](int64_t p) { o[p] = simd::sum_row(in + p * n, n) / static_cast<T>(n); });
          return;
        }
      }
      const detail::AdaptiveWindows win_h(s.oh, s.ih), win_w(s.ow, s.iw);
      detail::for_each_plane(s, s.ih * s.iw, [&](int64_t p) {
        const T* plane = in + p * s.ih * s.iw;
        T* dst = o + p * s.oh * s.ow;
        for (int64_t y = 0; y < s.oh; ++y) {
          const int64_t h0 = win_h.lo(y), h1 = win_h.hi(y);
          for (int64_t xo = 0; xo < s.ow; ++xo) {
            const int64_t w0 = win_w.lo(xo), w1 = win_w.hi(xo);
            M sum = 0;
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w) sum += static_cast<M>(plane[h * s.iw + w]);
            dst[y * s.ow + xo] = static_cast<T>(sum / static_cast<M>(h1 - h0) / static_cast<M>(w1 - w0));
          }
        }
      });
    }
  });
  return out;
}

// grad_input[window] += grad_output / window height / window width (ATen's order).
OPD_FUNC Tensor adaptive_avg_pool2d_backward(const Tensor& grad_output, const Tensor& self) {
  constexpr const char* op = "adaptive_avg_pool2d_backward";
  detail::nn_check_cpu(op, grad_output, "grad_output");
  detail::nn_check_cpu(op, self, "self");
  const int64_t nd = grad_output.dim();
  OPD_CHECK(nd == 3 || nd == 4, "adaptive_avg_pool2d_backward(): Expected 3D or 4D tensor, but got ",
            grad_output.sizes());
  for (int64_t i = 1; i < nd; ++i) {
    OPD_CHECK(grad_output.size(i) > 0, "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size "
              "for non-batch dimensions, but grad_output has sizes ", grad_output.sizes(), " with dimension ", i,
              " being empty");
  }
  OPD_CHECK(self.dim() == nd, op, ": expected self of ", nd, " dimensions as grad_output, but got ", self.sizes());
  for (int64_t i = 0; i < nd - 2; ++i) {
    OPD_CHECK(self.size(i) == grad_output.size(i), op, ": grad_output ", grad_output.sizes(), " does not match self ",
              self.sizes(), " at dimension ", i);
  }
  OPD_CHECK(self.dtype() == grad_output.dtype(), "expected dtype ", self.dtype(), " for `grad_output` but got dtype ",
            grad_output.dtype());
  const ScalarType dt = self.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for(op, dt);
  detail::Pool2dShape s{};
  s.batch = nd == 4 ? self.size(0) : 1;
  s.planes = self.size(nd - 3);
  s.ih = self.size(nd - 2);
  s.iw = self.size(nd - 1);
  s.oh = grad_output.size(nd - 2);
  s.ow = grad_output.size(nd - 1);
  Tensor grad_input = kernels::zeros(self.sizes(), dt, self.device());
  if (grad_input.is_meta()) return grad_input;
  const Tensor g = detail::contiguous_or_self(grad_output);
  dispatch_floating_dtype(dt, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      const detail::AdaptiveWindows win_h(s.oh, s.ih), win_w(s.ow, s.iw);
      const T* go = g.data_ptr<T>();
      T* gi = grad_input.data_ptr<T>();
      detail::for_each_plane(s, s.ih * s.iw, [&](int64_t p) {
        const T* src = go + p * s.oh * s.ow;
        T* plane = gi + p * s.ih * s.iw;
        for (int64_t y = 0; y < s.oh; ++y) {
          const int64_t h0 = win_h.lo(y), h1 = win_h.hi(y);
          for (int64_t xo = 0; xo < s.ow; ++xo) {
            const int64_t w0 = win_w.lo(xo), w1 = win_w.hi(xo);
            const T delta = src[y * s.ow + xo] / static_cast<T>(h1 - h0) / static_cast<T>(w1 - w0);
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t c = w0; c < w1; ++c) plane[h * s.iw + c] += delta;
          }
        }
      });
    }
  });
  return grad_input;
}

}  // namespace opd::kernels
