// Complex dtypes (complex64, complex128; complex32's conversions) against libtorch 1.13 through the
// differential harness (diff/README.md): the conversions (copy_, _to_copy,
// fill_, the factories) between every dtype pair, the arithmetic add / sub /
// mul / div with type promotion between complex and real operands, complex
// Scalars, and the operators PyTorch refuses on complex (both sides must
// throw). Complex results are compared part by part (real, imaginary) as
// floats of the part's dtype.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "diff.hpp"

using namespace diff;

namespace {

const int kReal[] = {u8, i8, i16, i32, i64, f16, f32, f64, b8, bf16};
const int kComplex[] = {c64, c128};

// An int64 index tensor holding `values`.
RawTensor index_tensor(const std::vector<int64_t>& values) {
  RawTensor t;
  t.dtype = i64;
  t.sizes = {static_cast<int64_t>(values.size())};
  t.strides = {1};
  t.storage.resize(values.size() * sizeof(int64_t));
  std::memcpy(t.storage.data(), values.data(), t.storage.size());
  return t;
}

Fill fill_for(int dtype) { return is_floating(dtype) || is_complex(dtype) ? Fill::special : Fill::standard; }

}  // namespace

// copy_ between a complex dtype and every dtype, both directions, on every
// layout (complex -> real takes the real part; real -> complex has a zero
// imaginary part), with broadcasting.
TEST(ComplexTorchDiff, CopyBetweenAllDtypes) {
  std::vector<Case> cases;
  std::vector<int> all(std::begin(kReal), std::end(kReal));
  all.insert(all.end(), std::begin(kComplex), std::end(kComplex));
  for (int c : kComplex) {
    for (int other : all) {
      for (Layout layout : all_layouts) {
        // (special values into integers: out-of-range conversions, the same on both sides)
        cases.push_back({"aten::copy_", "", {T(other, {3, 4}), T(c, {3, 4}, layout, Fill::standard), B(false)}});
        cases.push_back({"aten::copy_", "", {T(c, {3, 4}, layout), T(other, {3, 4}, Layout::contiguous, fill_for(other)), B(false)}});
      }
      if (is_floating(other) || is_complex(other)) {
        cases.push_back({"aten::copy_", "", {T(other, {5}), T(c, {5}, Layout::contiguous, Fill::special), B(false)}});
      }
      cases.push_back({"aten::copy_", "", {T(c, {2, 3}), T(other, {3}), B(false)}});  // broadcast
    }
    cases.push_back({"aten::copy_", "", {T(c, {70}, Layout::contiguous), T(f32, {70}, Layout::sliced), B(false)}});
  }
  check_all(cases);
}

TEST(ComplexTorchDiff, ToCopyAndFactories) {
  std::vector<Case> cases;
  for (int c : kComplex) {
    for (int to : {u8, i64, f16, f32, f64, b8, bf16, c64, c128}) {
      cases.push_back({"aten::_to_copy", "", {T(c, {2, 3}, Layout::transposed), ScalarT(to), None(), None(), None(), B(false), None()}});
      cases.push_back({"aten::_to_copy", "", {T(to, {2, 3}, Layout::sliced, fill_for(to)), ScalarT(c), None(), None(), None(), B(false), None()}});
    }
    cases.push_back({"aten::zeros", "", {L({2, 3}), ScalarT(c), None(), None(), None()}});
    cases.push_back({"aten::ones", "", {L({4}), ScalarT(c), None(), None(), None()}});
    cases.push_back({"aten::full", "", {L({2, 2}), C(1.5, -2.0), ScalarT(c), None(), None(), None()}});
    cases.push_back({"aten::full", "", {L({3}), D(0.25), ScalarT(c), None(), None(), None()}});
    cases.push_back({"aten::full", "", {L({3}), I(7), ScalarT(c), None(), None(), None()}});
    cases.push_back({"aten::fill_", "Scalar", {T(c, {2, 3}, Layout::transposed), C(-1.0, 0.5)}});
    cases.push_back({"aten::fill_", "Scalar", {T(c, {4}), D(3.25)}});
    cases.push_back({"aten::fill_", "Scalar", {T(c, {4}), B(true)}});
    cases.push_back({"aten::fill_", "Tensor", {T(c, {4}), T(c, {})}});
  }
  // full's dtype from a complex fill value: complex64 (the default complex dtype)
  cases.push_back({"aten::full", "", {L({2}), C(1.0, 1.0), None(), None(), None(), None()}});
  cases.push_back({"aten::fill_", "Scalar", {T(c64, {2}), C(1e300, 0.0)}});  // overflows complex64: both throw
  cases.push_back({"aten::fill_", "Scalar", {T(f32, {2}), C(1.0, 1.0)}});    // complex into a real tensor: both throw
  cases.push_back({"aten::fill_", "Scalar", {T(i64, {2}), C(1.0, 0.0)}});
  check_all(cases);
}

// add / sub / mul / div: complex with complex and with every real dtype
// (promotion to complex64 or complex128), complex alpha, complex Scalars,
// in-place and out=, every layout and broadcasting.
TEST(ComplexTorchDiff, Arithmetic) {
  std::vector<Case> cases;
  const Tolerance tol{.ulp = 4, .atol = 1e-6};  // libtorch's vectorized loops round once less (FMA) in places
  for (const char* op : {"add", "sub", "mul", "div"}) {
    const std::string name = std::string("aten::") + op;
    const bool alpha = op == std::string("add") || op == std::string("sub");
    auto args = [&](Value a, Value b) {
      std::vector<Value> v{std::move(a), std::move(b)};
      if (alpha) v.push_back(I(1));
      return v;
    };
    for (int c : kComplex) {
      for (Layout layout : all_layouts) {
        cases.push_back({name, "Tensor", args(T(c, {3, 4}, layout, Fill::standard, 1), T(c, {3, 4}, Layout::contiguous, Fill::standard, 2)), tol});
        cases.push_back({name, "Tensor", args(T(c, {3, 4}, layout, Fill::special, 1), T(c, {3, 4}, layout, Fill::special, 2)), tol});
      }
      for (int r : kReal) {
        if (r == b8 && op == std::string("sub")) continue;  // sub refuses bool: covered elsewhere
        cases.push_back({name, "Tensor", args(T(c, {2, 5}), T(r, {2, 5}, Layout::contiguous, Fill::positive)), tol});
        cases.push_back({name, "Tensor", args(T(r, {5}, Layout::contiguous, Fill::positive), T(c, {2, 5})), tol});
      }
      cases.push_back({name, "Tensor", args(T(c, {4, 1}), T(c == c64 ? c128 : c64, {1, 3})), tol});  // c64 with c128: c128
      cases.push_back({name, "Tensor", args(T(c, {}), T(f32, {70}, Layout::sliced)), tol});
      cases.push_back({name, "Tensor", args(T(c, {67}, Layout::contiguous, Fill::standard, 3), T(c, {67})), tol});
      cases.push_back({name, "Tensor", args(T(c, {0, 3}), T(c, {3})), tol});
      cases.push_back({name, "Scalar", args(T(c, {2, 3}, Layout::expanded), C(0.5, -1.5)), tol});
      cases.push_back({name, "Scalar", args(T(c, {2, 3}), D(2.5)), tol});
      cases.push_back({name + "_", "Tensor", args(T(c, {3, 4}, Layout::transposed), T(f64, {4})), tol});
      cases.push_back({name + "_", "Scalar", args(T(c, {3}), C(2.0, 1.0)), tol});
      std::vector<Value> out = args(T(c, {2, 3}), T(c, {2, 3}, Layout::contiguous, Fill::standard, 5));
      out.push_back(T(c, {0}));
      cases.push_back({name, "out", out, tol});
    }
    // A complex Scalar with a real tensor: complex64 for float32 and integers, complex128 for float64.
    for (int r : {i64, f32, f64, b8}) cases.push_back({name, "Scalar", args(T(r, {4}, Layout::contiguous, Fill::positive), C(1.0, -2.0)), tol});
    // A complex result into a real tensor: both throw (can't cast complex to real).
    cases.push_back({name + "_", "Tensor", args(T(f32, {3}), T(c64, {3})), tol});
    std::vector<Value> real_out = args(T(c64, {3}), T(c64, {3}));
    real_out.push_back(T(f32, {3}));
    cases.push_back({name, "out", real_out, tol});
  }
  // Complex alpha: only with complex results.
  cases.push_back({"aten::add", "Tensor", {T(c64, {5}), T(c64, {5}, Layout::sliced), C(2.0, -1.0)}});
  cases.push_back({"aten::sub", "Tensor", {T(c128, {5}), T(f64, {5}), C(0.0, 3.0)}});
  cases.push_back({"aten::add", "Tensor", {T(f32, {5}), T(f32, {5}), C(2.0, -1.0)}});  // both throw
  // Division by zero: the textbook formula's nan + nanj on both sides.
  cases.push_back({"aten::div", "Tensor", {T(c64, {4}), T(c64, {4}, Layout::expanded, Fill::small, 9)}});
  cases.push_back({"aten::div", "Scalar", {T(c128, {4}), I(0)}});
  cases.push_back({"aten::div", "Scalar", {T(c64, {4}), C(0.0, 0.0)}});
  check_all(cases);
}

// The unary ops with complex loops, on values away from the branch cuts and
// overflow (libm's and ATen's Sleef-based loops round differently: a few
// units in the last place). abs gives the real dtype.
TEST(ComplexTorchDiff, UnaryOps) {
  std::vector<Case> cases;
  const Tolerance tol{.ulp = 8, .atol = 1e-6, .rtol = 1e-5};
  for (const char* op : {"neg", "abs", "exp", "log", "log10", "sqrt", "reciprocal", "sin", "cos", "tan", "sinh",
                         "cosh", "tanh", "sigmoid", "silu"}) {
    const std::string name = std::string("aten::") + op;
    for (int c : kComplex) {
      for (Layout layout : all_layouts) cases.push_back({name, "", {T(c, {3, 5}, layout)}, tol});
      cases.push_back({name, "", {T(c, {67}, Layout::contiguous, Fill::small, 3)}, tol});
      cases.push_back({name, "", {T(c, {0, 2})}, tol});
      // (abs_: PyTorch refuses it on complex; opd's derived in-place kernel
      // writes |z| + 0j into self: docs/kernels.md)
      if (op != std::string("abs")) cases.push_back({name + "_", "", {T(c, {4, 3}, Layout::transposed)}, tol});
      // out= of the result's dtype only (silu: libtorch refuses any other out dtype; opd's keep-kind
      // out= casts, as it does for real dtypes)
      const bool keeps = op == std::string("neg") || op == std::string("abs") || op == std::string("silu");
      cases.push_back({name, "out", {T(c, {2, 3}, Layout::sliced), T(c == c64 ? f32 : f64, {0})}, tol});  // complex into real: only abs
      if (!keeps) cases.push_back({name, "out", {T(c, {2, 3}), T(c128, {0})}, tol});
    }
  }
  // 0 and infinities where the formulas agree: neg, abs
  for (const char* op : {"neg", "abs"}) cases.push_back({std::string("aten::") + op, "", {T(c64, {40}, Layout::contiguous, Fill::special)}});
  check_all(cases);
}

TEST(ComplexTorchDiff, Equality) {
  std::vector<Case> cases;
  for (const char* op : {"eq", "ne"}) {
    const std::string name = std::string("aten::") + op;
    for (int c : kComplex) {
      for (Layout layout : all_layouts) {
        // small integers in both parts: equal elements are common
        cases.push_back({name, "Tensor", {T(c, {3, 4}, layout, Fill::special, 1), T(c, {3, 4}, Layout::contiguous, Fill::special, 1)}});
        cases.push_back({name, "Tensor", {T(c, {3, 4}, layout), T(c, {4})}});
      }
      cases.push_back({name, "Tensor", {T(c, {5}), T(i64, {5}, Layout::contiguous, Fill::small)}});
      cases.push_back({name, "Tensor", {T(c, {70}), T(c, {70})}});
      cases.push_back({name, "Scalar", {T(c, {4}), C(1.0, 0.0)}});
      cases.push_back({name, "Scalar", {T(f32, {4}), C(1.0, 2.0)}});
      cases.push_back({name, "Tensor_out", {T(c, {3}), T(c, {3}), T(b8, {0})}});
    }
  }
  check_all(cases);
}

// sum, mean, prod: whole tensors, over dimensions, keepdim, dtype=; cumsum, cumprod.
TEST(ComplexTorchDiff, Reductions) {
  std::vector<Case> cases;
  const Tolerance tol{.ulp = 0, .atol = 1e-5, .rtol = 1e-5};  // (summation order)
  for (int c : kComplex) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::sum", "", {T(c, {3, 4}, layout), None()}, tol});
      cases.push_back({"aten::sum", "dim_IntList", {T(c, {3, 4}, layout), L({1}), B(false), None()}, tol});
      cases.push_back({"aten::mean", "dim", {T(c, {3, 4}, layout), L({0}), B(true), None()}, tol});
      cases.push_back({"aten::prod", "", {T(c, {3, 4}, layout, Fill::small), None()}, tol});
    }
    cases.push_back({"aten::sum", "", {T(c, {1000}), None()}, tol});
    cases.push_back({"aten::sum", "", {T(c, {0, 3}), None()}, tol});
    cases.push_back({"aten::sum", "dim_IntList", {T(c, {2, 3, 4}), L({0, 2}), B(true), ScalarT(c128)}, tol});
    cases.push_back({"aten::sum", "dim_IntList", {T(f32, {2, 3}), L({1}), B(false), ScalarT(c)}, tol});
    cases.push_back({"aten::sum", "dim_IntList", {T(c, {2, 3}), L({1}), B(false), ScalarT(f32)}, tol});
    cases.push_back({"aten::mean", "", {T(c, {5, 7}), None()}, tol});
    cases.push_back({"aten::prod", "dim_int", {T(c, {4, 5}, Layout::transposed, Fill::small), I(1), B(false), None()}, tol});
    // cumsum / cumprod accumulate in complex128 (ATen's CPU acc_type), finite values
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::cumsum", "", {T(c, {3, 4}, layout), I(1), None()}, tol});
      cases.push_back({"aten::cumprod", "", {T(c, {3, 4}, layout, Fill::small), I(0), None()}, tol});
    }
    cases.push_back({"aten::cumsum", "", {T(c, {2, 70}), I(-1), None()}, tol});
    cases.push_back({"aten::cumsum", "", {T(c, {}), I(0), None()}, tol});
    cases.push_back({"aten::cumsum", "", {T(f32, {2, 3}), I(1), ScalarT(c)}, tol});
    cases.push_back({"aten::cumprod", "", {T(c, {5}), I(0), ScalarT(c128)}, tol});
    cases.push_back({"aten::cumsum", "out", {T(c, {2, 3}), I(0), None(), T(c, {0})}, tol});
    for (const char* op : {"amax", "amin"}) cases.push_back({std::string("aten::") + op, "", {T(c, {3, 4}), L({1}), B(false)}});
    cases.push_back({"aten::argmax", "", {T(c, {3, 4}), None(), B(false)}});
  }
  check_all(cases);
}

// The matrix products through cgemm / zgemm (cgemv / zgemv for a vector).
TEST(ComplexTorchDiff, MatrixProducts) {
  std::vector<Case> cases;
  const Tolerance tol{.ulp = 0, .atol = 1e-5, .rtol = 1e-5};  // (the BLAS's summation order against ATen's)
  for (int c : kComplex) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::mm", "", {T(c, {3, 4}, layout, Fill::standard, 1), T(c, {4, 5}, Layout::contiguous, Fill::standard, 2)}, tol});
      cases.push_back({"aten::mm", "", {T(c, {4, 4}, Layout::contiguous, Fill::standard, 1), T(c, {4, 4}, layout, Fill::standard, 2)}, tol});
    }
    cases.push_back({"aten::bmm", "", {T(c, {2, 3, 4}), T(c, {2, 4, 2}, Layout::transposed)}, tol});
    cases.push_back({"aten::addmm", "", {T(c, {3, 2}), T(c, {3, 4}), T(c, {4, 2}), C(0.5, -1.0), C(2.0, 0.5)}, tol});
    cases.push_back({"aten::addmm", "", {T(c, {2}), T(c, {3, 4}), T(c, {4, 2}), I(0), I(1)}, tol});
    cases.push_back({"aten::matmul", "", {T(c, {2, 3, 4}), T(c, {4})}, tol});
    cases.push_back({"aten::matmul", "", {T(c, {5}), T(c, {5, 3})}, tol});
    cases.push_back({"aten::mv", "", {T(c, {3, 4}, Layout::transposed), T(c, {4})}, tol});
    // (not dot: Debian's libtorch 1.13 returns 0 for every complex dot, its
    // cdotu call into OpenBLAS losing the result; opd's goes through cgemm)
    cases.push_back({"aten::mm", "", {T(c, {0, 3}), T(c, {3, 2})}, tol});
    cases.push_back({"aten::mm", "", {T(c, {2, 0}), T(c, {0, 2})}, tol});
    cases.push_back({"aten::mm", "", {T(c, {2, 3}), T(f32, {3, 2})}, tol});  // mixed dtypes: both throw
  }
  check_all(cases);
}

// Operators PyTorch refuses on complex (ordering, comparisons, activations):
// opd must refuse them too (the harness passes only when both throw).
TEST(ComplexTorchDiff, RefusedOperators) {
  std::vector<Case> cases;
  for (int c : kComplex) {
    for (const char* op : {"lt", "le", "gt", "ge", "maximum", "minimum", "fmod", "remainder", "floor_divide"}) {
      cases.push_back({std::string("aten::") + op, "Tensor", {T(c, {3}), T(c, {3})}});
    }
    for (const char* op : {"relu", "floor", "ceil", "sign", "trunc", "frac", "erf", "bitwise_not"}) {
      cases.push_back({std::string("aten::") + op, "", {T(c, {3})}});
    }
    cases.push_back({"aten::clamp", "", {T(c, {3}), D(0.0), D(1.0)}});
    cases.push_back({"aten::max", "", {T(c, {3})}});
    cases.push_back({"aten::sort", "", {T(c, {3}), I(-1), B(false)}});
    cases.push_back({"aten::bitwise_and", "Tensor", {T(c, {3}), T(c, {3})}});
  }
  check_all(cases);
}

// The views that change the dtype, on every layout (strides compared too:
// view_as_real gives 2T + [1], view_as_complex halves them), with ATen's
// refusals (both sides throw): a real tensor into view_as_real, a last dim
// not of size 2 or not of stride 1, an odd stride or storage offset.
TEST(ComplexTorchDiff, DtypeViews) {
  std::vector<Case> cases;
  for (int c : kComplex) {
    for (Layout layout : all_layouts) {
      for (const char* op : {"view_as_real", "real", "imag", "view_as_real_copy"}) {
        cases.push_back({std::string("aten::") + op, "", {T(c, {3, 4}, layout, Fill::special)}, {}, false, true});
      }
    }
    for (const char* op : {"view_as_real", "real", "imag"}) {
      cases.push_back({std::string("aten::") + op, "", {T(c, {})}, {}, false, true});
      cases.push_back({std::string("aten::") + op, "", {T(c, {0, 3})}, {}, false, true});
    }
    const int r = c == c64 ? f32 : f64;
    for (Layout layout : {Layout::contiguous, Layout::expanded}) {
      cases.push_back({"aten::view_as_complex", "", {T(r, {3, 2}, layout, Fill::special)}, {}, false, true});
      cases.push_back({"aten::view_as_complex_copy", "", {T(r, {4, 2}, layout)}, {}, false, true});
    }
    cases.push_back({"aten::view_as_complex", "", {T(r, {2, 3, 2})}, {}, false, true});
    cases.push_back({"aten::view_as_complex", "", {T(r, {2})}, {}, false, true});
    cases.push_back({"aten::view_as_complex", "", {T(r, {3, 2}, Layout::transposed)}});  // last stride 3: both throw
    cases.push_back({"aten::view_as_complex", "", {T(r, {3, 4}, Layout::sliced)}});      // last size 2, stride 2
    cases.push_back({"aten::view_as_complex", "", {T(r, {3, 3})}});                      // last size 3
    cases.push_back({"aten::view_as_complex", "", {T(r, {})}});                          // no dims
    cases.push_back({"aten::view_as_complex", "", {T(c, {2})}});                         // complex input
  }
  for (int r : {f32, f64, i64, b8}) {
    cases.push_back({"aten::view_as_real", "", {T(r, {3})}});  // both throw
    cases.push_back({"aten::imag", "", {T(r, {3})}});          // both throw
    cases.push_back({"aten::real", "", {T(r, {2, 3}, Layout::transposed)}, {}, false, true});  // self
  }
  cases.push_back({"aten::view_as_complex", "", {T(i64, {3, 2})}});  // both throw
  check_all(cases);
}

// conj / conj_physical (opd has no conjugate bit: conj is physical),
// resolve_conj / resolve_neg, is_conj / is_complex, angle, sgn.
TEST(ComplexTorchDiff, ConjugatesAngleSgn) {
  std::vector<Case> cases;
  const Tolerance tol{.ulp = 8, .atol = 1e-6, .rtol = 1e-5};
  for (int c : kComplex) {
    for (Layout layout : all_layouts) {
      for (const char* op : {"conj", "conj_physical", "resolve_conj", "resolve_neg", "angle"}) {
        cases.push_back({std::string("aten::") + op, "", {T(c, {3, 4}, layout, Fill::special)}, tol});
      }
      // sgn: finite values (with infinite parts ATen's own vector and scalar
      // loops disagree: docs/kernels.md); zeros from the small fill.
      cases.push_back({"aten::sgn", "", {T(c, {3, 5}, layout)}, tol});
      cases.push_back({"aten::sgn", "", {T(c, {4, 5}, layout, Fill::small, 4)}, tol});
    }
    cases.push_back({"aten::conj_physical_", "", {T(c, {4, 3}, Layout::transposed, Fill::special)}});
    cases.push_back({"aten::sgn_", "", {T(c, {4, 3}, Layout::transposed)}, tol});
    cases.push_back({"aten::conj_physical", "out", {T(c, {2, 3}, Layout::sliced), T(c, {0})}});
    cases.push_back({"aten::sgn", "out", {T(c, {2, 3}), T(c, {0})}, tol});
    cases.push_back({"aten::angle", "out", {T(c, {2, 3}), T(c == c64 ? f32 : f64, {0})}, tol});
    cases.push_back({"aten::angle", "out", {T(c, {2, 3}), T(c, {0})}, tol});
    cases.push_back({"aten::angle", "", {T(c, {67}, Layout::contiguous, Fill::standard, 3)}, tol});
    cases.push_back({"aten::is_conj", "", {T(c, {2})}});
    cases.push_back({"aten::is_complex", "", {T(c, {2})}});
    // the vector rows (contiguous, 16 elements or more, whole vectors and a tail)
    for (const char* op : {"conj", "conj_physical", "angle"}) {
      cases.push_back({std::string("aten::") + op, "", {T(c, {5, 13}, Layout::contiguous, Fill::special)}, tol});
    }
    cases.push_back({"aten::sgn", "", {T(c, {5, 13}, Layout::contiguous)}, tol});
    cases.push_back({"aten::sgn", "", {T(c, {4, 29}, Layout::contiguous, Fill::small, 4)}, tol});
    cases.push_back({"aten::conj_physical_", "", {T(c, {67}, Layout::contiguous, Fill::special)}});
    cases.push_back({"aten::sgn_", "", {T(c, {67}, Layout::contiguous)}, tol});
    cases.push_back({"aten::angle", "out", {T(c, {3, 11}), T(c == c64 ? f32 : f64, {0})}, tol});
  }
  for (int r : {f32, f64, i64, i32, u8, b8, f16}) {
    const Fill fill = r == f32 || r == f64 ? Fill::special : Fill::standard;
    for (const char* op : {"conj", "conj_physical", "resolve_conj", "is_conj", "is_complex", "angle", "sgn"}) {
      cases.push_back({std::string("aten::") + op, "", {T(r, {2, 3}, Layout::transposed, fill)}, tol});
    }
    cases.push_back({"aten::conj_physical", "out", {T(r, {4}, Layout::sliced, fill), T(r, {0})}});
    cases.push_back({"aten::conj_physical_", "", {T(r, {4}, Layout::contiguous, fill)}});
  }
  check_all(cases);
}

// The unary functions ATen computes on complex beyond UnaryOps' (branch cuts
// and overflow avoided by the standard fill: libm's and Sleef's formulas
// round differently), and isnan / isinf / isfinite on special values.
TEST(ComplexTorchDiff, MoreUnaryOps) {
  std::vector<Case> cases;
  const Tolerance tol{.ulp = 16, .atol = 1e-6, .rtol = 1e-5};
  for (int c : kComplex) {
    for (const char* op : {"asin", "acos", "atan", "asinh", "acosh", "atanh", "log2", "rsqrt"}) {
      const std::string name = std::string("aten::") + op;
      for (Layout layout : all_layouts) cases.push_back({name, "", {T(c, {3, 5}, layout)}, tol});
      cases.push_back({name, "", {T(c, {67}, Layout::contiguous, Fill::small, 3)}, tol});
      cases.push_back({name + "_", "", {T(c, {4, 3}, Layout::transposed)}, tol});
      cases.push_back({name, "out", {T(c, {2, 3}, Layout::sliced), T(c == c64 ? c128 : c64, {0})}, tol});
    }
    // PyTorch 1.13 refuses these on complex: both throw.
    for (const char* op : {"log1p", "expm1", "exp2"}) cases.push_back({std::string("aten::") + op, "", {T(c, {3})}});
    for (const char* op : {"isnan", "isinf", "isfinite"}) {
      for (Layout layout : all_layouts) {
        cases.push_back({std::string("aten::") + op, "", {T(c, {5, 8}, layout, Fill::special)}});
      }
    }
  }
  check_all(cases);
}

// where: complex with complex, with real operands (promotion), broadcasting,
// out= (the self overload), and the Scalar overloads (below).
TEST(ComplexTorchDiff, Where) {
  std::vector<Case> cases;
  for (int c : kComplex) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::where", "self", {T(b8, {3, 4}), T(c, {3, 4}, layout, Fill::special, 1), T(c, {3, 4}, Layout::contiguous, Fill::standard, 2)}});
    }
    cases.push_back({"aten::where", "self", {T(b8, {70}), T(c, {70}), T(c, {70}, Layout::contiguous, Fill::standard, 2)}});
    cases.push_back({"aten::where", "self", {T(b8, {2, 1}), T(c, {3}), T(f32, {2, 3})}});
    cases.push_back({"aten::where", "self", {T(b8, {4}), T(i64, {4}), T(c, {})}});
    cases.push_back({"aten::where", "self", {T(u8, {4}), T(c, {4}), T(c == c64 ? c128 : c64, {4})}});
    cases.push_back({"aten::where", "self_out", {T(b8, {2, 3}), T(c, {2, 3}), T(c, {3}), T(c, {0})}});
    cases.push_back({"aten::where", "self_out", {T(b8, {3}), T(c, {3}), T(c, {3}), T(f32, {0})}});  // both throw
  }
  check_all(cases);
}

// where.ScalarSelf / ScalarOther / Scalar (ATen 1.13's composites over
// where.self): a complex Scalar with a tensor of every dtype but Half (complex64,
// or complex128 beside a Double or complex128 tensor), a real or bool Scalar
// with a complex tensor (the tensor's dtype), and two Scalars (complex64 as
// soon as one is complex).
TEST(ComplexTorchDiff, WhereScalarOverloads) {
  std::vector<Case> cases;
  const Value cond = T(b8, {3, 4}, Layout::contiguous, Fill::standard, 7);
  std::vector<int> dtypes(std::begin(kReal), std::end(kReal));
  dtypes.insert(dtypes.end(), std::begin(kComplex), std::end(kComplex));
  for (int dt : dtypes) {  // (beside Half a complex number makes complex32)
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::where", "ScalarOther", {cond, T(dt, {3, 4}, layout, fill_for(dt)), C(1.5, -2.25)}});
      cases.push_back({"aten::where", "ScalarSelf", {cond, C(-0.5, 3.0), T(dt, {3, 4}, layout, fill_for(dt))}});
    }
    cases.push_back({"aten::where", "ScalarOther", {T(b8, {2, 1}), T(dt, {3}), C(1e30, 0.0)}});  // broadcast
  }
  for (int c : kComplex) {
    for (const Value& v : {D(2.5), I(-3), B(true), C(0.0, -1.0)}) {
      cases.push_back({"aten::where", "ScalarOther", {cond, T(c, {3, 4}, Layout::transposed, Fill::special), v}});
      cases.push_back({"aten::where", "ScalarSelf", {cond, v, T(c, {4}, Layout::contiguous, Fill::special)}});
    }
    cases.push_back({"aten::where", "ScalarOther", {T(b8, {}), T(c, {}), C(2.0, 2.0)}});  // 0-dim
  }
  cases.push_back({"aten::where", "Scalar", {cond, C(1.0, 2.0), C(-3.0, 0.5)}});
  cases.push_back({"aten::where", "Scalar", {cond, C(1.0, 2.0), D(4.0)}});
  cases.push_back({"aten::where", "Scalar", {cond, I(7), C(0.0, 1.0)}});
  cases.push_back({"aten::where", "Scalar", {cond, B(true), C(0.0, 1.0)}});
  // the real Scalars: Float, Long, Bool (torch.ops in Python passes a bool as an int: Long there)
  cases.push_back({"aten::where", "Scalar", {cond, D(1.5), I(2)}});
  cases.push_back({"aten::where", "Scalar", {cond, I(1), I(2)}});
  cases.push_back({"aten::where", "Scalar", {cond, B(true), B(false)}});
  cases.push_back({"aten::where", "ScalarOther", {cond, T(b8, {3, 4}), B(true)}});
  cases.push_back({"aten::where", "ScalarOther", {cond, T(u8, {3, 4}), B(true)}});  // stays Byte
  cases.push_back({"aten::where", "ScalarSelf", {cond, I(300), T(u8, {3, 4})}});    // Byte: 300 wraps, as ATen's
  cases.push_back({"aten::where", "ScalarOther", {T(f32, {3}), T(c64, {3}), C(1.0, 1.0)}});  // both throw: condition
  check_all(cases);
}

// native_dropout on complex: ATen 1.13 takes it (input.mul(mask).mul_(scale),
// complex products). Training is compared where it draws nothing that matters
// (p = 0 keeps all, p = 1 drops all: NaN and inf parts show the complex
// products); train false and None.
TEST(ComplexTorchDiff, NativeDropout) {
  std::vector<Case> cases;
  for (int c : kComplex) {
    for (Layout layout : all_layouts) {
      for (double p : {0.0, 1.0}) {
        cases.push_back({"aten::native_dropout", "", {T(c, {3, 4}, layout, Fill::special), D(p), B(true)}});
        cases.push_back({"aten::native_dropout", "", {T(c, {3, 4}, layout, Fill::special), D(p), None()}});
      }
      cases.push_back({"aten::native_dropout", "", {T(c, {3, 4}, layout, Fill::special), D(0.5), B(false)}});
    }
    cases.push_back({"aten::native_dropout", "", {T(c, {0, 3}), D(0.5), B(true)}});  // the mask of the input's dtype, as ATen's
    cases.push_back({"aten::native_dropout_backward", "", {T(c, {2, 3}, Layout::contiguous, Fill::special), T(b8, {2, 3}), D(2.0)}});
  }
  // an integral input in training: both throw (mul_ by the Float scale)
  cases.push_back({"aten::native_dropout", "", {T(i64, {3}), D(0.5), B(true)}});
  cases.push_back({"aten::native_dropout", "", {T(i64, {3}), D(0.5), B(false)}});  // not training: a copy
  cases.push_back({"aten::native_dropout", "", {T(f32, {2, 0}), D(0.5), B(true)}});   // empty: a Float mask
  check_all(cases);
}

// The operators of the OpInfo sweep's complex errors (issue 25): factories
// (eye, linspace), the truth of a complex value (nonzero, count_nonzero and
// the logical ops: either part; any/all: the real part, as 1.13 casts),
// the reductions through |z| (norm) and through the parts (var/std), the
// paddings (a copy), pow and lerp/addcmul/addcdiv, scatter/index_put/masked_fill.
TEST(ComplexTorchDiff, OpInfoSweepOperators) {
  std::vector<Case> cases;
  const Tolerance tol{.ulp = 8, .atol = 1e-5, .rtol = 1e-5};
  for (int c : kComplex) {
    cases.push_back({"aten::eye", "m", {I(3), I(4), ScalarT(c), None(), None(), None()}});
    cases.push_back({"aten::eye", "", {I(2), ScalarT(c), None(), None(), None()}});
    cases.push_back({"aten::linspace", "", {C(1.0, 2.0), C(-3.0, 0.5), I(50), ScalarT(c), None(), None(), None()}});
    cases.push_back({"aten::linspace", "", {D(-2.0), C(7.0, -1.0), I(7), ScalarT(c), None(), None(), None()}});
    for (Layout layout : all_layouts) {
      const Value x = T(c, {3, 4}, layout, Fill::special);
      cases.push_back({"aten::nonzero", "", {x}});
      cases.push_back({"aten::count_nonzero", "dim_IntList", {x, L({1})}});
      cases.push_back({"aten::any", "dim", {x, I(0), B(false)}});
      cases.push_back({"aten::all", "dim", {x, I(1), B(true)}});
      cases.push_back({"aten::logical_not", "", {x}});
      for (const char* op : {"logical_and", "logical_or", "logical_xor"}) {
        cases.push_back({std::string("aten::") + op, "", {x, T(c, {4}, Layout::contiguous, Fill::special, 2)}});
      }
      const Value y = T(c, {3, 4}, layout);
      for (const char* op : {"aten::var", "aten::std"}) {
        cases.push_back({op, "correction", {y, L({1}), I(1), B(false)}, tol});
        cases.push_back({op, "correction", {y, None(), I(0), B(true)}, tol});
      }
      cases.push_back({"aten::norm", "ScalarOpt_dim", {y, I(2), L({1}), B(false)}, tol});
      cases.push_back({"aten::norm", "ScalarOpt_dim", {y, D(INFINITY), L({0}), B(true)}, tol});
      cases.push_back({"aten::pow", "Tensor_Tensor", {y, T(c, {3, 4}, Layout::contiguous, Fill::small, 2)}, tol});
      cases.push_back({"aten::lerp", "Scalar", {y, T(c, {4}, Layout::contiguous, Fill::standard, 3), C(0.25, 0.125)}, tol});
      cases.push_back({"aten::lerp", "Tensor", {y, T(c, {4}, Layout::contiguous, Fill::standard, 3), T(c, {3, 4}, Layout::contiguous, Fill::standard, 4)}, tol});
      cases.push_back({"aten::addcmul", "", {y, T(c, {4}, Layout::contiguous, Fill::standard, 2), T(c, {3, 1}), C(0.5, -2.0)}, tol});
      cases.push_back({"aten::addcdiv", "", {y, T(c, {4}, Layout::contiguous, Fill::standard, 2), T(c, {3, 4}, Layout::contiguous, Fill::positive, 5), D(1.5)}, tol});
    }
    cases.push_back({"aten::count_nonzero", "", {T(c, {70}, Layout::contiguous, Fill::special), None()}});
    cases.push_back({"aten::any", "", {T(c, {5}, Layout::contiguous, Fill::special)}});
    cases.push_back({"aten::norm", "ScalarOpt_dim", {T(c, {2, 5}), I(0), L({1}), B(false)}, tol});
    cases.push_back({"aten::norm", "ScalarOpt_dim", {T(c, {2, 5}), D(3.0), L({-1}), B(false)}, tol});
    cases.push_back({"aten::norm", "ScalarOpt_dim", {T(c, {2, 5}), I(1), L({0, 1}), B(false)}, tol});
    cases.push_back({"aten::norm", "ScalarOpt_dim_dtype", {T(c, {2, 5}), I(2), L({1}), B(false), ScalarT(c128)}, tol});
    cases.push_back({"aten::norm", "ScalarOpt_dim_dtype", {T(c, {2, 5}), I(2), L({1}), B(false), ScalarT(f64)}, tol});
    cases.push_back({"aten::var", "correction", {T(c, {70}), None(), I(1), B(false)}, tol});
    cases.push_back({"aten::reflection_pad1d", "", {T(c, {2, 3, 5}, Layout::transposed), L({2, 3})}});
    cases.push_back({"aten::reflection_pad2d", "", {T(c, {1, 2, 3, 4}), L({1, 2, 2, 1})}});
    cases.push_back({"aten::replication_pad1d", "", {T(c, {2, 4}), L({3, 1})}});
    // pow with a Scalar exponent: the special exponents (products, fill, copy,
    // sqrt/rsqrt/reciprocal) and the general one, real and complex.
    for (Value e : {D(2.0), D(3.0), D(-2.0), D(0.0), D(1.0), D(0.5), D(-0.5), D(-1.0), D(2.5), C(1.5, -0.5)}) {
      cases.push_back({"aten::pow", "Tensor_Scalar", {T(c, {67}, Layout::contiguous, Fill::standard, 7), e}, tol});
    }
    cases.push_back({"aten::pow", "Scalar", {C(2.0, 1.0), T(c, {5})}, tol});
    cases.push_back({"aten::pow", "Tensor_Tensor", {T(f32, {4}, Layout::contiguous, Fill::positive), T(c, {4})}, tol});
    cases.push_back({"aten::addcmul", "", {T(c, {67}), T(c, {67}, Layout::contiguous, Fill::standard, 2), T(f32, {67}), I(3)}, tol});
  }
  // The indexing writes: scatter (add, multiply: the textbook product), scatter_add, index_put with
  // accumulate, masked_fill with a complex Scalar or 0-dim tensor.
  for (int c : kComplex) {
    const RawTensor idx = long_tensor({2, 3}, {0, 2, 1, 2, 0, 2});
    cases.push_back({"aten::scatter_add", "", {T(c, {3, 3}), I(0), T(idx), T(c, {2, 3}, Layout::contiguous, Fill::standard, 2)}, tol});
    cases.push_back({"aten::scatter", "reduce", {T(c, {3, 3}), I(1), T(idx), T(c, {2, 3}, Layout::contiguous, Fill::standard, 2), S("multiply")}, tol});
    cases.push_back({"aten::scatter", "reduce", {T(c, {3, 3}), I(0), T(idx), T(c, {2, 3}, Layout::contiguous, Fill::standard, 2), S("add")}, tol});
    cases.push_back({"aten::scatter", "value", {T(c, {3, 3}, Layout::transposed), I(1), T(long_tensor({3, 1}, {2, 0, 1})), C(1.5, -2.0)}});
    cases.push_back({"aten::index_put", "", {T(c, {4, 3}), OTL({long_tensor({3}, {1, 3, 1})}), T(c, {3, 3}, Layout::contiguous, Fill::standard, 2), B(true)}, tol});
    cases.push_back({"aten::masked_fill", "Scalar", {T(c, {3, 4}, Layout::sliced), T(b8, {4}), C(-1.0, 0.5)}});
    cases.push_back({"aten::masked_fill", "Tensor", {T(c, {3, 4}), T(b8, {3, 4}, Layout::contiguous, Fill::standard, 2), T(c, {}, Layout::contiguous, Fill::standard, 3)}});
  }
  // A real dtype= with complex end points: both throw.
  cases.push_back({"aten::linspace", "", {C(1.0, 2.0), D(3.0), I(5), ScalarT(f32), None(), None(), None()}});
  check_all(cases);
}

// ComplexHalf (complex32): what PyTorch 1.13 does with it on CPU, to the bit
// (ulp 0: each part rounded once to Half through complex<float>, a double or
// complex128 source rounded to float first). copy_ and _to_copy with every
// dtype both ways on every layout, the factories and fill_ (one element is
// checked against Half's range, more against float's and rounded: fill_(1e6)
// throws on one element and gives inf on two, on both sides), the views with
// Half and the element-moving operators; then operators 1.13 refuses on
// complex32 (both sides must throw).
TEST(ComplexTorchDiff, ComplexHalf) {
  std::vector<Case> cases;
  const Tolerance exact{.ulp = 0};
  std::vector<int> all(std::begin(kReal), std::end(kReal));
  all.insert(all.end(), {c32, c64, c128});
  for (int other : all) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::copy_", "", {T(other, {3, 4}), T(c32, {3, 4}, layout, Fill::special), B(false)}, exact});
      cases.push_back({"aten::copy_", "", {T(c32, {3, 4}, layout), T(other, {3, 4}, Layout::contiguous, fill_for(other)), B(false)}, exact});
    }
    cases.push_back({"aten::copy_", "", {T(c32, {2, 3}), T(other, {3}), B(false)}, exact});  // broadcast
    cases.push_back({"aten::_to_copy", "", {T(c32, {2, 3}, Layout::transposed, Fill::special), ScalarT(other), None(), None(), None(), B(false), None()}, exact});
    cases.push_back({"aten::_to_copy", "", {T(other, {300}, Layout::sliced, fill_for(other)), ScalarT(c32), None(), None(), None(), B(false), None()}, exact});
  }
  cases.push_back({"aten::zeros", "", {L({2, 3}), ScalarT(c32), None(), None(), None()}, exact});
  cases.push_back({"aten::ones", "", {L({4}), ScalarT(c32), None(), None(), None()}, exact});
  for (int64_t n : {1, 2, 300}) {
    for (double v : {0.1, 65519.0, 65520.0, 1e6, 1e40, -1e300}) {
      cases.push_back({"aten::full", "", {L({n}), D(v), ScalarT(c32), None(), None(), None()}, exact});
      cases.push_back({"aten::fill_", "Scalar", {T(c32, {n}, Layout::contiguous), C(0.3, v)}, exact});
    }
    cases.push_back({"aten::fill_", "Scalar", {T(c32, {n}), I(100000)}, exact});
    cases.push_back({"aten::fill_", "Scalar", {T(c32, {n}), B(true)}, exact});
  }
  cases.push_back({"aten::fill_", "Scalar", {T(c32, {2, 3}, Layout::transposed), C(-1.0, 0.5)}, exact});
  cases.push_back({"aten::fill_", "Tensor", {T(c32, {4}), T(c32, {})}, exact});
  cases.push_back({"aten::_local_scalar_dense", "", {T(c32, {})}, exact});
  // views and element moves (no arithmetic)
  cases.push_back({"aten::view_as_real", "", {T(c32, {2, 3}, Layout::sliced, Fill::special)}, exact});
  cases.push_back({"aten::view_as_complex", "", {T(f16, {3, 2})}, exact});
  cases.push_back({"aten::real", "", {T(c32, {2, 3}, Layout::transposed)}, exact});
  cases.push_back({"aten::imag", "", {T(c32, {2, 3}, Layout::transposed)}, exact});
  cases.push_back({"aten::clone", "", {T(c32, {3, 4}, Layout::transposed), None()}, exact});
  cases.push_back({"aten::cat", "", {TL({make_tensor(c32, {2, 3}), make_tensor(c32, {1, 3}, Layout::contiguous, Fill::special, 7)}), I(0)}, exact});
  cases.push_back({"aten::index_select", "", {T(c32, {4, 3}), I(0), T(index_tensor({3, 0, 3}))}, exact});
  cases.push_back({"aten::roll", "", {T(c32, {5}), L({2}), L({0})}, exact});
  cases.push_back({"aten::constant_pad_nd", "", {T(c32, {2, 3}), L({1, 2}), D(0.0)}, exact});
  // add / sub / mul as 1.13 computes them (complex64, each complex32 operation
  // rounded once; alpha * b a complex32 operation of its own), with every
  // dtype beside complex32 (converted to complex32 first), Scalars, alpha,
  // in-place, out= of another dtype, every layout and special values
  for (const char* op : {"add", "sub", "mul"}) {
    const std::string name = std::string("aten::") + op;
    const bool has_alpha = name != "aten::mul";
    auto args = [&](Value a, Value b, Value alpha) {
      std::vector<Value> v{std::move(a), std::move(b)};
      if (has_alpha) v.push_back(std::move(alpha));
      return v;
    };
    for (Layout layout : all_layouts) {
      cases.push_back({name, "Tensor", args(T(c32, {3, 4}, layout, Fill::standard, 1), T(c32, {3, 4}, Layout::contiguous, Fill::standard, 2), I(1)), exact});
      cases.push_back({name, "Tensor", args(T(c32, {3, 4}, layout, Fill::special, 1), T(c32, {3, 4}, layout, Fill::special, 2), I(1)), exact});
      cases.push_back({name, "Tensor", args(T(c32, {3, 4}, layout, Fill::special, 3), T(c32, {3, 4}, Layout::contiguous, Fill::special, 4), C(0.3, 0.7)), exact});
    }
    for (int other : all) {
      if (other == b8 && name == "aten::sub") continue;  // sub refuses bool (both sides)
      // (beside complex64/complex128 the common dtype is theirs: ComplexTorchDiff.Arithmetic's tolerance)
      const Tolerance t = other == c64 || other == c128 ? Tolerance{.ulp = 4, .atol = 1e-6} : exact;
      cases.push_back({name, "Tensor", args(T(c32, {2, 5}), T(other, {2, 5}, Layout::contiguous, fill_for(other)), D(0.3)), t});
      cases.push_back({name, "Tensor", args(T(other, {5}, Layout::sliced, fill_for(other)), T(c32, {2, 5}), I(1)), t});
    }
    cases.push_back({name, "Tensor", args(T(c32, {300}, Layout::contiguous, Fill::standard, 5), T(c32, {300}), D(2.5)), exact});
    cases.push_back({name, "Tensor", args(T(c32, {4, 1}), T(c32, {1, 3}), D(-1.0)), exact});
    cases.push_back({name, "Tensor", args(T(c32, {2}), T(c32, {2}), D(1e6)), exact});  // alpha beyond Half: both throw
    cases.push_back({name, "Scalar", args(T(c32, {2, 3}, Layout::expanded), C(0.1, -0.3), D(0.7)), exact});
    cases.push_back({name, "Scalar", args(T(c32, {70}), D(2049.0), I(1)), exact});
    cases.push_back({name + "_", "Tensor", args(T(c32, {3, 4}, Layout::transposed), T(f16, {4}), C(0.0, 1.5)), exact});
    cases.push_back({name + "_", "Scalar", args(T(c32, {3}), C(2.0, 1.0), I(1)), exact});
    for (int to : {c32, c64, c128}) {
      std::vector<Value> out = args(T(c32, {2, 3}), T(c32, {2, 3}, Layout::contiguous, Fill::standard, 5), D(0.3));
      out.push_back(T(to, {0}));
      cases.push_back({name, "out", out, exact});
    }
  }
  // the selects (in complex64: exact) and nonzero (either part non-zero)
  for (int other : all) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::where", "self", {T(b8, {3, 4}, Layout::contiguous, Fill::standard, 7), T(c32, {3, 4}, layout, Fill::special), T(other, {3, 4}, Layout::contiguous, fill_for(other))}, exact});
    }
    cases.push_back({"aten::where", "self", {T(b8, {2, 1}), T(other, {3}, Layout::sliced, fill_for(other)), T(c32, {2, 3})}, exact});
  }
  // (an out= of another dtype: libtorch 1.13 fails an internal assert in its loop, the library converts)
  cases.push_back({"aten::where", "self_out", {T(b8, {5}), T(c32, {5}), T(c32, {5}, Layout::contiguous, Fill::special), T(c32, {0})}, exact});
  for (Layout layout : all_layouts) {
    cases.push_back({"aten::masked_fill", "Scalar", {T(c32, {3, 4}, layout, Fill::special), T(b8, {3, 4}), C(0.1, -0.2)}, exact});
    cases.push_back({"aten::masked_fill", "Tensor", {T(c32, {3, 4}, layout), T(b8, {4}), T(c64, {})}, exact});
    cases.push_back({"aten::nonzero", "", {T(c32, {3, 4}, layout, Fill::special)}, exact});
  }
  cases.push_back({"aten::masked_fill_", "Scalar", {T(c32, {300}), T(b8, {300}), D(2049.0)}, exact});
  cases.push_back({"aten::masked_fill", "Scalar", {T(c32, {2}), T(b8, {2}), D(1e6)}, exact});  // beyond Half
  cases.push_back({"aten::nonzero", "", {T(c32, {0, 3})}, exact});
  // the exact unary ops (a sign flip, a predicate) and eq / ne, operands
  // rounded to complex32 first (int 2049 equals complex32 2048)
  for (const char* op : {"aten::neg", "aten::conj_physical", "aten::isnan", "aten::isinf", "aten::isfinite"}) {
    for (Layout layout : all_layouts) cases.push_back({op, "", {T(c32, {3, 4}, layout, Fill::special)}, exact});
  }
  cases.push_back({"aten::neg_", "", {T(c32, {5}, Layout::contiguous, Fill::special)}, exact});
  for (const char* op : {"aten::eq", "aten::ne"}) {
    for (int other : all) {
      cases.push_back({op, "Tensor", {T(c32, {3, 4}, Layout::transposed, Fill::special), T(other, {3, 4}, Layout::contiguous, fill_for(other))}, exact});
      cases.push_back({op, "Tensor", {T(c32, {3, 4}, Layout::contiguous, Fill::special), T(c32, {3, 4}, Layout::contiguous, Fill::special)}, exact});
    }
    for (const Value& v : {D(2049.0), C(0.1, 0.2), I(0), B(true)}) cases.push_back({op, "Scalar", {T(c32, {5}, Layout::sliced), v}, exact});
  }
  // 2049 (int64) against complex32 2048: equal in 1.13 (rounded to complex32 first)
  cases.push_back({"aten::eq", "Scalar", {T(c32, {2}), I(2049)}, exact});
  // refused by 1.13 on complex32: the library refuses them too
  cases.push_back({"aten::flip", "", {T(c32, {3, 4}), L({0})}});
  cases.push_back({"aten::tril", "", {T(c32, {3, 3}), I(0)}});
  cases.push_back({"aten::triu", "", {T(c32, {3, 3}), I(0)}});
  cases.push_back({"aten::gather", "", {T(c32, {4}), I(0), T(index_tensor({1, 3})), B(false)}});
  cases.push_back({"aten::masked_select", "", {T(c32, {4}), T(b8, {4})}});
  for (const char* op : {"aten::sum", "aten::exp", "aten::sqrt", "aten::cumsum"}) {
    if (std::string(op) == "aten::cumsum") cases.push_back({op, "", {T(c32, {4}), I(0), None()}});
    else if (std::string(op) == "aten::sum") cases.push_back({op, "", {T(c32, {4}), None()}});
    else cases.push_back({op, "", {T(c32, {4})}});
  }
  cases.push_back({"aten::div", "Tensor", {T(c32, {4}), T(c32, {4})}});
  cases.push_back({"aten::mm", "", {T(c32, {2, 2}), T(c32, {2, 2})}});
  check_all(cases);
}
