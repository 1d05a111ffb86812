// The operators of kernels/ops_conv.hpp, ops_batch_norm.hpp and
// ops_pooling.hpp where libtorch 1.13 has no counterpart to compare with
// (models_torch_diff_test.cpp does the rest): PyTorch 2.x's
// _native_batch_norm_legit* against native_batch_norm, native_batch_norm.out
// (1.13 has the schema, no CPU kernel), and Meta kernels (shapes, the CPU
// kernels' checks, running statistics untouched).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <dispatch/dispatcher.hpp>
#include <kernels/ops_batch_norm.hpp>
#include <kernels/ops_complex.hpp>
#include <kernels/ops_conv.hpp>
#include <kernels/ops_nn.hpp>
#include <kernels/ops_padding.hpp>
#include <kernels/ops_pointwise.hpp>
#include <kernels/ops_pooling.hpp>
#include <kernels/ops_reductions.hpp>
#include <kernels/cpu/random_bits.hpp>
#include <kernels/ops_random.hpp>
#include <kernels/ops_scalars.hpp>
#include <kernels/ops_shape.hpp>
#include <kernels/ops_upsample.hpp>
#include <kernels/ops_views.hpp>
#include "all_kernels.hpp"
#include "error_of.hpp"

namespace {

namespace ops = opd::kernels::ops;
using opd::Tensor;
using V = std::vector<int64_t>;

Tensor ramp(const V& sizes, float scale, float offset = 0) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = offset + scale * static_cast<float>((i * 7) % 11 - 5);
  return opd::from_vector<float>(v, sizes);
}

// t in dtype (a copy).
Tensor as(const Tensor& t, opd::ScalarType dtype) {
  return opd::call<ops::to_copy>(t, dtype, std::nullopt, std::nullopt, std::nullopt, false, std::nullopt);
}

using opd_test::error_of;

class ModelsOps : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { kernels_ = new opd::RegistrationSet(opd_test::register_all_kernels()); }
  static void TearDownTestSuite() {
    delete kernels_;
    kernels_ = nullptr;
  }
  static opd::RegistrationSet* kernels_;
};
opd::RegistrationSet* ModelsOps::kernels_ = nullptr;

TEST_F(ModelsOps, BatchNormLegitIsNativeBatchNorm) {
  const Tensor x = ramp({2, 3, 4, 5}, 0.3f);
  const std::optional<Tensor> w = ramp({3}, 0.1f, 1), b = ramp({3}, 0.2f);
  for (bool training : {true, false}) {
    Tensor rm1 = ramp({3}, 0.01f), rv1 = ramp({3}, 0.01f, 1), rm2 = ramp({3}, 0.01f), rv2 = ramp({3}, 0.01f, 1);
    const auto [y1, m1, s1] = opd::call<ops::native_batch_norm>(x, w, b, std::optional<Tensor>(rm1),
                                                                std::optional<Tensor>(rv1), training, 0.1, 1e-5);
    const auto [y2, m2, s2] = opd::call<ops::native_batch_norm_legit>(x, w, b, rm2, rv2, training, 0.1, 1e-5);
    EXPECT_EQ(opd::to_vector<float>(y1), opd::to_vector<float>(y2));
    EXPECT_EQ(opd::to_vector<float>(m1), opd::to_vector<float>(m2));
    EXPECT_EQ(opd::to_vector<float>(s1), opd::to_vector<float>(s2));
    EXPECT_EQ(opd::to_vector<float>(rm1), opd::to_vector<float>(rm2));  // updated alike in training
    EXPECT_EQ(opd::to_vector<float>(rv1), opd::to_vector<float>(rv2));
    if (!training) {
      EXPECT_EQ(m2.numel(), 0);
      const auto [y3, m3, s3] = opd::call<ops::native_batch_norm_legit_no_training>(x, w, b, rm2, rv2, 0.1, 1e-5);
      EXPECT_EQ(opd::to_vector<float>(y1), opd::to_vector<float>(y3));
      EXPECT_EQ(m3.numel(), 0);
    } else {
      EXPECT_NE(opd::to_vector<float>(rm1), opd::to_vector<float>(ramp({3}, 0.01f)));
    }
  }
  // no_stats: the batch's statistics, nothing to update
  const auto [y4, m4, s4] = opd::call<ops::native_batch_norm_legit_no_stats>(x, w, b, true, 0.1, 1e-5);
  const auto [y5, m5, s5] = opd::call<ops::native_batch_norm>(x, w, b, std::nullopt, std::nullopt, true, 0.1, 1e-5);
  EXPECT_EQ(opd::to_vector<float>(y4), opd::to_vector<float>(y5));
  EXPECT_EQ(opd::to_vector<float>(s4), opd::to_vector<float>(s5));
  // one value per channel in training is computed, as ATen's kernel: x - mean is 0 (ATen's fused
  // x * alpha + beta leaves ~1e-5 there), the unbiased variance 0/0 makes running_var NaN
  Tensor rm = ramp({3}, 0.01f), rv = ramp({3}, 0.01f, 1);
  const auto [y6, m6, s6] = opd::call<ops::native_batch_norm>(ramp({1, 3}, 0.5f), std::optional<Tensor>(),
                                                              std::optional<Tensor>(), std::optional<Tensor>(rm),
                                                              std::optional<Tensor>(rv), true, 0.1, 1e-5);
  EXPECT_EQ(opd::to_vector<float>(y6), (std::vector<float>{0, 0, 0}));
  for (float v : opd::to_vector<float>(rv)) EXPECT_TRUE(std::isnan(v));
  // inference without running statistics is refused
  EXPECT_THROW((void)opd::call<ops::native_batch_norm>(x, w, b, std::nullopt, std::nullopt, false, 0.1, 1e-5),
               opd::Error);
}

TEST_F(ModelsOps, BatchNormOutVariants) {
  const Tensor x = ramp({2, 3, 6}, 0.5f);
  const std::optional<Tensor> w = ramp({3}, 0.1f, 1), b = ramp({3}, 0.2f);
  const auto [y, m, s] = opd::call<ops::native_batch_norm>(x, w, b, std::nullopt, std::nullopt, true, 0.1, 1e-5);
  Tensor out = opd::empty(V{0}), save_mean = opd::empty(V{0}), save_invstd = opd::empty(V{0});
  opd::call<ops::native_batch_norm_out>(x, w, b, std::nullopt, std::nullopt, true, 0.1, 1e-5, out, save_mean,
                                        save_invstd);
  EXPECT_EQ(out.sizes(), x.sizes());
  EXPECT_EQ(opd::to_vector<float>(out), opd::to_vector<float>(y));
  EXPECT_EQ(opd::to_vector<float>(save_mean), opd::to_vector<float>(m));
  EXPECT_EQ(opd::to_vector<float>(save_invstd), opd::to_vector<float>(s));
  Tensor out2 = opd::empty(V{0}), sm2 = opd::empty(V{0}), si2 = opd::empty(V{0});
  opd::call<ops::native_batch_norm_legit_no_stats_out>(x, w, b, true, 0.1, 1e-5, out2, sm2, si2);
  EXPECT_EQ(opd::to_vector<float>(out2), opd::to_vector<float>(y));
  // out= of another dtype is refused
  Tensor bad = opd::empty(V{0}, opd::ScalarType::Double);
  EXPECT_THROW(opd::call<ops::native_batch_norm_out>(x, w, b, std::nullopt, std::nullopt, true, 0.1, 1e-5, bad,
                                                     save_mean, save_invstd),
               opd::Error);
}

TEST_F(ModelsOps, MetaKernels) {
  const opd::Device meta = opd::Device::meta();
  const Tensor x = opd::empty(V{2, 4, 9, 9}, opd::ScalarType::Float, meta);
  const Tensor w = opd::empty(V{6, 2, 3, 3}, opd::ScalarType::Float, meta);
  const std::optional<Tensor> none;
  // convolution: the CPU kernel's shape and checks
  const Tensor y = opd::call<ops::convolution>(x, w, none, V{2}, V{1}, V{1}, false, V{0}, int64_t{2});
  EXPECT_TRUE(y.is_meta());
  EXPECT_EQ(y.sizes(), opd::IntArrayRef(V{2, 6, 5, 5}));
  EXPECT_THROW((void)opd::call<ops::convolution>(x, w, none, V{1}, V{1}, V{1}, false, V{0}, int64_t{1}), opd::Error);
  const Tensor wt = opd::empty(V{4, 3, 3, 3}, opd::ScalarType::Float, meta);
  const Tensor yt = opd::call<ops::convolution>(x, wt, none, V{2}, V{1}, V{1}, true, V{1}, int64_t{1});
  EXPECT_EQ(yt.sizes(), opd::IntArrayRef(V{2, 3, 18, 18}));
  const Tensor x3 = opd::empty(V{1, 2, 5, 6, 7}, opd::ScalarType::Float, meta);
  const Tensor w3 = opd::empty(V{3, 2, 3, 3, 3}, opd::ScalarType::Float, meta);
  EXPECT_EQ(opd::call<ops::convolution>(x3, w3, none, V{1}, V{0}, V{1}, false, V{0}, int64_t{1}).sizes(),
            opd::IntArrayRef(V{1, 3, 3, 4, 5}));
  // the front ends reach Meta through convolution
  EXPECT_EQ(opd::call<ops::conv1d>(opd::empty(V{4, 10}, opd::ScalarType::Float, meta),
                                   opd::empty(V{6, 4, 3}, opd::ScalarType::Float, meta), none, V{1}, V{0}, V{1},
                                   int64_t{1})
                .sizes(),
            opd::IntArrayRef(V{6, 8}));
  // batch norm: shapes, running statistics untouched
  const std::optional<Tensor> stat = opd::empty(V{4}, opd::ScalarType::Float, meta);
  const auto [bn, bm, bs] = opd::call<ops::native_batch_norm>(x, stat, stat, stat, stat, true, 0.1, 1e-5);
  EXPECT_TRUE(bn.is_meta());
  EXPECT_EQ(bn.sizes(), x.sizes());
  EXPECT_EQ(bm.sizes(), opd::IntArrayRef(V{4}));
  // max_pool2d_with_indices
  const auto [pv, pi] = opd::call<ops::max_pool2d_with_indices>(x, V{3}, V{2}, V{1}, V{1}, true);
  EXPECT_EQ(pv.sizes(), opd::IntArrayRef(V{2, 4, 5, 5}));
  EXPECT_EQ(pi.dtype(), opd::ScalarType::Long);
  EXPECT_TRUE(pi.is_meta());
}

TEST_F(ModelsOps, MaxPoolBackwardScattersAtIndices) {
  const Tensor x = opd::from_vector<float>({1, 5, 2, 4, 3, 0, 9, 8, 7, 6, 2, 1, 0, 3, 4, 5}, V{1, 1, 4, 4});
  const auto [values, indices] = opd::call<ops::max_pool2d_with_indices>(x, V{2}, V{2}, V{0}, V{1}, false);
  EXPECT_EQ(opd::to_vector<float>(values), (std::vector<float>{5, 9, 7, 5}));
  EXPECT_EQ(opd::to_vector<int64_t>(indices), (std::vector<int64_t>{1, 6, 8, 15}));
  const Tensor grad = opd::from_vector<float>({1, 2, 3, 4}, V{1, 1, 2, 2});
  const Tensor gi =
      opd::call<ops::max_pool2d_with_indices_backward>(grad, x, V{2}, V{2}, V{0}, V{1}, false, indices);
  EXPECT_EQ(opd::to_vector<float>(gi), (std::vector<float>{0, 1, 0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0, 0, 0, 4}));
  const Tensor bad = opd::from_vector<int64_t>({0, 1, 2, 16}, V{1, 1, 2, 2});
  EXPECT_THROW((void)opd::call<ops::max_pool2d_with_indices_backward>(grad, x, V{2}, V{2}, V{0}, V{1}, false, bad),
               opd::Error);
  const Tensor negative = opd::from_vector<int64_t>({0, -1, 2, 3}, V{1, 1, 2, 2});
  EXPECT_THROW((void)opd::call<ops::max_pool2d_with_indices_backward>(grad, x, V{2}, V{2}, V{0}, V{1}, false, negative),
               opd::Error);
}

// Windows with tied maxima (pairs of equal values in rows, rows shifted), NaN and -inf, through every
// path (the scalar edge columns and the vectorized interior of strides 1, 2
// and 3, dilation 2): the value and index of the scan's first maximum, or
// its last NaN, as a per-window loop in the test computes them.
TEST_F(ModelsOps, MaxPoolPicksTheFirstMaximumAndTheLastNaN) {
  const int64_t h = 7, w = 23;
  std::vector<float> v(static_cast<std::size_t>(h * w));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i % 4) / 2 + (i / w) % 2);  // 0 0 1 1 ...
  v[30] = std::nanf("");
  v[31] = std::nanf("");
  v[77] = std::nanf("");
  for (std::size_t i = 100; i < 112; ++i) v[i] = -INFINITY;
  const Tensor x = opd::from_vector<float>(v, V{1, 1, h, w});
  for (int64_t stride : {1, 2, 3}) {
    for (int64_t dilation : {1, 2}) {
      const int64_t k = 3, pad = 1;
      const auto [values, indices] =
          opd::call<ops::max_pool2d_with_indices>(x, V{k}, V{stride}, V{pad}, V{dilation}, false);
      const int64_t oh = values.size(2), ow = values.size(3);
      const std::vector<float> got = opd::to_vector<float>(values);
      const std::vector<int64_t> got_index = opd::to_vector<int64_t>(indices);
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t xo = 0; xo < ow; ++xo) {
          float best = -INFINITY;
          int64_t best_index = -1;
          for (int64_t i = 0; i < k; ++i) {
            for (int64_t j = 0; j < k; ++j) {
              const int64_t r = y * stride - pad + i * dilation, c = xo * stride - pad + j * dilation;
              if (r < 0 || r >= h || c < 0 || c >= w) continue;
              const float e = v[static_cast<std::size_t>(r * w + c)];
              if (best_index < 0) best_index = r * w + c;
              if (e > best || std::isnan(e)) {
                best = e;
                best_index = r * w + c;
              }
            }
          }
          const auto at = static_cast<std::size_t>(y * ow + xo);
          EXPECT_TRUE(got[at] == best || (std::isnan(got[at]) && std::isnan(best)))
              << "stride " << stride << " dilation " << dilation << " at " << y << "," << xo;
          EXPECT_EQ(got_index[at], best_index) << "stride " << stride << " dilation " << dilation << " at " << y << ","
                                               << xo;
        }
      }
    }
  }
}

TEST_F(ModelsOps, SymQueries) {
  const Tensor x = ramp({3, 4, 5}, 1.f);
  const Tensor t = x.as_strided(V{4, 3}, V{1, 20}, 2);  // a strided view with an offset
  EXPECT_EQ(opd::call<ops::sym_size>(x, int64_t{1}), 4);
  EXPECT_EQ(opd::call<ops::sym_size>(x, int64_t{-1}), 5);
  EXPECT_EQ(opd::call<ops::sym_stride>(x, int64_t{0}), 20);
  EXPECT_EQ(opd::call<ops::sym_stride>(t, int64_t{1}), 20);
  EXPECT_EQ(opd::call<ops::sym_numel>(x), 60);
  EXPECT_EQ(opd::call<ops::sym_storage_offset>(t), 2);
  EXPECT_EQ(opd::call<ops::sym_storage_offset>(x), 0);
  EXPECT_TRUE(opd::call<ops::sym_is_contiguous>(x, opd::MemoryFormat::Contiguous));
  EXPECT_FALSE(opd::call<ops::sym_is_contiguous>(t, opd::MemoryFormat::Contiguous));
  EXPECT_THROW((void)opd::call<ops::sym_size>(x, int64_t{3}), opd::Error);
  EXPECT_THROW((void)opd::call<ops::sym_stride>(ramp({}, 1.f), int64_t{0}), opd::Error);
  // metadata only: Meta tensors answer the same (CompositeExplicitAutograd)
  const Tensor m = opd::empty(V{2, 7}, opd::ScalarType::Float, opd::Device::meta());
  EXPECT_EQ(opd::call<ops::sym_size>(m, int64_t{1}), 7);
  EXPECT_EQ(opd::call<ops::sym_numel>(m), 14);
  // boxed, as a graph runner calls them: the int on the stack
  opd::Stack stack{x, int64_t{2}};
  opd::call_boxed<ops::sym_size>(stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].to<int64_t>(), 5);
}

TEST_F(ModelsOps, CoreAtenMetaKernels) {
  const opd::Device meta = opd::Device::meta();
  const auto M = [&](const V& sizes) { return opd::empty(sizes, opd::ScalarType::Float, meta); };
  const std::optional<Tensor> none;
  // padding: sizes, and the CPU kernels' checks on Meta too
  EXPECT_EQ(opd::call<ops::reflection_pad2d>(M({2, 3, 5, 6}), V{1, 2, 3, 0}).sizes(), opd::IntArrayRef(V{2, 3, 8, 9}));
  EXPECT_TRUE(opd::call<ops::replication_pad3d>(M({2, 3, 3, 3}), V{1, 1, 1, 1, 1, 1}).is_meta());
  EXPECT_THROW((void)opd::call<ops::reflection_pad1d>(M({2, 3, 4}), V{4, 0}), opd::Error);
  // the pads' and upsamplings' backward kernels: self's (input_size's) sizes, the same checks
  EXPECT_EQ(opd::call<ops::reflection_pad2d_backward>(M({2, 3, 8, 9}), M({2, 3, 5, 6}), V{1, 2, 3, 0}).sizes(),
            opd::IntArrayRef(V{2, 3, 5, 6}));
  EXPECT_TRUE(opd::call<ops::replication_pad3d_backward>(M({2, 5, 5, 5}), M({2, 3, 3, 3}), V{1, 1, 1, 1, 1, 1}).is_meta());
  EXPECT_THROW((void)opd::call<ops::replication_pad1d_backward>(M({2, 3, 7}), M({2, 3, 4}), V{1, 1}), opd::Error);
  const Tensor ub = opd::call<ops::upsample_bilinear2d_backward>(M({1, 2, 8, 8}), V{8, 8}, V{1, 2, 4, 4}, false,
                                                                 std::nullopt, std::nullopt);
  EXPECT_TRUE(ub.is_meta());
  EXPECT_EQ(ub.sizes(), opd::IntArrayRef(V{1, 2, 4, 4}));
  EXPECT_THROW((void)opd::call<ops::upsample_nearest2d_backward>(M({1, 2, 8, 7}), V{8, 8}, V{1, 2, 4, 4}, std::nullopt,
                                                                 std::nullopt),
               opd::Error);
  const Tensor cp = opd::call<ops::constant_pad_nd>(M({2, 3, 4}), V{1, -1, 2, 0}, opd::Scalar(0.5));
  EXPECT_TRUE(cp.is_meta());
  EXPECT_EQ(cp.sizes(), opd::IntArrayRef(V{2, 5, 4}));
  // pools and their backward
  EXPECT_EQ(opd::call<ops::_adaptive_avg_pool2d>(M({2, 3, 7, 9}), V{3, 4}).sizes(), opd::IntArrayRef(V{2, 3, 3, 4}));
  EXPECT_EQ(opd::call<ops::_adaptive_avg_pool2d_backward>(M({2, 3, 3, 4}), M({2, 3, 7, 9})).sizes(),
            opd::IntArrayRef(V{2, 3, 7, 9}));
  EXPECT_EQ(opd::call<ops::avg_pool2d_backward>(M({1, 2, 4, 4}), M({1, 2, 7, 7}), V{3}, V{2}, V{1}, false, true,
                                                std::nullopt)
                .sizes(),
            opd::IntArrayRef(V{1, 2, 7, 7}));
  EXPECT_THROW((void)opd::call<ops::avg_pool2d_backward>(M({1, 2, 3, 4}), M({1, 2, 7, 7}), V{3}, V{2}, V{1}, false,
                                                         true, std::nullopt),
               opd::Error);
  EXPECT_EQ(opd::call<ops::avg_pool1d>(M({2, 3, 10}), V{3}, V{2}, V{1}, false, true).sizes(),
            opd::IntArrayRef(V{2, 3, 5}));
  // normalization
  const auto [y, mean, rstd] =
      opd::call<ops::native_group_norm>(M({2, 6, 4, 5}), none, none, int64_t{2}, int64_t{6}, int64_t{20}, int64_t{3}, 1e-5);
  EXPECT_TRUE(y.is_meta());
  EXPECT_EQ(mean.sizes(), opd::IntArrayRef(V{2, 3}));
  const auto [dx, dw, db] = opd::call<ops::native_group_norm_backward>(
      M({2, 6, 4, 5}), M({2, 6, 4, 5}), M({2, 3}), M({2, 3}), none, int64_t{2}, int64_t{6}, int64_t{20}, int64_t{3},
      std::array<bool, 3>{true, false, true});
  EXPECT_EQ(dx.sizes(), opd::IntArrayRef(V{2, 6, 4, 5}));
  EXPECT_FALSE(dw.defined());
  EXPECT_EQ(db.sizes(), opd::IntArrayRef(V{6}));
  const auto [lx, lw, lb] = opd::call<ops::native_layer_norm_backward>(
      M({4, 3, 5}), M({4, 3, 5}), V{5}, M({4, 3, 1}), M({4, 3, 1}), none, none, std::array<bool, 3>{true, true, true});
  EXPECT_TRUE(lx.is_meta());
  EXPECT_EQ(lw.sizes(), opd::IntArrayRef(V{5}));
  // embedding's backward, masked_scatter (broadcast shape)
  const Tensor ge = opd::call<ops::embedding_dense_backward>(M({2, 3, 5}), opd::empty(V{2, 3}, opd::ScalarType::Long, meta),
                                                             int64_t{7}, int64_t{-1}, false);
  EXPECT_EQ(ge.sizes(), opd::IntArrayRef(V{7, 5}));
  const Tensor ms = opd::call<ops::masked_scatter>(M({3}), opd::empty(V{2, 3}, opd::ScalarType::Bool, meta), M({6}));
  EXPECT_TRUE(ms.is_meta());
  EXPECT_EQ(ms.sizes(), opd::IntArrayRef(V{2, 3}));
  // scalar_tensor on device=meta
  const Tensor s = opd::call<ops::scalar_tensor>(opd::Scalar(2.0), std::nullopt, std::nullopt, meta, std::nullopt);
  EXPECT_TRUE(s.is_meta());
  EXPECT_EQ(s.dim(), 0);
}

TEST_F(ModelsOps, FailedCoreAtenOpsLeaveInputsUnchanged) {
  // scatter_add_ with an index out of range: self untouched
  Tensor self = ramp({3, 4}, 1.f);
  const std::vector<float> before = opd::to_vector<float>(self);
  const Tensor index = opd::from_vector<int64_t>({0, 5, 1, 2}, V{1, 4});
  EXPECT_THROW((void)opd::call<ops::scatter_add_>(self, int64_t{0}, index, ramp({1, 4}, 1.f)), opd::Error);
  EXPECT_EQ(opd::to_vector<float>(self), before);
  // elu_ on an integral tensor is refused before writing
  Tensor ints = opd::from_vector<int64_t>({-2, 0, 3}, V{3});
  EXPECT_THROW((void)opd::call<ops::elu::inplace>(ints, opd::Scalar(1.0), opd::Scalar(1.0), opd::Scalar(1.0)),
               opd::Error);
  EXPECT_EQ(opd::to_vector<int64_t>(ints), (std::vector<int64_t>{-2, 0, 3}));
  // masked_scatter_ with too few source elements: self untouched
  const Tensor mask = opd::from_vector<bool>({true, true, false, true}, V{4});
  Tensor target = ramp({3, 4}, 1.f);
  const std::vector<float> target_before = opd::to_vector<float>(target);
  EXPECT_THROW((void)opd::call<ops::masked_scatter_>(target, mask, ramp({8}, 1.f)), opd::Error);
  EXPECT_EQ(opd::to_vector<float>(target), target_before);
  // embedding_dense_backward with an index out of range: refused (ATen 1.13 reads out of bounds)
  EXPECT_THROW((void)opd::call<ops::embedding_dense_backward>(ramp({2, 3}, 1.f),
                                                               opd::from_vector<int64_t>({0, 7}, V{2}), int64_t{4},
                                                               int64_t{-1}, true),
               opd::Error);
  // an out= of the wrong dtype (reflection_pad1d.out derived): out untouched
  Tensor out = opd::from_vector<int64_t>({7}, V{1});
  EXPECT_THROW((void)opd::call<ops::reflection_pad1d_out>(ramp({1, 2, 4}, 1.f), V{1, 1}, out), opd::Error);
  EXPECT_EQ(opd::to_vector<int64_t>(out), (std::vector<int64_t>{7}));
}

// The random operators draw from opd::Generator: a seeded generator repeats
// its values; the values have the distribution's range and moments; Meta
// calls draw nothing.
TEST_F(ModelsOps, RandomOperatorsAreSeededAndDistributed) {
  const V size{100, 100};
  const auto uniform = [&](uint64_t seed) {
    return opd::to_vector<float>(opd::call<ops::rand_generator>(size, opd::Generator(seed), std::nullopt, std::nullopt,
                                                                std::nullopt, std::nullopt));
  };
  const std::vector<float> u = uniform(7);
  EXPECT_EQ(u, uniform(7));
  EXPECT_NE(u, uniform(8));
  double sum = 0;
  for (float x : u) {
    ASSERT_TRUE(x >= 0.f && x < 1.f);
    sum += x;
  }
  EXPECT_NEAR(sum / static_cast<double>(u.size()), 0.5, 0.01);  // 10,000 draws: sd of the mean 0.003
  opd::Generator g(3);
  const Tensor n = opd::call<ops::randn_generator>(size, g, opd::ScalarType::Double, std::nullopt, std::nullopt,
                                                   std::nullopt);
  ASSERT_EQ(n.dtype(), opd::ScalarType::Double);
  double m = 0, m2 = 0;
  for (double x : opd::to_vector<double>(n)) m += x, m2 += x * x;
  m /= 1e4;
  m2 /= 1e4;
  EXPECT_NEAR(m, 0.0, 0.04);
  EXPECT_NEAR(m2 - m * m, 1.0, 0.05);
  // the generator advances: a second draw differs; re-seeding repeats the first
  g.set_seed(3);
  const Tensor n2 = opd::call<ops::randn_generator>(size, g, opd::ScalarType::Double, std::nullopt, std::nullopt,
                                                    std::nullopt);
  EXPECT_EQ(opd::to_vector<double>(n2), opd::to_vector<double>(n));
  // complex: each part drawn, normal parts of variance 1/2 (E|z|^2 = 1), uniform parts in [0, 1)
  const Tensor nc = opd::call<ops::randn_generator>(size, opd::Generator(5), opd::ScalarType::ComplexDouble, std::nullopt,
                                                    std::nullopt, std::nullopt);
  ASSERT_EQ(nc.dtype(), opd::ScalarType::ComplexDouble);
  double re2 = 0, im2 = 0;
  for (const std::complex<double>& z : opd::to_vector<std::complex<double>>(nc)) re2 += z.real() * z.real(), im2 += z.imag() * z.imag();
  EXPECT_NEAR(re2 / 1e4, 0.5, 0.03);
  EXPECT_NEAR(im2 / 1e4, 0.5, 0.03);
  const Tensor uc = opd::call<ops::rand_generator>(V{100}, opd::Generator(5), opd::ScalarType::ComplexFloat, std::nullopt,
                                                   std::nullopt, std::nullopt);
  bool parts_in_range = true, imag_drawn = false;
  for (const std::complex<float>& z : opd::to_vector<std::complex<float>>(uc)) {
    parts_in_range = parts_in_range && z.real() >= 0.f && z.real() < 1.f && z.imag() >= 0.f && z.imag() < 1.f;
    imag_drawn = imag_drawn || z.imag() != 0.f;
  }
  EXPECT_TRUE(parts_in_range);
  EXPECT_TRUE(imag_drawn);
  // randperm: every value once, Long by default, seeded
  const Tensor p = opd::call<ops::randperm_generator>(int64_t{50}, opd::Generator(1), std::nullopt, std::nullopt,
                                                      std::nullopt, std::nullopt);
  ASSERT_EQ(p.dtype(), opd::ScalarType::Long);
  std::vector<int64_t> pv = opd::to_vector<int64_t>(p), sorted = pv;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(sorted[static_cast<std::size_t>(i)], i);
  EXPECT_NE(pv, sorted);
  EXPECT_THROW((void)opd::call<ops::randperm>(int64_t{-1}, std::nullopt, std::nullopt, std::nullopt, std::nullopt),
               opd::Error);
  EXPECT_THROW((void)opd::call<ops::randperm>(int64_t{300}, opd::ScalarType::Char, std::nullopt, std::nullopt,
                                              std::nullopt),
               opd::Error);
  EXPECT_THROW((void)opd::call<ops::rand>(size, opd::ScalarType::Long, std::nullopt, std::nullopt, std::nullopt),
               opd::Error);
  // out=: resized, filled
  Tensor out = opd::empty(V{0}, opd::ScalarType::Float);
  opd::call<ops::rand_generator_out>(V{3, 4}, opd::Generator(7), out);
  EXPECT_EQ(out.sizes(), opd::IntArrayRef(V{3, 4}));
  // Meta: sized, nothing drawn
  const Tensor mr = opd::call<ops::rand>(size, std::nullopt, std::nullopt, opd::Device::meta(), std::nullopt);
  EXPECT_TRUE(mr.is_meta());
  EXPECT_EQ(mr.sizes(), opd::IntArrayRef(size));
}

// The kernels draw blocks of numbers (simd::random_bits, the state a vector
// at a time): the same numbers as the engine's calls one by one, so the
// values are the documented functions of the seed's stream: rand 53 bits of
// one number, randn Box-Muller on two, randperm Fisher-Yates from the last
// element, and the generator advances by the numbers used.
TEST_F(ModelsOps, RandomOperatorsDrawTheGeneratorsStreamInBlocks) {
  opd::Mt19937_64 blocks(11), one_by_one(11);
  std::vector<uint64_t> got(1500);
  for (int64_t n : {1, 7, 311, 313, 1, 624, 1000, 5, 1500}) {
    opd::kernels::simd::random_bits(blocks, got.data(), n);
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i)], one_by_one()) << "block " << n << ", " << i;
  }
  EXPECT_EQ(blocks, one_by_one);

  const auto unit = [](uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; };
  opd::Generator g(21);
  std::mt19937_64 reference(21);
  const int64_t n = 3001;
  const std::vector<double> u = opd::to_vector<double>(
      opd::call<ops::rand_generator>(V{n}, g, opd::ScalarType::Double, std::nullopt, std::nullopt, std::nullopt));
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(u[static_cast<std::size_t>(i)], unit(reference())) << i;
  const std::vector<double> z = opd::to_vector<double>(
      opd::call<ops::randn_generator>(V{n}, g, opd::ScalarType::Double, std::nullopt, std::nullopt, std::nullopt));
  for (int64_t i = 0; i < n; i += 2) {
    const double radius = std::sqrt(-2.0 * std::log(1.0 - unit(reference())));
    const double angle = 2.0 * std::numbers::pi * unit(reference());
    ASSERT_NEAR(z[static_cast<std::size_t>(i)], radius * std::cos(angle), 1e-12) << i;
    if (i + 1 < n) {
      ASSERT_NEAR(z[static_cast<std::size_t>(i + 1)], radius * std::sin(angle), 1e-12) << i;
    }
  }
  EXPECT_EQ(g.random64(), reference());  // advanced by exactly the numbers used

  // randperm: in place for Long, through a buffer for the other dtypes; the same permutation
  const int64_t m = 2000;
  std::vector<int64_t> expected(static_cast<std::size_t>(m));
  for (int64_t i = 0; i < m; ++i) expected[static_cast<std::size_t>(i)] = i;
  std::mt19937_64 swaps(4);
  for (int64_t i = m - 1; i > 0; --i) {
    const auto j = static_cast<uint64_t>((static_cast<unsigned __int128>(swaps()) * static_cast<uint64_t>(i + 1)) >> 64);
    std::swap(expected[static_cast<std::size_t>(i)], expected[j]);
  }
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::randperm_generator>(m, opd::Generator(4), std::nullopt, std::nullopt,
                                                                       std::nullopt, std::nullopt)),
            expected);
  const std::vector<int> as_int = opd::to_vector<int>(opd::call<ops::randperm_generator>(
      m, opd::Generator(4), opd::ScalarType::Int, std::nullopt, std::nullopt, std::nullopt));
  EXPECT_EQ(std::vector<int64_t>(as_int.begin(), as_int.end()), expected);
}

// conj_physical, sgn, abs and angle of a contiguous complex row run
// complex_simd.hpp's vector rows, a strided input the scalar loops: the same
// values, bit for bit (angle: Sleef's atan2 against libm's, 1 ULP), on
// special values, whole vectors and a tail.
template <class R>
void expect_complex_rows_match_scalar_loops() {
  using C = std::complex<R>;
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  const std::vector<R> specials{0, -0.0, 1, -1, 3.5, -2.25, 1e-30, -7e-39, 1e30, inf, -inf, nan, R(0.1), R(-1e-3)};
  std::vector<C> values;
  for (std::size_t i = 0; i < 3 * specials.size() + 5; ++i)
    values.emplace_back(specials[i % specials.size()], specials[(i * 5 + 3) % specials.size()]);
  const int64_t n = static_cast<int64_t>(values.size());  // 47: whole vectors and a tail
  const Tensor row = opd::from_vector<C>(values, V{n});
  // the same values through a transposed view (a [n, 2] tensor's column 0)
  std::vector<C> wide(static_cast<std::size_t>(2 * n));
  for (int64_t i = 0; i < n; ++i) wide[static_cast<std::size_t>(2 * i)] = values[static_cast<std::size_t>(i)];
  const Tensor strided = opd::call<ops::select>(opd::from_vector<C>(wide, V{n, 2}), int64_t{1}, int64_t{0});
  ASSERT_FALSE(strided.is_contiguous());
  const auto bits_equal = [](const auto& a, const auto& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
  };
  EXPECT_TRUE(bits_equal(opd::to_vector<C>(opd::call<ops::conj_physical>(row)),
                         opd::to_vector<C>(opd::call<ops::conj_physical>(strided))));
  const std::vector<C> sgn = opd::to_vector<C>(opd::call<ops::sgn::functional>(row));
  const std::vector<C> sgn_scalar = opd::to_vector<C>(opd::call<ops::sgn::functional>(strided));
  EXPECT_TRUE(bits_equal(sgn, sgn_scalar));
  for (std::size_t i = 0; i < values.size(); ++i) {  // the values themselves: each part over |z|, 0 at 0
    const R a = values[i].real(), b = values[i].imag(), r = std::sqrt(a * a + b * b);
    if (std::isfinite(r)) {
      EXPECT_EQ(sgn[i], r == 0 ? C(0, 0) : C(a / r, b / r)) << i;
    }
  }
  EXPECT_TRUE(bits_equal(opd::to_vector<R>(opd::call<ops::abs::functional>(row)),
                         opd::to_vector<R>(opd::call<ops::abs::functional>(strided))));
  const std::vector<R> angle = opd::to_vector<R>(opd::call<ops::angle>(row));
  const std::vector<R> angle_scalar = opd::to_vector<R>(opd::call<ops::angle>(strided));
  ASSERT_EQ(angle.size(), angle_scalar.size());
  for (std::size_t i = 0; i < angle.size(); ++i) {
    if (std::isnan(angle_scalar[i])) {
      EXPECT_TRUE(std::isnan(angle[i])) << i;
    } else {
      EXPECT_LE(std::abs(angle[i] - angle_scalar[i]), std::abs(angle_scalar[i]) * std::numeric_limits<R>::epsilon()) << i;
    }
  }
  // in place
  Tensor copy = opd::call<ops::clone>(row, std::nullopt);
  opd::call<ops::conj_physical_>(copy);
  EXPECT_TRUE(bits_equal(opd::to_vector<C>(copy), opd::to_vector<C>(opd::call<ops::conj_physical>(strided))));
}
TEST_F(ModelsOps, ComplexVectorRowsAgreeWithTheScalarLoops) {
  expect_complex_rows_match_scalar_loops<float>();
  expect_complex_rows_match_scalar_loops<double>();
}

// The dtypes ATen 1.13's group norm and bilinear kernels take (Float, Double,
// BFloat16), refusals in its words (the kernel's name), and its check that
// group norm's other tensors have the input's dtype.
TEST_F(ModelsOps, GroupNormAndBilinearDtypes) {
  const std::optional<Tensor> none;
  const auto group_norm = [&](const Tensor& x, const std::optional<Tensor>& w) {
    return opd::call<ops::native_group_norm>(x, w, none, int64_t{2}, int64_t{4}, int64_t{3}, int64_t{2}, 1e-5);
  };
  const Tensor x = ramp({2, 4, 3}, 0.25f);
  const Tensor xb = as(x, opd::ScalarType::BFloat16);
  const auto bf16_result = group_norm(xb, std::nullopt);  // (no structured bindings: clang 14 cannot capture them)
  const Tensor yb = std::get<0>(bf16_result), mb = std::get<1>(bf16_result), rb = std::get<2>(bf16_result);
  const Tensor yf = std::get<0>(group_norm(x, std::nullopt));
  ASSERT_EQ(yb.dtype(), opd::ScalarType::BFloat16);
  ASSERT_EQ(rb.dtype(), opd::ScalarType::BFloat16);
  const std::vector<float> vb = opd::to_vector<float>(as(yb, opd::ScalarType::Float));
  const std::vector<float> vf = opd::to_vector<float>(yf);
  for (std::size_t i = 0; i < vf.size(); ++i) EXPECT_NEAR(vb[i], vf[i], 1.0 / 64) << i;  // within BFloat16's rounding
  const Tensor xh = as(x, opd::ScalarType::Half);
  EXPECT_NE(error_of([&] { (void)group_norm(xh, std::nullopt); }).find("\"GroupNormKernelImpl\" not implemented for 'Half'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)group_norm(x, opd::empty(V{4}, opd::ScalarType::Double)); })
                .find("expected scalar type Float but found Double"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              (void)opd::call<ops::native_group_norm_backward>(xh, xh, mb, rb, none, int64_t{2}, int64_t{4}, int64_t{3},
                                                               int64_t{2}, std::array<bool, 3>{true, true, true});
            }).find("\"GroupNormBackwardKernelImpl\" not implemented for 'Half'"),
            std::string::npos);
  const Tensor img = as(ramp({1, 1, 2, 2}, 1.0f), opd::ScalarType::BFloat16);
  const Tensor up = opd::call<ops::upsample_bilinear2d>(img, V{3, 3}, true, std::nullopt, std::nullopt);
  EXPECT_EQ(up.dtype(), opd::ScalarType::BFloat16);
  EXPECT_NE(error_of([&] {
              (void)opd::call<ops::upsample_bilinear2d>(opd::from_vector<int64_t>({1, 2, 3, 4}, V{1, 1, 2, 2}), V{3, 3},
                                                        true, std::nullopt, std::nullopt);
            }).find("\"compute_indices_weights_linear\" not implemented for 'Long'"),
            std::string::npos);
}

TEST_F(ModelsOps, NativeDropout) {
  const Tensor x = ramp({64, 64}, 0.25f, 0.1f);
  const auto [y, mask] = opd::call<ops::native_dropout>(x, 0.25, std::optional<bool>(true));
  ASSERT_EQ(mask.dtype(), opd::ScalarType::Bool);
  const std::vector<float> xv = opd::to_vector<float>(x), yv = opd::to_vector<float>(y);
  const std::vector<bool> mv = opd::to_vector<bool>(mask);
  int64_t kept = 0;
  for (std::size_t i = 0; i < xv.size(); ++i) {
    kept += mv[i];
    EXPECT_EQ(yv[i], mv[i] ? xv[i] * (1.f / 0.75f) : 0.f) << i;
  }
  EXPECT_NEAR(static_cast<double>(kept) / 4096.0, 0.75, 0.03);
  // eval: a copy and an all-true mask
  const auto [ye, me] = opd::call<ops::native_dropout>(x, 0.25, std::optional<bool>(false));
  EXPECT_EQ(opd::to_vector<float>(ye), xv);
  for (bool b : opd::to_vector<bool>(me)) EXPECT_TRUE(b);
  // backward: grad * mask * scale
  const Tensor g = opd::call<ops::native_dropout_backward>(y, mask, 0.5);
  const std::vector<float> gv = opd::to_vector<float>(g);
  for (std::size_t i = 0; i < gv.size(); ++i) EXPECT_EQ(gv[i], mv[i] ? yv[i] * 0.5f : 0.f);
  // p outside [0, 1], an integral input in training: refused, the latter with ATen's error (from its mul_ by the
  // Float scale); not training, an integral input is copied
  EXPECT_THROW((void)opd::call<ops::native_dropout>(x, 1.5, std::nullopt), opd::Error);
  const Tensor ints = opd::from_vector<int64_t>({1, 2}, V{2});
  EXPECT_NE(error_of([&] { (void)opd::call<ops::native_dropout>(ints, 0.5, std::nullopt); })
                .find("result type Float can't be cast to the desired output type Long"),
            std::string::npos);
  EXPECT_EQ(opd::to_vector<int64_t>(std::get<0>(opd::call<ops::native_dropout>(ints, 0.5, std::optional<bool>(false)))),
            (std::vector<int64_t>{1, 2}));
  // complex: the complex products (p = 0 keeps each element as it is)
  const Tensor z = opd::from_vector<std::complex<double>>({{1.0, -2.0}, {0.5, 3.0}}, V{2});
  const auto [yz, mz] = opd::call<ops::native_dropout>(z, 0.0, std::optional<bool>(true));
  EXPECT_EQ(opd::to_vector<std::complex<double>>(yz), opd::to_vector<std::complex<double>>(z));
  EXPECT_EQ(opd::to_vector<bool>(mz), (std::vector<bool>{true, true}));
  // no elements: ATen's mask then has the input's dtype
  EXPECT_EQ(std::get<1>(opd::call<ops::native_dropout>(opd::empty(V{0, 3}), 0.5, std::nullopt)).dtype(),
            opd::ScalarType::Float);
  const auto [ym, mm] = opd::call<ops::native_dropout>(opd::empty(V{2, 3}, opd::ScalarType::Float, opd::Device::meta()),
                                                       0.5, std::nullopt);
  EXPECT_TRUE(ym.is_meta() && mm.is_meta());
}

// aten::dropout in training: native_dropout's output (the library's generator, seeded); not training the input
// itself; p = 1, input * 0 (NaN stays NaN); Meta tensors sized
TEST_F(ModelsOps, DropoutInTraining) {
  const Tensor x = ramp({64, 64}, 0.25f, 0.1f);
  opd::default_cpu_generator().set_seed(7);
  const Tensor y = opd::call<ops::dropout>(x, 0.25, true);
  opd::default_cpu_generator().set_seed(7);
  const auto [ny, mask] = opd::call<ops::native_dropout>(x, 0.25, std::optional<bool>(true));
  EXPECT_EQ(opd::to_vector<float>(y), opd::to_vector<float>(ny));
  int64_t kept = 0;
  for (bool b : opd::to_vector<bool>(mask)) kept += b;
  EXPECT_NEAR(static_cast<double>(kept) / 4096.0, 0.75, 0.03);
  EXPECT_TRUE(opd::call<ops::dropout>(x, 0.25, false).is_same(x));
  const Tensor with_nan = opd::from_vector<float>({1.f, std::numeric_limits<float>::quiet_NaN()}, V{2});
  const std::vector<float> zeroed = opd::to_vector<float>(opd::call<ops::dropout>(with_nan, 1.0, true));
  EXPECT_EQ(zeroed[0], 0.f);
  EXPECT_TRUE(std::isnan(zeroed[1]));
  EXPECT_NE(error_of([&] { (void)opd::call<ops::dropout>(x, -0.5, true); })
                .find("dropout probability has to be between 0 and 1, but got -0.5"),
            std::string::npos);
  EXPECT_TRUE(opd::call<ops::dropout>(opd::empty(V{2, 3}, opd::ScalarType::Float, opd::Device::meta()), 0.5, true).is_meta());
}

}  // namespace
