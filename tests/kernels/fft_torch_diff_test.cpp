// The FFT primitives (_fft_r2c, _fft_c2r, _fft_c2c, kernels/ops_fft.hpp)
// against libtorch 1.13 (pocketfft in Debian's build) through the
// differential harness (diff/README.md): 1-D to 3-D inputs, several dim sets,
// power-of-two, composite and prime lengths, strided inputs, the three
// normalizations, onesided both ways, odd and even c2r lengths, float and
// double, out=, and the calls both sides refuse.
//
// Tolerances: an FFT's rounding error grows with the signal's norm, not with
// each output element, so the absolute tolerance scales with the signal
// length n (the product of the transformed sizes; inputs are in [-3, 3]):
// atol = 1e-5 n for float, 1e-12 n for double, plus rtol 1e-5 / 1e-12.
#include <string>
#include <vector>

#include "diff.hpp"

using namespace diff;

namespace {

Tolerance fft_tolerance(int real_dtype, int64_t n) {
  const double eps = real_dtype == f32 ? 1e-5 : 1e-12;
  return {.ulp = 0, .atol = eps * static_cast<double>(n), .rtol = eps};
}

struct Shape {
  std::vector<int64_t> sizes;
  std::vector<int64_t> dims;
};

// 1-D, 2-D and 3-D; lengths 1, 7, 12, 30, 64 and 13 (prime); dims in and out of order.
// 40000 and 20000 take the four-step split of long rows (r2c and c2r of an even
// 40000 through a complex 20000; c2r's odd 40001 = 181 x 221), dense and strided.
const std::vector<Shape> kShapes = {
    {{7}, {0}},          {{12}, {0}},         {{30}, {0}},    {{64}, {0}},         {{1}, {0}},
    {{5, 12}, {1}},      {{5, 12}, {0, 1}},   {{12, 7}, {0}}, {{6, 13}, {1, 0}},   {{3, 4, 7}, {2}},
    {{3, 4, 7}, {0, 2}}, {{3, 4, 6}, {0, 1, 2}}, {{4, 5, 6}, {2, 1}}, {{40000}, {0}}, {{20000, 2}, {0}},
};

int64_t signal_length(const std::vector<int64_t>& sizes, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= sizes[static_cast<std::size_t>(d)];
  return n;
}

}  // namespace

TEST(FftTorchDiff, R2c) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    for (const Shape& s : kShapes) {
      const int64_t n = signal_length(s.sizes, s.dims);
      for (Layout layout : {Layout::contiguous, Layout::transposed, Layout::sliced}) {
        for (int64_t norm : {0, 1, 2}) {
          for (bool onesided : {true, false}) {
            cases.push_back({"aten::_fft_r2c", "", {T(dt, s.sizes, layout), L(s.dims), I(norm), B(onesided)},
                             fft_tolerance(dt, n)});
          }
        }
      }
    }
    cases.push_back({"aten::_fft_r2c", "out", {T(dt, {4, 9}), L({1}), I(1), B(true), T(dt == f32 ? c64 : c128, {0})},
                     fft_tolerance(dt, 9)});
  }
  check_all(cases);
}

TEST(FftTorchDiff, C2c) {
  std::vector<Case> cases;
  for (int dt : {c64, c128}) {
    for (const Shape& s : kShapes) {
      const int64_t n = signal_length(s.sizes, s.dims);
      for (Layout layout : {Layout::contiguous, Layout::transposed, Layout::sliced}) {
        for (int64_t norm : {0, 1, 2}) {
          for (bool forward : {true, false}) {
            cases.push_back({"aten::_fft_c2c", "", {T(dt, s.sizes, layout), L(s.dims), I(norm), B(forward)},
                             fft_tolerance(part_dtype(dt), n)});
          }
        }
      }
    }
    cases.push_back({"aten::_fft_c2c", "out", {T(dt, {3, 10}, Layout::transposed), L({0, 1}), I(2), B(false), T(dt, {2})},
                     fft_tolerance(part_dtype(dt), 30)});
  }
  check_all(cases);
}

// c2r reads the first last_dim_size / 2 + 1 entries of the last transformed
// dim: the input holds exactly those (and more, for a shorter output).
TEST(FftTorchDiff, C2r) {
  std::vector<Case> cases;
  for (int dt : {c64, c128}) {
    for (const Shape& s : kShapes) {
      const std::size_t last = static_cast<std::size_t>(s.dims.back());
      for (int64_t n_last : {s.sizes[last], s.sizes[last] + 1}) {  // even and odd, or odd and even
        std::vector<int64_t> in_sizes = s.sizes;
        in_sizes[last] = n_last / 2 + 1;
        std::vector<int64_t> out_sizes = s.sizes;
        out_sizes[last] = n_last;
        const int64_t n = signal_length(out_sizes, s.dims);
        for (Layout layout : {Layout::contiguous, Layout::transposed, Layout::sliced}) {
          for (int64_t norm : {0, 1, 2}) {
            cases.push_back({"aten::_fft_c2r", "", {T(dt, in_sizes, layout), L(s.dims), I(norm), I(n_last)},
                             fft_tolerance(part_dtype(dt), n)});
          }
        }
      }
    }
    // a longer input than needed: the rest is ignored
    cases.push_back({"aten::_fft_c2r", "", {T(dt, {3, 8}), L({1}), I(0), I(6)}, fft_tolerance(part_dtype(dt), 6)});
    cases.push_back({"aten::_fft_c2r", "out", {T(dt, {3, 5}), L({0, 1}), I(2), I(9), T(part_dtype(dt), {0})},
                     fft_tolerance(part_dtype(dt), 27)});
  }
  check_all(cases);
}

// Both sides refuse: integer input to r2c, real input to c2c, a dim out of range.
// (Not compared: a real out= for a complex result, which ATen 1.13's out=
// kernels copy discarding the imaginary part and opd's derived out= refuses,
// as every out= whose result cannot be cast to out's dtype.)
TEST(FftTorchDiff, Errors) {
  check_all({
      {"aten::_fft_r2c", "", {T(i64, {8}), L({0}), I(0), B(true)}},
      {"aten::_fft_r2c", "", {T(i32, {4, 4}), L({0, 1}), I(2), B(false)}},
      {"aten::_fft_c2c", "", {T(f32, {8}), L({0}), I(0), B(true)}},
      {"aten::_fft_r2c", "", {T(f32, {8}), L({1}), I(0), B(true)}},
      {"aten::_fft_r2c", "", {T(f64, {3, 8}), L({-1}), I(0), B(true)}},
      {"aten::_fft_c2c", "", {T(c64, {3, 8}), L({2}), I(0), B(true)}},
  });
}
