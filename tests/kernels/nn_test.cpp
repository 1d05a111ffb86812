// embedding, dropout, conv2d, max_pool2d, avg_pool2d, adaptive_avg_pool2d, nll_loss
// (kernels/cpu/nn.hpp, kernels/ops_nn.hpp): hand-computed pools, conv2d
// against a direct (seven-loop) convolution over the same values, ATen's
// error messages, and the operators through the dispatcher.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include "error_of.hpp"
#include <kernels/ops_loss.hpp>
#include <kernels/ops_nn.hpp>

namespace {
using opd::Tensor;
using opd::ScalarType;
namespace k = opd::kernels;
namespace ops = opd::kernels::ops;
using V = std::vector<int64_t>;

Tensor ramp(std::vector<int64_t> sizes, ScalarType dtype = ScalarType::Double, int64_t mod = 1 << 30,
            int64_t shift = 0) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>((i % mod) - shift);
  Tensor t = opd::empty(sizes, dtype, opd::Device::cpu());
  k::copy_(t, opd::from_vector<double>(v, sizes));
  return t;
}

std::vector<double> values(const Tensor& t) {
  Tensor d = opd::empty(t.sizes(), ScalarType::Double, opd::Device::cpu());
  k::copy_(d, t);
  return opd::to_vector<double>(d);
}

using opd_test::error_of;

TEST(Nn, EmbeddingPicksRows) {
  const Tensor w = ramp({4, 3});
  const Tensor idx = opd::from_vector<int64_t>({2, 0, 3, 3}, {2, 2});
  const Tensor e = k::embedding(w, idx);
  EXPECT_EQ(e.sizes(), (V{2, 2, 3}));
  EXPECT_EQ(values(e), (std::vector<double>{6, 7, 8, 0, 1, 2, 9, 10, 11, 9, 10, 11}));
  // Int indices, a transposed (non-contiguous) weight.
  const int64_t sizes[] = {3, 4}, strides[] = {1, 3};
  const Tensor wt = w.as_strided(sizes, strides, 0);  // wt[i][j] = w[j][i]
  EXPECT_EQ(values(k::embedding(wt, opd::from_vector<int32_t>({1}))), (std::vector<double>{1, 4, 7, 10}));
  EXPECT_EQ(error_of([&] { (void)k::embedding(w, opd::from_vector<int64_t>({4})); }), "index out of range in self");
  EXPECT_EQ(error_of([&] { (void)k::embedding(w, opd::from_vector<int64_t>({-1})); }), "index out of range in self");
  EXPECT_EQ(error_of([&] { (void)k::embedding(w, opd::from_vector<float>({1.f})); }),
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
            "CPUFloatType instead (while checking arguments for embedding)");
  EXPECT_EQ(error_of([&] { (void)k::embedding(ramp({4}), idx); }), "'weight' must be 2-D");
}

TEST(Nn, DropoutInEvalModeReturnsItsInput) {
  const Tensor x = ramp({3}, ScalarType::Float);
  EXPECT_TRUE(k::dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(k::dropout(x, 0.0, true).is_same(x));
  Tensor with_nan = opd::from_vector<float>({1.f, std::numeric_limits<float>::quiet_NaN()});
  const std::vector<double> zeroed = values(k::dropout(with_nan, 1.0, true));
  EXPECT_EQ(zeroed[0], 0.0);
  EXPECT_TRUE(std::isnan(zeroed[1]));
  EXPECT_EQ(error_of([&] { (void)k::dropout(x, 1.5, false); }),
            "dropout probability has to be between 0 and 1, but got 1.5");
  // the random mask is native_dropout's: aten::dropout through the dispatcher (ModelsOps.DropoutInTraining)
  EXPECT_NE(error_of([&] { (void)k::dropout(x, 0.5, true); }).find("call aten::dropout through the dispatcher"), std::string::npos);
}

// Direct convolution in double, ATen's definition.
std::vector<double> direct_conv(const Tensor& x, const Tensor& w, const std::vector<double>* bias, V stride, V pad,
                                V dil, int64_t groups) {
  const std::vector<double> vx = values(x), vw = values(w);
  const int64_t n = x.size(0), c = x.size(1), ih = x.size(2), iw = x.size(3);
  const int64_t o = w.size(0), cg = w.size(1), kh = w.size(2), kw = w.size(3), og = o / groups;
  const int64_t oh = (ih + 2 * pad[0] - dil[0] * (kh - 1) - 1) / stride[0] + 1;
  const int64_t ow = (iw + 2 * pad[1] - dil[1] * (kw - 1) - 1) / stride[1] + 1;
  std::vector<double> r(static_cast<std::size_t>(n * o * oh * ow));
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xx = 0; xx < ow; ++xx) {
          double acc = bias ? (*bias)[static_cast<std::size_t>(oc)] : 0.0;
          const int64_t g = oc / og;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                const int64_t yy = y * stride[0] - pad[0] + i * dil[0], xi = xx * stride[1] - pad[1] + j * dil[1];
                if (yy < 0 || yy >= ih || xi < 0 || xi >= iw) continue;
                acc += vx[static_cast<std::size_t>(((b * c + g * cg + ic) * ih + yy) * iw + xi)] *
                       vw[static_cast<std::size_t>(((oc * cg + ic) * kh + i) * kw + j)];
              }
          r[static_cast<std::size_t>(((b * o + oc) * oh + y) * ow + xx)] = acc;
        }
  (void)c;
  return r;
}

TEST(Nn, Conv2dEqualsTheDirectConvolution) {
  struct Case {
    V x, w;
    V stride, pad, dil;
    int64_t groups;
    bool bias;
  };
  const Case cases[] = {
      {{1, 2, 5, 5}, {3, 2, 3, 3}, {1, 1}, {0, 0}, {1, 1}, 1, false},
      {{2, 4, 6, 7}, {6, 2, 3, 2}, {2, 1}, {1, 0}, {1, 2}, 2, true},
      {{1, 3, 4, 4}, {5, 3, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, true},   // 1x1: the input is the col
      {{2, 4, 5, 5}, {4, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 4, false},  // depthwise
      // stride 1, float/double: the shifted-GEMM path, with bias (added while
      // copying out), padding and dilation differing by dimension, groups
      {{2, 4, 6, 7}, {6, 2, 3, 3}, {1, 1}, {2, 1}, {2, 1}, 2, true},
      // 3x3, stride 1, >= 8 channels a group, >= 512 outputs, float/double: Winograd
      // F(2x2, 3x3) (conv_winograd-inl.hpp). Exact on these small integers
      // (its transforms only add and halve). Odd output sizes (partial tiles
      // at the right and bottom), batch 2 with several blocks of tile rows,
      // one spanning both images; groups 2 with unequal padding.
      {{2, 16, 9, 40}, {16, 16, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, true},
      {{1, 32, 20, 30}, {32, 16, 3, 3}, {1, 1}, {0, 2}, {1, 1}, 2, false},
  };
  for (ScalarType dt : {ScalarType::Double, ScalarType::Float, ScalarType::Long}) {
    for (const Case& c : cases) {
      const Tensor x = ramp(c.x, dt, 7, 3), w = ramp(c.w, dt, 5, 2);
      const Tensor b = ramp({c.w[0]}, dt, 3, 1);
      const std::vector<double> vb = values(b);
      const std::optional<Tensor> bias = c.bias ? std::optional<Tensor>(b) : std::nullopt;
      const Tensor y = k::conv2d(x, w, bias, c.stride, c.pad, c.dil, c.groups);
      EXPECT_EQ(y.dtype(), dt);
      EXPECT_EQ(values(y), direct_conv(x, w, c.bias ? &vb : nullptr, c.stride, c.pad, c.dil, c.groups)) << dt;
    }
  }
  // Unbatched (3-D) input: the batched result without its batch dimension.
  const Tensor x3 = ramp({2, 5, 5}, ScalarType::Double, 7, 3), w = ramp({3, 2, 3, 3}, ScalarType::Double, 5, 2);
  const Tensor y3 = k::conv2d(x3, w, std::nullopt, V{1}, V{1}, V{1}, 1);
  EXPECT_EQ(y3.sizes(), (V{3, 5, 5}));
  EXPECT_EQ(values(y3), direct_conv(ramp({1, 2, 5, 5}, ScalarType::Double, 7, 3), w, nullptr, {1, 1}, {1, 1}, {1, 1}, 1));
}

TEST(Nn, Conv2dErrorsAreAtens) {
  const Tensor x = ramp({1, 4, 5, 5}, ScalarType::Float);
  const V one{1}, zero{0};
  EXPECT_EQ(error_of([&] { (void)k::conv2d(x, ramp({6, 3, 3, 3}, ScalarType::Float), std::nullopt, one, zero, one, 1); }),
            "Given groups=1, weight of size [6, 3, 3, 3], expected input[1, 4, 5, 5] to have 3 channels, but got 4 "
            "channels instead");
  EXPECT_EQ(error_of([&] { (void)k::conv2d(x, ramp({6, 4, 3, 3}, ScalarType::Float), std::nullopt, one, zero, one, 4); }),
            "Given groups=4, expected weight to be divisible by 4 at dimension 0, but got weight of size [[6, 4, 3, 3]] "
            "instead");
  EXPECT_EQ(error_of([&] { (void)k::conv2d(x, ramp({6, 4, 7, 7}, ScalarType::Float), std::nullopt, one, zero, one, 1); }),
            "Calculated padded input size per channel: (5 x 5). Kernel size: (7 x 7). Kernel size can't be greater "
            "than actual input size");
  EXPECT_EQ(error_of([&] { (void)k::conv2d(x, ramp({6, 4, 3, 3}, ScalarType::Float), ramp({5}, ScalarType::Float), one, zero, one, 1); }),
            "Given weight of size [6, 4, 3, 3], expected bias to be 1-dimensional with 6 elements, but got bias of "
            "size [5] instead");
  EXPECT_EQ(error_of([&] { (void)k::conv2d(x, ramp({6, 4, 3, 3}), std::nullopt, one, zero, one, 1); }),
            "expected scalar type Float but found Double");
  EXPECT_EQ(error_of([&] { (void)k::conv2d(x, ramp({6, 4, 3, 3}, ScalarType::Float), std::nullopt, V{1, 1, 1}, zero, one, 1); }),
            "expected stride to be a single integer value or a list of 2 values to match the convolution dimensions, "
            "but got stride=[1, 1, 1]");
  EXPECT_EQ(error_of([&] { (void)k::conv2d(x, ramp({6, 4, 3, 3}, ScalarType::Float), std::nullopt, zero, zero, one, 1); }),
            "non-positive stride is not supported");
}

TEST(Nn, MaxPool2d) {
  const Tensor x = ramp({1, 1, 4, 4});  // 0..15
  EXPECT_EQ(values(k::max_pool2d(x, V{2}, V{}, V{0}, V{1}, false)), (std::vector<double>{5, 7, 13, 15}));
  const Tensor x5 = ramp({1, 5, 5});  // 3-D input, 0..24
  const Tensor ceil = k::max_pool2d(x5, V{2, 2}, V{2, 2}, V{0}, V{1}, true);
  EXPECT_EQ(ceil.sizes(), (V{1, 3, 3}));
  EXPECT_EQ(values(ceil), (std::vector<double>{6, 8, 9, 16, 18, 19, 21, 23, 24}));
  // Padding reads as -inf; dilation 2 takes every other element.
  EXPECT_EQ(values(k::max_pool2d(ramp({1, 1, 2, 2}, ScalarType::Float, 100, 10), V{2}, V{1}, V{1}, V{1}, false)),
            (std::vector<double>{-10, -9, -9, -8, -7, -7, -8, -7, -7}));
  EXPECT_EQ(values(k::max_pool2d(x, V{2}, V{1}, V{0}, V{2}, false)), (std::vector<double>{10, 11, 14, 15}));
  Tensor with_nan = opd::from_vector<double>({1, std::nan(""), 3, 4}, {1, 1, 2, 2});
  EXPECT_TRUE(std::isnan(values(k::max_pool2d(with_nan, V{2}, V{}, V{0}, V{1}, false))[0]));
  EXPECT_EQ(error_of([&] { (void)k::max_pool2d(x, V{2}, V{}, V{2}, V{1}, false); }),
            "pad should be at most half of kernel size, but got pad=2 and kernel_size=2");
  EXPECT_EQ(error_of([&] { (void)k::max_pool2d(x, V{5}, V{}, V{0}, V{1}, false); }),
            "Given input size: (1x4x4). Calculated output size: (1x0x0). Output size is too small");
  EXPECT_EQ(error_of([&] { (void)k::max_pool2d(ramp({1, 1, 4, 4}, ScalarType::Int), V{2}, V{}, V{0}, V{1}, false); }),
            "\"max_pool2d\" not implemented for 'Int'");
}

TEST(Nn, AvgPool2d) {
  const Tensor x = ramp({1, 1, 4, 4});
  EXPECT_EQ(values(k::avg_pool2d(x, V{2}, V{}, V{0}, false, true, std::nullopt)),
            (std::vector<double>{2.5, 4.5, 10.5, 12.5}));
  const Tensor q = opd::from_vector<double>({1, 2, 3, 4}, {1, 2, 2});
  // kernel 2, stride 1, padding 1: nine windows; corners hold one element.
  EXPECT_EQ(values(k::avg_pool2d(q, V{2}, V{1}, V{1}, false, true, std::nullopt)),
            (std::vector<double>{0.25, 0.75, 0.5, 1, 2.5, 1.5, 0.75, 1.75, 1}));
  EXPECT_EQ(values(k::avg_pool2d(q, V{2}, V{1}, V{1}, false, false, std::nullopt)),
            (std::vector<double>{1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}));
  EXPECT_EQ(values(k::avg_pool2d(q, V{2}, V{1}, V{1}, false, true, 1)),
            (std::vector<double>{1, 3, 2, 4, 10, 6, 3, 7, 4}));
  // Long: integer division.
  EXPECT_EQ(values(k::avg_pool2d(ramp({1, 1, 4, 4}, ScalarType::Long), V{2}, V{}, V{0}, false, true, std::nullopt)),
            (std::vector<double>{2, 4, 10, 12}));
  EXPECT_EQ(error_of([&] { (void)k::avg_pool2d(x, V{2}, V{2}, V{0}, false, true, 0); }), "divisor must be not zero");
  EXPECT_EQ(error_of([&] { (void)k::avg_pool2d(ramp({1, 1, 4, 4}, ScalarType::Int), V{2}, V{}, V{0}, false, true, std::nullopt); }),
            "\"avg_pool2d\" not implemented for 'Int'");
}

TEST(Nn, AdaptiveAvgPool2d) {
  const Tensor x = ramp({1, 1, 4, 4});
  EXPECT_EQ(values(k::adaptive_avg_pool2d(x, V{2, 2})), (std::vector<double>{2.5, 4.5, 10.5, 12.5}));
  // Global pooling (1x1, the row-sum path): the mean of each plane.
  EXPECT_EQ(values(k::adaptive_avg_pool2d(ramp({1, 2, 4, 4}), V{1, 1})), (std::vector<double>{7.5, 23.5}));
  const std::vector<double> r = values(k::adaptive_avg_pool2d(x, V{3, 3}));  // overlapping 2x2 windows
  EXPECT_EQ(r[0], 2.5);
  EXPECT_EQ(r[4], 7.5);
  EXPECT_EQ(r[8], 12.5);
  EXPECT_EQ(error_of([&] { (void)k::adaptive_avg_pool2d(x, V{3}); }), "adaptive_avg_pool2d: output_size must be 2");
  EXPECT_EQ(error_of([&] { (void)k::adaptive_avg_pool2d(ramp({1, 4, 0, 5}), V{3, 3}); }),
            "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has "
            "sizes [1, 4, 0, 5] with dimension 2 being empty");
}

TEST(Nn, ThroughTheDispatcher) {
  auto registered = opd_test::register_all_kernels();
  const Tensor x = ramp({1, 2, 5, 5}, ScalarType::Float, 7, 3), w = ramp({3, 2, 3, 3}, ScalarType::Float, 5, 2);
  const Tensor y = opd::call<ops::conv2d>(x, w, std::nullopt, V{1, 1}, V{1, 1}, V{1, 1}, 1);
  EXPECT_EQ(values(y), direct_conv(x, w, nullptr, {1, 1}, {1, 1}, {1, 1}, 1));
  Tensor out = opd::empty(V{0}, ScalarType::Double, opd::Device::cpu());
  opd::call<ops::avg_pool2d_out>(ramp({1, 1, 4, 4}), V{2, 2}, V{}, V{0, 0}, false, true, std::nullopt, out);
  EXPECT_EQ(values(out), (std::vector<double>{2.5, 4.5, 10.5, 12.5}));
  EXPECT_EQ(values(opd::call<ops::max_pool2d>(ramp({1, 1, 4, 4}), V{2, 2}, V{}, V{0, 0}, V{1, 1}, false)),
            (std::vector<double>{5, 7, 13, 15}));
  EXPECT_EQ(opd::call<ops::embedding>(ramp({4, 3}), opd::from_vector<int64_t>({1, 2})).sizes(), (V{2, 3}));
  const Tensor d = ramp({3});
  EXPECT_TRUE(opd::call<ops::dropout>(d, 0.5, false).is_same(d));
}

// nll_loss by hand (its values against libtorch: loss_torch_diff_test.cpp),
// and what the differential test cannot compare: a target out of range in the
// backward of reduction none, where ATen 1.13 writes out of bounds; Meta
// shapes; a failed out= call.
TEST(Nn, NllLoss) {
  auto registered = opd_test::register_all_kernels();
  const Tensor x = ramp({3, 4}, ScalarType::Float);  // x[i][c] = 4 i + c
  const Tensor t = opd::from_vector<int64_t>({1, -100, 3});
  const Tensor w = opd::from_vector<float>({1, 2, 3, 4});
  const auto [sum, total_weight] = opd::call<ops::nll_loss_forward>(x, t, w, int64_t{2}, int64_t{-100});
  const Tensor total = total_weight;  // a variable, not a binding: lambdas below capture it
  EXPECT_EQ(values(sum), (std::vector<double>{-(1 * 2 + 11 * 4)}));
  EXPECT_EQ(values(total), (std::vector<double>{6}));
  EXPECT_EQ(values(opd::call<ops::nll_loss>(x, t, w)), (std::vector<double>{static_cast<float>(-46.0 / 6)}));
  const Tensor g = opd::call<ops::nll_loss_backward>(opd::from_vector<float>({1, 1, 2}), x, t, w, int64_t{0},
                                                      int64_t{-100}, total);
  EXPECT_EQ(values(g), (std::vector<double>{0, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, -8}));

  const Tensor bad = opd::from_vector<int64_t>({1, 4, 0});
  for (int64_t reduction : {0, 1, 2}) {
    const Tensor go = reduction == 0 ? opd::from_vector<float>({1, 1, 1}) : opd::from_vector<float>({1});
    EXPECT_NE(opd_test::error_of([&] {
                (void)opd::call<ops::nll_loss_backward>(go, x, bad, w, reduction, int64_t{-100}, total);
              }).find("Target 4 is out of bounds."),
              std::string::npos);
  }
  EXPECT_THROW((void)opd::call<ops::nll_loss_forward>(x, bad, std::nullopt, int64_t{0}, int64_t{-100}),
               opd::IndexError);
  const Tensor bad2d = opd::from_vector<int64_t>({-1, 0}, V{1, 1, 2});
  EXPECT_THROW((void)opd::call<ops::nll_loss2d_backward>(opd::from_vector<float>({1, 1}, V{1, 1, 2}),
                                                         ramp({1, 4, 1, 2}, ScalarType::Float), bad2d, std::nullopt,
                                                         int64_t{0}, int64_t{-100}, total),
               opd::IndexError);

  // a failed out= call leaves its outs as they were
  Tensor out = opd::from_vector<float>({7, 7}), out_total = opd::from_vector<float>({7});
  EXPECT_THROW((void)opd::call<ops::nll_loss_forward_output>(x, bad, std::nullopt, int64_t{0}, int64_t{-100}, out,
                                                              out_total),
               opd::IndexError);
  EXPECT_EQ(values(out), (std::vector<double>{7, 7}));
  EXPECT_EQ(values(out_total), (std::vector<double>{7}));

  // Meta: shapes only
  const Tensor m = opd::empty(V{5, 3, 2, 2}, ScalarType::Float, opd::Device::meta());
  const Tensor mt = opd::empty(V{5, 2, 2}, ScalarType::Long, opd::Device::meta());
  auto [mo, mw] = opd::call<ops::nll_loss2d_forward>(m, mt, std::nullopt, int64_t{0}, int64_t{-100});
  EXPECT_TRUE(mo.is_meta());
  EXPECT_EQ(mo.sizes(), (V{5, 2, 2}));
  EXPECT_EQ(mw.dim(), 0);
  EXPECT_EQ(opd::call<ops::nll_loss2d_backward>(mo, m, mt, std::nullopt, int64_t{0}, int64_t{-100}, mw).sizes(),
            (V{5, 3, 2, 2}));

  // a 1-D input of no classes and an empty target: nothing read
  const Tensor none = opd::empty(V{0}, ScalarType::Float, opd::Device::cpu());
  const Tensor no_target = opd::empty(V{0}, ScalarType::Long, opd::Device::cpu());
  EXPECT_EQ(opd::call<ops::nll_loss_backward>(opd::from_vector<float>({1}), none, no_target, std::nullopt, int64_t{2},
                                              int64_t{-100}, total).numel(),
            0);
  EXPECT_EQ(values(std::get<0>(opd::call<ops::nll_loss_forward>(none, no_target, std::nullopt, int64_t{2}, int64_t{-100}))),
            (std::vector<double>{0}));

}

}  // namespace
