// The pointwise operators (kernels/ops_pointwise.hpp) against libtorch 1.13
// through the differential harness (diff/README.md): every operator and
// variant, over dtypes, the four layouts, broadcasting, 0-size and 0-dim
// tensors and special values (NaN, inf, -0, large); both sides must fail on
// the same inputs. Floats within 4 ULP (the harness's default) unless a case
// says otherwise.
#include <string>
#include <vector>

#include "diff.hpp"

using namespace diff;

namespace {

const int kAll[] = {u8, i8, i16, i32, i64, f16, f32, f64, b8, bf16};
const int kSome[] = {i32, i64, f16, f32, f64, b8, bf16};
// libtorch 1.13's CPU kernels refuse Half for the floating unary ops, the
// rounding ops, relu/gelu/silu/hardswish/softplus, clamp, lerp and atan2
// ("exp_vml_cpu" not implemented for 'Half'); opd computes them in float
// (docs/kernels.md), so Half is left out of those cases.
const int kNoHalf[] = {i32, i64, f32, f64, b8, bf16};
const int kAllNoHalf[] = {u8, i8, i16, i32, i64, f32, f64, b8, bf16};
bool torch_has_half(const std::string& op) {
  for (const char* o : {"floor", "ceil", "round", "trunc", "relu", "silu", "hardswish"}) {
    if (op == o) return false;
  }
  return true;
}
// Float results computed in float but compared in a Double out, and ops
// whose ATen kernels round differently (FMA, vectorized erf in gelu).
constexpr Tolerance kLoose{.ulp = 4, .atol = 1e-6};

const char* const kFloatUnary[] = {"exp",  "exp2", "expm1", "log",  "log2", "log10", "log1p", "sqrt",
                                   "rsqrt", "reciprocal", "sin", "cos", "tan", "asin", "acos", "atan",
                                   "sinh", "cosh", "tanh", "sigmoid", "erf", "erfc"};
const char* const kOtherUnary[] = {"neg",  "abs",   "sign",  "floor", "ceil",        "round",      "trunc",
                                   "frac", "silu", "hardswish", "relu", "bitwise_not", "logical_not", "isnan",
                                   "isinf", "isfinite"};

Fill fill_for(int dtype) { return is_floating(dtype) ? Fill::special : Fill::standard; }

}  // namespace

TEST(PointwiseTorchDiff, FloatUnaryOps) {
  std::vector<Case> cases;
  for (const char* op : kFloatUnary) {
    const std::string name = std::string("aten::") + op;
    for (int dtype : kNoHalf) {
      for (Layout layout : all_layouts) cases.push_back({name, "", {T(dtype, {3, 5}, layout, fill_for(dtype))}});
    }
    cases.push_back({name, "", {T(f32, {67}, Layout::contiguous, Fill::special, 3)}});  // vector rows and a tail
    cases.push_back({name, "", {T(f64, {0, 3})}});
    cases.push_back({name, "", {T(f32, {})}});
    cases.push_back({name + "_", "", {T(f32, {4, 3}, Layout::transposed, Fill::special)}});
    cases.push_back({name + "_", "", {T(i64, {3})}});  // Float result into Long self: both throw
    cases.push_back({name, "out", {T(f64, {2, 3}, Layout::sliced), T(f64, {0})}});
    cases.push_back({name, "out", {T(i32, {4}), T(f64, {4})}, kLoose});
  }
  check_all(cases);
}

TEST(PointwiseTorchDiff, OtherUnaryOps) {
  std::vector<Case> cases;
  for (const char* op : kOtherUnary) {
    const std::string name = std::string("aten::") + op;
    const bool functional_only = std::string(op).rfind("is", 0) == 0;
    for (int dtype : kAll) {
      if (dtype == f16 && !torch_has_half(op)) continue;
      for (Layout layout : all_layouts) cases.push_back({name, "", {T(dtype, {4, 3}, layout, fill_for(dtype))}});
      if (!functional_only) cases.push_back({name + "_", "", {T(dtype, {5}, Layout::contiguous, fill_for(dtype), 4)}});
    }
    // 35 elements: the vector rows (16 or more, unary_simd.hpp) and their tail.
    for (int dtype : {f32, f64}) {
      cases.push_back({name, "", {T(dtype, {5, 7}, Layout::contiguous, Fill::special, 11)}});
      if (!functional_only) cases.push_back({name + "_", "", {T(dtype, {35}, Layout::contiguous, Fill::special, 12)}});
    }
    cases.push_back({name, "", {T(f32, {})}});
    cases.push_back({name, "", {T(i16, {0})}});
    // (An out of another dtype: 1.13 refuses it for these non-promoting ops,
    // "Found dtype Double but expected Float"; opd casts, as for add.out.)
    if (!functional_only && std::string(op) != "relu") cases.push_back({name, "out", {T(f32, {3, 2}), T(f32, {1})}});
  }
  for (int dtype : kAllNoHalf) {
    for (const char* approximate : {"none", "tanh"}) {
      // bfloat16: 1.13 rounds its intermediate results to bfloat16.
      const Tolerance tol = dtype == bf16 ? Tolerance{.ulp = 4, .atol = 2e-3} : kLoose;
      cases.push_back({"aten::gelu", "", {T(dtype, {3, 4}, Layout::transposed, fill_for(dtype)), S(approximate)}, tol});
    }
    cases.push_back({"aten::softplus", "", {T(dtype, {6}, Layout::sliced, fill_for(dtype)), I(1), I(20)}});
    cases.push_back({"aten::nan_to_num", "", {T(dtype, {8}, Layout::contiguous, fill_for(dtype)), None(), None(), None()}});
    cases.push_back({"aten::nan_to_num_", "", {T(dtype, {8}, Layout::contiguous, fill_for(dtype)), D(1), D(2), D(-3)}});
  }
  cases.push_back({"aten::gelu", "", {T(f32, {3}), S("erf")}});  // both throw
  cases.push_back({"aten::gelu_", "", {T(f64, {3}), S("tanh")}});
  cases.push_back({"aten::gelu", "out", {T(f32, {3}), S("none"), T(f32, {0})}, kLoose});
  cases.push_back({"aten::softplus", "", {T(f64, {9}, Layout::contiguous, Fill::standard), D(2.0), D(1.5)}});
  cases.push_back({"aten::softplus", "out", {T(f32, {5}), I(1), I(20), T(f32, {5})}});
  cases.push_back({"aten::nan_to_num", "out", {T(f16, {8}, Layout::contiguous, Fill::special), None(), D(5), None(), T(f16, {0})}});
  check_all(cases);
}

TEST(PointwiseTorchDiff, ComparisonsLogicalMaxMin) {
  std::vector<Case> cases;
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    const std::string name = std::string("aten::") + op;
    for (int a : {i32, f32, f64, b8, u8, bf16}) {
      for (int b : {i64, f16, f32, b8}) {
        cases.push_back({name, "Tensor", {T(a, {2, 3}, Layout::transposed, fill_for(a)), T(b, {3}, Layout::contiguous, Fill::small, 2)}});
      }
      cases.push_back({name, "Scalar", {T(a, {4}, Layout::sliced, fill_for(a)), D(0.5)}});
      cases.push_back({name, "Scalar", {T(a, {4}), I(1)}});
    }
    cases.push_back({name + "_", "Tensor", {T(f32, {2, 3}), T(f64, {3})}});
    cases.push_back({name + "_", "Scalar", {T(i64, {5}), I(0)}});
    cases.push_back({name, "Tensor_out", {T(f32, {2, 3}), T(f32, {1, 3}), T(f32, {0})}});
    cases.push_back({name, "Scalar_out", {T(i32, {3}), D(0.5), T(b8, {3})}});
    cases.push_back({name, "Tensor", {T(f32, {2, 3}), T(f32, {4})}});  // both throw
  }
  for (const char* op : {"logical_and", "logical_or", "logical_xor", "maximum", "minimum"}) {
    const std::string name = std::string("aten::") + op;
    for (int a : kSome) {
      for (Layout layout : all_layouts) {
        cases.push_back({name, "", {T(a, {3, 4}, layout, fill_for(a)), T(f32, {4}, Layout::contiguous, Fill::special, 5)}});
      }
      cases.push_back({name, "", {T(a, {3}), T(a, {2, 1}, Layout::contiguous, fill_for(a), 6)}});
    }
    cases.push_back({name, "out", {T(i64, {3}), T(i64, {3}, Layout::contiguous, Fill::standard, 2), T(i64, {0})}});
  }
  for (const char* op : {"logical_and_", "logical_or_", "logical_xor_"}) {
    cases.push_back({std::string("aten::") + op, "", {T(f32, {4}), T(i32, {4})}});
  }
  check_all(cases);
}

TEST(PointwiseTorchDiff, ArithmeticBinaryOps) {
  std::vector<Case> cases;
  // 35 elements: true division's vector row (arith_simd.hpp) and its tail,
  // both inputs rows, one a 0-dim value, and in place.
  for (int dtype : {f32, f64}) {
    const Value x = T(dtype, {5, 7}, Layout::contiguous, Fill::special, 16);
    const Value y = T(dtype, {5, 7}, Layout::contiguous, Fill::special, 17);
    cases.push_back({"aten::div", "Tensor", {x, y}});
    cases.push_back({"aten::div", "Tensor", {x, T(dtype, {}, Layout::contiguous, Fill::standard, 18)}});
    cases.push_back({"aten::div", "Tensor", {T(dtype, {}, Layout::contiguous, Fill::standard, 19), y}});
    cases.push_back({"aten::div_", "Tensor", {T(dtype, {35}, Layout::contiguous, Fill::special, 20),
                                              T(dtype, {35}, Layout::contiguous, Fill::special, 21)}});
  }
  for (int a : kAll) {
    for (Layout layout : all_layouts) {
      const Value x = T(a, {3, 4}, layout, fill_for(a));
      const Value y = T(a, {4}, Layout::contiguous, Fill::positive, 2);
      cases.push_back({"aten::pow", "Tensor_Tensor", {x, T(a, {4}, Layout::contiguous, Fill::small, 2)}});
      cases.push_back({"aten::remainder", "Tensor", {x, y}});
      cases.push_back({"aten::fmod", "Tensor", {x, y}});
      cases.push_back({"aten::floor_divide", "", {x, y}});
      if (a != f16) cases.push_back({"aten::atan2", "", {x, y}});
      cases.push_back({"aten::div", "Tensor_mode", {x, y, S("trunc")}});
      cases.push_back({"aten::div", "Tensor_mode", {x, y, S("floor")}});
      cases.push_back({"aten::div", "Tensor_mode", {x, y, None()}});
      cases.push_back({"aten::bitwise_and", "Tensor", {x, y}});
      cases.push_back({"aten::bitwise_or", "Tensor", {x, y}});
      cases.push_back({"aten::bitwise_xor", "Tensor", {x, y}});
      cases.push_back({"aten::bitwise_left_shift", "Tensor", {x, T(a, {4}, Layout::contiguous, Fill::small, 3)}});
      cases.push_back({"aten::bitwise_right_shift", "Tensor", {x, T(a, {4}, Layout::contiguous, Fill::small, 3)}});
    }
    const Value v = T(a, {5}, Layout::contiguous, fill_for(a), 7);
    for (const Value& s : {I(3), I(-2), D(0.5), B(true)}) {
      cases.push_back({"aten::pow", "Tensor_Scalar", {v, s}});
      cases.push_back({"aten::pow", "Scalar", {s, v}});
      cases.push_back({"aten::remainder", "Scalar", {v, s}});
      cases.push_back({"aten::remainder", "Scalar_Tensor", {s, T(a, {5}, Layout::contiguous, Fill::positive)}});
      cases.push_back({"aten::fmod", "Scalar", {v, s}});
      cases.push_back({"aten::floor_divide", "Scalar", {v, s}});
      cases.push_back({"aten::div", "Scalar_mode", {v, s, S("floor")}});
      cases.push_back({"aten::bitwise_and", "Scalar", {v, s}});
      cases.push_back({"aten::bitwise_xor", "Scalar_Tensor", {s, v}});
      cases.push_back({"aten::bitwise_left_shift", "Tensor_Scalar", {v, s}});
      cases.push_back({"aten::bitwise_right_shift", "Scalar_Tensor", {s, v}});
    }
  }
  // Integer division by zero (standard fills hold zeros): both throw.
  cases.push_back({"aten::remainder", "Tensor", {T(i32, {9}), T(i32, {9}, Layout::contiguous, Fill::standard, 9)}});
  cases.push_back({"aten::floor_divide", "Scalar", {T(i64, {3}), I(0)}});
  // In-place and out= variants.
  cases.push_back({"aten::pow_", "Tensor", {T(f32, {3}), T(f32, {3}, Layout::contiguous, Fill::small)}});
  cases.push_back({"aten::pow_", "Scalar", {T(i64, {3}), I(2)}});
  cases.push_back({"aten::pow", "Tensor_Tensor_out", {T(f64, {3}), T(f64, {3}), T(f64, {0})}});
  cases.push_back({"aten::pow", "Tensor_Scalar_out", {T(f32, {3}), D(1.5), T(f32, {0})}});
  cases.push_back({"aten::pow", "Scalar_out", {D(2.0), T(f32, {3}), T(f32, {0})}});
  cases.push_back({"aten::remainder_", "Tensor", {T(f32, {3}), T(f32, {3}, Layout::contiguous, Fill::positive)}});
  cases.push_back({"aten::fmod", "Tensor_out", {T(i64, {3}), T(i64, {3}, Layout::contiguous, Fill::positive), T(i64, {0})}});
  cases.push_back({"aten::floor_divide_", "Tensor", {T(f32, {3}), T(f32, {3}, Layout::contiguous, Fill::positive)}});
  cases.push_back({"aten::floor_divide", "out", {T(i32, {3}), T(i32, {3}, Layout::contiguous, Fill::positive), T(i32, {0})}});
  cases.push_back({"aten::floor_divide_", "Scalar", {T(i32, {3}), I(2)}});
  cases.push_back({"aten::div_", "Tensor_mode", {T(f32, {3}), T(f32, {3}, Layout::contiguous, Fill::positive), S("trunc")}});
  cases.push_back({"aten::div", "out_mode", {T(i64, {3}), T(i64, {3}, Layout::contiguous, Fill::positive), S("floor"), T(i64, {0})}});
  cases.push_back({"aten::div_", "Scalar_mode", {T(i64, {3}), I(2), S("trunc")}});
  cases.push_back({"aten::div", "Tensor_mode", {T(f32, {3}), T(f32, {3}), S("round")}});  // both throw
  cases.push_back({"aten::atan2_", "", {T(f64, {3}), T(f64, {3})}});
  cases.push_back({"aten::atan2", "out", {T(f32, {3}), T(f32, {3}), T(f32, {0})}});
  cases.push_back({"aten::bitwise_or_", "Tensor", {T(u8, {3}), T(u8, {3})}});
  cases.push_back({"aten::bitwise_or", "Tensor_out", {T(b8, {3}), T(b8, {3}), T(b8, {0})}});
  cases.push_back({"aten::bitwise_xor_", "Scalar", {T(i16, {3}), I(5)}});
  cases.push_back({"aten::bitwise_and", "Scalar_out", {T(i16, {3}), I(5), T(i16, {0})}});
  cases.push_back({"aten::bitwise_left_shift_", "Tensor", {T(i32, {3}), T(i32, {3}, Layout::contiguous, Fill::small)}});
  cases.push_back({"aten::bitwise_right_shift", "Tensor_Scalar_out", {T(i8, {3}), I(2), T(i8, {0})}});
  check_all(cases);
}

TEST(PointwiseTorchDiff, TernaryOps) {
  std::vector<Case> cases;
  for (int a : kNoHalf) {
    for (Layout layout : all_layouts) {
      const Value x = T(a, {3, 4}, layout, fill_for(a));
      cases.push_back({"aten::where", "self", {T(b8, {4}, Layout::contiguous, Fill::standard, 3), x, T(f32, {3, 1})}});
      cases.push_back({"aten::clamp", "", {x, D(-0.5), D(1.5)}});
      cases.push_back({"aten::clamp", "", {x, I(-1), None()}});
      cases.push_back({"aten::clamp", "", {x, None(), I(2)}});
      cases.push_back({"aten::clamp", "Tensor", {x, T(a, {4}, Layout::contiguous, fill_for(a), 4), T(a, {3, 1}, Layout::contiguous, Fill::positive, 5)}});
      cases.push_back({"aten::clamp", "Tensor", {x, None(), T(f64, {4}, Layout::contiguous, Fill::special, 6)}});
      cases.push_back({"aten::masked_fill", "Scalar", {x, T(b8, {4}, Layout::contiguous, Fill::standard, 7), D(2.5)}});
      cases.push_back({"aten::masked_fill", "Tensor", {x, T(b8, {3, 1}, Layout::contiguous, Fill::standard, 8), T(i64, {})}});
      cases.push_back({"aten::lerp", "Scalar", {x, T(a, {4}, Layout::contiguous, fill_for(a), 9), D(0.3)}, kLoose});
      cases.push_back({"aten::lerp", "Tensor", {x, T(a, {3, 4}, Layout::contiguous, fill_for(a), 9), T(a, {4}, Layout::contiguous, Fill::standard, 2)}, kLoose});
      cases.push_back({"aten::addcmul", "", {x, T(a, {4}, Layout::contiguous, fill_for(a), 2), T(f32, {3, 1}), I(2)}, kLoose});
      cases.push_back({"aten::addcdiv", "", {x, T(a, {4}, Layout::contiguous, fill_for(a), 2), T(f32, {3, 1}, Layout::contiguous, Fill::positive), D(0.5)}, kLoose});
    }
  }
  // 35 elements: clamp's and hardtanh's vector rows (unary_simd.hpp) and their tail.
  for (int dtype : {f32, f64}) {
    const Value x = T(dtype, {5, 7}, Layout::contiguous, Fill::special, 13);
    cases.push_back({"aten::clamp", "", {x, D(-0.5), D(1.5)}});
    cases.push_back({"aten::clamp", "", {x, D(1.5), D(-0.5)}});
    cases.push_back({"aten::clamp", "", {x, I(-1), None()}});
    cases.push_back({"aten::clamp", "", {x, None(), I(2)}});
    cases.push_back({"aten::clamp_", "", {T(dtype, {35}, Layout::contiguous, Fill::special, 14), D(-1), D(1)}});
    cases.push_back({"aten::hardtanh", "", {x, D(0), D(6)}});
    cases.push_back({"aten::hardtanh_", "", {T(dtype, {35}, Layout::contiguous, Fill::special, 15), D(-1), D(1)}});
    // lerp's two formulas (weight below and from 0.5), chosen once for a Scalar weight.
    const Value end = T(dtype, {5, 7}, Layout::contiguous, Fill::standard, 23);
    for (double w : {0.3, 0.5, 0.7, -1.5, 2.0}) cases.push_back({"aten::lerp", "Scalar", {x, end, D(w)}, kLoose});
    cases.push_back({"aten::lerp", "Tensor", {x, end, T(dtype, {5, 7}, Layout::contiguous, Fill::standard, 24)}, kLoose});
  }
  // where's select rows (ternary_loops-inl.hpp): a Bool row, rows of out's
  // dtype and sizes or 0-dim values, every dtype; masked_fill writes in place.
  for (int a : kNoHalf) {
    const Value mask = T(b8, {5, 7}, Layout::contiguous, Fill::standard, 16);
    const Value x = T(a, {5, 7}, Layout::contiguous, fill_for(a), 17);
    const Value y = T(a, {5, 7}, Layout::contiguous, fill_for(a), 18);
    cases.push_back({"aten::where", "self", {mask, x, y}});
    cases.push_back({"aten::where", "self", {mask, T(a, {}, Layout::contiguous, fill_for(a), 19), y}});
    cases.push_back({"aten::where", "self", {mask, x, T(a, {}, Layout::contiguous, fill_for(a), 20)}});
    cases.push_back({"aten::where", "self", {mask, T(a, {}, Layout::contiguous, fill_for(a), 21),
                                             T(a, {}, Layout::contiguous, fill_for(a), 22)}});
    cases.push_back({"aten::masked_fill", "Scalar", {x, mask, I(3)}});
  }
  cases.push_back({"aten::where", "self", {T(f32, {3}), T(f32, {3}), T(f32, {3})}});  // both throw
  cases.push_back({"aten::where", "self_out", {T(b8, {2, 3}), T(i32, {3}), T(i64, {2, 1}), T(i64, {0})}});
  cases.push_back({"aten::clamp", "", {T(f32, {3}), None(), None()}});  // both throw
  cases.push_back({"aten::clamp_", "", {T(i64, {5}), I(-2), I(2)}});
  cases.push_back({"aten::clamp_", "", {T(i64, {5}), D(0.5), None()}});  // both throw
  cases.push_back({"aten::clamp", "out", {T(f32, {5}), D(0.0), D(1.0), T(f32, {0})}});
  cases.push_back({"aten::clamp_", "Tensor", {T(f32, {2, 3}), T(f32, {3}), None()}});
  cases.push_back({"aten::clamp", "Tensor_out", {T(f64, {3}), None(), T(f64, {3}), T(f64, {0})}});
  cases.push_back({"aten::clamp", "", {T(i8, {3}), I(1000), None()}});  // both throw: overflow
  cases.push_back({"aten::masked_fill_", "Scalar", {T(f32, {2, 3}, Layout::transposed), T(b8, {3}), I(7)}});
  cases.push_back({"aten::masked_fill_", "Scalar", {T(u8, {3}), T(b8, {3}), I(300)}});  // both throw: overflow
  cases.push_back({"aten::masked_fill_", "Tensor", {T(f64, {3}), T(b8, {3}), T(f32, {2})}});  // both throw: not 0-dim
  cases.push_back({"aten::masked_fill_", "Scalar", {T(f32, {3}), T(u8, {3}), D(1.5)}});  // uint8 mask (deprecated)
  cases.push_back({"aten::lerp_", "Scalar", {T(f32, {3}), T(f32, {3}), D(0.75)}});
  cases.push_back({"aten::lerp", "Tensor_out", {T(f64, {3}), T(f64, {3}), T(f64, {3}), T(f64, {0})}});
  cases.push_back({"aten::lerp", "Scalar", {T(f32, {3}), T(f64, {3}), D(0.5)}});  // both throw: dtypes differ
  cases.push_back({"aten::addcmul_", "", {T(f32, {3}), T(f32, {3}), T(f32, {3}), D(-1.5)}});
  cases.push_back({"aten::addcdiv", "out", {T(f64, {3}), T(f64, {3}), T(f64, {3}, Layout::contiguous, Fill::positive), I(1), T(f64, {0})}});
  cases.push_back({"aten::addcdiv", "", {T(f32, {3}), T(i64, {3}), T(i64, {3}), I(1)}});  // both throw
  check_all(cases);
}

// The overloads the tables above do not reach (found with diff/coverage.py):
// out= roots and Scalar-first forms, one computed case each, plus a case each
// for two overloads whose only cases were refused by both sides.
TEST(PointwiseTorchDiff, RemainingOutAndScalarFirstOverloads) {
  const Value a = T(i32, {2, 3}, Layout::transposed);
  const Value b = T(i32, {3}, Layout::contiguous, Fill::standard, 4);
  const Value shift = T(i32, {3}, Layout::contiguous, Fill::positive, 5);
  const Value positive = T(f32, {2, 3}, Layout::contiguous, Fill::positive, 6);
  check_all({
      {"aten::bitwise_and", "Tensor_out", {a, b, T(i32, {0})}},
      {"aten::bitwise_xor", "Tensor_out", {a, b, T(i32, {2, 3})}},
      {"aten::bitwise_or", "Scalar_out", {a, I(6), T(i32, {0})}},
      {"aten::bitwise_xor", "Scalar_out", {T(b8, {4}), B(true), T(b8, {0})}},
      {"aten::bitwise_and", "Scalar_Tensor", {I(5), b}},
      {"aten::bitwise_or", "Scalar_Tensor", {I(9), a}},
      {"aten::bitwise_left_shift", "Tensor_out", {a, shift, T(i32, {0})}},
      {"aten::bitwise_right_shift", "Tensor_out", {a, shift, T(i32, {0})}},
      {"aten::bitwise_left_shift", "Tensor_Scalar_out", {T(i64, {4}), I(3), T(i64, {0})}},
      {"aten::bitwise_left_shift", "Scalar_Tensor", {I(3), shift}},
      {"aten::bitwise_not", "out", {a, T(i32, {0})}},
      {"aten::remainder", "Tensor_out", {T(f32, {2, 3}), positive, T(f32, {0})}},
      {"aten::remainder", "Scalar_out", {T(i64, {5}), I(-3), T(i64, {0})}},
      {"aten::fmod", "Scalar_out", {T(f64, {5}, Layout::sliced), D(1.5), T(f64, {0})}},
      {"aten::lerp", "Scalar_out", {T(f32, {4}), T(f32, {4}, Layout::contiguous, Fill::standard, 2), D(0.25), T(f32, {0})}, {.ulp = 8}},
      {"aten::addcmul", "out", {T(f64, {3}), T(f64, {2, 3}), T(f64, {3}), D(0.5), T(f64, {0})}},
      {"aten::masked_fill_", "Tensor", {T(f32, {2, 3}), T(b8, {3}), T(f64, {})}},
  });
}
