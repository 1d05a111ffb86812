#pragma once
// A differential test of opd's operators against libtorch 1.13's, both
// called boxed by ATen's name with the same arguments: both fail, or both
// return the same values (sizes, dtype, elements) and leave their arguments
// in the same state. See README.md.
//
//   using namespace diff;
//   check({"aten::exp", "", {T(f32, {3, 4}, Layout::transposed)}});
//   check_all(cases);                           // one EXPECT per case
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "values.hpp"

namespace diff {

// How a tensor argument is laid out in its storage.
enum class Layout {
  contiguous,
  transposed,  // the last two dims swapped in memory (non-contiguous; as contiguous for < 2 dims)
  expanded,    // dim 0 has stride 0 (its rows share memory); as contiguous when dim 0 has size <= 1
  sliced,      // every other element of the last dim, from storage offset 1
};

// What values a tensor holds (deterministic for a seed).
enum class Fill {
  standard,  // floats uniform in [-3, 3]; signed ints in [-9, 9]; uint8 in [0, 18]; bool random
  positive,  // floats in [0.1, 4]; ints in [1, 9]
  special,   // standard, with NaN, inf, -inf, 0, -0 and large values mixed in (floats)
  small,     // floats in [-0.5, 0.5]; ints in [-2, 2]
};

RawTensor make_tensor(int dtype, std::vector<int64_t> sizes, Layout layout = Layout::contiguous,
                      Fill fill = Fill::standard, uint64_t seed = 1);

// A tensor argument made by make_tensor (the other builders: values.hpp).
Value T(int dtype, std::vector<int64_t> sizes, Layout layout = Layout::contiguous, Fill fill = Fill::standard,
        uint64_t seed = 1);

// Float results match when equal (NaN = NaN, same-signed infinities), within
// `ulp` units in the last place of their dtype, or within `atol`.
struct Tolerance {
  int64_t ulp = 4;
  double atol = 0.0;
  // With rtol > 0, also torch.testing.assert_close's rule: |x - y| <= atol + rtol * |y|.
  double rtol = 0.0;
};

// torch.testing.assert_close's default tolerances for a dtype: float32 rtol
// 1.3e-6 and atol 1e-5, otherwise (float64) rtol and atol 1e-7.
inline Tolerance assert_close_tolerance(int dtype) {
  if (dtype == f32) return {.ulp = 0, .atol = 1e-5, .rtol = 1.3e-6};
  return {.ulp = 0, .atol = 1e-7, .rtol = 1e-7};
}

// Row-major strides for `sizes` (a dimension of size 0 counts as 1, as in ATen).
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes);

// A contiguous Long tensor holding exactly `values`.
RawTensor long_tensor(std::vector<int64_t> sizes, const std::vector<int64_t>& values);

struct Case {
  std::string op;        // "aten::add"
  std::string overload;  // "Tensor"; "" for none
  std::vector<Value> args;
  Tolerance tol = {};
  // An operator opd computes in a reduced float dtype (Half, BFloat16) where
  // libtorch 1.13's CPU kernel refuses it: libtorch is called with every such
  // tensor argument converted to Float (exact), and its Float results (and
  // the converted arguments after the call) rounded back to that dtype, as
  // ATen computes reduced dtypes where it has them (in float, rounded once).
  // The case states "opd supports, torch 1.13 refuses" explicitly.
  bool torch_in_float = false;
  // Also compare each tensor result's strides (dimensions of size 1 aside):
  // the layout the kernel allocated its output in, as TensorIterator's.
  bool same_layout = false;
};

std::string describe(const Case& c);
::testing::AssertionResult same_as_torch(const Case& c);
inline void check(const Case& c) { EXPECT_TRUE(same_as_torch(c)); }
inline void check_all(const std::vector<Case>& cases) {
  for (const Case& c : cases) check(c);
}

// Every layout of a tensor argument: {contiguous, transposed, expanded, sliced}.
inline constexpr Layout all_layouts[] = {Layout::contiguous, Layout::transposed, Layout::expanded, Layout::sliced};

}  // namespace diff
