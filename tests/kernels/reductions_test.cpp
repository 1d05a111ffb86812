// The reductions, softmax / log_softmax and layer_norm (kernels/ops_reductions.hpp)
// through the dispatcher, against expectations computed by hand or in double
// precision here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <vector>

#include <kernels/cpu/parallel.hpp>
#include <kernels/cpu/reduce_simd.hpp>
#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include <kernels/ops_reductions.hpp>
#include <kernels/ops_views.hpp>

namespace {
using opd::ScalarType;
using opd::Tensor;
namespace ops = opd::kernels::ops;
using V = std::vector<int64_t>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

class Reductions : public ::testing::Test {
 protected:
  opd::RegistrationSet registered = opd_test::register_all_kernels();
};

Tensor floats(std::vector<float> v, V sizes) { return opd::from_vector<float>(v, sizes); }

// Every element of a tensor as double (any kernel dtype).
std::vector<double> vals(const Tensor& t) {
  Tensor d = opd::call<ops::to_dtype>(t, ScalarType::Double);
  return opd::to_vector<double>(d);
}

TEST_F(Reductions, SumOverDimListsKeepdimAndDtypes) {
  const Tensor x = floats({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor all = opd::call<ops::sum>(x);
  EXPECT_EQ(all.dim(), 0);
  EXPECT_EQ(vals(all), (std::vector<double>{21}));
  const Tensor rows = opd::call<ops::sum_dim>(x, V{1}, false);
  EXPECT_EQ(rows.sizes(), (V{2}));
  EXPECT_EQ(vals(rows), (std::vector<double>{6, 15}));
  const Tensor cols = opd::call<ops::sum_dim>(x, V{0}, true);
  EXPECT_EQ(cols.sizes(), (V{1, 3}));
  EXPECT_EQ(vals(cols), (std::vector<double>{5, 7, 9}));
  // Negative dims wrap; an empty list (or None) reduces everything.
  EXPECT_EQ(vals(opd::call<ops::sum_dim>(x, V{-1, -2}, false)), (std::vector<double>{21}));
  EXPECT_EQ(opd::call<ops::sum_dim>(x, V{}, true).sizes(), (V{1, 1}));
  EXPECT_EQ(vals(opd::call<ops::sum_dim>(x, std::nullopt, false)), (std::vector<double>{21}));
  // Integral inputs sum in Long; `dtype` picks the output.
  const Tensor i8 = opd::from_vector<int8_t>({100, 100, 100}, V{3});
  const Tensor s8 = opd::call<ops::sum>(i8);
  EXPECT_EQ(s8.dtype(), ScalarType::Long);
  EXPECT_EQ(vals(s8), (std::vector<double>{300}));
  const Tensor sd = opd::call<ops::sum>(x, ScalarType::Double);
  EXPECT_EQ(sd.dtype(), ScalarType::Double);
  EXPECT_EQ(opd::call<ops::sum>(opd::from_vector<bool>({true, true, false}, V{3})).dtype(), ScalarType::Long);
}

TEST_F(Reductions, SumOfStridedZeroSizeAndZeroDimInputs) {
  const Tensor x = floats({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor xt = opd::call<ops::transpose>(x, 0, 1);  // [3, 2], not contiguous
  EXPECT_EQ(vals(opd::call<ops::sum_dim>(xt, V{1}, false)), (std::vector<double>{5, 7, 9}));
  const Tensor e = opd::empty(V{0, 4}, ScalarType::Float);
  const Tensor se = opd::call<ops::sum_dim>(e, V{0}, false);
  EXPECT_EQ(se.sizes(), (V{4}));
  EXPECT_EQ(vals(se), (std::vector<double>{0, 0, 0, 0}));
  const Tensor s = opd::from_vector<float>({2.5f}, V{});
  EXPECT_EQ(vals(opd::call<ops::sum_dim>(s, V{0}, false)), (std::vector<double>{2.5}));
  EXPECT_EQ(vals(opd::call<ops::sum_dim>(s, V{-1}, true)), (std::vector<double>{2.5}));
}

TEST_F(Reductions, LongFloatSumsArePairwiseExactOnOnesWithAnyThreadCount) {
  // 3e5 + 7 ones: a float running sum would still be exact, but the chunks,
  // SIMD lanes and tails must all be counted once.
  const int64_t n = 300007;
  std::vector<float> ones(static_cast<std::size_t>(n), 1.0f);
  const Tensor x = opd::from_vector<float>(ones, V{n});
  for (int threads : {1, 4}) {
    opd::kernels::set_num_threads(threads);
    EXPECT_EQ(vals(opd::call<ops::sum>(x)), (std::vector<double>{static_cast<double>(n)})) << threads;
  }
  // 1e7 * 0.1f: naive float accumulation drifts far off; pairwise stays close.
  std::vector<float> tenths(10'000'000, 0.1f);
  const Tensor t = opd::from_vector<float>(tenths, V{10'000'000});
  for (int threads : {1, 4}) {
    opd::kernels::set_num_threads(threads);
    const double got = vals(opd::call<ops::sum>(t))[0];
    std::printf("1e7 * 0.1f summed with %d thread(s): %.4f\n", threads, got);
    EXPECT_NEAR(got, 1e7 * static_cast<double>(0.1f), 1.0) << threads;
  }
  opd::kernels::set_num_threads(1);
}

TEST_F(Reductions, SumErrorsNameTheOperatorAndLeaveOutUntouched) {
  const Tensor x = floats({1, 2, 3, 4}, {2, 2});
  EXPECT_THROW((void)opd::call<ops::sum_dim>(x, V{0, 0}, false), opd::Error);
  try {
    (void)opd::call<ops::sum_dim>(x, V{2}, false);
    FAIL();
  } catch (const opd::IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("Dimension out of range"), std::string::npos) << e.what();
  }
  // out= with a `dtype` other than out's: refused, out keeps its values.
  Tensor out = opd::from_vector<int64_t>({7, 7}, V{2});
  EXPECT_THROW((void)opd::call<ops::sum_out>(x, V{1}, false, ScalarType::Double, out), opd::Error);
  EXPECT_EQ(opd::to_vector<int64_t>(out), (std::vector<int64_t>{7, 7}));
  // Without `dtype`, the sum runs in out's dtype (ATen's structured sum): 0.5 + 0.75 in Long is 0.
  Tensor longs = opd::empty(V{}, ScalarType::Long);
  (void)opd::call<ops::sum_out>(floats({0.5f, 0.75f}, {2}), V{0}, false, std::nullopt, longs);
  EXPECT_EQ(opd::to_vector<int64_t>(longs), (std::vector<int64_t>{0}));
  // A fitting out= is resized and written.
  Tensor good = opd::empty(V{0}, ScalarType::Double);
  (void)opd::call<ops::sum_out>(x, V{1}, false, std::nullopt, good);
  EXPECT_EQ(good.sizes(), (V{2}));
  EXPECT_EQ(vals(good), (std::vector<double>{3, 7}));
}

TEST_F(Reductions, MeanAndProd) {
  const Tensor x = floats({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(vals(opd::call<ops::mean>(x)), (std::vector<double>{3.5}));
  EXPECT_EQ(vals(opd::call<ops::mean_dim>(x, V{1}, false)), (std::vector<double>{2, 5}));
  EXPECT_THROW((void)opd::call<ops::mean>(opd::from_vector<int64_t>({1, 2}, V{2})), opd::Error);
  const Tensor md = opd::call<ops::mean>(opd::from_vector<int64_t>({1, 2}, V{2}), ScalarType::Double);
  EXPECT_EQ(vals(md), (std::vector<double>{1.5}));
  EXPECT_TRUE(std::isnan(vals(opd::call<ops::mean>(opd::empty(V{0}, ScalarType::Float)))[0]));
  const Tensor pi = opd::call<ops::prod>(opd::from_vector<int32_t>({2, 3, 4}, V{3}));
  EXPECT_EQ(pi.dtype(), ScalarType::Long);
  EXPECT_EQ(vals(pi), (std::vector<double>{24}));
  EXPECT_EQ(vals(opd::call<ops::prod_dim>(x, 0, false)), (std::vector<double>{4, 10, 18}));
  EXPECT_EQ(vals(opd::call<ops::prod>(opd::empty(V{0}, ScalarType::Float))), (std::vector<double>{1}));
}

// prod_row's documented order, bit for bit, on every length around the 32
// partials (the vector targets combine the partials in registers): factors
// near 1, so that another order rounds differently.
template <class T>
T prod_in_documented_order(const std::vector<T>& x) {
  T acc[32];
  std::fill(acc, acc + 32, T(1));
  std::size_t i = 0;
  for (; i + 32 <= x.size(); i += 32)
    for (std::size_t j = 0; j < 32; ++j) acc[j] *= x[i + j];
  for (std::size_t width = 16; width > 0; width /= 2)
    for (std::size_t j = 0; j < width; ++j) acc[j] *= acc[j + width];
  T p = acc[0];
  for (; i < x.size(); ++i) p *= x[i];
  return p;
}

TEST(ReductionsProdRow, DocumentedOrderBitForBit) {
  for (const std::size_t n : {0, 1, 5, 31, 32, 33, 63, 64, 100, 1000, 1007}) {
    std::vector<float> f(n);
    std::vector<double> d(n);
    for (std::size_t i = 0; i < n; ++i) {
      d[i] = 1.0 + static_cast<double>((i * 2654435761u) % 1000) * 1e-4 - 0.05;
      f[i] = static_cast<float>(d[i]);
    }
    const float pf = opd::kernels::simd::prod_row(f.data(), static_cast<int64_t>(n));
    const double pd = opd::kernels::simd::prod_row(d.data(), static_cast<int64_t>(n));
    EXPECT_EQ(pf, prod_in_documented_order(f)) << n;
    EXPECT_EQ(pd, prod_in_documented_order(d)) << n;
    if (n == 1000) {  // the factors tell orders apart: left to right rounds differently
      EXPECT_NE(std::accumulate(f.begin(), f.end(), 1.0f, std::multiplies<>()), pf);
      EXPECT_NE(std::accumulate(d.begin(), d.end(), 1.0, std::multiplies<>()), pd);
    }
    // prod_rows (two rows at a time, the last one alone): each row prod_row's bits
    std::vector<float> f3, r3(3);
    std::vector<double> d3, rd3(3);
    for (int k = 0; k < 3; ++k) {
      for (std::size_t i = 0; i < n; ++i) f3.push_back(f[(i + static_cast<std::size_t>(k) * 7) % n]);
      for (std::size_t i = 0; i < n; ++i) d3.push_back(d[(i + static_cast<std::size_t>(k) * 7) % n]);
    }
    opd::kernels::simd::prod_rows(f3.data(), static_cast<int64_t>(n), 3, r3.data());
    opd::kernels::simd::prod_rows(d3.data(), static_cast<int64_t>(n), 3, rd3.data());
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(r3[k], prod_in_documented_order(std::vector<float>(f3.begin() + static_cast<std::ptrdiff_t>(k * n),
                                                                   f3.begin() + static_cast<std::ptrdiff_t>((k + 1) * n))))
          << n << " row " << k;
      EXPECT_EQ(rd3[k], prod_in_documented_order(std::vector<double>(d3.begin() + static_cast<std::ptrdiff_t>(k * n),
                                                                     d3.begin() + static_cast<std::ptrdiff_t>((k + 1) * n))))
          << n << " row " << k;
    }
  }
}

// prod.dim_int over rows of 1000 (the two-row path): each row prod_row's bits.
TEST_F(Reductions, ProdOverRowsIsProdRowOfEachRow) {
  std::vector<double> xs(5 * 1000);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = 1.0 + static_cast<double>((i * 2654435761u) % 997) * 1e-4 - 0.05;  // rows differ
  std::vector<float> xf(xs.begin(), xs.end());
  const Tensor m = opd::from_vector<float>(xf, V{5, 1000});
  const Tensor got = opd::call<ops::prod_dim>(m, -1, false);
  for (int64_t k = 0; k < 5; ++k)
    EXPECT_EQ(got.data_ptr<float>()[k], opd::kernels::simd::prod_row(xf.data() + k * 1000, 1000)) << "row " << k;
}

TEST_F(Reductions, AmaxAminMaxMinPropagateNaNAndRefuseEmpty) {
  const Tensor x = floats({1, 9, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(vals(opd::call<ops::amax>(x, V{1}, false)), (std::vector<double>{9, 6}));
  EXPECT_EQ(vals(opd::call<ops::amin>(x, V{0}, true)), (std::vector<double>{1, 5, 3}));
  EXPECT_EQ(vals(opd::call<ops::amax>(x)), (std::vector<double>{9}));
  EXPECT_EQ(vals(opd::call<ops::max>(x)), (std::vector<double>{9}));
  EXPECT_EQ(vals(opd::call<ops::min>(x)), (std::vector<double>{1}));
  // NaN in a long row (SIMD lanes) and in a short one.
  for (int64_t n : {5, 100}) {
    std::vector<float> v(static_cast<std::size_t>(n), 1.0f);
    v[static_cast<std::size_t>(n / 2)] = static_cast<float>(kNaN);
    EXPECT_TRUE(std::isnan(vals(opd::call<ops::max>(opd::from_vector<float>(v, V{n})))[0])) << n;
    EXPECT_TRUE(std::isnan(vals(opd::call<ops::amin>(opd::from_vector<float>(v, V{n}), V{0}, false))[0])) << n;
  }
  const Tensor i = opd::from_vector<int16_t>({-3, 7, 2}, V{3});
  EXPECT_EQ(opd::call<ops::amax>(i).dtype(), ScalarType::Short);
  EXPECT_EQ(vals(opd::call<ops::amax>(i)), (std::vector<double>{7}));
  EXPECT_THROW((void)opd::call<ops::max>(opd::empty(V{0}, ScalarType::Float)), opd::Error);
  EXPECT_THROW((void)opd::call<ops::amax>(opd::empty(V{2, 0}, ScalarType::Float), V{1}, false), opd::Error);
  EXPECT_EQ(opd::call<ops::amax>(opd::empty(V{2, 0}, ScalarType::Float), V{0}, false).sizes(), (V{0}));
}

TEST_F(Reductions, MaxDimGivesValuesAndFirstIndices) {
  const Tensor x = floats({1, 5, 5, 7, 2, 7}, {2, 3});
  auto [v, i] = opd::call<ops::max_dim>(x, 1, false);
  EXPECT_EQ(vals(v), (std::vector<double>{5, 7}));
  EXPECT_EQ(opd::to_vector<int64_t>(i), (std::vector<int64_t>{1, 0}));  // ties: the first
  auto [mv, mi] = opd::call<ops::min_dim>(x, 0, true);
  EXPECT_EQ(mv.sizes(), (V{1, 3}));
  EXPECT_EQ(vals(mv), (std::vector<double>{1, 2, 5}));
  EXPECT_EQ(opd::to_vector<int64_t>(mi), (std::vector<int64_t>{0, 1, 0}));
  const Tensor n = floats({1, static_cast<float>(kNaN), 3}, {3});
  EXPECT_EQ(opd::to_vector<int64_t>(std::get<1>(opd::call<ops::max_dim>(n, 0, false))), (std::vector<int64_t>{1}));
  Tensor values = opd::empty(V{0}, ScalarType::Float);
  Tensor indices = opd::empty(V{0}, ScalarType::Long);
  (void)opd::call<ops::max_dim_max>(x, 1, false, values, indices);
  EXPECT_EQ(vals(values), (std::vector<double>{5, 7}));
  EXPECT_EQ(opd::to_vector<int64_t>(indices), (std::vector<int64_t>{1, 0}));
  Tensor wrong = opd::empty(V{2}, ScalarType::Double);
  EXPECT_THROW((void)opd::call<ops::max_dim_max>(x, 1, false, wrong, indices), opd::Error);
  // argmax over the flattened input (dim=None) and over a dim.
  const Tensor a = opd::call<ops::argmax>(x);
  EXPECT_EQ(a.dim(), 0);
  EXPECT_EQ(opd::to_vector<int64_t>(a), (std::vector<int64_t>{3}));
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::argmin>(x, 1, true)), (std::vector<int64_t>{0, 1}));
  EXPECT_THROW((void)opd::call<ops::argmax>(opd::empty(V{0}, ScalarType::Float)), opd::Error);
}

TEST_F(Reductions, VarStdWithCorrection) {
  const Tensor x = floats({1, 2, 3, 4}, {4});
  const double mean = 2.5, m2 = 1.5 * 1.5 * 2 + 0.5 * 0.5 * 2;  // 5
  EXPECT_NEAR(vals(opd::call<ops::var>(x))[0], m2 / 3, 1e-6);
  EXPECT_NEAR(vals(opd::call<ops::var>(x, false))[0], m2 / 4, 1e-6);
  EXPECT_NEAR(vals(opd::call<ops::var_correction>(x, std::nullopt, 2, false))[0], m2 / 2, 1e-6);
  EXPECT_NEAR(vals(opd::call<ops::std_dev>(x))[0], std::sqrt(m2 / 3), 1e-6);
  EXPECT_NEAR(vals(opd::call<ops::std_dev_dim>(x, V{0}, false, true))[0], std::sqrt(m2 / 4), 1e-6);
  (void)mean;
  const Tensor y = floats({1, 3, 10, 20}, {2, 2});
  EXPECT_EQ(vals(opd::call<ops::var_dim>(y, V{1}, true, false)), (std::vector<double>{2, 50}));
  EXPECT_TRUE(std::isnan(vals(opd::call<ops::var>(floats({1}, {1})))[0]));  // N - 1 == 0
  EXPECT_THROW((void)opd::call<ops::var>(opd::from_vector<int64_t>({1, 2}, V{2})), opd::Error);
  Tensor out = opd::empty(V{0}, ScalarType::Float);
  (void)opd::call<ops::std_dev_correction_out>(y, V{1}, 0, true, out);
  EXPECT_EQ(out.sizes(), (V{2, 1}));
  EXPECT_EQ(vals(out), (std::vector<double>{1, 5}));
}

TEST_F(Reductions, NormOrders) {
  const Tensor x = floats({3, -4, 0, 1}, {2, 2});
  EXPECT_NEAR(vals(opd::call<ops::norm_scalar>(x))[0], std::sqrt(26.0), 1e-5);
  EXPECT_EQ(vals(opd::call<ops::norm_scalar>(x, 1)), (std::vector<double>{8}));
  EXPECT_EQ(vals(opd::call<ops::norm_scalar>(x, kInf)), (std::vector<double>{4}));
  EXPECT_EQ(vals(opd::call<ops::norm_scalar>(x, -kInf)), (std::vector<double>{0}));
  EXPECT_EQ(vals(opd::call<ops::norm_scalar>(x, 0)), (std::vector<double>{3}));
  EXPECT_NEAR(vals(opd::call<ops::norm_scalar>(x, 3))[0], std::cbrt(27.0 + 64 + 1), 1e-4);
  EXPECT_EQ(vals(opd::call<ops::norm_scalaropt_dim>(x, opd::Scalar(2), V{1}, false)), (std::vector<double>{5, 1}));
  const Tensor d = opd::call<ops::norm_scalaropt_dim_dtype>(x, opd::Scalar(1), V{0}, true, ScalarType::Double);
  EXPECT_EQ(d.dtype(), ScalarType::Double);
  EXPECT_EQ(vals(d), (std::vector<double>{3, 5}));
  EXPECT_THROW((void)opd::call<ops::norm_scalar>(opd::from_vector<int64_t>({1}, V{1})), opd::Error);
  EXPECT_THROW((void)opd::call<ops::norm_scalaropt_dim>(opd::empty(V{0, 2}, ScalarType::Float), opd::Scalar(kInf), V{0}, false),
               opd::Error);
}

TEST_F(Reductions, LogSumExp) {
  const Tensor x = floats({0, 0, 1, 2}, {2, 2});
  const std::vector<double> r = vals(opd::call<ops::logsumexp>(x, V{1}));
  EXPECT_NEAR(r[0], std::log(2.0), 1e-6);
  EXPECT_NEAR(r[1], std::log(std::exp(1.0) + std::exp(2.0)), 1e-6);
  EXPECT_EQ(vals(opd::call<ops::logsumexp>(floats({-INFINITY, -INFINITY}, {2}), V{0})), (std::vector<double>{-kInf}));
  EXPECT_EQ(vals(opd::call<ops::logsumexp>(floats({INFINITY, 1}, {2}), V{0})), (std::vector<double>{kInf}));
  EXPECT_EQ(opd::call<ops::logsumexp>(opd::from_vector<int64_t>({1, 2}, V{2}), V{0}).dtype(), ScalarType::Float);
}

TEST_F(Reductions, AllAnyCountNonzero) {
  const Tensor x = floats({1, 0, static_cast<float>(kNaN), 2}, {2, 2});
  EXPECT_EQ(vals(opd::call<ops::all>(x)), (std::vector<double>{0}));
  EXPECT_EQ(vals(opd::call<ops::any>(x)), (std::vector<double>{1}));
  EXPECT_EQ(vals(opd::call<ops::all_dim>(x, 0, false)), (std::vector<double>{1, 0}));  // NaN is true
  EXPECT_EQ(opd::call<ops::all>(x).dtype(), ScalarType::Bool);
  EXPECT_EQ(opd::call<ops::any>(opd::from_vector<uint8_t>({0, 3}, V{2})).dtype(), ScalarType::Byte);
  EXPECT_EQ(vals(opd::call<ops::all>(opd::empty(V{0}, ScalarType::Float))), (std::vector<double>{1}));
  EXPECT_EQ(vals(opd::call<ops::any>(opd::empty(V{0}, ScalarType::Float))), (std::vector<double>{0}));
  EXPECT_EQ(vals(opd::call<ops::any_dim>(x, 1, true)), (std::vector<double>{1, 1}));
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::count_nonzero>(x)), (std::vector<int64_t>{3}));
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::count_nonzero>(x, 1)), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::count_nonzero_dims>(x, V{0, 1})), (std::vector<int64_t>{3}));
  // counted in the input's dtype: -0.0 is zero; a transposed input takes the Bool-copy path
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::count_nonzero>(floats({-0.f, 0.5f, -0.f, 0.f}, {2, 2}))),
            (std::vector<int64_t>{1}));
  EXPECT_EQ(opd::to_vector<int64_t>(opd::call<ops::count_nonzero>(opd::call<ops::transpose>(x, 0, 1), 1)), (std::vector<int64_t>{2, 1}));
}

TEST_F(Reductions, CumsumCumprod) {
  const Tensor x = opd::from_vector<int32_t>({1, 2, 3, 4, 5, 6}, V{2, 3});
  const Tensor c = opd::call<ops::cumsum>(x, 1);
  EXPECT_EQ(c.dtype(), ScalarType::Long);
  EXPECT_EQ(vals(c), (std::vector<double>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(vals(opd::call<ops::cumsum>(x, 0)), (std::vector<double>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(vals(opd::call<ops::cumprod>(x, -1)), (std::vector<double>{1, 2, 6, 4, 20, 120}));
  const Tensor f = opd::call<ops::cumsum>(x, 1, ScalarType::Float);
  EXPECT_EQ(f.dtype(), ScalarType::Float);
  const Tensor xt = opd::call<ops::transpose>(floats({1, 2, 3, 4}, {2, 2}), 0, 1);  // [[1, 3], [2, 4]]
  EXPECT_EQ(vals(opd::call<ops::cumprod>(xt, 1)), (std::vector<double>{1, 3, 2, 8}));
  Tensor out = opd::empty(V{0}, ScalarType::Long);
  (void)opd::call<ops::cumsum_out>(x, 0, std::nullopt, out);
  EXPECT_EQ(vals(out), (std::vector<double>{1, 2, 3, 5, 7, 9}));
  EXPECT_THROW((void)opd::call<ops::cumsum>(x, 2), opd::Error);
}

std::vector<double> softmax_ref(const std::vector<double>& x, bool log) {
  double m = -kInf;
  for (double v : x) m = std::max(m, v);
  double s = 0;
  for (double v : x) s += std::exp(v - m);
  std::vector<double> r;
  for (double v : x) r.push_back(log ? v - m - std::log(s) : std::exp(v - m) / s);
  return r;
}

TEST_F(Reductions, SoftmaxAndLogSoftmaxOverAnyDim) {
  for (int64_t n : {1, 3, 17, 1003}) {  // SIMD bodies and tails
    std::vector<float> v;
    std::vector<double> d;
    for (int64_t i = 0; i < n; ++i) {
      v.push_back(static_cast<float>(std::sin(static_cast<double>(i)) * 5));
      d.push_back(static_cast<double>(v.back()));
    }
    for (bool log : {false, true}) {
      const Tensor x = opd::from_vector<float>(v, V{1, n});
      const std::vector<double> got = vals(log ? opd::call<ops::log_softmax>(x, -1) : opd::call<ops::softmax>(x, 1));
      const std::vector<double> ref = softmax_ref(d, log);
      for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(got[i], ref[i], 1e-6 * (1 + std::abs(ref[i]))) << n << " " << i;
    }
  }
  // Over dim 0 of a [2, 2] (strided rows), in double, through _softmax.
  const Tensor x = opd::from_vector<double>({0, 1, 2, 3}, V{2, 2});
  const std::vector<double> got = vals(opd::call<ops::internal_softmax>(x, 0, false));
  const std::vector<double> col = softmax_ref({0, 2}, false);
  EXPECT_NEAR(got[0], col[0], 1e-15);
  EXPECT_NEAR(got[2], col[1], 1e-15);
  EXPECT_NEAR(got[1], col[0], 1e-15);  // column {1, 3}: the same shift
  // dtype= converts first; BFloat16 computes in float.
  EXPECT_EQ(opd::call<ops::softmax>(floats({1, 2}, {2}), 0, ScalarType::Double).dtype(), ScalarType::Double);
  const Tensor b = opd::call<ops::to_dtype>(floats({1, 2}, {2}), ScalarType::BFloat16);
  const std::vector<double> bs = vals(opd::call<ops::internal_log_softmax>(b, 0, false));
  EXPECT_NEAR(bs[1], softmax_ref({1, 2}, true)[1], 1e-2);
  // Half too (ATen 1.13's CPU kernels refuse it): in float, rounded once to Half.
  const Tensor h = opd::call<ops::to_dtype>(floats({1, 2, 3}, {3}), ScalarType::Half);
  for (bool log : {false, true}) {
    const Tensor r = log ? opd::call<ops::log_softmax>(h, 0, std::nullopt) : opd::call<ops::softmax>(h, 0, std::nullopt);
    EXPECT_EQ(r.dtype(), ScalarType::Half);
    const std::vector<double> hs = vals(r), ref = softmax_ref({1, 2, 3}, log);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(hs[i], ref[i], std::abs(ref[i]) * 1e-3) << i << (log ? " log" : "");
  }
  // Errors: half_to_float on CPU, integers; a scalar's softmax is 1.
  EXPECT_THROW((void)opd::call<ops::internal_softmax>(floats({1, 2}, {2}), 0, true), opd::Error);
  EXPECT_THROW((void)opd::call<ops::softmax>(opd::from_vector<int64_t>({1, 2}, V{2}), 0), opd::Error);
  EXPECT_EQ(vals(opd::call<ops::softmax>(opd::from_vector<float>({5.f}, V{}), 0)), (std::vector<double>{1}));
  Tensor out = opd::empty(V{0}, ScalarType::Float);
  (void)opd::call<ops::log_softmax_out>(floats({0, 0}, {2}), 0, std::nullopt, out);
  EXPECT_NEAR(vals(out)[0], -std::log(2.0), 1e-6);
}

TEST_F(Reductions, LayerNormReturnsOutMeanRstd) {
  const Tensor x = floats({1, 2, 3, 4, 6, 8}, {2, 3});
  const Tensor w = floats({1, 2, 3}, {3});
  const Tensor b = floats({0, 1, 0}, {3});
  auto [y, mean, rstd] = opd::call<ops::native_layer_norm>(x, V{3}, w, b, 1e-5);
  EXPECT_EQ(mean.sizes(), (V{2, 1}));
  EXPECT_EQ(rstd.sizes(), (V{2, 1}));
  const std::vector<double> xs{1, 2, 3, 4, 6, 8}, ws{1, 2, 3}, bs{0, 1, 0};
  for (int r = 0; r < 2; ++r) {
    const double mu = (xs[r * 3] + xs[r * 3 + 1] + xs[r * 3 + 2]) / 3;
    double var = 0;
    for (int i = 0; i < 3; ++i) var += (xs[r * 3 + i] - mu) * (xs[r * 3 + i] - mu) / 3;
    const double rs = 1 / std::sqrt(var + 1e-5);
    EXPECT_NEAR(vals(mean)[r], mu, 1e-6);
    EXPECT_NEAR(vals(rstd)[r], rs, 1e-5);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(vals(y)[r * 3 + i], (xs[r * 3 + i] - mu) * rs * ws[i] + bs[i], 1e-5);
  }
  const Tensor plain = opd::call<ops::layer_norm>(x, V{2, 3});
  EXPECT_NEAR(vals(plain)[0], (1 - 4) / std::sqrt(/*biased var of all six*/ (9 + 4 + 1 + 0 + 4 + 16) / 6.0 + 1e-5), 1e-5);
  EXPECT_THROW((void)opd::call<ops::layer_norm>(x, V{2}), opd::Error);
  EXPECT_THROW((void)opd::call<ops::layer_norm>(x, V{3}, floats({1, 2}, {2})), opd::Error);
  EXPECT_THROW((void)opd::call<ops::layer_norm>(x, V{}), opd::Error);
}

}  // namespace
