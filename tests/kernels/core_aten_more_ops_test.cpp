// The last Core ATen operators of issue 25 where libtorch 1.13 cannot be the
// reference (core_aten_more_torch_diff_test.cpp does the rest): PyTorch 2.x's
// squeeze.dims and any.dims, checked against the 1.13 operators they
// generalize (squeeze.dim, any.dim); resize_ growing its storage; the FFTs'
// inverse pairs (without libtorch, as under ASan); the Meta
// kernels of every new operator; failed calls leaving their inputs unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <dispatch/dispatcher.hpp>
#include <kernels/ops_conv_backward.hpp>
#include <kernels/ops_core_aten.hpp>
#include <kernels/ops_distance.hpp>
#include <kernels/ops_embedding_bag.hpp>
#include <kernels/ops_fft.hpp>
#include <kernels/ops_grid_sampler.hpp>
#include <kernels/ops_pooling3d.hpp>
#include <kernels/ops_reductions.hpp>
#include <kernels/ops_views.hpp>
#include "all_kernels.hpp"

namespace {

namespace ops = opd::kernels::ops;
using opd::Tensor;
using V = std::vector<int64_t>;

class CoreAtenMoreOps : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { kernels_ = new opd::RegistrationSet(opd_test::register_all_kernels()); }
  static void TearDownTestSuite() {
    delete kernels_;
    kernels_ = nullptr;
  }
  static opd::RegistrationSet* kernels_;
};
opd::RegistrationSet* CoreAtenMoreOps::kernels_ = nullptr;

Tensor ramp(const V& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>((i * 7) % 11 - 5);
  return opd::from_vector<float>(v, sizes);
}

// Elements 0 and 1 by a pattern (for any): mostly zero.
Tensor sparse_bools(const V& sizes, int64_t period) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = (i * 5) % period == 0 ? 1.f : 0.f;
  return opd::from_vector<float>(v, sizes);
}

TEST_F(CoreAtenMoreOps, SqueezeDimsIsSqueezeDimPerDimension) {
  const Tensor x = ramp({1, 3, 1, 1, 2});
  // each listed dimension as squeeze.dim would drop it, the last first
  const std::vector<V> lists = {{0}, {0, 2}, {-1, -2, 0}, {1}, {}, {3, 2, 0}};
  for (const V& dims : lists) {
    const Tensor y = opd::call<ops::squeeze_dims>(x, dims);
    std::vector<int64_t> wrapped;
    for (int64_t d : dims) wrapped.push_back(d < 0 ? d + x.dim() : d);
    std::sort(wrapped.rbegin(), wrapped.rend());
    Tensor expected = x;
    for (int64_t d : wrapped) expected = opd::call<ops::squeeze_dim>(expected, d);
    EXPECT_EQ(y.sizes(), expected.sizes()) << ::testing::PrintToString(dims);
    EXPECT_EQ(y.strides(), expected.strides()) << ::testing::PrintToString(dims);
    EXPECT_TRUE(y.is_alias_of(x));  // a view: same storage
    EXPECT_EQ(opd::to_vector<float>(y), opd::to_vector<float>(x));
  }
  // a transposed input keeps its strides on the dimensions that stay
  const Tensor t = ramp({2, 1, 3}).as_strided(V{3, 1, 2}, V{1, 3, 3}, 0);
  const Tensor ts = opd::call<ops::squeeze_dims>(t, V{1});
  EXPECT_EQ(ts.sizes(), opd::IntArrayRef(V{3, 2}));
  EXPECT_EQ(ts.strides(), opd::IntArrayRef(V{1, 3}));
  // 0-dim: dims 0 and -1 name the tensor itself
  const Tensor s = opd::from_vector<float>({2.5f}, V{});
  EXPECT_EQ(opd::call<ops::squeeze_dims>(s, V{0}).dim(), 0);
  // refused: a dimension twice, out of range
  EXPECT_THROW((void)opd::call<ops::squeeze_dims>(x, V{0, -5}), opd::Error);
  EXPECT_THROW((void)opd::call<ops::squeeze_dims>(x, V{5}), opd::Error);
  EXPECT_THROW((void)opd::call<ops::squeeze_dims>(s, V{1}), opd::Error);
  // Meta: the same view
  const Tensor m = opd::empty(V{1, 3, 1}, opd::ScalarType::Float, opd::Device::meta());
  EXPECT_EQ(opd::call<ops::squeeze_dims>(m, V{0, 2}).sizes(), opd::IntArrayRef(V{3}));
}

// max_pool3d_with_indices_backward adds at each index and checks every index
// first: one window over a volume of 2 x 2 x 2, index 7 its last element, 8
// and -1 outside.
TEST_F(CoreAtenMoreOps, MaxPool3dBackwardChecksEveryIndex) {
  const Tensor x3 = opd::from_vector<float>({0, 1, 2, 3, 4, 5, 6, 7}, V{1, 2, 2, 2});
  const Tensor g3 = opd::from_vector<float>({2.5f}, V{1, 1, 1, 1});
  const auto pool3 = [&](int64_t index) {
    return opd::call<ops::max_pool3d_with_indices_backward>(g3, x3, V{2}, V{2}, V{0}, V{1}, false,
                                                            opd::from_vector<int64_t>({index}, V{1, 1, 1, 1}));
  };
  EXPECT_EQ(opd::to_vector<float>(pool3(7)), (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 2.5f}));
  EXPECT_THROW((void)pool3(8), opd::Error);
  EXPECT_THROW((void)pool3(-1), opd::Error);
}

TEST_F(CoreAtenMoreOps, AnyDimsIsAnyDimOverEachDimension) {
  const Tensor x = sparse_bools({3, 4, 5}, 23);
  const std::vector<V> lists = {{0}, {2}, {0, 2}, {-1, 1}, {2, 0, 1}};
  for (bool keepdim : {false, true}) {
    for (const V& dims : lists) {
      const Tensor y = opd::call<ops::any_dims>(x, dims, keepdim);
      std::vector<int64_t> wrapped;
      for (int64_t d : dims) wrapped.push_back(d < 0 ? d + x.dim() : d);
      std::sort(wrapped.rbegin(), wrapped.rend());
      Tensor expected = x;
      for (int64_t d : wrapped) expected = opd::call<ops::any_dim>(expected, d, keepdim);
      EXPECT_EQ(y.sizes(), expected.sizes()) << ::testing::PrintToString(dims);
      EXPECT_EQ(y.dtype(), opd::ScalarType::Bool);
      EXPECT_EQ(opd::to_vector<bool>(y), opd::to_vector<bool>(expected)) << ::testing::PrintToString(dims);
    }
    // None and [] reduce every dimension
    for (const std::optional<V>& all : {std::optional<V>{}, std::optional<V>{V{}}}) {
      const Tensor y = opd::call<ops::any_dims>(x, all, keepdim);
      EXPECT_EQ(y.sizes(), keepdim ? opd::IntArrayRef(V{1, 1, 1}) : opd::IntArrayRef(V{}));
      EXPECT_EQ(opd::to_vector<bool>(y), std::vector<bool>{true});
    }
  }
  // an all-zero tensor, an empty dimension, a Byte input (a Byte result, as any.dim's)
  EXPECT_EQ(opd::to_vector<bool>(opd::call<ops::any_dims>(opd::from_vector<float>(std::vector<float>(6, 0.f), V{2, 3}), V{1}, false)),
            (std::vector<bool>{false, false}));
  EXPECT_EQ(opd::to_vector<bool>(opd::call<ops::any_dims>(ramp({2, 0}), V{1}, false)), (std::vector<bool>{false, false}));
  const Tensor bytes = opd::from_vector<uint8_t>({0, 3, 0, 0}, V{2, 2});
  const Tensor by = opd::call<ops::any_dims>(bytes, V{0}, false);
  EXPECT_EQ(by.dtype(), opd::ScalarType::Byte);
  EXPECT_EQ(opd::to_vector<uint8_t>(by), (std::vector<uint8_t>{0, 1}));
  // out=: a Bool out resized; another dtype refused, out untouched
  Tensor out = opd::empty(V{0}, opd::ScalarType::Bool);
  opd::call<ops::any_dims_out>(x, V{1}, false, out);
  EXPECT_EQ(opd::to_vector<bool>(out), opd::to_vector<bool>(opd::call<ops::any_dim>(x, int64_t{1}, false)));
  Tensor wrong = opd::from_vector<float>({7.f}, V{1});
  EXPECT_THROW((void)opd::call<ops::any_dims_out>(x, V{1}, false, wrong), opd::Error);
  EXPECT_EQ(opd::to_vector<float>(wrong), std::vector<float>{7.f});
  // refused: a dimension twice, out of range; Meta gives the shape
  EXPECT_THROW((void)opd::call<ops::any_dims>(x, V{0, -3}, false), opd::Error);
  EXPECT_THROW((void)opd::call<ops::any_dims>(x, V{3}, false), opd::Error);
  const Tensor m = opd::empty(V{3, 4, 5}, opd::ScalarType::Float, opd::Device::meta());
  const Tensor my = opd::call<ops::any_dims>(m, V{0, 2}, true);
  EXPECT_TRUE(my.is_meta());
  EXPECT_EQ(my.sizes(), opd::IntArrayRef(V{1, 4, 1}));
}

TEST_F(CoreAtenMoreOps, ResizeGrowsAndKeepsTheElements) {
  Tensor x = ramp({2, 3});
  const std::vector<float> before = opd::to_vector<float>(x);
  auto&& r = opd::call<ops::resize_>(x, V{4, 5}, std::nullopt);
  EXPECT_TRUE(r.is_same(x));
  EXPECT_EQ(x.sizes(), opd::IntArrayRef(V{4, 5}));
  EXPECT_TRUE(x.is_contiguous());
  const std::vector<float> grown = opd::to_vector<float>(x);
  EXPECT_EQ(std::vector<float>(grown.begin(), grown.begin() + 6), before);
  // shrinking keeps the storage: growing back shows the same elements
  opd::call<ops::resize_>(x, V{2}, std::nullopt);
  opd::call<ops::resize_>(x, V{2, 3}, std::nullopt);
  EXPECT_EQ(opd::to_vector<float>(x), before);
  // ChannelsLast restrides a 4-D tensor of the same sizes
  Tensor c = ramp({1, 2, 3, 2});
  opd::call<ops::resize_>(c, V{1, 2, 3, 2}, opd::MemoryFormat::ChannelsLast);
  EXPECT_EQ(c.strides(), opd::IntArrayRef(V{12, 1, 4, 2}));
  // refused before anything changes: a negative size, Preserve, a rank the format does not take
  Tensor y = ramp({2, 3});
  EXPECT_THROW((void)opd::call<ops::resize_>(y, V{2, -3}, std::nullopt), opd::Error);
  EXPECT_THROW((void)opd::call<ops::resize_>(y, V{3, 2}, opd::MemoryFormat::Preserve), opd::Error);
  EXPECT_THROW((void)opd::call<ops::resize_>(y, V{2, 3}, opd::MemoryFormat::ChannelsLast3d), opd::Error);
  EXPECT_EQ(y.sizes(), opd::IntArrayRef(V{2, 3}));
  EXPECT_EQ(opd::to_vector<float>(y), opd::to_vector<float>(ramp({2, 3})));
  // Meta: sizes only
  Tensor m = opd::empty(V{2, 3}, opd::ScalarType::Float, opd::Device::meta());
  opd::call<ops::resize_>(m, V{7, 9}, std::nullopt);
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes(), opd::IntArrayRef(V{7, 9}));
}

TEST_F(CoreAtenMoreOps, MetaKernels) {
  const opd::Device meta = opd::Device::meta();
  const auto M = [&](const V& sizes) { return opd::empty(sizes, opd::ScalarType::Float, meta); };
  const Tensor index = opd::empty(V{2, 4}, opd::ScalarType::Long, meta);
  const Tensor sr = opd::call<ops::scatter_reduce_two>(M({3, 5}), int64_t{0}, index, M({2, 5}), "amax", false);
  EXPECT_TRUE(sr.is_meta());
  EXPECT_EQ(sr.sizes(), opd::IntArrayRef(V{3, 5}));
  EXPECT_THROW((void)opd::call<ops::scatter_reduce_two>(M({3, 5}), int64_t{0}, index, M({2, 5}), "max", true),
               opd::Error);
  EXPECT_EQ(opd::call<ops::avg_pool3d>(M({2, 3, 5, 6, 7}), V{3}, V{2}, V{1}, false, true, std::nullopt).sizes(),
            opd::IntArrayRef(V{2, 3, 3, 3, 4}));
  const auto [values, indices] = opd::call<ops::max_pool3d_with_indices>(M({3, 5, 6, 7}), V{2}, V{}, V{0}, V{1}, true);
  EXPECT_EQ(values.sizes(), opd::IntArrayRef(V{3, 3, 3, 4}));
  EXPECT_EQ(indices.dtype(), opd::ScalarType::Long);
  EXPECT_TRUE(indices.is_meta());
  EXPECT_EQ(opd::call<ops::adaptive_avg_pool3d_>(M({2, 3, 5, 6, 7}), V{2, 4, 3}).sizes(),
            opd::IntArrayRef(V{2, 3, 2, 4, 3}));
  EXPECT_EQ(opd::call<ops::col2im>(M({2, 12, 16}), V{5, 6}, V{2, 3}, V{1, 1}, V{0, 0}, V{1, 1}).sizes(),
            opd::IntArrayRef(V{2, 2, 5, 6}));
  EXPECT_THROW((void)opd::call<ops::col2im>(M({2, 12, 15}), V{5, 6}, V{2, 3}, V{1, 1}, V{0, 0}, V{1, 1}), opd::Error);
  EXPECT_THROW((void)opd::call<ops::avg_pool3d>(M({5, 6, 7}), V{3}, V{2}, V{1}, false, true, std::nullopt), opd::Error);
  const Tensor cd = opd::call<ops::cdist_forward>(M({2, 1, 3, 4}), M({3, 5, 4}), 2.0, std::nullopt);
  EXPECT_TRUE(cd.is_meta());
  EXPECT_EQ(cd.sizes(), opd::IntArrayRef(V{2, 3, 3, 5}));
  EXPECT_THROW((void)opd::call<ops::cdist_forward>(M({3, 4}), M({5, 3}), 2.0, std::nullopt), opd::Error);
  EXPECT_EQ(opd::call<ops::pdist_forward>(M({6, 4}), 2.0).sizes(), opd::IntArrayRef(V{15}));
  EXPECT_EQ(opd::call<ops::grid_sampler_2d>(M({2, 3, 5, 6}), M({2, 4, 7, 2}), int64_t{0}, int64_t{0}, false).sizes(),
            opd::IntArrayRef(V{2, 3, 4, 7}));
  EXPECT_THROW((void)opd::call<ops::grid_sampler_2d>(M({2, 3, 5, 6}), M({2, 4, 7, 3}), int64_t{0}, int64_t{0}, false),
               opd::Error);
  // the backward kernels: self's (input's, grid's) sizes, the same checks
  EXPECT_EQ(opd::call<ops::avg_pool3d_backward>(M({2, 3, 3, 3, 4}), M({2, 3, 5, 6, 7}), V{3}, V{2}, V{1}, false, true,
                                                std::nullopt)
                .sizes(),
            opd::IntArrayRef(V{2, 3, 5, 6, 7}));
  EXPECT_THROW((void)opd::call<ops::avg_pool3d_backward>(M({2, 3, 3, 3, 5}), M({2, 3, 5, 6, 7}), V{3}, V{2}, V{1}, false,
                                                         true, std::nullopt),
               opd::Error);
  const Tensor mi = opd::empty(V{3, 3, 3, 4}, opd::ScalarType::Long, meta);
  EXPECT_TRUE(opd::call<ops::max_pool3d_with_indices_backward>(M({3, 3, 3, 4}), M({3, 5, 6, 7}), V{2}, V{}, V{0}, V{1},
                                                               true, mi)
                  .is_meta());
  EXPECT_EQ(opd::call<ops::adaptive_avg_pool3d_backward_>(M({2, 3, 2, 4, 3}), M({2, 3, 5, 6, 7})).sizes(),
            opd::IntArrayRef(V{2, 3, 5, 6, 7}));
  EXPECT_EQ(opd::call<ops::im2col>(M({2, 2, 5, 6}), V{2, 3}, V{1, 1}, V{0, 0}, V{1, 1}).sizes(),
            opd::IntArrayRef(V{2, 12, 16}));
  const auto [ggi, ggrid] = opd::call<ops::grid_sampler_2d_backward>(M({2, 3, 4, 7}), M({2, 3, 5, 6}), M({2, 4, 7, 2}),
                                                                     int64_t{0}, int64_t{0}, false,
                                                                     std::array<bool, 2>{true, true});
  EXPECT_TRUE(ggi.is_meta() && ggrid.is_meta());
  EXPECT_EQ(ggi.sizes(), opd::IntArrayRef(V{2, 3, 5, 6}));
  EXPECT_EQ(ggrid.sizes(), opd::IntArrayRef(V{2, 4, 7, 2}));
  const auto [gi, gw, gb] = opd::call<ops::convolution_backward>(M({2, 6, 4, 2}), M({2, 4, 7, 6}), M({6, 2, 3, 3}),
                                                                 std::nullopt, V{2, 1}, V{1, 0}, V{1, 2}, false, V{0, 0},
                                                                 int64_t{2}, std::array<bool, 3>{true, false, true});
  EXPECT_TRUE(gi.is_meta());
  EXPECT_EQ(gi.sizes(), opd::IntArrayRef(V{2, 4, 7, 6}));
  EXPECT_FALSE(gw.defined());
  EXPECT_EQ(gb.sizes(), opd::IntArrayRef(V{6}));
  const Tensor bag_indices = opd::empty(V{7}, opd::ScalarType::Long, meta);
  const Tensor bag_offsets = opd::empty(V{4}, opd::ScalarType::Long, meta);
  const auto [bag_out, offset2bag, bag_size, max_indices] = opd::call<ops::embedding_bag_>(
      M({6, 5}), bag_indices, bag_offsets, false, int64_t{2}, false, std::nullopt, true, int64_t{-1});
  EXPECT_TRUE(bag_out.is_meta());
  EXPECT_EQ(bag_out.sizes(), opd::IntArrayRef(V{3, 5}));
  EXPECT_EQ(offset2bag.sizes(), opd::IntArrayRef(V{7}));
  EXPECT_EQ(bag_size.sizes(), opd::IntArrayRef(V{3}));
  EXPECT_EQ(max_indices.sizes(), opd::IntArrayRef(V{3, 5}));
  EXPECT_THROW((void)opd::call<ops::convolution_backward>(M({2, 6, 4, 3}), M({2, 4, 7, 6}), M({6, 2, 3, 3}),
                                                          std::nullopt, V{2, 1}, V{1, 0}, V{1, 2}, false, V{0, 0},
                                                          int64_t{2}, std::array<bool, 3>{true, true, true}),
               opd::Error);
}

TEST_F(CoreAtenMoreOps, FailedCallsLeaveInputsUnchanged) {
  // scatter_reduce_ with an index out of range after valid ones: self untouched
  Tensor self = ramp({3, 4});
  const std::vector<float> before = opd::to_vector<float>(self);
  const Tensor index = opd::from_vector<int64_t>({0, 1, 2, 3}, V{1, 4});
  EXPECT_THROW((void)opd::call<ops::scatter_reduce__two>(self, int64_t{1}, opd::from_vector<int64_t>({0, 1, 2, 4}, V{1, 4}),
                                                         ramp({1, 4}), "sum", true),
               opd::Error);
  EXPECT_EQ(opd::to_vector<float>(self), before);
  // an unknown reduction, in place: untouched
  EXPECT_THROW((void)opd::call<ops::scatter_reduce__two>(self, int64_t{1}, index, ramp({1, 4}), "mul", true),
               opd::Error);
  EXPECT_EQ(opd::to_vector<float>(self), before);
  // out= of the wrong dtype (avg_pool3d.out derived): out untouched
  Tensor out = opd::from_vector<int64_t>({7}, V{1});
  EXPECT_THROW((void)opd::call<ops::avg_pool3d_out>(ramp({1, 2, 4, 4, 4}), V{2}, V{}, V{0}, false, true, std::nullopt,
                                                    out),
               opd::Error);
  EXPECT_EQ(opd::to_vector<int64_t>(out), (std::vector<int64_t>{7}));
  // max_pool3d_with_indices.out with Int indices: refused before resizing either out
  Tensor values = opd::from_vector<float>({1.f}, V{1});
  Tensor idx = opd::from_vector<int32_t>({5}, V{1});
  EXPECT_THROW((void)opd::call<ops::max_pool3d_with_indices_out>(ramp({1, 2, 4, 4, 4}), V{2}, V{}, V{0}, V{1}, false,
                                                                 values, idx),
               opd::Error);
  EXPECT_EQ(values.sizes(), opd::IntArrayRef(V{1}));
  EXPECT_EQ(opd::to_vector<int32_t>(idx), std::vector<int32_t>{5});
}

// The FFTs without libtorch (the differential test, fft_torch_diff_test.cpp,
// needs it): r2c then c2r with normalization by 1/n gives the input back, for
// an odd and an even length over two dims of a transposed input; c2c forward
// then backward likewise; the DFT of an impulse is all ones.
TEST_F(CoreAtenMoreOps, FftInversePairs) {
  const std::vector<int64_t> dims{0, 1};
  for (int64_t n : {7, 12}) {
    const Tensor x = opd::call<ops::transpose>(ramp({n, 5}), int64_t{0}, int64_t{1});  // (5, n), strided
    const Tensor half = opd::call<ops::fft_r2c>(x, dims, int64_t{0}, true);
    EXPECT_EQ(half.dtype(), opd::ScalarType::ComplexFloat);
    EXPECT_EQ(half.sizes(), opd::IntArrayRef(V{5, n / 2 + 1}));
    const Tensor back = opd::call<ops::fft_c2r>(half, dims, int64_t{2}, n);
    EXPECT_EQ(back.dtype(), opd::ScalarType::Float);
    const std::vector<float> got = opd::to_vector<float>(back), want = opd::to_vector<float>(x);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-4) << "n " << n << " at " << i;
    const Tensor full = opd::call<ops::fft_r2c>(x, dims, int64_t{1}, false);
    const Tensor again = opd::call<ops::fft_c2c>(full, dims, int64_t{1}, false);  // backward, 1/sqrt(n) twice
    const std::vector<std::complex<float>> c = opd::to_vector<std::complex<float>>(again);
    for (std::size_t i = 0; i < c.size(); ++i) {
      EXPECT_NEAR(c[i].real(), want[i], 1e-4);
      EXPECT_NEAR(c[i].imag(), 0.f, 1e-4);
    }
  }
  const Tensor impulse = opd::from_vector<double>({1, 0, 0, 0, 0}, V{5});
  const Tensor ones = opd::call<ops::fft_r2c>(impulse, std::vector<int64_t>{0}, int64_t{0}, false);
  for (const std::complex<double>& z : opd::to_vector<std::complex<double>>(ones)) {
    EXPECT_DOUBLE_EQ(z.real(), 1.0);
    EXPECT_DOUBLE_EQ(z.imag(), 0.0);
  }
}

TEST_F(CoreAtenMoreOps, FftMetaOutAndErrors) {
  const opd::Device meta = opd::Device::meta();
  const Tensor mr = opd::empty(V{3, 8, 5}, opd::ScalarType::Double, meta);
  const Tensor r2c = opd::call<ops::fft_r2c>(mr, V{0, 2}, int64_t{2}, true);
  EXPECT_TRUE(r2c.is_meta());
  EXPECT_EQ(r2c.dtype(), opd::ScalarType::ComplexDouble);
  EXPECT_EQ(r2c.sizes(), opd::IntArrayRef(V{3, 8, 3}));
  const Tensor mc = opd::empty(V{3, 8, 5}, opd::ScalarType::ComplexFloat, meta);
  const Tensor c2r = opd::call<ops::fft_c2r>(mc, V{1}, int64_t{0}, int64_t{15});
  EXPECT_EQ(c2r.dtype(), opd::ScalarType::Float);
  EXPECT_EQ(c2r.sizes(), opd::IntArrayRef(V{3, 15, 5}));
  EXPECT_EQ(opd::call<ops::fft_c2c>(mc, V{2, 0}, int64_t{1}, true).sizes(), opd::IntArrayRef(V{3, 8, 5}));
  // out=: resized and filled; a real out for a complex result is refused, out untouched
  Tensor out = opd::from_vector<std::complex<float>>({{9.f, 9.f}}, V{1});
  opd::call<ops::fft_r2c_out>(ramp({6}), V{0}, int64_t{0}, true, out);
  EXPECT_EQ(out.sizes(), opd::IntArrayRef(V{4}));
  EXPECT_EQ(opd::to_vector<std::complex<float>>(out), opd::to_vector<std::complex<float>>(
                                                          opd::call<ops::fft_r2c>(ramp({6}), V{0}, int64_t{0}, true)));
  Tensor real_out = opd::from_vector<float>({7.f}, V{1});
  EXPECT_THROW((void)opd::call<ops::fft_c2c_out>(out, V{0}, int64_t{0}, true, real_out), opd::Error);
  EXPECT_EQ(opd::to_vector<float>(real_out), std::vector<float>{7.f});
  // refused: integer or complex input to r2c, real to c2c / c2r, bad dims, bad normalization, too short for c2r
  const Tensor ints = opd::from_vector<int64_t>({1, 2, 3}, V{3});
  const auto message = [](const auto& f) {
    try {
      f();
    } catch (const opd::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { (void)opd::call<ops::fft_r2c>(ints, V{0}, int64_t{0}, true); }).find("aten::_fft_r2c"),
            std::string::npos);
  EXPECT_THROW((void)opd::call<ops::fft_r2c>(out, V{0}, int64_t{0}, true), opd::Error);
  EXPECT_THROW((void)opd::call<ops::fft_c2c>(ramp({4}), V{0}, int64_t{0}, true), opd::Error);
  EXPECT_THROW((void)opd::call<ops::fft_c2r>(ramp({4}), V{0}, int64_t{0}, int64_t{4}), opd::Error);
  EXPECT_NE(message([&] { (void)opd::call<ops::fft_r2c>(ramp({4}), V{1}, int64_t{0}, true); }).find("'dim'"),
            std::string::npos);
  EXPECT_THROW((void)opd::call<ops::fft_r2c>(ramp({4}), V{-1}, int64_t{0}, true), opd::Error);
  EXPECT_THROW((void)opd::call<ops::fft_r2c>(ramp({4}), V{}, int64_t{0}, true), opd::Error);
  EXPECT_THROW((void)opd::call<ops::fft_r2c>(ramp({4, 4}), V{0, 0}, int64_t{0}, true), opd::Error);
  EXPECT_THROW((void)opd::call<ops::fft_r2c>(ramp({4}), V{0}, int64_t{3}, true), opd::Error);
  EXPECT_THROW((void)opd::call<ops::fft_c2r>(out, V{0}, int64_t{0}, int64_t{8}), opd::Error);  // needs 5 of 4
  EXPECT_THROW((void)opd::call<ops::fft_c2r>(out, V{0}, int64_t{0}, int64_t{0}), opd::Error);
  // an empty signal dim (ATen 1.13 returns uninitialized values); an empty batch dim is fine
  EXPECT_THROW((void)opd::call<ops::fft_r2c>(opd::empty(V{3, 0}, opd::ScalarType::Float), V{1}, int64_t{0}, true),
               opd::Error);
  EXPECT_EQ(opd::call<ops::fft_r2c>(opd::empty(V{0, 6}, opd::ScalarType::Float), V{1}, int64_t{0}, true).sizes(),
            opd::IntArrayRef(V{0, 4}));
}

}  // namespace
