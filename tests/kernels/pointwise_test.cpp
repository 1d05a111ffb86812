// The pointwise families (kernels/cpu/pointwise.hpp): unary math, comparisons,
// logical ops, maximum/minimum, where, clamp, masked_fill. Expected values are
// computed here from the C++ standard library or by hand from ATen's
// documented semantics; the operators are also called through the dispatcher
// (kernels/ops_pointwise.hpp) in every variant.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include <kernels/ops_arithmetic.hpp>
#include "all_kernels.hpp"
#include <kernels/cpu/parallel.hpp>
#include <kernels/ops_pointwise.hpp>

#include "kernel_test_util.hpp"

namespace opd::kernels::test {
namespace {

using ST = ScalarType;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor unary(UnaryOp op, const Tensor& self, const UnaryParams& p = {}) {
  Tensor out = empty_from_meta(unary_meta(op, self));
  unary_impl(op, self, out, p);
  return out;
}
Tensor binary(PointwiseOp op, TensorOrScalar a, TensorOrScalar b) {
  Tensor out = empty_from_meta(pointwise_meta(op, a, b));
  pointwise_impl(op, a, b, out);
  return out;
}

// Equal within `ulps` units in the last place of float (NaN equals NaN).
::testing::AssertionResult close(const std::vector<double>& got, const std::vector<double>& want, double rel) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    if (std::isnan(w) && std::isnan(g)) continue;
    if (g == w) continue;
    if (std::abs(g - w) <= rel * std::max(std::abs(w), 1e-30)) continue;
    return ::testing::AssertionFailure() << "element " << i << ": got " << g << ", want " << w;
  }
  return ::testing::AssertionSuccess();
}

const std::vector<double> kInputs = {-2.5, -1.0, -0.25, 0.0, 0.3, 0.5, 1.0, 2.0, 3.75};

double reference(UnaryOp op, double x) {
  switch (op) {
    case UnaryOp::Exp: return std::exp(x);
    case UnaryOp::Exp2: return std::exp2(x);
    case UnaryOp::Expm1: return std::expm1(x);
    case UnaryOp::Log: return std::log(x);
    case UnaryOp::Log2: return std::log2(x);
    case UnaryOp::Log10: return std::log10(x);
    case UnaryOp::Log1p: return std::log1p(x);
    case UnaryOp::Sqrt: return std::sqrt(x);
    case UnaryOp::Rsqrt: return 1.0 / std::sqrt(x);
    case UnaryOp::Reciprocal: return 1.0 / x;
    case UnaryOp::Sin: return std::sin(x);
    case UnaryOp::Cos: return std::cos(x);
    case UnaryOp::Tan: return std::tan(x);
    case UnaryOp::Asin: return std::asin(x);
    case UnaryOp::Acos: return std::acos(x);
    case UnaryOp::Atan: return std::atan(x);
    case UnaryOp::Sinh: return std::sinh(x);
    case UnaryOp::Cosh: return std::cosh(x);
    case UnaryOp::Tanh: return std::tanh(x);
    case UnaryOp::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case UnaryOp::Erf: return std::erf(x);
    case UnaryOp::Erfc: return std::erfc(x);
    default: return kNaN;
  }
}

TEST(KernelsPointwise, FloatUnaryOpsFollowTheStandardLibrary) {
  for (int i = 0; i <= static_cast<int>(UnaryOp::Erfc); ++i) {
    const auto op = static_cast<UnaryOp>(i);
    std::vector<double> want;
    for (double x : kInputs) want.push_back(reference(op, x));
    const Tensor d = tensor_of(kInputs, shape({3, 3}), ST::Double);
    const Tensor rd = unary(op, d);
    EXPECT_EQ(rd.dtype(), ST::Double) << unary_name(op);
    EXPECT_TRUE(close(values(rd), want, 1e-15)) << unary_name(op);
    const Tensor rf = unary(op, tensor_of(kInputs, shape({9}), ST::Float));
    EXPECT_EQ(rf.dtype(), ST::Float) << unary_name(op);
    EXPECT_TRUE(close(values(rf), want, 1e-6)) << unary_name(op);
    const Tensor rh = unary(op, tensor_of(kInputs, shape({9}), ST::BFloat16));
    EXPECT_EQ(rh.dtype(), ST::BFloat16) << unary_name(op);
    EXPECT_TRUE(close(values(rh), want, 1e-2)) << unary_name(op);
    // Integers and Bool compute in the default dtype (Float).
    const Tensor ri = unary(op, tensor_of({-1, 0, 1, 2}, shape({4}), ST::Long));
    EXPECT_EQ(ri.dtype(), ST::Float) << unary_name(op);
    std::vector<double> want_i;
    for (double x : {-1.0, 0.0, 1.0, 2.0}) want_i.push_back(reference(op, x));
    EXPECT_TRUE(close(values(ri), want_i, 1e-6)) << unary_name(op);
    EXPECT_EQ(unary_meta(op, tensor_of({1}, shape({1}), ST::Bool)).dtype, ST::Float);
  }
}

TEST(KernelsPointwise, NonContiguousAndLargeInputs) {
  // A transposed input, and one big enough to be split across threads.
  const Tensor base = tensor_of({0, 1, 2, 3, 4, 5}, shape({2, 3}), ST::Float);
  Tensor t = base.as_strided(shape({3, 2}), shape({1, 3}));
  EXPECT_EQ(values(unary(UnaryOp::Exp, t)),
            (std::vector<double>{std::exp(0.f), std::exp(3.f), std::exp(1.f), std::exp(4.f), std::exp(2.f),
                                 std::exp(5.f)}));
  const int64_t n = 200000;
  std::vector<double> xs(n);
  for (int64_t i = 0; i < n; ++i) xs[static_cast<std::size_t>(i)] = -5.0 + 10.0 * static_cast<double>(i) / n;
  const Tensor big = tensor_of(xs, shape({n}), ST::Float);
  std::vector<double> want;
  for (double x : xs) want.push_back(std::tanh(static_cast<float>(x)));
  const int threads = get_num_threads();
  set_num_threads(4);
  EXPECT_TRUE(close(values(unary(UnaryOp::Tanh, big)), want, 1e-6));
  set_num_threads(1);
  EXPECT_TRUE(close(values(unary(UnaryOp::Tanh, big)), want, 1e-6));
  set_num_threads(threads);
}

// Contiguous Float/Double inputs take Sleef's vector rows on AVX2 machines
// (scalar loops elsewhere): special values and the tail of a row included.
TEST(KernelsPointwise, VectorRowsKeepSpecialValues) {
  const std::vector<double> xs = {kInf, -kInf, kNaN, 100, -100, 88.5, -0.0, 1e-30, 0.5, 2, 3, 700, -745, 1, -1, 20, -20};
  for (ST dtype : {ST::Float, ST::Double}) {
    const Tensor t = tensor_of(xs, shape({static_cast<int64_t>(xs.size())}), dtype);
    for (UnaryOp op : {UnaryOp::Exp, UnaryOp::Expm1, UnaryOp::Log1p, UnaryOp::Tanh, UnaryOp::Sigmoid, UnaryOp::Sin,
                       UnaryOp::Erf, UnaryOp::Erfc, UnaryOp::Sqrt}) {
      std::vector<double> want;
      for (double x : xs) {
        const double xr = dtype == ST::Float ? static_cast<double>(static_cast<float>(x)) : x;
        const double r = reference(op, xr);
        want.push_back(dtype == ST::Float ? static_cast<double>(static_cast<float>(r)) : r);
      }
      EXPECT_TRUE(close(values(unary(op, t)), want, dtype == ST::Float ? 4e-7 : 1e-15))
          << unary_name(op) << " " << dtype;
    }
  }
}

// The vector paths (Highway rows for the rounding family, gelu, hardswish,
// softplus, remainder, fmod, atan2 and the rounding divisions; the engine's
// loop over buffered broadcast inputs for clamp's bounds and Scalar-first
// forms) against the scalar loops a strided view of the same values takes:
// bit for bit where both are exact IEEE arithmetic, within a few ULP where
// Sleef and libm compute a transcendental function. 1001 elements: whole
// vectors, a tail, and more than one 256-element chunk.
TEST(KernelsPointwise, VectorPathsMatchTheScalarLoops) {
  const int64_t n = 1001;
  std::vector<double> xs, ys;
  const double specials[] = {kNaN, kInf, -kInf, -0.0, 0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e30, -1e-30, 7.0, -7.0};
  for (int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    xs.push_back(k < std::size(specials) ? specials[k] : -12.0 + 24.0 * static_cast<double>((i * 37) % n) / n);
    ys.push_back(i % 17 == 0 ? 0.0 : (i % 23 == 0 ? kNaN : -3.0 + 6.5 * static_cast<double>((i * 53) % n) / n));
  }
  // The same values at every other element of a buffer twice as long.
  auto strided = [&](const std::vector<double>& v, ST dtype) {
    std::vector<double> wide;
    for (double x : v) {
      wide.push_back(x);
      wide.push_back(0);
    }
    return tensor_of(wide, shape({2 * n}), dtype).as_strided(shape({n}), shape({2}));
  };
  // |got - want| <= tol * max(|want|, 1): relative, absolute near zero.
  auto near = [](const std::vector<double>& got, const std::vector<double>& want, double tol) {
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double g = got[i], w = want[i];
      if ((std::isnan(w) && std::isnan(g)) || g == w) continue;
      if (std::abs(g - w) <= tol * std::max(std::abs(w), 1.0)) continue;
      return ::testing::AssertionFailure() << "element " << i << ": got " << g << ", want " << w;
    }
    return ::testing::AssertionSuccess();
  };
  for (ST dtype : {ST::Float, ST::Double}) {
    const double ulps = dtype == ST::Float ? 1e-6 : 1e-14;
    const Tensor x = tensor_of(xs, shape({n}), dtype), xs2 = strided(xs, dtype);
    const Tensor y = tensor_of(ys, shape({n}), dtype), ys2 = strided(ys, dtype);
    ASSERT_FALSE(xs2.is_contiguous());
    for (UnaryOp op : {UnaryOp::Floor, UnaryOp::Ceil, UnaryOp::Round, UnaryOp::Trunc, UnaryOp::Frac,
                       UnaryOp::Hardswish, UnaryOp::Neg, UnaryOp::Abs, UnaryOp::Relu}) {
      const std::vector<double> got = values(unary(op, x)), want = values(unary(op, xs2));
      EXPECT_TRUE(near(got, want, 0)) << unary_name(op) << " " << dtype;
      for (std::size_t i = 0; i < got.size(); ++i) {  // -0.0 kept where the scalar loop keeps it
        if (want[i] == 0) {
          EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << unary_name(op) << " " << i;
        }
      }
    }
    for (UnaryOp op : {UnaryOp::Gelu, UnaryOp::GeluTanh}) {
      EXPECT_TRUE(near(values(unary(op, x)), values(unary(op, xs2)), 4 * ulps)) << unary_name(op) << " " << dtype;
    }
    UnaryParams sp;
    sp.a = 1.5;   // beta
    sp.b = 10.0;  // threshold
    EXPECT_TRUE(near(values(unary(UnaryOp::Softplus, x, sp)), values(unary(UnaryOp::Softplus, xs2, sp)), 4 * ulps))
        << dtype;
    const Scalar s(0.3), t(-2.0);
    for (PointwiseOp op : {PointwiseOp::Remainder, PointwiseOp::Fmod, PointwiseOp::DivTrunc, PointwiseOp::DivFloor,
                           PointwiseOp::FloorDivide, PointwiseOp::Atan2, PointwiseOp::Maximum, PointwiseOp::Minimum}) {
      const double tol = op == PointwiseOp::Atan2 ? 4 * ulps : 0;
      EXPECT_TRUE(near(values(binary(op, x, y)), values(binary(op, xs2, ys2)), tol)) << pointwise_name(op) << dtype;
      EXPECT_TRUE(near(values(binary(op, x, s)), values(binary(op, xs2, s)), tol)) << pointwise_name(op) << dtype;
      EXPECT_TRUE(near(values(binary(op, t, y)), values(binary(op, t, ys2)), tol)) << pointwise_name(op) << dtype;
    }
    auto clamp = [](const Tensor& self, std::optional<Scalar> lo, std::optional<Scalar> hi) {
      Tensor out = empty_from_meta(clamp_meta(self, lo, hi));
      clamp_impl(self, lo, hi, out);
      return values(out);
    };
    EXPECT_TRUE(near(clamp(x, Scalar(-1.0), Scalar(2.0)), clamp(xs2, Scalar(-1.0), Scalar(2.0)), 0)) << dtype;
    EXPECT_TRUE(near(clamp(x, Scalar(-1.0), std::nullopt), clamp(xs2, Scalar(-1.0), std::nullopt), 0)) << dtype;
    EXPECT_TRUE(near(clamp(x, std::nullopt, Scalar(2.0)), clamp(xs2, std::nullopt, Scalar(2.0)), 0)) << dtype;
    // Rows with selects on computed values (lerp's two formulas, its Scalar
    // weight on either side of 0.5) and on an op's members (nan_to_num's
    // replacements), and a three-input row: the AVX2 clone of the loop
    // against the strided scalar loop.
    const auto lerp = [](const Tensor& a, const Tensor& b, const Tensor& w) {
      Tensor out = empty_from_meta(lerp_tensor_meta(a, b, w));
      lerp_tensor_impl(a, b, w, out);
      return values(out);
    };
    EXPECT_TRUE(near(lerp(x, y, y), lerp(xs2, ys2, ys2), 0)) << dtype;
    for (double w : {0.25, 0.75}) {
      const auto lerp_scalar = [w](const Tensor& a, const Tensor& b) {
        Tensor out = empty_from_meta(lerp_meta(a, b, Scalar(w)));
        lerp_impl(a, b, Scalar(w), out);
        return values(out);
      };
      EXPECT_TRUE(near(lerp_scalar(x, y), lerp_scalar(xs2, ys2), 0)) << dtype << " " << w;
    }
    const auto addcmul = [](const Tensor& a, const Tensor& b, const Tensor& c) {
      Tensor out = empty_from_meta(addcmul_meta(a, b, c, Scalar(0.5)));
      addcmul_impl(a, b, c, Scalar(0.5), out);
      return values(out);
    };
    EXPECT_TRUE(near(addcmul(x, y, x), addcmul(xs2, ys2, xs2), 0)) << dtype;
    UnaryParams replace;
    replace.a = 9.0;
    replace.b = 8.0;
    replace.c = -8.0;
    EXPECT_TRUE(near(values(unary(UnaryOp::NanToNum, x, replace)), values(unary(UnaryOp::NanToNum, xs2, replace)), 0))
        << dtype;
    // add (alpha 1), sub, mul, div: the vector rows against the strided
    // scalar loop, a broadcast 0-dim operand on either side too.
    const Tensor s0 = tensor_of({0.3}, shape({}), dtype);
    const auto arith = [](const Tensor& a, const Tensor& b) {
      const Scalar one(1.0);
      Tensor sum = empty_from_meta(add_meta(a, b, one)), diff = empty_from_meta(sub_meta(a, b, one));
      Tensor prod = empty_from_meta(mul_meta(a, b)), quot = empty_from_meta(div_meta(a, b));
      add_impl(a, b, one, sum);
      sub_impl(a, b, one, diff);
      mul_impl(a, b, prod);
      div_impl(a, b, quot);
      return std::vector<std::vector<double>>{values(sum), values(diff), values(prod), values(quot)};
    };
    for (const auto& [got, want] : {std::pair{arith(x, y), arith(xs2, ys2)}, std::pair{arith(x, s0), arith(xs2, s0)},
                                    std::pair{arith(s0, y), arith(s0, ys2)}}) {
      for (std::size_t k = 0; k != got.size(); ++k) EXPECT_TRUE(near(got[k], want[k], 0)) << k << " " << dtype;
    }
    // Broadcast rows (try_simd_broadcast_rows): x as 7 rows of 143, against
    // a row of 143 ([143] and [1, 143]), a value per row ([7, 1]) and the
    // outer pattern [7, 1] x [143]; the strided copies take the scalar loop.
    const Tensor m = x.as_strided(shape({7, 143}), shape({143, 1})), ms = xs2.as_strided(shape({7, 143}), shape({286, 2}));
    const Tensor row = y.as_strided(shape({143}), shape({1})), rows2 = ys2.as_strided(shape({143}), shape({2}));
    const Tensor row1 = y.as_strided(shape({1, 143}), shape({143, 1}));
    const Tensor col = y.as_strided(shape({7, 1}), shape({1, 1})), cols2 = ys2.as_strided(shape({7, 1}), shape({2, 1}));
    ASSERT_FALSE(ms.is_contiguous());
    for (const auto& [got, want] :
         {std::pair{arith(m, row), arith(ms, rows2)}, std::pair{arith(row, m), arith(rows2, ms)},
          std::pair{arith(m, row1), arith(ms, rows2)}, std::pair{arith(m, col), arith(ms, cols2)},
          std::pair{arith(col, m), arith(cols2, ms)}, std::pair{arith(col, row), arith(cols2, rows2)}}) {
      for (std::size_t k = 0; k != got.size(); ++k) EXPECT_TRUE(near(got[k], want[k], 0)) << "rows " << k << " " << dtype;
    }
    for (PointwiseOp op : {PointwiseOp::Maximum, PointwiseOp::Fmod}) {
      EXPECT_TRUE(near(values(binary(op, m, row)), values(binary(op, ms, rows2)), 0)) << pointwise_name(op) << dtype;
      EXPECT_TRUE(near(values(binary(op, col, row)), values(binary(op, cols2, rows2)), 0)) << pointwise_name(op) << dtype;
    }
  }
  // A broadcast first input on an integral dtype (bitwise_and.Scalar_Tensor).
  std::vector<double> is;
  for (int64_t i = 0; i < n; ++i) is.push_back(static_cast<double>((i * 7919) % 1000 - 500));
  const Scalar mask(int64_t{0x5a});
  EXPECT_EQ(values(binary(PointwiseOp::BitwiseAnd, mask, tensor_of(is, shape({n}), ST::Int))),
            values(binary(PointwiseOp::BitwiseAnd, mask, strided(is, ST::Int))));
}

TEST(KernelsPointwise, KeepDtypeOps) {
  const Tensor i8 = tensor_of({-128, -3, 0, 5, 127}, shape({5}), ST::Char);
  EXPECT_EQ(values(unary(UnaryOp::Neg, i8)), (std::vector<double>{-128, 3, 0, -5, -127}));  // wraps
  EXPECT_EQ(values(unary(UnaryOp::Abs, i8)), (std::vector<double>{-128, 3, 0, 5, 127}));
  EXPECT_EQ(values(unary(UnaryOp::Sign, i8)), (std::vector<double>{-1, -1, 0, 1, 1}));
  EXPECT_EQ(values(unary(UnaryOp::Relu, i8)), (std::vector<double>{0, 0, 0, 5, 127}));
  EXPECT_EQ(values(unary(UnaryOp::BitwiseNot, i8)), (std::vector<double>{127, 2, -1, -6, -128}));
  EXPECT_EQ(values(unary(UnaryOp::Floor, i8)), values(i8));
  EXPECT_EQ(unary(UnaryOp::Floor, i8).dtype(), ST::Char);
  const Tensor b = tensor_of({0, 1}, shape({2}), ST::Bool);
  EXPECT_EQ(values(unary(UnaryOp::BitwiseNot, b)), (std::vector<double>{1, 0}));
  EXPECT_EQ(values(unary(UnaryOp::Sign, b)), (std::vector<double>{0, 1}));

  const Tensor f = tensor_of({-2.5, -0.5, 0.5, 1.5, 2.5, kNaN}, shape({6}), ST::Float);
  EXPECT_TRUE(close(values(unary(UnaryOp::Round, f)), {-2, -0.0, 0, 2, 2, kNaN}, 0));  // half to even
  EXPECT_TRUE(close(values(unary(UnaryOp::Floor, f)), {-3, -1, 0, 1, 2, kNaN}, 0));
  EXPECT_TRUE(close(values(unary(UnaryOp::Ceil, f)), {-2, -0.0, 1, 2, 3, kNaN}, 0));
  EXPECT_TRUE(close(values(unary(UnaryOp::Trunc, f)), {-2, -0.0, 0, 1, 2, kNaN}, 0));
  EXPECT_TRUE(close(values(unary(UnaryOp::Frac, f)), {-0.5, -0.5, 0.5, 0.5, 0.5, kNaN}, 0));
  EXPECT_TRUE(close(values(unary(UnaryOp::Sign, f)), {-1, -1, 1, 1, 1, 0}, 0));  // sign(NaN) = 0
  EXPECT_TRUE(close(values(unary(UnaryOp::Relu, f)), {0, 0, 0.5, 1.5, 2.5, kNaN}, 0));
  EXPECT_TRUE(close(values(unary(UnaryOp::Abs, f)), {2.5, 0.5, 0.5, 1.5, 2.5, kNaN}, 0));

  const std::vector<double> xs = {-4, -1, 0, 0.5, 2, 30};
  const Tensor d = tensor_of(xs, shape({6}), ST::Double);
  std::vector<double> gelu, gelu_tanh, silu, hardswish, softplus, softplus2;
  for (double x : xs) {
    gelu.push_back(0.5 * x * std::erfc(-x / std::sqrt(2.0)));
    gelu_tanh.push_back(0.5 * x * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (x + 0.044715 * x * x * x))));
    silu.push_back(x / (1 + std::exp(-x)));
    hardswish.push_back(x * std::min(std::max(x + 3, 0.0), 6.0) / 6);
    softplus.push_back(x > 20 ? x : std::log1p(std::exp(x)));
    softplus2.push_back(2 * x > 3 ? x : std::log1p(std::exp(2 * x)) / 2);
  }
  EXPECT_TRUE(close(values(unary(UnaryOp::Gelu, d)), gelu, 1e-14));  // Sleef's erfc: 1.5 ulp, times x / 2
  // Float gelu in the negative tail, contiguous (SIMD) and strided (scalar):
  // erfc keeps it within a few ulp where 1 + erf cancels (ATen 1.13 is 4%
  // off at -5, 2.7e-4 at -4).
  const std::vector<double> tail = {-5, -4, -3, -5, -4, -3, -5, -4, -3, -5, -4, -3, -5, -4, -3, -5};
  const Tensor ft = tensor_of(tail, shape({16}), ST::Float);
  const std::vector<int64_t> every_other_size = {8}, every_other_stride = {2};
  for (const Tensor& in : {ft, ft.as_strided(IntArrayRef(every_other_size), IntArrayRef(every_other_stride))}) {
    const std::vector<double> got = values(unary(UnaryOp::Gelu, in));
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double x = static_cast<double>(static_cast<float>(values(in)[i]));
      const double want = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
      EXPECT_NEAR(got[i] / want, 1.0, 1e-6) << "gelu(" << x << ")";
    }
  }
  EXPECT_TRUE(close(values(unary(UnaryOp::GeluTanh, d)), gelu_tanh, 1e-15));
  EXPECT_TRUE(close(values(unary(UnaryOp::Silu, d)), silu, 1e-15));
  EXPECT_TRUE(close(values(unary(UnaryOp::Hardswish, d)), hardswish, 1e-15));
  EXPECT_TRUE(close(values(unary(UnaryOp::Softplus, d)), softplus, 1e-15));
  EXPECT_TRUE(close(values(unary(UnaryOp::Softplus, d, {2.0, 3.0, {}})), softplus2, 1e-15));
}

// isinf / isfinite / isnan over rows long enough for the vector loop (the
// special values at every position of a block and in the tail), each
// floating dtype, against std::isinf / std::isfinite / std::isnan.
TEST(KernelsPointwise, BoolClassificationInTheVectorLoop) {
  const double fmax = std::numeric_limits<float>::max(), tiny = std::numeric_limits<float>::denorm_min();
  const std::vector<double> specials = {0, -0.0, kNaN, -kNaN, kInf, -kInf, fmax, -fmax, tiny, -tiny, 1.5, -65504};
  std::vector<double> xs;
  for (int i = 0; i < 301; ++i) xs.push_back(specials[static_cast<std::size_t>(i * 7) % specials.size()]);
  for (const ST dtype : {ST::Float, ST::Double, ST::Half, ST::BFloat16}) {
    const Tensor t = tensor_of(xs, shape({static_cast<int64_t>(xs.size())}), dtype);
    const std::vector<double> stored = values(t);  // after rounding to the dtype (fmax is inf in Half)
    std::vector<double> inf, fin, nan;
    for (double x : stored) {
      inf.push_back(std::isinf(x) ? 1 : 0);
      fin.push_back(std::isfinite(x) ? 1 : 0);
      nan.push_back(std::isnan(x) ? 1 : 0);
    }
    EXPECT_EQ(values(unary(UnaryOp::IsInf, t)), inf) << static_cast<int>(dtype);
    EXPECT_EQ(values(unary(UnaryOp::IsFinite, t)), fin) << static_cast<int>(dtype);
    EXPECT_EQ(values(unary(UnaryOp::IsNan, t)), nan) << static_cast<int>(dtype);
  }
}

TEST(KernelsPointwise, BoolResultsAndNanToNum) {
  const Tensor f = tensor_of({0, kNaN, kInf, -kInf, 2}, shape({5}), ST::Float);
  EXPECT_EQ(values(unary(UnaryOp::IsNan, f)), (std::vector<double>{0, 1, 0, 0, 0}));
  EXPECT_EQ(values(unary(UnaryOp::IsInf, f)), (std::vector<double>{0, 0, 1, 1, 0}));
  EXPECT_EQ(values(unary(UnaryOp::IsFinite, f)), (std::vector<double>{1, 0, 0, 0, 1}));
  EXPECT_EQ(values(unary(UnaryOp::LogicalNot, f)), (std::vector<double>{1, 0, 0, 0, 0}));
  EXPECT_EQ(unary(UnaryOp::IsNan, f).dtype(), ST::Bool);
  const Tensor i = tensor_of({0, 3}, shape({2}), ST::Int);
  EXPECT_EQ(values(unary(UnaryOp::IsFinite, i)), (std::vector<double>{1, 1}));
  EXPECT_EQ(values(unary(UnaryOp::IsInf, i)), (std::vector<double>{0, 0}));
  EXPECT_EQ(values(unary(UnaryOp::LogicalNot, i)), (std::vector<double>{1, 0}));

  const double fmax = std::numeric_limits<float>::max();
  EXPECT_EQ(values(unary(UnaryOp::NanToNum, f)), (std::vector<double>{0, 0, fmax, -fmax, 2}));
  EXPECT_EQ(values(unary(UnaryOp::NanToNum, f, {7.0, 8.0, -9.0})), (std::vector<double>{0, 7, 8, -9, 2}));
  const Tensor h = tensor_of({kNaN, kInf, -kInf}, shape({3}), ST::Half);
  EXPECT_EQ(values(unary(UnaryOp::NanToNum, h)), (std::vector<double>{0, 65504, -65504}));
  EXPECT_EQ(values(unary(UnaryOp::NanToNum, i)), values(i));
}

TEST(KernelsPointwise, UnaryErrorsWriteNothing) {
  EXPECT_EQ(error_of([] { (void)unary_meta(UnaryOp::Neg, tensor_of({1}, shape({1}), ST::Bool)); }),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
            "the `~` or `logical_not()` operator instead.");
  EXPECT_EQ(error_of([] { (void)unary_meta(UnaryOp::Frac, tensor_of({1}, shape({1}), ST::Long)); }),
            "\"frac\" not implemented for 'Long'");
  EXPECT_EQ(error_of([] { (void)unary_meta(UnaryOp::BitwiseNot, tensor_of({1}, shape({1}), ST::Float)); }),
            "\"bitwise_not\" not implemented for 'Float'");
  EXPECT_EQ(error_of([] { (void)unary_meta(UnaryOp::Gelu, tensor_of({1}, shape({1}), ST::Int)); }),
            "\"gelu\" not implemented for 'Int'");
  EXPECT_EQ(error_of([] { (void)unary_meta(UnaryOp::Relu, tensor_of({1}, shape({1}), ST::Bool)); }),
            "Boolean inputs not supported for relu");
  // exp into a Long out: refused before writing.
  Tensor out = tensor_of({5, 6}, shape({2}), ST::Long);
  EXPECT_EQ(error_of([&] { unary_impl(UnaryOp::Exp, tensor_of({1, 2}, shape({2}), ST::Long), out); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(values(out), (std::vector<double>{5, 6}));
  Tensor wrong = kernels::empty(shape({3}));
  EXPECT_EQ(error_of([&] { unary_impl(UnaryOp::Sin, tensor_of({1, 2}, shape({2}), ST::Float), wrong); }),
            "output with shape [3] doesn't match the broadcast shape [2]");
}

TEST(KernelsPointwise, Comparisons) {
  const Tensor a = tensor_of({1, 2, 3, 4, 5, 6}, shape({2, 3}), ST::Int);
  const Tensor b = tensor_of({2, 2, 2}, shape({3}), ST::Float);
  EXPECT_EQ(values(binary(PointwiseOp::Lt, a, b)), (std::vector<double>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(values(binary(PointwiseOp::Le, a, b)), (std::vector<double>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(values(binary(PointwiseOp::Eq, a, b)), (std::vector<double>{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(values(binary(PointwiseOp::Ne, a, b)), (std::vector<double>{1, 0, 1, 1, 1, 1}));
  EXPECT_EQ(values(binary(PointwiseOp::Gt, a, b)), (std::vector<double>{0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(values(binary(PointwiseOp::Ge, a, b)), (std::vector<double>{0, 1, 1, 1, 1, 1}));
  EXPECT_EQ(binary(PointwiseOp::Lt, a, b).dtype(), ST::Bool);
  EXPECT_EQ(binary(PointwiseOp::Lt, a, b).sizes(), shape({2, 3}));
  // A Scalar compares in the promoted dtype: int tensor vs 2.5 in Float.
  const Scalar s(2.5);
  EXPECT_EQ(values(binary(PointwiseOp::Gt, a, s)), (std::vector<double>{0, 0, 1, 1, 1, 1}));
  // uint8 vs 300: the Scalar wraps to the tensor's dtype (44), as ATen.
  const Scalar big(int64_t{300});
  EXPECT_EQ(values(binary(PointwiseOp::Eq, tensor_of({44, 45}, shape({2}), ST::Byte), big)),
            (std::vector<double>{1, 0}));
  // NaN compares unequal to everything.
  const Tensor n = tensor_of({kNaN}, shape({1}), ST::Float);
  EXPECT_EQ(values(binary(PointwiseOp::Eq, n, n)), (std::vector<double>{0}));
  EXPECT_EQ(values(binary(PointwiseOp::Ne, n, n)), (std::vector<double>{1}));
  // out= of another dtype gets 0/1 in it.
  Tensor out = kernels::empty(shape({2, 3}), ST::Float);
  pointwise_impl(PointwiseOp::Ge, a, b, out);
  EXPECT_EQ(values(out), (std::vector<double>{0, 1, 1, 1, 1, 1}));
}

// Inputs already of the compute dtype into a contiguous Bool out take typed
// rows (run_bool_result): long rows split across threads, a Scalar (0-dim)
// last input, an integral dtype and logical ops in place on Bool.
TEST(KernelsPointwise, BoolResultRows) {
  const int64_t n = 70000;
  std::vector<double> xs(n), ys(n);
  for (int64_t i = 0; i < n; ++i) {
    xs[static_cast<std::size_t>(i)] = static_cast<double>((i * 37) % 101) - 50.0;
    ys[static_cast<std::size_t>(i)] = static_cast<double>((i * 53) % 97) - 48.0;
  }
  std::vector<double> lt, le_scalar, eq;
  for (int64_t i = 0; i < n; ++i) {
    const double x = xs[static_cast<std::size_t>(i)], y = ys[static_cast<std::size_t>(i)];
    lt.push_back(x < y ? 1 : 0);
    le_scalar.push_back(x <= 3.0 ? 1 : 0);
    eq.push_back(x == y ? 1 : 0);
  }
  const int threads = get_num_threads();
  for (int t : {1, 4}) {
    set_num_threads(t);
    for (ST dtype : {ST::Float, ST::Double, ST::Long}) {
      const Tensor a = tensor_of(xs, shape({n}), dtype), b = tensor_of(ys, shape({n}), dtype);
      EXPECT_EQ(values(binary(PointwiseOp::Lt, a, b)), lt) << dtype;
      EXPECT_EQ(values(binary(PointwiseOp::Le, a, Scalar(int64_t{3}))), le_scalar) << dtype;
      EXPECT_EQ(values(binary(PointwiseOp::Eq, a, b)), eq) << dtype;
    }
  }
  set_num_threads(threads);
  // A Scalar first (0-dim first input) takes the engine's path: same result.
  const Tensor a = tensor_of({1, 5, 3}, shape({3}), ST::Float);
  EXPECT_EQ(values(binary(PointwiseOp::Lt, Scalar(2.0), a)), (std::vector<double>{0, 1, 1}));
  // In place on Bool: self is out.
  Tensor p = tensor_of({1, 1, 0, 0}, shape({4}), ST::Bool);
  const Tensor q = tensor_of({1, 0, 1, 0}, shape({4}), ST::Bool);
  pointwise_impl(PointwiseOp::LogicalXor, p, q, p);
  EXPECT_EQ(values(p), (std::vector<double>{0, 1, 1, 0}));
}

TEST(KernelsPointwise, LogicalAndMaxMin) {
  const Tensor a = tensor_of({0, 0, 2, -1}, shape({4}), ST::Int);
  const Tensor b = tensor_of({0, 0.5, 0, 3}, shape({4}), ST::Float);
  EXPECT_EQ(values(binary(PointwiseOp::LogicalAnd, a, b)), (std::vector<double>{0, 0, 0, 1}));
  EXPECT_EQ(values(binary(PointwiseOp::LogicalOr, a, b)), (std::vector<double>{0, 1, 1, 1}));
  EXPECT_EQ(values(binary(PointwiseOp::LogicalXor, a, b)), (std::vector<double>{0, 1, 1, 0}));
  const Tensor x = tensor_of({1, kNaN, 3, -2}, shape({4}), ST::Float);
  const Tensor y = tensor_of({2, 1, kNaN, -5}, shape({4}), ST::Double);
  const Tensor mx = binary(PointwiseOp::Maximum, x, y);
  EXPECT_EQ(mx.dtype(), ST::Double);
  EXPECT_TRUE(close(values(mx), {2, kNaN, kNaN, -2}, 0));
  EXPECT_TRUE(close(values(binary(PointwiseOp::Minimum, x, y)), {1, kNaN, kNaN, -5}, 0));
  const Tensor t = tensor_of({0, 1, 0}, shape({3}), ST::Bool), u = tensor_of({0, 0, 1}, shape({3}), ST::Bool);
  EXPECT_EQ(values(binary(PointwiseOp::Maximum, t, u)), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(values(binary(PointwiseOp::Minimum, t, u)), (std::vector<double>{0, 0, 0}));
}

TEST(KernelsPointwise, Where) {
  const Tensor c = tensor_of({1, 0, 1}, shape({3}), ST::Bool);
  const Tensor a = tensor_of({1, 2}, shape({2, 1}), ST::Int);
  const Tensor b = tensor_of({0.5, 0.25, 0.125}, shape({3}), ST::Float);
  Tensor out = empty_from_meta(where_meta(c, a, b));
  where_impl(c, a, b, out);
  EXPECT_EQ(out.dtype(), ST::Float);
  EXPECT_EQ(out.sizes(), shape({2, 3}));
  EXPECT_EQ(values(out), (std::vector<double>{1, 0.25, 1, 2, 0.25, 2}));
  EXPECT_EQ(error_of([&] { (void)where_meta(b, a, b); }),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
}

// The select rows (try_where_rows): every value size (1, 2, 4, 8 bytes), a
// row or a 0-dim value on each side, lengths with a tail after the full
// blocks, split across threads and not.
TEST(KernelsPointwise, WhereRowsEverySizeAndPattern) {
  const int threads = get_num_threads();
  for (const int64_t n : {int64_t{1}, int64_t{37}, int64_t{100003}}) {
    std::vector<double> cs(static_cast<std::size_t>(n)), as(cs.size()), bs(cs.size());
    for (std::size_t i = 0; i < cs.size(); ++i) {
      cs[i] = static_cast<double>((i * 2654435761u >> 7) & 1u);
      as[i] = static_cast<double>(i % 100);
      bs[i] = -static_cast<double>(i % 50) - 1;
    }
    const Tensor c = tensor_of(cs, shape({n}), ST::Bool);
    for (const ST dtype : {ST::Char, ST::Short, ST::Half, ST::Float, ST::Int, ST::Double, ST::Long}) {
      const Tensor a_row = tensor_of(as, shape({n}), dtype), b_row = tensor_of(bs, shape({n}), dtype);
      const Tensor a_one = tensor_of({7}, shape({}), dtype), b_one = tensor_of({-3}, shape({}), dtype);
      for (const bool a_is_one : {false, true}) {
        for (const bool b_is_one : {false, true}) {
          const Tensor& a = a_is_one ? a_one : a_row;
          const Tensor& b = b_is_one ? b_one : b_row;
          std::vector<double> want(cs.size());
          for (std::size_t i = 0; i < cs.size(); ++i) {
            want[i] = cs[i] != 0 ? (a_is_one ? 7 : as[i]) : (b_is_one ? -3 : bs[i]);
          }
          for (const int t : {1, 4}) {
            set_num_threads(t);
            Tensor out = empty_from_meta(where_meta(c, a, b));
            where_impl(c, a, b, out);
            EXPECT_EQ(values(out), want) << "n " << n << ", dtype " << static_cast<int>(dtype) << ", a 0-dim "
                                         << a_is_one << ", b 0-dim " << b_is_one << ", threads " << t;
          }
        }
      }
    }
  }
  set_num_threads(threads);
}

TEST(KernelsPointwise, Clamp) {
  const Tensor x = tensor_of({-3, 0, 4, kNaN}, shape({4}), ST::Float);
  auto run = [](const Tensor& s, std::optional<Scalar> lo, std::optional<Scalar> hi) {
    Tensor out = empty_from_meta(clamp_meta(s, lo, hi));
    clamp_impl(s, lo, hi, out);
    return out;
  };
  EXPECT_TRUE(close(values(run(x, Scalar(-1.0), Scalar(2.0))), {-1, 0, 2, kNaN}, 0));
  EXPECT_TRUE(close(values(run(x, Scalar(-1.0), std::nullopt)), {-1, 0, 4, kNaN}, 0));
  EXPECT_TRUE(close(values(run(x, std::nullopt, Scalar(1.0))), {-3, 0, 1, kNaN}, 0));
  EXPECT_TRUE(close(values(run(x, Scalar(3.0), Scalar(1.0))), {1, 1, 1, kNaN}, 0));  // min > max: max
  // The same through the vectorized loops (rows longer than a chunk), NaN
  // at every lane position; and NaN bounds of clamp.Tensor give NaN.
  {
    std::vector<double> v(1000), both(1000), lo_only(1000);
    for (std::size_t k = 0; k < v.size(); ++k) {
      v[k] = k % 7 == 3 ? kNaN : static_cast<double>(k % 9) - 4;
      both[k] = k % 7 == 3 ? kNaN : std::min(std::max(v[k], -1.0), 2.0);
      lo_only[k] = k % 7 == 3 ? kNaN : std::max(v[k], -1.0);
    }
    const Tensor big = tensor_of(v, shape({1000}), ST::Float);
    EXPECT_TRUE(close(values(run(big, Scalar(-1.0), Scalar(2.0))), both, 0));
    EXPECT_TRUE(close(values(run(big, Scalar(-1.0), std::nullopt)), lo_only, 0));
    std::vector<double> bounds(1000, -1.0);
    bounds[500] = kNaN;
    const Tensor lo = tensor_of(bounds, shape({1000}), ST::Float);
    const Tensor hi = tensor_of(std::vector<double>(1000, 2.0), shape({1000}), ST::Float);
    Tensor out = empty_from_meta(clamp_tensor_meta(big, lo, hi));
    clamp_tensor_impl(big, lo, hi, out);
    std::vector<double> expected = both;
    expected[500] = kNaN;
    EXPECT_TRUE(close(values(out), expected, 0));
  }
  // An integral self promotes with the bounds; a floating one does not.
  const Tensor i = tensor_of({-3, 0, 4}, shape({3}), ST::Long);
  const Tensor ri = run(i, Scalar(-1.5), std::nullopt);
  EXPECT_EQ(ri.dtype(), ST::Float);
  EXPECT_EQ(values(ri), (std::vector<double>{-1.5, 0, 4}));
  EXPECT_EQ(run(tensor_of({1}, shape({1}), ST::Half), Scalar(0.5), std::nullopt).dtype(), ST::Half);
  EXPECT_EQ(error_of([&] { (void)clamp_meta(i, std::nullopt, std::nullopt); }),
            "torch.clamp: At least one of 'min' or 'max' must not be None");
  EXPECT_NE(error_of([&] { (void)clamp_meta(tensor_of({1}, shape({1}), ST::Char), Scalar(int64_t{1000}), std::nullopt); }),
            "");

  // Tensor bounds broadcast; NaN in a bound gives NaN; one bound is maximum/minimum.
  const std::optional<Tensor> lo = tensor_of({0, kNaN}, shape({2, 1}), ST::Double);
  const std::optional<Tensor> hi = tensor_of({1, 1, 1, 1}, shape({4}), ST::Float);
  Tensor out = empty_from_meta(clamp_tensor_meta(x, lo, hi));
  clamp_tensor_impl(x, lo, hi, out);
  EXPECT_EQ(out.dtype(), ST::Double);
  EXPECT_TRUE(close(values(out), {0, 0, 1, kNaN, kNaN, kNaN, kNaN, kNaN}, 0));
  Tensor one = empty_from_meta(clamp_tensor_meta(x, std::nullopt, hi));
  clamp_tensor_impl(x, std::nullopt, hi, one);
  EXPECT_TRUE(close(values(one), {-3, 0, 1, kNaN}, 0));
}

TEST(KernelsPointwise, MaskedFill) {
  Tensor self = tensor_of({1, 2, 3, 4, 5, 6}, shape({2, 3}), ST::Int);
  const Tensor mask = tensor_of({1, 0, 1}, shape({3}), ST::Bool);
  masked_fill_(self, mask, Scalar(int64_t{-7}));
  EXPECT_EQ(values(self), (std::vector<double>{-7, 2, -7, -7, 5, -7}));
  masked_fill_(self, mask, tensor_of({9}, shape({}), ST::Double));  // a 0-dim value
  EXPECT_EQ(values(self), (std::vector<double>{9, 2, 9, 9, 5, 9}));
  // Functional: self and mask broadcast together.
  const Tensor row = tensor_of({1, 2, 3}, shape({3}), ST::Float);
  const Tensor col = tensor_of({1, 0}, shape({2, 1}), ST::Bool);
  const Tensor r = masked_fill(row, col, Scalar(0.5));
  EXPECT_EQ(r.sizes(), shape({2, 3}));
  EXPECT_EQ(values(r), (std::vector<double>{0.5, 0.5, 0.5, 1, 2, 3}));
  // Errors leave self unchanged.
  Tensor bytes = tensor_of({1, 2, 3}, shape({3}), ST::Byte);
  EXPECT_NE(error_of([&] { masked_fill_(bytes, mask, Scalar(int64_t{300})); }), "");
  EXPECT_EQ(error_of([&] { masked_fill_(bytes, tensor_of({1, 0, 1}, shape({3}), ST::Float), Scalar(1.0)); }),
            "masked_fill_ only supports boolean masks, but got mask with dtype Float");
  EXPECT_EQ(error_of([&] { masked_fill_(bytes, mask, tensor_of({1, 2}, shape({2}), ST::Byte)); }),
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
  EXPECT_EQ(values(bytes), (std::vector<double>{1, 2, 3}));
}

TEST(KernelsPointwise, PowRemainderFmodFloorDivide) {
  const Tensor base = tensor_of({2, -1, 1, 0, 3, -2}, shape({6}), ST::Long);
  const Tensor ex = tensor_of({-1, -3, -2, -1, 3, 3}, shape({6}), ST::Long);
  // Negative integer exponents: 0, but +-1 for a base of +-1.
  EXPECT_EQ(values(binary(PointwiseOp::Pow, base, ex)), (std::vector<double>{0, -1, 1, 0, 27, -8}));
  const Scalar neg(int64_t{-1});
  EXPECT_EQ(error_of([&] { (void)pointwise_meta(PointwiseOp::Pow, base, neg); }),
            "Integers to negative integer powers are not allowed.");
  const Tensor f = tensor_of({4, 2.25, -8}, shape({3}), ST::Double);
  const Scalar half(0.5), three(int64_t{3});
  EXPECT_TRUE(close(values(binary(PointwiseOp::Pow, f, half)), {2, 1.5, kNaN}, 1e-15));
  EXPECT_TRUE(close(values(binary(PointwiseOp::Pow, f, three)), {64, std::pow(2.25, 3), -512}, 1e-15));
  const Scalar two(int64_t{2});
  const Tensor p2 = binary(PointwiseOp::Pow, two, tensor_of({0, 3, 10}, shape({3}), ST::Int));
  EXPECT_EQ(p2.dtype(), ST::Int);
  EXPECT_EQ(values(p2), (std::vector<double>{1, 8, 1024}));
  EXPECT_EQ(values(binary(PointwiseOp::Pow, tensor_of({3}, shape({1}), ST::Char), tensor_of({5}, shape({1}), ST::Char))),
            (std::vector<double>{-13}));  // 243 wraps in int8

  // Python's modulo and C's fmod; floor division.
  const Tensor a = tensor_of({-7, 7, -7, 7}, shape({4}), ST::Int);
  const Tensor b = tensor_of({2, 2, -2, -2}, shape({4}), ST::Int);
  EXPECT_EQ(values(binary(PointwiseOp::Remainder, a, b)), (std::vector<double>{1, 1, -1, -1}));
  EXPECT_EQ(values(binary(PointwiseOp::Fmod, a, b)), (std::vector<double>{-1, 1, -1, 1}));
  EXPECT_EQ(values(binary(PointwiseOp::FloorDivide, a, b)), (std::vector<double>{-4, 3, 3, -4}));
  EXPECT_EQ(values(binary(PointwiseOp::DivTrunc, a, b)), (std::vector<double>{-3, 3, 3, -3}));
  const Tensor fa = tensor_of({-7, 7, -7, 7, 1, -1, 0}, shape({7}), ST::Float);
  const Tensor fb = tensor_of({2, 2, -2, -2, 0, 0, 3}, shape({7}), ST::Float);
  EXPECT_TRUE(close(values(binary(PointwiseOp::Remainder, fa, fb)), {1, 1, -1, -1, kNaN, kNaN, 0}, 0));
  EXPECT_TRUE(close(values(binary(PointwiseOp::Fmod, fa, fb)), {-1, 1, -1, 1, kNaN, kNaN, 0}, 0));
  EXPECT_TRUE(close(values(binary(PointwiseOp::FloorDivide, fa, fb)), {-4, 3, 3, -4, kInf, -kInf, 0}, 0));
  EXPECT_TRUE(close(values(binary(PointwiseOp::DivFloor, fa, fb)), {-4, 3, 3, -4, kInf, -kInf, 0}, 0));
  EXPECT_TRUE(close(values(binary(PointwiseOp::DivTrunc, fa, fb)), {-3, 3, 3, -3, kInf, -kInf, 0}, 0));
  // INT_MIN / -1 wraps instead of trapping.
  const Tensor lo = tensor_of({-128}, shape({1}), ST::Char), m1 = tensor_of({-1}, shape({1}), ST::Char);
  EXPECT_EQ(values(binary(PointwiseOp::FloorDivide, lo, m1)), (std::vector<double>{-128}));
  EXPECT_EQ(values(binary(PointwiseOp::Remainder, lo, m1)), (std::vector<double>{0}));
  // Integer division by zero throws before anything is written.
  Tensor self = tensor_of({5, 6}, shape({2}), ST::Int);
  const Tensor zero = tensor_of({1, 0}, shape({2}), ST::Int);
  EXPECT_EQ(error_of([&] { pointwise_impl(PointwiseOp::Remainder, self, zero, self); }), "ZeroDivisionError");
  const Scalar z(int64_t{0});
  EXPECT_EQ(error_of([&] { pointwise_impl(PointwiseOp::FloorDivide, self, z, self); }), "ZeroDivisionError");
  EXPECT_EQ(values(self), (std::vector<double>{5, 6}));
  EXPECT_EQ(error_of([] { (void)pointwise_meta(PointwiseOp::Fmod, tensor_of({1}, shape({1}), ST::Bool),
                                               tensor_of({1}, shape({1}), ST::Bool)); }),
            "\"fmod\" not implemented for 'Bool'");
}

TEST(KernelsPointwise, DivRoundingModesAtan2Bitwise) {
  const Tensor a = tensor_of({-7, 7}, shape({2}), ST::Long);
  const Tensor b = tensor_of({2, 2}, shape({2}), ST::Long);
  auto div = [](TensorOrScalar x, TensorOrScalar y, std::optional<std::string_view> mode) {
    Tensor out = empty_from_meta(div_mode_meta(x, y, mode));
    div_mode_impl(x, y, mode, out);
    return out;
  };
  const Tensor t = div(a, b, "trunc"), fl = div(a, b, "floor"), tr = div(a, b, std::nullopt);
  EXPECT_EQ(t.dtype(), ST::Long);
  EXPECT_EQ(values(t), (std::vector<double>{-3, 3}));
  EXPECT_EQ(values(fl), (std::vector<double>{-4, 3}));
  EXPECT_EQ(tr.dtype(), ST::Float);
  EXPECT_EQ(values(tr), (std::vector<double>{-3.5, 3.5}));
  const Scalar two(int64_t{2});
  EXPECT_EQ(values(div(a, two, "floor")), (std::vector<double>{-4, 3}));
  EXPECT_EQ(error_of([&] { (void)div_mode_meta(a, b, "round"); }),
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");

  const Tensor y = tensor_of({1, -1, 0}, shape({3}), ST::Int), x = tensor_of({1, 1, -1}, shape({3}), ST::Int);
  const Tensor at = binary(PointwiseOp::Atan2, y, x);
  EXPECT_EQ(at.dtype(), ST::Float);
  EXPECT_TRUE(close(values(at), {std::atan2(1.0, 1.0), std::atan2(-1.0, 1.0), std::atan2(0.0, -1.0)}, 1e-6));

  const Tensor u = tensor_of({12, -1, 5}, shape({3}), ST::Short), v = tensor_of({10, 3, 1}, shape({3}), ST::Short);
  EXPECT_EQ(values(binary(PointwiseOp::BitwiseAnd, u, v)), (std::vector<double>{8, 3, 1}));
  EXPECT_EQ(values(binary(PointwiseOp::BitwiseOr, u, v)), (std::vector<double>{14, -1, 5}));
  EXPECT_EQ(values(binary(PointwiseOp::BitwiseXor, u, v)), (std::vector<double>{6, -4, 4}));
  const Tensor bt = tensor_of({1, 0, 1}, shape({3}), ST::Bool), bf = tensor_of({1, 1, 0}, shape({3}), ST::Bool);
  EXPECT_EQ(values(binary(PointwiseOp::BitwiseXor, bt, bf)), (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(error_of([] { (void)pointwise_meta(PointwiseOp::BitwiseAnd, tensor_of({1}, shape({1}), ST::Float),
                                               tensor_of({1}, shape({1}), ST::Float)); }),
            "\"bitwise_and\" not implemented for 'Float'");
  // Shifts: out-of-range amounts give 0 (left) or the sign (right).
  const Tensor s = tensor_of({1, 1, -8, -8, 64}, shape({5}), ST::Char);
  const Tensor n = tensor_of({3, 9, 1, 9, -1}, shape({5}), ST::Char);
  EXPECT_EQ(values(binary(PointwiseOp::LeftShift, s, n)), (std::vector<double>{8, 0, -16, 0, 0}));
  EXPECT_EQ(values(binary(PointwiseOp::RightShift, s, n)), (std::vector<double>{0, 0, -4, -1, 0}));
}

TEST(KernelsPointwise, LerpAddcmulAddcdiv) {
  const Tensor s = tensor_of({0, 10, 1}, shape({3}), ST::Float), e = tensor_of({10, 20, 2}, shape({3}), ST::Float);
  Tensor out = empty_from_meta(lerp_meta(s, e, Scalar(0.25)));
  lerp_impl(s, e, Scalar(0.25), out);
  EXPECT_EQ(values(out), (std::vector<double>{2.5, 12.5, 1.25}));
  const Tensor w = tensor_of({0, 1, 0.75}, shape({3}), ST::Float);
  lerp_tensor_impl(s, e, w, out);
  EXPECT_EQ(values(out), (std::vector<double>{0, 20, 1.75}));
  EXPECT_EQ(error_of([&] { (void)lerp_meta(s, tensor_of({1, 2, 3}, shape({3}), ST::Double), Scalar(0.5)); }),
            "expected dtype Float for `end` but got dtype Double");
  const Tensor t1 = tensor_of({1, 2, 3}, shape({3}), ST::Float), t2 = tensor_of({2, 4, 8}, shape({3}), ST::Float);
  Tensor m = empty_from_meta(addcmul_meta(s, t1, t2, Scalar(0.5)));
  addcmul_impl(s, t1, t2, Scalar(0.5), m);
  EXPECT_EQ(values(m), (std::vector<double>{1, 14, 13}));
  addcdiv_impl(s, t1, t2, Scalar(2.0), m);
  EXPECT_EQ(values(m), (std::vector<double>{1, 11, 1.75}));
  const Tensor i = tensor_of({1, 2}, shape({2}), ST::Int);
  Tensor im = empty_from_meta(addcmul_meta(i, i, i, Scalar(int64_t{3})));
  addcmul_impl(i, i, i, Scalar(int64_t{3}), im);
  EXPECT_EQ(values(im), (std::vector<double>{4, 14}));
  EXPECT_NE(error_of([&] { (void)addcdiv_meta(i, i, i, Scalar(int64_t{1})); }).find("Integer division with addcdiv"),
            std::string::npos);
}

// Every variant through the dispatcher (kernels/ops_pointwise.hpp).
TEST(KernelsPointwise, OperatorsThroughTheDispatcher) {
  namespace ops = opd::kernels::ops;
  auto registered = opd_test::register_all_kernels();
  const Tensor x = tensor_of({0, 1, 2}, shape({3}), ST::Float);
  EXPECT_TRUE(close(values(opd::call<ops::exp::functional>(x)), {1, std::exp(1.f), std::exp(2.f)}, 1e-7));
  Tensor y = tensor_of({0, 1, 2}, shape({3}), ST::Double);
  opd::call<ops::sin::inplace>(y);
  EXPECT_TRUE(close(values(y), {0, std::sin(1.0), std::sin(2.0)}, 1e-15));
  Tensor out = kernels::empty(shape({0}), ST::Double);
  opd::call<ops::sqrt::out>(tensor_of({4, 9}, shape({2}), ST::Long), out);  // Float result into a Double out
  EXPECT_EQ(values(out), (std::vector<double>{2, 3}));
  Tensor li = tensor_of({1, 2}, shape({2}), ST::Long);
  EXPECT_EQ(error_of([&] { opd::call<ops::exp::inplace>(li); }),
            "aten::exp_: result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(values(li), (std::vector<double>{1, 2}));
  const Tensor g = opd::call<ops::gelu::functional>(tensor_of({1}, shape({1}), ST::Double), opd::arg<"approximate"> = "tanh");
  EXPECT_TRUE(close(values(g), {0.5 * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * 1.044715))}, 1e-15));
  EXPECT_NE(error_of([] { (void)opd::call<ops::gelu::functional>(tensor_of({1}, shape({1}), ST::Float), opd::arg<"approximate"> = "erf"); }), "");
  const Tensor nn = opd::call<ops::nan_to_num::functional>(tensor_of({kNaN, 1}, shape({2}), ST::Float), 3.0, std::nullopt, std::nullopt);
  EXPECT_EQ(values(nn), (std::vector<double>{3, 1}));
  Tensor r = tensor_of({-1, 2}, shape({2}), ST::Float);
  opd::call<ops::relu_>(r);
  EXPECT_EQ(values(r), (std::vector<double>{0, 2}));
  EXPECT_EQ(values(opd::call<ops::isnan>(tensor_of({kNaN, 1}, shape({2}), ST::Float))), (std::vector<double>{1, 0}));
  Tensor sp = kernels::empty(shape({1}), ST::Double);
  opd::call<ops::softplus_out>(tensor_of({1}, shape({1}), ST::Double), Scalar(1), Scalar(20), sp);
  EXPECT_TRUE(close(values(sp), {std::log1p(std::exp(1.0))}, 1e-15));
  // Comparisons: functional Bool, in-place keeps self's dtype.
  Tensor a = tensor_of({1, 5}, shape({2}), ST::Float);
  EXPECT_EQ(opd::call<ops::lt_scalar::functional>(a, Scalar(2)).dtype(), ST::Bool);
  opd::call<ops::lt_scalar::inplace>(a, Scalar(2));
  EXPECT_EQ(a.dtype(), ST::Float);
  EXPECT_EQ(values(a), (std::vector<double>{1, 0}));
  Tensor m = kernels::empty(shape({0}), ST::Float);
  opd::call<ops::maximum_out>(tensor_of({1, 5}, shape({2}), ST::Float), tensor_of({3, 2}, shape({2}), ST::Float), m);
  EXPECT_EQ(values(m), (std::vector<double>{3, 5}));
  const Tensor w = opd::call<ops::where::functional>(tensor_of({1, 0}, shape({2}), ST::Bool), tensor_of({1, 2}, shape({2}), ST::Float),
                                                     tensor_of({3, 4}, shape({2}), ST::Float));
  EXPECT_EQ(values(w), (std::vector<double>{1, 4}));
  Tensor c = tensor_of({-5, 5}, shape({2}), ST::Long);
  opd::call<ops::clamp::inplace>(c, Scalar(int64_t{-1}), Scalar(int64_t{1}));
  EXPECT_EQ(values(c), (std::vector<double>{-1, 1}));
  EXPECT_EQ(error_of([&] { opd::call<ops::clamp::inplace>(c, Scalar(0.5), std::nullopt); }),
            "aten::clamp_: result type Float can't be cast to the desired output type Long");
  Tensor mf = tensor_of({1, 2}, shape({2}), ST::Float);
  opd::call<ops::masked_fill_scalar_>(mf, tensor_of({0, 1}, shape({2}), ST::Bool), Scalar(7.0));
  EXPECT_EQ(values(mf), (std::vector<double>{1, 7}));
  // Meta tensors: shapes and dtypes, nothing computed.
  const Tensor mt = opd::call<ops::eq::functional>(opd::empty(shape({3, 1}), ST::Float, Device::meta()),
                                                   opd::empty(shape({4}), ST::Int, Device::meta()));
  EXPECT_TRUE(mt.is_meta());
  EXPECT_EQ(mt.sizes(), shape({3, 4}));
  EXPECT_EQ(mt.dtype(), ST::Bool);

  // The overloads whose variants are registered by hand or derived.
  Tensor p = tensor_of({2, 3}, shape({2}), ST::Float);
  opd::call<ops::pow_scalar_>(p, Scalar(int64_t{2}));
  EXPECT_EQ(values(p), (std::vector<double>{4, 9}));
  Tensor po = kernels::empty(shape({0}), ST::Float);
  opd::call<ops::pow_tensor_out>(p, tensor_of({0.5, 0.5}, shape({2}), ST::Float), po);
  EXPECT_EQ(values(po), (std::vector<double>{2, 3}));
  EXPECT_EQ(values(opd::call<ops::pow_scalar_self::functional>(Scalar(int64_t{2}), tensor_of({3}, shape({1}), ST::Long))),
            (std::vector<double>{8}));
  Tensor fd = tensor_of({-7, 7}, shape({2}), ST::Long);
  opd::call<ops::floor_divide_scalar_>(fd, Scalar(int64_t{2}));
  EXPECT_EQ(values(fd), (std::vector<double>{-4, 3}));
  Tensor fo = kernels::empty(shape({0}), ST::Long);
  opd::call<ops::floor_divide_out>(fd, tensor_of({2, 2}, shape({2}), ST::Long), fo);
  EXPECT_EQ(values(fo), (std::vector<double>{-2, 1}));
  Tensor dm = tensor_of({-7, 7}, shape({2}), ST::Float);
  opd::call<ops::div_scalar_mode_>(dm, Scalar(int64_t{2}), std::optional<std::string_view>("trunc"));
  EXPECT_EQ(values(dm), (std::vector<double>{-3, 3}));
  EXPECT_EQ(values(opd::call<ops::div_mode::functional>(tensor_of({-7}, shape({1}), ST::Long), tensor_of({2}, shape({1}), ST::Long),
                                                          std::optional<std::string_view>("floor"))),
            (std::vector<double>{-4}));
  EXPECT_EQ(values(opd::call<ops::remainder_scalar_tensor>(Scalar(int64_t{7}), tensor_of({-2}, shape({1}), ST::Long))),
            (std::vector<double>{-1}));
  Tensor bw = tensor_of({6}, shape({1}), ST::Int);
  opd::call<ops::bitwise_left_shift_scalar::inplace>(bw, Scalar(int64_t{2}));
  EXPECT_EQ(values(bw), (std::vector<double>{24}));
  Tensor ac = tensor_of({1, 1}, shape({2}), ST::Float);
  opd::call<ops::addcmul::inplace>(ac, tensor_of({2, 3}, shape({2}), ST::Float), tensor_of({4, 5}, shape({2}), ST::Float),
                                   opd::arg<"value"> = 2);
  EXPECT_EQ(values(ac), (std::vector<double>{17, 31}));
  Tensor le = tensor_of({0, 0}, shape({2}), ST::Double);
  opd::call<ops::lerp_scalar::inplace>(le, tensor_of({4, 8}, shape({2}), ST::Double), Scalar(0.5));
  EXPECT_EQ(values(le), (std::vector<double>{2, 4}));
}

}  // namespace
}  // namespace opd::kernels::test
