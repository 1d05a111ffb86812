// mm, bmm, addmm, baddbmm, dot, mv, outer, matmul, linear (kernels/cpu/linalg.hpp
// and kernels/ops_linalg.hpp): small products checked against a naive loop in
// double over the same values, ATen's error messages, layouts the BLAS reads
// with transpose flags and ones it cannot, and the dispatcher's variants.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <limits>
#include <string>
#include <vector>

#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include "error_of.hpp"
#include <kernels/ops_linalg.hpp>
#include <kernels/cpu/parallel.hpp>

namespace {
using opd::Tensor;
using opd::ScalarType;
namespace k = opd::kernels;
namespace ops = opd::kernels::ops;

// Values 1, 2, ... (mod 7, shifted) of `dtype` in `sizes`, contiguous.
Tensor ramp(std::vector<int64_t> sizes, ScalarType dtype = ScalarType::Double, int64_t shift = 0) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>((i + shift) % 7 - 3);
  Tensor d = opd::from_vector<double>(v, sizes);
  Tensor t = opd::empty(sizes, dtype, opd::Device::cpu());
  k::copy_(t, d);
  return t;
}

std::vector<double> values(const Tensor& t) {
  Tensor d = opd::empty(t.sizes(), ScalarType::Double, opd::Device::cpu());
  k::copy_(d, t);
  return opd::to_vector<double>(d);
}

// Reference: a (n,m) @ b (m,p), read elementwise in double.
std::vector<double> naive_mm(const Tensor& a, const Tensor& b) {
  const std::vector<double> va = values(a), vb = values(b);
  const int64_t n = a.size(0), m = a.size(1), p = b.size(1);
  std::vector<double> r(static_cast<std::size_t>(n * p), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < p; ++j)
      for (int64_t q = 0; q < m; ++q) r[static_cast<std::size_t>(i * p + j)] += va[static_cast<std::size_t>(i * m + q)] * vb[static_cast<std::size_t>(q * p + j)];
  return r;
}

Tensor mm(const Tensor& a, const Tensor& b) {
  Tensor out = k::empty_from_meta(k::mm_meta(a, b));
  k::mm_impl(a, b, out);
  return out;
}

Tensor transposed(const Tensor& t) {  // a (r,c) view of a (c,r) tensor
  const int64_t sizes[] = {t.size(1), t.size(0)};
  const int64_t strides[] = {t.stride(1), t.stride(0)};
  return t.as_strided(sizes, strides, t.storage_offset());
}

using opd_test::error_of;

TEST(Linalg, MmOfEveryComputedDtypeEqualsTheNaiveProduct) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
                        ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long}) {
    const Tensor a = ramp({3, 4}, dt), b = ramp({4, 5}, dt, 2);
    const Tensor c = mm(a, b);
    EXPECT_EQ(c.dtype(), dt);
    EXPECT_EQ(c.sizes(), (std::vector<int64_t>{3, 5}));
    std::vector<double> expected = naive_mm(a, b);
    if (dt == ScalarType::Byte) {
      for (double& e : expected) e = static_cast<double>(static_cast<uint8_t>(static_cast<int64_t>(e)));
    }
    EXPECT_EQ(values(c), expected) << dt;  // small integers: exact in every dtype
  }
}

TEST(Linalg, TransposedOperandsGoToTheBlasAndOtherLayoutsAreCopied) {
  const Tensor a = ramp({5, 3}), b = ramp({4, 5}, ScalarType::Double, 1);
  const Tensor at = transposed(a), bt = transposed(b);  // (3,5) and (5,4), column-major
  EXPECT_EQ(values(mm(at, bt)), naive_mm(at, bt));
  // Every other column of a (3,8) tensor: a column stride of 2 the BLAS cannot take.
  const Tensor wide = ramp({3, 8});
  const int64_t sizes[] = {3, 4}, strides[] = {8, 2};
  const Tensor every_other = wide.as_strided(sizes, strides, 0);
  const Tensor b2 = ramp({4, 2}, ScalarType::Double, 3);
  EXPECT_EQ(values(mm(every_other, b2)), naive_mm(every_other, b2));
  // A row stride larger than the row: a leading dimension of 8.
  const int64_t s2[] = {3, 5}, st2[] = {8, 1};
  const Tensor rows = wide.as_strided(s2, st2, 1);
  const Tensor b3 = ramp({5, 2});
  EXPECT_EQ(values(mm(rows, b3)), naive_mm(rows, b3));
  // A non-contiguous out gets the product too.
  Tensor big = k::zeros(std::vector<int64_t>{2, 3}, ScalarType::Double);
  Tensor out_t = transposed(big);  // (3,2)
  k::mm_impl(ramp({3, 4}), ramp({4, 2}), out_t);
  EXPECT_EQ(values(out_t), naive_mm(ramp({3, 4}), ramp({4, 2})));
}

// Products large enough to be split across threads (kernels/cpu/blas_threads.hpp:
// one block of rows or columns per thread, blocks of 16): wide and tall results
// in every transposed layout, sizes that are not multiples of 16, addmm's
// beta (0: self not read), and GEMV in both layouts, on 3 threads, against the
// naive product. Float goes through sgemm.hpp (oneDNN's where it is built in).
// Small integers (exact in every dtype here) from a linear congruential
// sequence: no short period that a block's offset could fall on.
Tensor pseudo_random(std::vector<int64_t> sizes, ScalarType dtype, uint32_t seed) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<double>(static_cast<int>(seed >> 24) % 9 - 4);
  }
  Tensor t = opd::empty(sizes, dtype, opd::Device::cpu());
  k::copy_(t, opd::from_vector<double>(v, sizes));
  return t;
}

TEST(Linalg, ProductsSplitAcrossThreadsEqualTheNaiveProduct) {
  const int previous = k::get_num_threads();
  k::set_num_threads(3);
  for (ScalarType dt : {ScalarType::Double, ScalarType::Float, ScalarType::ComplexDouble}) {
    // (m, k, n): 37 x 203 (columns split), 203 x 37 (rows split), 40 x 41 (one call).
    for (auto [m, kk, n] : {std::tuple<int64_t, int64_t, int64_t>{37, 70, 203}, {203, 70, 37}, {40, 30, 41}}) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          const Tensor a = ta ? transposed(pseudo_random({kk, m}, dt, 1)) : pseudo_random({m, kk}, dt, 1);
          const Tensor b = tb ? transposed(pseudo_random({n, kk}, dt, 2)) : pseudo_random({kk, n}, dt, 2);
          EXPECT_EQ(values(mm(a, b)), naive_mm(a, b)) << dt << " " << m << "x" << kk << "x" << n << " " << ta << tb;
        }
      }
      const Tensor a = pseudo_random({m, kk}, dt, 3), b = pseudo_random({kk, n}, dt, 4), bias = pseudo_random({n}, dt, 5);
      Tensor out = k::empty_from_meta(k::addmm_meta(bias, a, b, 2, 3));
      k::addmm_impl(bias, a, b, 2, 3, out);
      const std::vector<double> p = naive_mm(a, b), vb = values(bias);
      std::vector<double> expected(p.size());
      for (std::size_t i = 0; i < p.size(); ++i) expected[i] = 2 * vb[i % static_cast<std::size_t>(n)] + 3 * p[i];
      EXPECT_EQ(values(out), expected) << dt << " addmm " << m << "x" << kk << "x" << n;
      // beta = 0: self is not read, NaN included.
      const Tensor nan_self = k::full(std::vector<int64_t>{m, n}, std::numeric_limits<double>::quiet_NaN(), dt);
      Tensor out0 = k::empty_from_meta(k::addmm_meta(nan_self, a, b, 0, 3));
      k::addmm_impl(nan_self, a, b, 0, 3, out0);
      for (std::size_t i = 0; i < p.size(); ++i) expected[i] = 3 * p[i];
      EXPECT_EQ(values(out0), expected) << dt << " addmm, beta 0 " << m << "x" << kk << "x" << n;
    }
    for (bool ta : {false, true}) {  // 1000 x 600: 600,000 multiply-adds, split by rows of y
      const Tensor a = ta ? transposed(pseudo_random({600, 1000}, dt, 6)) : pseudo_random({1000, 600}, dt, 6);
      const Tensor x2 = pseudo_random({600, 1}, dt, 7);  // the vector as a column
      const int64_t vs[] = {600}, vst[] = {1};
      const Tensor x = x2.as_strided(vs, vst, 0);
      EXPECT_EQ(values(k::mv(a, x)), naive_mm(a, x2)) << dt << " mv " << ta;
    }
  }
  k::set_num_threads(previous);
}

TEST(Linalg, MmErrorsAreAtens) {
  const Tensor f23 = ramp({2, 3}, ScalarType::Float);
  EXPECT_EQ(error_of([&] { (void)mm(f23, ramp({4, 5}, ScalarType::Float)); }),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EQ(error_of([&] { (void)mm(ramp({3}, ScalarType::Float), f23); }), "self must be a matrix");
  EXPECT_EQ(error_of([&] { (void)mm(f23, ramp({3, 4})); }), "expected scalar type Float but found Double");
  EXPECT_EQ(error_of([&] { (void)mm(ramp({2, 3}, ScalarType::Bool), ramp({3, 2}, ScalarType::Bool)); }),
            "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  EXPECT_EQ(error_of([&] { (void)k::dot(ramp({3}), ramp({4})); }),
            "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got "
            "3 and 4 elements respectively");
  EXPECT_EQ(error_of([&] { (void)k::mv(ramp({2, 3}), ramp({4})); }), "size mismatch, got 2, 2x3,4");
  EXPECT_EQ(error_of([&] { (void)k::matmul(ramp({}), ramp({3})); }),
            "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  EXPECT_EQ(error_of([&] { (void)k::matmul(ramp({2, 2, 3}), ramp({3, 3, 4})); }),
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
}

TEST(Linalg, AddmmScalesBroadcastsAndIgnoresSelfWhenBetaIsZero) {
  const Tensor m1 = ramp({2, 3}), m2 = ramp({3, 4}, ScalarType::Double, 1);
  const Tensor bias = ramp({4}, ScalarType::Double, 5);
  Tensor out = k::empty_from_meta(k::addmm_meta(bias, m1, m2, 0.5, 2));
  k::addmm_impl(bias, m1, m2, 0.5, 2, out);
  const std::vector<double> p = naive_mm(m1, m2), vb = values(bias);
  std::vector<double> expected(8);
  for (std::size_t i = 0; i < 8; ++i) expected[i] = 0.5 * vb[i % 4] + 2 * p[i];
  EXPECT_EQ(values(out), expected);
  Tensor nan_self = k::full(std::vector<int64_t>{2, 4}, std::numeric_limits<double>::quiet_NaN(), ScalarType::Double);
  k::addmm_impl(nan_self, m1, m2, 0, 1, out);
  EXPECT_EQ(values(out), p);
  EXPECT_EQ(error_of([&] { (void)k::addmm_meta(ramp({5}), m1, m2, 1, 1); }),
            "The expanded size of the tensor (4) must match the existing size (5) at non-singleton dimension 1.  "
            "Target sizes: [2, 4].  Tensor sizes: [5]");
  EXPECT_EQ(error_of([&] { (void)k::addmm_meta(ramp({4}, ScalarType::Float), m1, m2, 1, 1); }),
            "self and mat2 must have the same dtype");
  // Integers: alpha truncated as ATen's Scalar::to<int>, arithmetic wraps.
  const Tensor i1 = ramp({2, 3}, ScalarType::Long), i2 = ramp({3, 4}, ScalarType::Long, 1);
  Tensor iout = k::empty_from_meta(k::addmm_meta(ramp({2, 4}, ScalarType::Long), i1, i2, 1, 3));
  k::addmm_impl(ramp({2, 4}, ScalarType::Long), i1, i2, 1, 3, iout);
  const std::vector<double> vs = values(ramp({2, 4}));
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(values(iout)[i], vs[i] + 3 * p[i]);
}

TEST(Linalg, BmmAndBaddbmm) {
  const Tensor b1 = ramp({3, 2, 4}, ScalarType::Float), b2 = ramp({3, 4, 5}, ScalarType::Float, 2);
  Tensor out = k::empty_from_meta(k::bmm_meta(b1, b2));
  k::bmm_impl(b1, b2, out);
  const std::vector<double> all = values(out);
  const std::vector<double> v1 = values(b1), v2 = values(b2);
  for (int64_t b = 0; b < 3; ++b) {
    const Tensor x = opd::from_vector<double>(std::vector<double>(v1.begin() + b * 8, v1.begin() + (b + 1) * 8), {2, 4});
    const Tensor y = opd::from_vector<double>(std::vector<double>(v2.begin() + b * 20, v2.begin() + (b + 1) * 20), {4, 5});
    const std::vector<double> r = naive_mm(x, y);
    EXPECT_EQ(std::vector<double>(all.begin() + b * 10, all.begin() + (b + 1) * 10), r) << b;
  }
  EXPECT_EQ(error_of([&] { (void)k::bmm_meta(b1, ramp({3, 3, 4}, ScalarType::Float)); }),
            "Expected size for first two dimensions of batch2 tensor to be: [3, 4] but got: [3, 3].");
  // baddbmm: self (5) broadcast to (3,2,5), beta 2, alpha -1.
  const Tensor self = ramp({5}, ScalarType::Float, 4);
  Tensor acc = k::empty_from_meta(k::baddbmm_meta(self, b1, b2, 2, -1));
  k::baddbmm_impl(self, b1, b2, 2, -1, acc);
  const std::vector<double> vs = values(self), va = values(acc);
  for (std::size_t i = 0; i < va.size(); ++i) EXPECT_EQ(va[i], 2 * vs[i % 5] - all[i]) << i;
}

TEST(Linalg, DotMvOuterMatmulLinear) {
  const Tensor x = ramp({4}, ScalarType::Float), y = ramp({4}, ScalarType::Float, 3);
  const std::vector<double> vx = values(x), vy = values(y);
  double d = 0;
  for (std::size_t i = 0; i < 4; ++i) d += vx[i] * vy[i];
  const Tensor r = k::dot(x, y);
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(values(r), std::vector<double>{d});
  EXPECT_EQ(values(k::dot(ramp({4}, ScalarType::Int), ramp({4}, ScalarType::Int, 3))), std::vector<double>{d});
  const Tensor m = ramp({3, 4}, ScalarType::Float);
  const Tensor col = opd::from_vector<double>(vy, {4, 1});
  EXPECT_EQ(values(k::mv(m, y)), naive_mm(m, col));
  // outer promotes (int x float -> float), like ATen's self.reshape({n,1}) * vec2.
  const Tensor o = k::outer(ramp({3}, ScalarType::Int), y);
  EXPECT_EQ(o.dtype(), ScalarType::Float);
  EXPECT_EQ(o.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(values(o)[5], values(ramp({3}))[1] * vy[1]);
  // matmul: (2,1,3,4) @ (5,4,2) broadcasts to (2,5,3,2); 1-D @ 3-D; 3-D @ 1-D (folded).
  const Tensor a4 = ramp({2, 1, 3, 4}), b3 = ramp({5, 4, 2}, ScalarType::Double, 1);
  const Tensor mm4 = k::matmul(a4, b3);
  EXPECT_EQ(mm4.sizes(), (std::vector<int64_t>{2, 5, 3, 2}));
  const std::vector<double> va = values(a4), vb = values(b3), vr = values(mm4);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 5; ++j) {
      const Tensor ai = opd::from_vector<double>(std::vector<double>(va.begin() + i * 12, va.begin() + (i + 1) * 12), {3, 4});
      const Tensor bj = opd::from_vector<double>(std::vector<double>(vb.begin() + j * 8, vb.begin() + (j + 1) * 8), {4, 2});
      EXPECT_EQ(std::vector<double>(vr.begin() + (i * 5 + j) * 6, vr.begin() + (i * 5 + j + 1) * 6), naive_mm(ai, bj));
    }
  EXPECT_EQ(k::matmul(ramp({4}), b3).sizes(), (std::vector<int64_t>{5, 2}));
  EXPECT_EQ(k::matmul(a4, ramp({4})).sizes(), (std::vector<int64_t>{2, 1, 3}));
  // linear: input @ weight^T + bias, 2-D (addmm) and 3-D.
  const Tensor in = ramp({2, 3}), w = ramp({5, 3}, ScalarType::Double, 2), bias = ramp({5}, ScalarType::Double, 1);
  const std::vector<double> p = naive_mm(in, transposed(w)), vbias = values(bias);
  std::vector<double> expected(10);
  for (std::size_t i = 0; i < 10; ++i) expected[i] = p[i] + vbias[i % 5];
  EXPECT_EQ(values(k::linear(in, w, bias)), expected);
  const Tensor in3 = ramp({1, 2, 3});
  EXPECT_EQ(values(k::linear(in3, w, bias)), expected);
  EXPECT_EQ(values(k::linear(in, w, std::nullopt)), p);
}

TEST(Linalg, ThroughTheDispatcherInEveryVariant) {
  auto registered = opd_test::register_all_kernels();
  const Tensor a = ramp({2, 3}, ScalarType::Float), b = ramp({3, 2}, ScalarType::Float, 1);
  const std::vector<double> p = naive_mm(a, b);
  EXPECT_EQ(values(opd::call<ops::mm>(a, b)), p);
  Tensor out = opd::empty(std::vector<int64_t>{0}, ScalarType::Float, opd::Device::cpu());
  opd::call<ops::mm_out>(a, b, out);
  EXPECT_EQ(values(out), p);
  // addmm_ in place; a failing call leaves self unchanged.
  Tensor self = k::zeros(std::vector<int64_t>{2, 2}, ScalarType::Float);
  opd::call<ops::addmm::inplace>(self, a, b, opd::arg<"alpha"> = 2);
  std::vector<double> twice = p;
  for (double& v : twice) v *= 2;
  EXPECT_EQ(values(self), twice);
  EXPECT_THROW((void)opd::call<ops::addmm::inplace>(self, a, a), opd::Error);
  EXPECT_EQ(values(self), twice);
  // Meta: sizes and dtype only.
  const Tensor ma = opd::empty(std::vector<int64_t>{7, 3}, ScalarType::Float, opd::Device::meta());
  const Tensor mb = opd::empty(std::vector<int64_t>{3, 9}, ScalarType::Float, opd::Device::meta());
  const Tensor mc = opd::call<ops::mm>(ma, mb);
  EXPECT_TRUE(mc.is_meta());
  EXPECT_EQ(mc.sizes(), (std::vector<int64_t>{7, 9}));
  EXPECT_EQ(values(opd::call<ops::matmul>(a, b)), p);
  Tensor mout = opd::empty(std::vector<int64_t>{0}, ScalarType::Float, opd::Device::cpu());
  opd::call<ops::matmul_out>(a, b, mout);
  EXPECT_EQ(values(mout), p);
  EXPECT_EQ(opd::call<ops::linear>(a, transposed(b), std::nullopt).sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(opd::call<ops::bmm>(ramp({1, 2, 3}, ScalarType::Float), ramp({1, 3, 2}, ScalarType::Float, 1))), p);
}

}  // namespace
