// The reductions, softmax / log_softmax and layer_norm (kernels/ops_reductions.hpp)
// against libtorch 1.13 through the differential harness (diff/README.md):
// every operator and overload, every dtype it accepts (and some it refuses:
// both sides must throw), the four layouts, 0-dim and 0-size inputs,
// special values (NaN, inf) and out= variants with outs to resize.
#include <cmath>
#include <vector>

#include "diff.hpp"

using namespace diff;

namespace {

const int every_dtype[] = {u8, i8, i16, i32, i64, f16, f32, f64, b8, bf16};
// Sums of values in [-3, 3] cancel: a different (valid) summation order than
// ATen's vector lanes moves the last bits of a small result, so an absolute
// bound next to the ulps for the ops that sum floats.
constexpr Tolerance summed{.ulp = 4, .atol = 1e-5};

// Input tensors of one dtype: every layout of a [3, 5] (NaN/inf for floats in
// the "special" ones), a [2, 3, 4], a 0-dim and a [0, 4].
std::vector<Value> inputs(int dtype) {
  std::vector<Value> r;
  for (Layout layout : all_layouts) r.push_back(T(dtype, {3, 5}, layout));
  r.push_back(T(dtype, {3, 5}, Layout::sliced, Fill::special, 5));
  r.push_back(T(dtype, {2, 3, 4}, Layout::transposed, Fill::standard, 3));
  r.push_back(T(dtype, {}, Layout::contiguous, Fill::standard, 4));
  r.push_back(T(dtype, {0, 4}));
  return r;
}

}  // namespace

TEST(ReductionsTorchDiff, SumMeanProd) {
  std::vector<Case> cases;
  for (int dtype : every_dtype) {
    for (const Value& x : inputs(dtype)) {
      cases.push_back({"aten::sum", "", {x, None()}, summed});
      cases.push_back({"aten::sum", "", {x, ScalarT(f64)}, summed});
      cases.push_back({"aten::sum", "dim_IntList", {x, L({-1}), B(false), None()}});
      cases.push_back({"aten::sum", "dim_IntList", {x, L({0}), B(true), None()}});
      cases.push_back({"aten::sum", "dim_IntList", {x, None(), B(false), None()}, summed});
      cases.push_back({"aten::sum", "IntList_out", {x, L({0}), B(false), None(), T(i64, {0})}});
      cases.push_back({"aten::mean", "", {x, None()}, summed});
      cases.push_back({"aten::mean", "dim", {x, L({-1}), B(true), None()}});
      cases.push_back({"aten::mean", "dim", {x, L({0}), B(false), ScalarT(f64)}});
      cases.push_back({"aten::mean", "out", {x, L({0}), B(false), None(), T(dtype, {0})}});
      cases.push_back({"aten::prod", "", {x, None()}});
      cases.push_back({"aten::prod", "dim_int", {x, I(-1), B(false), None()}});
      cases.push_back({"aten::prod", "int_out", {x, I(0), B(true), None(), T(f64, {0})}});
    }
  }
  check_all(cases);
  // Long rows: the vector bodies and the pairwise order.
  for (int dtype : {f32, f64})
    check({"aten::sum", "dim_IntList", {T(dtype, {3, 1001}), L({1}), B(false), None()}, {.ulp = 8}});
  check({"aten::sum", "", {T(f32, {300000}, Layout::contiguous, Fill::positive), None()}, {.ulp = 16}});
  check({"aten::sum", "dim_IntList", {T(f32, {2, 3}), L({0, 0}), B(false), None()}});  // both throw
  check({"aten::sum", "dim_IntList", {T(f32, {2, 3}), L({2}), B(false), None()}});     // both throw
}

TEST(ReductionsTorchDiff, ExtremesAndIndices) {
  std::vector<Case> cases;
  for (int dtype : every_dtype) {
    for (const Value& x : inputs(dtype)) {
      cases.push_back({"aten::amax", "", {x, L({-1}), B(false)}});
      cases.push_back({"aten::amin", "", {x, L({}), B(true)}});
      cases.push_back({"aten::amax", "out", {x, L({0}), B(false), T(dtype, {0})}});
      cases.push_back({"aten::amin", "out", {x, L({0}), B(true), T(dtype, {0})}});
      cases.push_back({"aten::max", "", {x}});
      cases.push_back({"aten::min", "", {x}});
      cases.push_back({"aten::max", "dim", {x, I(-1), B(false)}});
      cases.push_back({"aten::min", "dim", {x, I(0), B(true)}});
      cases.push_back({"aten::max", "dim_max", {x, I(0), B(false), T(dtype, {0}), T(i64, {0})}});
      cases.push_back({"aten::min", "dim_min", {x, I(-1), B(true), T(dtype, {0}), T(i64, {0})}});
      cases.push_back({"aten::argmax", "", {x, None(), B(false)}});
      cases.push_back({"aten::argmin", "", {x, I(-1), B(true)}});
      cases.push_back({"aten::argmax", "out", {x, I(0), B(false), T(i64, {0})}});
      cases.push_back({"aten::argmin", "out", {x, None(), B(false), T(i64, {0})}});
    }
  }
  check_all(cases);
  for (int dtype : {f32, f64}) {
    check({"aten::amax", "", {T(dtype, {2, 1003}, Layout::contiguous, Fill::special, 9), L({1}), B(false)}});
    check({"aten::amin", "", {T(dtype, {4, 257}), L({1}), B(false)}});
  }
}

TEST(ReductionsTorchDiff, VarStdNormLogsumexp) {
  std::vector<Case> cases;
  for (int dtype : every_dtype) {
    // Integral inputs: each overload once (most throw on both sides).
    const bool is_float = dtype == f16 || dtype == f32 || dtype == f64 || dtype == bf16;
    std::vector<Value> xs = inputs(dtype);
    if (!is_float) xs = {T(dtype, {3, 5}, Layout::transposed)};
    for (const Value& x : xs) {
      for (const char* op : {"aten::var", "aten::std"}) {
        cases.push_back({op, "", {x, B(true)}});
        cases.push_back({op, "dim", {x, L({-1}), B(false), B(true)}});
        cases.push_back({op, "out", {x, L({0}), B(true), B(false), T(dtype, {0})}});
        cases.push_back({op, "correction", {x, L({0}), I(2), B(false)}});
        cases.push_back({op, "correction", {x, None(), None(), B(true)}});
        cases.push_back({op, "correction_out", {x, L({-1}), I(0), B(false), T(dtype, {0})}});
      }
      cases.push_back({"aten::norm", "Scalar", {x, I(2)}});
      cases.push_back({"aten::norm", "Scalar", {x, I(1)}});
      cases.push_back({"aten::norm", "ScalarOpt_dtype", {x, None(), ScalarT(f64)}});
      cases.push_back({"aten::norm", "ScalarOpt_dim", {x, D(INFINITY), L({-1}), B(false)}});
      cases.push_back({"aten::norm", "ScalarOpt_dim", {x, I(0), L({0}), B(true)}});
      cases.push_back({"aten::norm", "ScalarOpt_dim", {x, D(3.0), L({-1}), B(false)}});
      cases.push_back({"aten::norm", "out", {x, I(2), L({0}), B(false), T(dtype, {0})}});
      cases.push_back({"aten::norm", "ScalarOpt_dim_dtype", {x, I(1), L({-1}), B(true), ScalarT(f64)}});
      cases.push_back({"aten::norm", "dtype_out", {x, I(2), L({-1}), B(false), ScalarT(f64), T(f64, {0})}});
      cases.push_back({"aten::logsumexp", "", {x, L({-1}), B(false)}});
      cases.push_back({"aten::logsumexp", "out", {x, L({0}), B(true), T(f32, {0})}, summed});
    }
  }
  check_all(cases);
}

TEST(ReductionsTorchDiff, LogicalCountsAndScans) {
  std::vector<Case> cases;
  for (int dtype : every_dtype) {
    for (const Value& x : inputs(dtype)) {
      for (const char* op : {"aten::all", "aten::any"}) {
        cases.push_back({op, "", {x}});
        cases.push_back({op, "all_out", {x, T(b8, {0})}});
        cases.push_back({op, "dim", {x, I(-1), B(false)}});
        cases.push_back({op, "out", {x, I(0), B(true), T(b8, {0})}});
      }
      cases.push_back({"aten::count_nonzero", "", {x, None()}});
      cases.push_back({"aten::count_nonzero", "", {x, I(-1)}});
      cases.push_back({"aten::count_nonzero", "dim_IntList", {x, L({0})}});
      for (const char* op : {"aten::cumsum", "aten::cumprod"}) {
        cases.push_back({op, "", {x, I(-1), None()}});
        cases.push_back({op, "", {x, I(0), ScalarT(f64)}});
        cases.push_back({op, "out", {x, I(0), None(), T(dtype == b8 ? i64 : dtype, {0})}});
      }
    }
  }
  check_all(cases);
}

TEST(ReductionsTorchDiff, SoftmaxAndLayerNorm) {
  std::vector<Case> cases;
  for (int dtype : every_dtype) {
    for (const Value& x : inputs(dtype)) {
      // ATen rounds BFloat16 softmax intermediates (the sum's partials, the
      // log) to BFloat16; here only x - max and log(sum) are (log_softmax):
      // BFloat16 results up to 16 ulps apart (12 seen, last-dim log_softmax).
      const Tolerance tol{.ulp = dtype == bf16 ? 16 : 4};
      // Half: opd computes it (in float, rounded once), libtorch 1.13 refuses
      // it on CPU: compared with libtorch's Float result rounded to Half.
      const bool in_float = dtype == f16;
      for (const char* op : {"aten::softmax", "aten::log_softmax"}) {
        cases.push_back({op, "int", {x, I(-1), None()}, tol, in_float});
        cases.push_back({op, "int", {x, I(0), ScalarT(f64)}});
        cases.push_back({op, "int_out", {x, I(0), None(), T(dtype, {0})}, tol, in_float});
      }
      for (const char* op : {"aten::_softmax", "aten::_log_softmax"}) {
        cases.push_back({op, "", {x, I(-1), B(false)}, tol, in_float});
        cases.push_back({op, "out", {x, I(0), B(false), T(dtype, {0})}, tol, in_float});
      }
    }
  }
  for (int dtype : {f32, f64}) {
    // layer_norm's (x - mean) * rstd cancels: statistics that differ in their
    // last bit (ATen: Welford-like moments; here pairwise sums in double) move
    // small outputs by many ulps, so an absolute bound per dtype.
    const Tolerance ln{.ulp = 16, .atol = dtype == f32 ? 1e-6 : 1e-13};
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::softmax", "int", {T(dtype, {4, 67}, layout), I(-1), None()}});
      cases.push_back({"aten::log_softmax", "int", {T(dtype, {4, 67}, layout), I(0), None()}});
      const Value x = T(dtype, {2, 3, 4}, layout);
      cases.push_back({"aten::native_layer_norm", "", {x, L({4}), T(dtype, {4}, Layout::contiguous, Fill::standard, 2),
                                                      T(dtype, {4}, Layout::contiguous, Fill::standard, 3), D(1e-5)},
                       ln});
      cases.push_back({"aten::native_layer_norm", "", {x, L({3, 4}), None(), None(), D(1e-5)}, ln});
      cases.push_back({"aten::layer_norm", "", {x, L({4}), None(), T(dtype, {4}), D(1e-3), B(true)}, ln});
      cases.push_back({"aten::layer_norm", "", {x, L({3}), None(), None(), D(1e-5), B(true)}});  // both throw
    }
  }
  // Half (refused by both), BFloat16 (computed in float: within 4 BFloat16 ulps), integers (refused).
  for (int dtype : {f16, bf16, i64})
    cases.push_back({"aten::native_layer_norm", "", {T(dtype, {3, 8}), L({8}), None(), None(), D(1e-5)}, {.ulp = 4}});
  check_all(cases);
}
