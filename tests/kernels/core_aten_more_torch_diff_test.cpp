// The last Core ATen operators of issue 25 that libtorch 1.13 has, against it
// through the differential harness (diff/README.md), part of
// kernels_models_torch_diff_test: resize_, scatter_reduce.two (and its
// in-place and out= variants), avg_pool3d, max_pool3d_with_indices,
// _adaptive_avg_pool3d and the three pools' backward kernels, col2im and
// im2col, _cdist_forward, _pdist_forward and its backward, grid_sampler_2d and its backward, convolution_backward, _embedding_bag. float32 and float64 (Long where ATen's
// kernel takes it), the harness's layouts, edge shapes, and cases both sides
// must refuse. Tolerances as torch.testing.assert_close's.
#include <cstring>
#include <limits>

#include "diff.hpp"
#include "opd_side.hpp"

using namespace diff;

namespace {

// The cases before `valid` must compute (both sides refusing would pass
// check_all too): opd computes each of them, and the comparison follows.
void check_computed(const std::vector<Case>& cases, std::size_t valid) {
  check_all(cases);  // (registers the library's kernels, which call_opd needs)
  for (std::size_t i = 0; i < valid; ++i) {
    const Outcome o = call_opd(cases[i].op, cases[i].overload, cases[i].args);
    EXPECT_FALSE(o.error) << describe(cases[i]) << ": " << o.error.value_or("");
  }
}

TEST(CoreAtenMoreTorchDiff, Resize) {
  std::vector<Case> cases;
  for (int dt : {f32, i64, b8}) {
    // the elements that stay are the storage's first ones: sizes that do not
    // grow the storage (grown storage is uninitialized on both sides)
    cases.push_back({"aten::resize_", "", {T(dt, {3, 4}), L({2, 5}), None()}});
    cases.push_back({"aten::resize_", "", {T(dt, {3, 4}), L({12}), None()}});
    cases.push_back({"aten::resize_", "", {T(dt, {3, 4}), L({0}), None()}});
    cases.push_back({"aten::resize_", "", {T(dt, {3, 4}), L({}), None()}});
  }
  // same sizes: the strides stay (a transposed tensor is still transposed)
  cases.push_back({"aten::resize_", "", {T(f32, {3, 4}, Layout::transposed), L({3, 4}), None()}});
  // a memory format restrides even for the same sizes (2: ChannelsLast, 0: Contiguous)
  cases.push_back({"aten::resize_", "", {T(f32, {1, 2, 3, 2}), L({1, 2, 3, 2}), I(2)}});
  cases.push_back({"aten::resize_", "", {T(f32, {2, 3, 4}, Layout::transposed), L({2, 3, 4}), I(0)}});
  cases.push_back({"aten::resize_", "", {T(f64, {2, 3, 2, 2}), L({2, 2, 3}), I(0)}});
  const std::size_t valid = cases.size();
  // both throw: a negative size, ChannelsLast for 3 dimensions, Preserve
  cases.push_back({"aten::resize_", "", {T(f32, {3, 4}), L({2, -1}), None()}});
  cases.push_back({"aten::resize_", "", {T(f32, {3, 4}), L({2, 3, 2}), I(2)}});
  cases.push_back({"aten::resize_", "", {T(f32, {3, 4}), L({2, 6}), I(1)}});
  check_computed(cases, valid);
}

TEST(CoreAtenMoreTorchDiff, ScatterReduceTwo) {
  std::vector<Case> cases;
  const RawTensor idx0 = long_tensor({2, 4}, {0, 2, 1, 2, 2, 2, 0, 1});  // repeated targets reduce together
  const RawTensor idx1 = long_tensor({3, 2}, {4, 0, 1, 1, 3, 4});
  for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"}) {
    for (bool include_self : {true, false}) {
      for (int dt : {f32, f64, i64, i32}) {
        const Tolerance t = dt == i64 || dt == i32 ? Tolerance{} : assert_close_tolerance(dt);
        const Fill fill = dt == f32 || dt == f64 ? Fill::standard : Fill::small;
        for (Layout layout : all_layouts) {
          cases.push_back({"aten::scatter_reduce", "two",
                           {T(dt, {3, 5}, layout, fill), I(0), T(idx0), T(dt, {2, 5}, Layout::contiguous, fill, 2),
                            S(reduce), B(include_self)},
                           t});
          cases.push_back({"aten::scatter_reduce", "two",
                           {T(dt, {3, 5}, Layout::contiguous, fill), I(1), T(idx1), T(dt, {3, 4}, layout, fill, 3),
                            S(reduce), B(include_self)},
                           t});
        }
      }
      // NaN and infinities (amax / amin: NaN wins), in place and out=
      cases.push_back({"aten::scatter_reduce", "two",
                       {T(f32, {3, 5}, Layout::contiguous, Fill::special), I(0), T(idx0),
                        T(f32, {2, 5}, Layout::contiguous, Fill::special, 4), S(reduce), B(include_self)},
                       assert_close_tolerance(f32)});
      cases.push_back({"aten::scatter_reduce_", "two",
                       {T(f64, {3, 5}, Layout::transposed), I(-1), T(idx1), T(f64, {3, 2}), S(reduce), B(include_self)},
                       assert_close_tolerance(f64)});
      cases.push_back({"aten::scatter_reduce", "two_out",
                       {T(f32, {3, 5}), I(0), T(idx0), T(f32, {2, 4}), S(reduce), B(include_self), T(f32, {0})},
                       assert_close_tolerance(f32)});
    }
  }
  // 1-D and 0-dim, an empty index
  cases.push_back({"aten::scatter_reduce", "two",
                   {T(f32, {6}), I(0), T(long_tensor({5}, {1, 1, 4, 0, 1})), T(f32, {7}), S("mean"), B(false)},
                   assert_close_tolerance(f32)});
  cases.push_back({"aten::scatter_reduce", "two",
                   {T(f64, {}), I(0), T(long_tensor({}, {0})), T(f64, {}), S("sum"), B(true)},
                   assert_close_tolerance(f64)});
  cases.push_back({"aten::scatter_reduce", "two",
                   {T(f32, {3, 5}), I(0), T(long_tensor({0, 5}, {})), T(f32, {2, 5}), S("amax"), B(false)}});
  const std::size_t valid = cases.size();
  // both throw: an unknown reduction, an index out of range, dtypes, dims, index too large
  cases.push_back({"aten::scatter_reduce", "two", {T(f32, {3, 5}), I(0), T(idx0), T(f32, {2, 5}), S("max"), B(true)}});
  cases.push_back({"aten::scatter_reduce", "two",
                   {T(f32, {3, 5}), I(0), T(long_tensor({1, 2}, {3, 0})), T(f32, {1, 2}), S("sum"), B(true)}});
  cases.push_back({"aten::scatter_reduce", "two",
                   {T(f32, {3, 5}), I(0), T(long_tensor({1, 2}, {-1, 0})), T(f32, {1, 2}), S("sum"), B(true)}});
  cases.push_back({"aten::scatter_reduce", "two", {T(f32, {3, 5}), I(0), T(idx0), T(f64, {2, 5}), S("sum"), B(true)}});
  cases.push_back({"aten::scatter_reduce", "two", {T(f32, {3, 5}), I(2), T(idx0), T(f32, {2, 5}), S("sum"), B(true)}});
  cases.push_back({"aten::scatter_reduce", "two", {T(f32, {3, 5}), I(0), T(idx0), T(f32, {2, 3}), S("sum"), B(true)}});
  cases.push_back({"aten::scatter_reduce_", "two",
                   {T(f32, {3, 5}), I(0), T(long_tensor({1, 2}, {0, 9})), T(f32, {1, 2}), S("prod"), B(true)}});
  check_computed(cases, valid);
}

TEST(CoreAtenMoreTorchDiff, Pools3d) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::avg_pool3d", "",
                       {T(dt, {2, 3, 5, 6, 7}, layout), L({3}), L({2}), L({1}), B(false), B(true), None()}, t});
      cases.push_back({"aten::max_pool3d_with_indices", "",
                       {T(dt, {2, 3, 5, 6, 7}, layout), L({3}), L({2}), L({1}), L({1}), B(false)}, t});
      cases.push_back({"aten::_adaptive_avg_pool3d", "", {T(dt, {2, 3, 5, 6, 7}, layout), L({2, 4, 3})}, t});
    }
    // unbatched, per-dimension lists, ceil_mode, count_include_pad off, divisor_override
    cases.push_back({"aten::avg_pool3d", "",
                     {T(dt, {3, 4, 5, 6}), L({2, 3, 2}), L({1, 2, 2}), L({1, 1, 0}), B(true), B(false), None()}, t});
    cases.push_back({"aten::avg_pool3d", "", {T(dt, {1, 2, 4, 4, 4}), L({2}), L({}), L({0}), B(false), B(true), I(3)}, t});
    // windows that tile each row (kernel == stride: 1, 2, 3) with clipped edges: each sum in ATen's order, exact
    for (int64_t k : {1, 2, 3})
      cases.push_back({"aten::avg_pool3d", "",
                       {T(dt, {2, 3, 5, 6, 11}), L({k}), L({k}), L({k / 2}), B(true), B(false), None()}, {.ulp = 0}});
    cases.push_back({"aten::avg_pool3d", "", {T(dt, {0, 2, 4, 4, 4}), L({2}), L({}), L({0}), B(false), B(true), None()}, t});
    cases.push_back({"aten::avg_pool3d", "out",
                     {T(dt, {1, 2, 4, 5, 6}), L({3}), L({2}), L({1}), B(true), B(true), None(), T(dt, {0})}, t});
    // dilation, ceil_mode, NaN and infinities, unbatched, out=
    cases.push_back({"aten::max_pool3d_with_indices", "",
                     {T(dt, {1, 2, 7, 7, 7}), L({2, 3, 2}), L({2, 1, 2}), L({1, 1, 0}), L({2, 1, 3}), B(true)}, t});
    cases.push_back({"aten::max_pool3d_with_indices", "",
                     {T(dt, {2, 4, 5, 6}, Layout::contiguous, Fill::special), L({2}), L({}), L({1}), L({1}), B(false)}, t});
    cases.push_back({"aten::max_pool3d_with_indices", "out",
                     {T(dt, {1, 2, 4, 5, 6}), L({3}), L({2}), L({1}), L({1}), B(true), T(dt, {0}), T(i64, {0})}, t});
    // output above the input, global pooling, unbatched
    cases.push_back({"aten::_adaptive_avg_pool3d", "", {T(dt, {1, 2, 3, 4, 2}), L({5, 6, 3})}, t});
    cases.push_back({"aten::_adaptive_avg_pool3d", "", {T(dt, {2, 3, 4, 5}), L({1, 1, 1})}, t});
  }
  cases.push_back({"aten::avg_pool3d", "", {T(i64, {1, 2, 4, 5, 6}), L({2}), L({2}), L({1}), B(false), B(true), None()}});
  // Half: ATen 1.13 sums and divides in c10::Half, each step rounded (exact here too)
  const Tolerance exact{.ulp = 0};
  for (Layout layout : all_layouts) cases.push_back({"aten::_adaptive_avg_pool3d", "", {T(f16, {2, 3, 5, 6, 7}, layout), L({2, 4, 3})}, exact});
  cases.push_back({"aten::_adaptive_avg_pool3d", "", {T(f16, {2, 4, 9, 9}), L({1, 1, 1})}, exact});
  const std::size_t valid = cases.size();
  // both throw: 3-D input, a pad above half the kernel, a kernel above the input,
  // zero stride, integral max pool, a wrong kernel list, a zero divisor, an empty dimension
  cases.push_back({"aten::avg_pool3d", "", {T(f32, {4, 5, 6}), L({2}), L({2}), L({0}), B(false), B(true), None()}});
  cases.push_back({"aten::avg_pool3d", "", {T(f32, {1, 2, 4, 5, 6}), L({2}), L({2}), L({2}), B(false), B(true), None()}});
  cases.push_back({"aten::avg_pool3d", "", {T(f32, {1, 2, 2, 5, 6}), L({3}), L({1}), L({1}), B(false), B(true), None()}});
  cases.push_back({"aten::avg_pool3d", "", {T(f32, {1, 2, 4, 5, 6}), L({2}), L({2}), L({0}), B(false), B(true), I(0)}});
  cases.push_back({"aten::max_pool3d_with_indices", "", {T(f32, {1, 2, 4, 5, 6}), L({2}), L({0}), L({0}), L({1}), B(false)}});
  cases.push_back({"aten::max_pool3d_with_indices", "", {T(i64, {1, 2, 4, 5, 6}), L({2}), L({}), L({0}), L({1}), B(false)}});
  cases.push_back({"aten::max_pool3d_with_indices", "", {T(f32, {1, 2, 4, 5, 6}), L({2, 2}), L({}), L({0}), L({1}), B(false)}});
  cases.push_back({"aten::max_pool3d_with_indices", "", {T(f32, {1, 2, 0, 5, 6}), L({2}), L({}), L({0}), L({1}), B(false)}});
  cases.push_back({"aten::_adaptive_avg_pool3d", "", {T(f32, {4, 5, 6}), L({2, 2, 2})}});
  cases.push_back({"aten::_adaptive_avg_pool3d", "", {T(f32, {1, 2, 0, 5, 6}), L({2, 2, 2})}});
  cases.push_back({"aten::_adaptive_avg_pool3d", "", {T(i64, {1, 2, 4, 5, 6}), L({2, 2, 2})}});
  check_computed(cases, valid);
}

// Indices into volumes of `volume` elements, as max_pool3d_with_indices
// gives them, with repeats (overlapping windows pick one element twice).
RawTensor pool_indices(std::vector<int64_t> sizes, int64_t volume) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<int64_t> v;
  for (int64_t k = 0; k < n; ++k) v.push_back((k * 7 + k / 3) % volume);
  return long_tensor(std::move(sizes), v);
}

// The 3-D pools' backward kernels: grad_output of the pool's output sizes
// added into zeros of self's. Windows overlap (stride below the kernel), so
// several outputs add into one element in an order that shows in the
// rounding (values of varied magnitude); exact against ATen's loops.
TEST(CoreAtenMoreTorchDiff, Pools3dBackward) {
  std::vector<Case> cases;
  const Tolerance exact{.ulp = 0};
  for (int dt : {f32, f64}) {
    for (Layout layout : all_layouts) {
      // avg_pool3d(2x3x5x6x7, k 3, s 2, p 1) -> 3x3x4
      cases.push_back({"aten::avg_pool3d_backward", "",
                       {T(dt, {2, 3, 3, 3, 4}, layout, Fill::special, 2), T(dt, {2, 3, 5, 6, 7}), L({3}), L({2}), L({1}),
                        B(false), B(true), None()}, exact});
      cases.push_back({"aten::max_pool3d_with_indices_backward", "",
                       {T(dt, {2, 3, 3, 3, 4}, layout, Fill::special, 2), T(dt, {2, 3, 5, 6, 7}), L({3}), L({2}), L({1}),
                        L({1}), B(false), T(pool_indices({2, 3, 3, 3, 4}, 5 * 6 * 7))}, exact});
      cases.push_back({"aten::_adaptive_avg_pool3d_backward", "",
                       {T(dt, {2, 3, 4, 4, 5}, layout, Fill::special, 2), T(dt, {2, 3, 5, 6, 7})}, exact});
    }
    // ceil_mode (a last window past the input), count_include_pad off, divisor_override, unbatched
    cases.push_back({"aten::avg_pool3d_backward", "",
                     {T(dt, {3, 5, 3, 3}), T(dt, {3, 4, 5, 6}), L({2, 3, 2}), L({1, 2, 2}), L({1, 1, 0}), B(true),
                      B(false), None()}, exact});
    cases.push_back({"aten::avg_pool3d_backward", "",
                     {T(dt, {1, 2, 2, 2, 2}), T(dt, {1, 2, 4, 4, 4}), L({2}), L({}), L({0}), B(false), B(true), I(3)}, exact});
    // windows that tile each row (kernel == stride) with clipped edges
    cases.push_back({"aten::avg_pool3d_backward", "",
                     {T(dt, {2, 3, 3, 4, 6}, Layout::contiguous, Fill::special, 2), T(dt, {2, 3, 5, 6, 11}), L({2}),
                      L({2}), L({1}), B(true), B(false), None()}, exact});
    cases.push_back({"aten::avg_pool3d_backward", "grad_input",
                     {T(dt, {1, 2, 3, 3, 4}), T(dt, {1, 2, 4, 5, 6}), L({3}), L({2}), L({1}), B(true), B(true), None(),
                      T(dt, {0})}, exact});
    cases.push_back({"aten::max_pool3d_with_indices_backward", "grad_input",
                     {T(dt, {2, 3, 3, 4}), T(dt, {2, 4, 5, 6}), L({2}), L({}), L({1}), L({1}), B(false),
                      T(pool_indices({2, 3, 3, 4}, 4 * 5 * 6)), T(dt, {0})}, exact});
    // output above the input (windows overlap), global pooling, unbatched, out=
    cases.push_back({"aten::_adaptive_avg_pool3d_backward", "", {T(dt, {1, 2, 5, 6, 3}), T(dt, {1, 2, 3, 4, 2})}, exact});
    cases.push_back({"aten::_adaptive_avg_pool3d_backward", "", {T(dt, {2, 1, 1, 1}), T(dt, {2, 3, 4, 5})}, exact});
    cases.push_back({"aten::_adaptive_avg_pool3d_backward", "out",
                     {T(dt, {1, 2, 2, 2, 2}), T(dt, {1, 2, 3, 5, 4}), T(dt, {0})}, exact});
  }
  cases.push_back({"aten::avg_pool3d_backward", "",
                   {T(i64, {1, 2, 3, 3, 4}), T(i64, {1, 2, 4, 5, 6}), L({2}), L({2}), L({1}), B(false), B(true), None()}});
  for (Layout layout : all_layouts)
    cases.push_back({"aten::_adaptive_avg_pool3d_backward", "", {T(f16, {2, 3, 4, 4, 5}, layout), T(f16, {2, 3, 5, 6, 7})}, exact});
  const std::size_t valid = cases.size();
  // both throw: a grad_output of the wrong size, dtypes that differ, float indices,
  // indices of the wrong size, a zero divisor, Half and BFloat16 where ATen refuses them
  const Value x = T(f32, {1, 2, 4, 4, 4});
  cases.push_back({"aten::avg_pool3d_backward", "", {T(f32, {1, 2, 2, 2, 3}), x, L({2}), L({2}), L({0}), B(false), B(true), None()}});
  cases.push_back({"aten::avg_pool3d_backward", "", {T(f32, {1, 3, 2, 2, 2}), x, L({2}), L({2}), L({0}), B(false), B(true), None()}});
  cases.push_back({"aten::avg_pool3d_backward", "", {T(f64, {1, 2, 2, 2, 2}), x, L({2}), L({2}), L({0}), B(false), B(true), None()}});
  cases.push_back({"aten::avg_pool3d_backward", "", {T(f32, {1, 2, 2, 2, 2}), x, L({2}), L({2}), L({0}), B(false), B(true), I(0)}});
  cases.push_back({"aten::avg_pool3d_backward", "",
                   {T(f16, {1, 2, 2, 2, 2}), T(f16, {1, 2, 4, 4, 4}), L({2}), L({2}), L({0}), B(false), B(true), None()}});
  const RawTensor idx = pool_indices({1, 2, 2, 2, 2}, 64);
  cases.push_back({"aten::max_pool3d_with_indices_backward", "",
                   {T(f32, {1, 2, 2, 2, 3}), x, L({2}), L({2}), L({0}), L({1}), B(false), T(idx)}});
  cases.push_back({"aten::max_pool3d_with_indices_backward", "",
                   {T(f32, {1, 2, 2, 2, 2}), x, L({2}), L({2}), L({0}), L({1}), B(false), T(f32, {1, 2, 2, 2, 2})}});
  cases.push_back({"aten::max_pool3d_with_indices_backward", "",
                   {T(f64, {1, 2, 2, 2, 2}), x, L({2}), L({2}), L({0}), L({1}), B(false), T(idx)}});
  cases.push_back({"aten::max_pool3d_with_indices_backward", "",
                   {T(f32, {1, 2, 2, 2, 2}), x, L({2}), L({2}), L({0}), L({1}), B(false), T(pool_indices({1, 2, 2, 2, 1}, 64))}});
  cases.push_back({"aten::_adaptive_avg_pool3d_backward", "", {T(f64, {1, 2, 2, 2, 2}), x}});
  cases.push_back({"aten::_adaptive_avg_pool3d_backward", "", {T(bf16, {1, 2, 2, 2, 2}), T(bf16, {1, 2, 4, 4, 4})}});
  check_computed(cases, valid);
}

// im2col, col2im's adjoint: the sliding blocks as columns, zeros in the padding.
TEST(CoreAtenMoreTorchDiff, Im2col) {
  std::vector<Case> cases;
  const Tolerance exact{.ulp = 0};
  for (int dt : {f32, f64}) {
    for (Layout layout : all_layouts)
      cases.push_back({"aten::im2col", "", {T(dt, {2, 3, 5, 6}, layout), L({2, 3}), L({1, 1}), L({0, 0}), L({1, 1})}, exact});
    cases.push_back({"aten::im2col", "", {T(dt, {1, 2, 7, 6}), L({3, 2}), L({2, 1}), L({1, 2}), L({2, 3})}, exact});
    cases.push_back({"aten::im2col", "", {T(dt, {2, 4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}, exact});
    cases.push_back({"aten::im2col", "", {T(dt, {0, 2, 4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}, exact});
    cases.push_back({"aten::im2col", "out", {T(dt, {1, 2, 4, 4}), L({2, 2}), L({1, 1}), L({1, 1}), L({2, 2}), T(dt, {0})}, exact});
  }
  cases.push_back({"aten::im2col", "", {T(bf16, {1, 2, 4, 5}), L({2, 2}), L({1, 1}), L({1, 0}), L({1, 2})}, exact});
  const std::size_t valid = cases.size();
  // both throw: a zero kernel, a negative padding, blocks larger than the input, a 2-D input,
  // an empty channel dimension, an integral input
  cases.push_back({"aten::im2col", "", {T(f32, {1, 2, 4, 4}), L({0, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  cases.push_back({"aten::im2col", "", {T(f32, {1, 2, 4, 4}), L({2, 2}), L({1, 1}), L({-1, 0}), L({1, 1})}});
  cases.push_back({"aten::im2col", "", {T(f32, {1, 2, 4, 4}), L({5, 5}), L({1, 1}), L({0, 0}), L({1, 1})}});
  cases.push_back({"aten::im2col", "", {T(f32, {4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  cases.push_back({"aten::im2col", "", {T(f32, {1, 0, 4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  cases.push_back({"aten::im2col", "", {T(i64, {1, 2, 4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  check_computed(cases, valid);
}

TEST(CoreAtenMoreTorchDiff, Col2im) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    // (N, C*kh*kw, L): C = 2, kernel 2x3, output 5x6, stride 1, no padding: L = 4 * 4
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::col2im", "", {T(dt, {2, 12, 16}, layout), L({5, 6}), L({2, 3}), L({1, 1}), L({0, 0}), L({1, 1})}, t});
    }
    // padding, stride, dilation: output 7x6, kernel 3x2, dilation (2, 1), padding (1, 2), stride (2, 3):
    // blocks ((7 + 2 - 4 - 1) / 2 + 1) x ((6 + 4 - 1 - 1) / 3 + 1) = 3 x 3
    cases.push_back({"aten::col2im", "", {T(dt, {1, 18, 9}), L({7, 6}), L({3, 2}), L({2, 1}), L({1, 2}), L({2, 3})}, t});
    // unbatched, an empty batch, out=
    cases.push_back({"aten::col2im", "", {T(dt, {8, 9}), L({4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}, t});
    cases.push_back({"aten::col2im", "", {T(dt, {0, 8, 9}), L({4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}, t});
    cases.push_back({"aten::col2im", "out",
                     {T(dt, {2, 8, 4}), L({4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({2, 2}), T(dt, {0})}, t});
  }
  const std::size_t valid = cases.size();
  // both throw: L not the number of blocks, C*kh*kw not divisible, a zero kernel,
  // a negative padding, 4-D input, integral input
  cases.push_back({"aten::col2im", "", {T(f32, {1, 8, 8}), L({4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  cases.push_back({"aten::col2im", "", {T(f32, {1, 7, 9}), L({4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  cases.push_back({"aten::col2im", "", {T(f32, {1, 8, 9}), L({4, 4}), L({0, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  cases.push_back({"aten::col2im", "", {T(f32, {1, 8, 9}), L({4, 4}), L({2, 2}), L({1, 1}), L({-1, 0}), L({1, 1})}});
  cases.push_back({"aten::col2im", "", {T(f32, {1, 1, 8, 9}), L({4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  cases.push_back({"aten::col2im", "", {T(i64, {1, 8, 9}), L({4, 4}), L({2, 2}), L({1, 1}), L({0, 0}), L({1, 1})}});
  check_computed(cases, valid);
}

TEST(CoreAtenMoreTorchDiff, Distances) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (double p : {0.0, 1.0, 2.0, 3.0, 0.5, std::numeric_limits<double>::infinity()}) {
      for (Layout layout : all_layouts) {
        cases.push_back({"aten::_cdist_forward", "", {T(dt, {4, 5}, layout), T(dt, {3, 5}, Layout::contiguous, Fill::standard, 2), D(p), None()}, t});
      }
      // broadcast batch dimensions, compute_mode 2 (never the matrix product)
      cases.push_back({"aten::_cdist_forward", "",
                       {T(dt, {2, 1, 3, 4}), T(dt, {3, 2, 4}, Layout::contiguous, Fill::standard, 2), D(p), I(2)}, t});
      cases.push_back({"aten::_pdist_forward", "", {T(dt, {6, 4}), D(p)}, t});
      // pdist's gradient (pdist positive: a distance; the pairs' own, ties and zeros: the autograd tests)
      cases.push_back({"aten::_pdist_backward", "",
                       {T(dt, {15}, Layout::contiguous, Fill::standard, 3), T(dt, {6, 4}), D(p), T(dt, {15}, Layout::contiguous, Fill::positive, 4)}, t});
    }
    // p = 2 through the matrix product: compute_mode 1, or more than 25 rows in mode 0 (and None)
    cases.push_back({"aten::_cdist_forward", "", {T(dt, {4, 3}), T(dt, {5, 3}, Layout::contiguous, Fill::standard, 2), D(2), I(1)}, t});
    cases.push_back({"aten::_cdist_forward", "", {T(dt, {30, 3}), T(dt, {5, 3}, Layout::contiguous, Fill::standard, 2), D(2), None()}, t});
    cases.push_back({"aten::_cdist_forward", "", {T(dt, {2, 3, 2}), T(dt, {2, 27, 2}, Layout::transposed, Fill::standard, 2), D(2), I(0)}, t});
    // empty rows, no columns; pdist of one row, of rows without columns
    cases.push_back({"aten::_cdist_forward", "", {T(dt, {0, 3}), T(dt, {5, 3}), D(2), None()}, t});
    cases.push_back({"aten::_cdist_forward", "", {T(dt, {4, 0}), T(dt, {5, 0}), D(1), None()}, t});
    cases.push_back({"aten::_pdist_forward", "", {T(dt, {1, 3}), D(2)}, t});
    cases.push_back({"aten::_pdist_forward", "", {T(dt, {4, 0}), D(2)}, t});
    cases.push_back({"aten::_pdist_forward", "", {T(dt, {40, 3}), D(2)}, t});
    // p = 2 rows long enough for the vectorized distances (whole vectors of every width and a tail),
    // and enough pairs per row for the vectorized square roots
    cases.push_back({"aten::_pdist_forward", "", {T(dt, {20, 37}), D(2)}, t});
    cases.push_back({"aten::_cdist_forward", "", {T(dt, {30, 37}), T(dt, {21, 37}, Layout::contiguous, Fill::standard, 2), D(2), None()}, t});
    // a strided grad; one row; rows without columns; more columns than a vector
    cases.push_back({"aten::_pdist_backward", "", {T(dt, {10}, Layout::sliced, Fill::standard, 3), T(dt, {5, 3}), D(1.5),
                                                   T(dt, {10}, Layout::contiguous, Fill::positive, 4)}, t});
    cases.push_back({"aten::_pdist_backward", "", {T(dt, {0}), T(dt, {1, 3}), D(2), T(dt, {0})}, t});
    cases.push_back({"aten::_pdist_backward", "", {T(dt, {6}), T(dt, {4, 0}), D(2), T(dt, {6}, Layout::contiguous, Fill::positive, 4)}, t});
    cases.push_back({"aten::_pdist_backward", "", {T(dt, {3}), T(dt, {3, 37}), D(2), T(dt, {3}, Layout::contiguous, Fill::positive, 4)}, t});
  }
  const std::size_t valid = cases.size();
  // both throw: a 1-D input, columns that differ, integral, a negative p, a mode of 3;
  // _pdist_forward of a non-contiguous input, of an integral one
  cases.push_back({"aten::_cdist_forward", "", {T(f32, {4}), T(f32, {3, 4}), D(2), None()}});
  cases.push_back({"aten::_cdist_forward", "", {T(f32, {4, 3}), T(f32, {3, 4}), D(2), None()}});
  cases.push_back({"aten::_cdist_forward", "", {T(i64, {4, 3}), T(i64, {3, 3}), D(2), None()}});
  cases.push_back({"aten::_cdist_forward", "", {T(f32, {4, 3}), T(f32, {3, 3}), D(-1), None()}});
  cases.push_back({"aten::_cdist_forward", "", {T(f32, {4, 3}), T(f32, {3, 3}), D(2), I(3)}});
  cases.push_back({"aten::_pdist_forward", "", {T(f32, {4, 3}, Layout::transposed), D(2)}});
  cases.push_back({"aten::_pdist_forward", "", {T(i64, {4, 3}), D(2)}});
  // _pdist_backward of a non-contiguous self or pdist, an integral self, grad or pdist in another dtype
  cases.push_back({"aten::_pdist_backward", "", {T(f32, {6}), T(f32, {4, 3}, Layout::transposed), D(2), T(f32, {6}, Layout::contiguous, Fill::positive)}});
  cases.push_back({"aten::_pdist_backward", "", {T(f32, {6}), T(f32, {4, 3}), D(2), T(f32, {6}, Layout::sliced, Fill::positive)}});
  cases.push_back({"aten::_pdist_backward", "", {T(i64, {6}), T(i64, {4, 3}), D(2), T(i64, {6})}});
  cases.push_back({"aten::_pdist_backward", "", {T(f64, {6}), T(f32, {4, 3}), D(2), T(f32, {6}, Layout::contiguous, Fill::positive)}});
  cases.push_back({"aten::_pdist_backward", "", {T(f32, {6}), T(f32, {4, 3}), D(2), T(f64, {6}, Layout::contiguous, Fill::positive)}});
  check_computed(cases, valid);
}

TEST(CoreAtenMoreTorchDiff, GridSampler2d) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (int64_t interpolation : {0, 1, 2}) {
      for (int64_t padding : {0, 1, 2}) {
        for (bool align_corners : {false, true}) {
          // grid in [-3, 3]: most samples outside the image, where the padding modes differ
          cases.push_back({"aten::grid_sampler_2d", "",
                           {T(dt, {2, 3, 5, 6}), T(dt, {2, 4, 3, 2}, Layout::contiguous, Fill::standard, 2),
                            I(interpolation), I(padding), B(align_corners)},
                           t});
          // grid in [-0.5, 0.5]: inside
          cases.push_back({"aten::grid_sampler_2d", "",
                           {T(dt, {1, 2, 4, 7}), T(dt, {1, 5, 4, 2}, Layout::contiguous, Fill::small, 3),
                            I(interpolation), I(padding), B(align_corners)},
                           t});
        }
      }
    }
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::grid_sampler_2d", "",
                       {T(dt, {2, 3, 5, 6}, layout), T(dt, {2, 4, 3, 2}, layout, Fill::small, 4), I(0), I(0), B(false)}, t});
      cases.push_back({"aten::grid_sampler_2d", "",
                       {T(dt, {2, 3, 5, 6}, layout), T(dt, {2, 4, 3, 2}, layout, Fill::standard, 5), I(2), I(2), B(true)}, t});
    }
    // one-pixel image, an empty batch, an empty grid
    cases.push_back({"aten::grid_sampler_2d", "", {T(dt, {1, 2, 1, 1}), T(dt, {1, 3, 3, 2}), I(0), I(2), B(true)}, t});
    cases.push_back({"aten::grid_sampler_2d", "", {T(dt, {0, 2, 3, 3}), T(dt, {0, 3, 3, 2}), I(0), I(0), B(false)}, t});
    cases.push_back({"aten::grid_sampler_2d", "", {T(dt, {1, 2, 3, 3}), T(dt, {1, 0, 3, 2}), I(1), I(1), B(false)}, t});
  }
  const std::size_t valid = cases.size();
  // both throw: dtypes differ, a 3-D input, batch sizes differ, a grid of 3 coordinates,
  // an empty spatial dimension, an integral input
  cases.push_back({"aten::grid_sampler_2d", "", {T(f32, {1, 2, 3, 3}), T(f64, {1, 3, 3, 2}), I(0), I(0), B(false)}});
  cases.push_back({"aten::grid_sampler_2d", "", {T(f32, {2, 3, 3}), T(f32, {1, 3, 3, 2}), I(0), I(0), B(false)}});
  cases.push_back({"aten::grid_sampler_2d", "", {T(f32, {2, 2, 3, 3}), T(f32, {1, 3, 3, 2}), I(0), I(0), B(false)}});
  cases.push_back({"aten::grid_sampler_2d", "", {T(f32, {1, 2, 3, 3}), T(f32, {1, 3, 3, 3}), I(0), I(0), B(false)}});
  cases.push_back({"aten::grid_sampler_2d", "", {T(f32, {1, 2, 0, 3}), T(f32, {1, 3, 3, 2}), I(0), I(0), B(false)}});
  cases.push_back({"aten::grid_sampler_2d", "", {T(i64, {1, 2, 3, 3}), T(i64, {1, 3, 3, 2}), I(0), I(0), B(false)}});
  check_computed(cases, valid);
}

// grid_sampler_2d's backward kernel: the input's gradient (when asked) and
// the grid's, every mode, inside and outside the image; to assert_close's
// tolerance (ATen's CPU kernel is vectorized: its sums round in another order).
TEST(CoreAtenMoreTorchDiff, GridSampler2dBackward) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (int64_t interpolation : {0, 1, 2}) {
      for (int64_t padding : {0, 1, 2}) {
        for (bool align_corners : {false, true}) {
          cases.push_back({"aten::grid_sampler_2d_backward", "",
                           {T(dt, {2, 3, 4, 3}, Layout::contiguous, Fill::standard, 6), T(dt, {2, 3, 5, 6}),
                            T(dt, {2, 4, 3, 2}, Layout::contiguous, Fill::standard, 2), I(interpolation), I(padding),
                            B(align_corners), BL({true, true})},
                           t});
          cases.push_back({"aten::grid_sampler_2d_backward", "",
                           {T(dt, {1, 2, 5, 4}, Layout::contiguous, Fill::standard, 7), T(dt, {1, 2, 4, 7}),
                            T(dt, {1, 5, 4, 2}, Layout::contiguous, Fill::small, 3), I(interpolation), I(padding),
                            B(align_corners), BL({true, true})},
                           t});
        }
      }
    }
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::grid_sampler_2d_backward", "",
                       {T(dt, {2, 3, 4, 3}, layout, Fill::standard, 6), T(dt, {2, 3, 5, 6}, layout),
                        T(dt, {2, 4, 3, 2}, layout, Fill::small, 4), I(0), I(0), B(false), BL({true, true})}, t});
      cases.push_back({"aten::grid_sampler_2d_backward", "",
                       {T(dt, {2, 3, 4, 3}, layout, Fill::standard, 6), T(dt, {2, 3, 5, 6}, layout),
                        T(dt, {2, 4, 3, 2}, layout, Fill::standard, 5), I(2), I(2), B(true), BL({true, true})}, t});
    }
    // the grid's gradient only; an empty batch; out=
    cases.push_back({"aten::grid_sampler_2d_backward", "",
                     {T(dt, {1, 2, 3, 3}), T(dt, {1, 2, 4, 4}), T(dt, {1, 3, 3, 2}), I(0), I(1), B(false), BL({false, true})}, t});
    cases.push_back({"aten::grid_sampler_2d_backward", "",
                     {T(dt, {0, 2, 3, 3}), T(dt, {0, 2, 4, 4}), T(dt, {0, 3, 3, 2}), I(0), I(0), B(false), BL({true, true})}, t});
    cases.push_back({"aten::grid_sampler_2d_backward", "out",
                     {T(dt, {1, 2, 3, 3}), T(dt, {1, 2, 4, 4}), T(dt, {1, 3, 3, 2}, Layout::contiguous, Fill::small, 2), I(2),
                      I(0), B(true), BL({true, true}), T(dt, {0}), T(dt, {0})}, t});
  }
  const std::size_t valid = cases.size();
  // both throw: dtypes differ, batch sizes differ, a grid of 3 coordinates, Half
  cases.push_back({"aten::grid_sampler_2d_backward", "",
                   {T(f32, {1, 2, 3, 3}), T(f32, {1, 2, 3, 3}), T(f64, {1, 3, 3, 2}), I(0), I(0), B(false), BL({true, true})}});
  cases.push_back({"aten::grid_sampler_2d_backward", "",
                   {T(f32, {1, 2, 3, 3}), T(f32, {2, 2, 3, 3}), T(f32, {1, 3, 3, 2}), I(0), I(0), B(false), BL({true, true})}});
  cases.push_back({"aten::grid_sampler_2d_backward", "",
                   {T(f32, {1, 2, 3, 3}), T(f32, {1, 2, 3, 3}), T(f32, {1, 3, 3, 3}), I(0), I(0), B(false), BL({true, true})}});
  cases.push_back({"aten::grid_sampler_2d_backward", "",
                   {T(f16, {1, 2, 3, 3}), T(f16, {1, 2, 3, 3}), T(f16, {1, 3, 3, 2}), I(0), I(0), B(false), BL({true, true})}});
  check_computed(cases, valid);
}

TEST(CoreAtenMoreTorchDiff, ConvolutionBackward) {
  std::vector<Case> cases;
  const Value all = BL({true, true, true});
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    const auto w = [&](std::vector<int64_t> sizes) { return T(dt, std::move(sizes), Layout::contiguous, Fill::standard, 7); };
    const auto g = [&](std::vector<int64_t> sizes, Layout layout = Layout::contiguous) {
      return T(dt, std::move(sizes), layout, Fill::standard, 8);
    };
    // 2-D, groups, per-dimension stride / padding / dilation; every layout of grad_output and input
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::convolution_backward", "",
                       {g({2, 6, 4, 2}, layout), T(dt, {2, 4, 7, 6}, layout), w({6, 2, 3, 3}), L({6}), L({2, 1}),
                        L({1, 0}), L({1, 2}), B(false), L({0, 0}), I(2), all},
                       t});
    }
    // resnet's 3x3 layer (stride 1, padding 1; Float: oneDNN's backward primitives), every output_mask
    // that keeps grad_weight when grad_bias is asked for (see below)
    for (const Value& mask : {all, BL({true, true, false}), BL({false, true, true}), BL({true, false, false})}) {
      cases.push_back({"aten::convolution_backward", "",
                       {g({2, 8, 6, 7}), T(dt, {2, 5, 6, 7}), w({8, 5, 3, 3}), L({8}), L({1, 1}), L({1, 1}), L({1, 1}),
                        B(false), L({0, 0}), I(1), mask},
                       t});
    }
    // 1-D, 3-D, a 1x1 strided layer
    cases.push_back({"aten::convolution_backward", "",
                     {g({2, 4, 5}), T(dt, {2, 3, 9}), w({4, 3, 3}), L({4}), L({2}), L({1}), L({1}), B(false), L({0}), I(1), all},
                     t});
    cases.push_back({"aten::convolution_backward", "",
                     {g({1, 3, 4, 2, 3}), T(dt, {1, 2, 5, 4, 4}), w({3, 2, 2, 3, 2}), L({3}), L({1, 1, 1}), L({0, 0, 0}),
                      L({1, 1, 1}), B(false), L({0, 0, 0}), I(1), all},
                     t});
    cases.push_back({"aten::convolution_backward", "",
                     {g({2, 4, 3, 3}), T(dt, {2, 8, 5, 5}), w({4, 8, 1, 1}), L({4}), L({2, 2}), L({0, 0}), L({1, 1}),
                      B(false), L({0, 0}), I(1), all},
                     t});
    // transposed: 2-D with output_padding, grouped 1-D with dilation
    cases.push_back({"aten::convolution_backward", "",
                     {g({2, 3, 6, 6}), T(dt, {2, 4, 3, 3}), w({4, 3, 3, 3}), L({3}), L({2, 2}), L({1, 1}), L({1, 1}),
                      B(true), L({1, 1}), I(1), all},
                     t});
    cases.push_back({"aten::convolution_backward", "",
                     {g({1, 4, 14}), T(dt, {1, 4, 5}), w({4, 2, 3}), L({4}), L({2}), L({0}), L({2}), B(true), L({1}), I(2), all},
                     t});
    // output_mask: the masked-out results are undefined (ATen 1.13's oneDNN path, taken for
    // Float, computes grad_weight whenever grad_bias is asked for: Double only)
    if (dt == f64) {
      cases.push_back({"aten::convolution_backward", "",
                       {g({2, 4, 5}), T(dt, {2, 3, 9}), w({4, 3, 3}), None(), L({2}), L({1}), L({1}), B(false), L({0}),
                        I(1), BL({true, false, true})},
                       t});
    }
    cases.push_back({"aten::convolution_backward", "",
                     {g({2, 4, 5}), T(dt, {2, 3, 9}), w({4, 3, 3}), None(), L({2}), L({1}), L({1}), B(false), L({0}), I(1),
                      BL({false, true, false})},
                     t});
  }
  const std::size_t valid = cases.size();
  // both throw: grad_output not the forward's output size, an integral dtype, channels against groups
  cases.push_back({"aten::convolution_backward", "",
                   {T(f32, {2, 4, 4}), T(f32, {2, 3, 9}), T(f32, {4, 3, 3}), None(), L({2}), L({1}), L({1}), B(false),
                    L({0}), I(1), all}});
  cases.push_back({"aten::convolution_backward", "",
                   {T(i64, {2, 4, 5}), T(i64, {2, 3, 9}), T(i64, {4, 3, 3}), None(), L({2}), L({1}), L({1}), B(false),
                    L({0}), I(1), all}});
  cases.push_back({"aten::convolution_backward", "",
                   {T(f32, {2, 4, 5}), T(f32, {2, 3, 9}), T(f32, {4, 3, 3}), None(), L({2}), L({1}), L({1}), B(false),
                    L({0}), I(2), all}});
  check_computed(cases, valid);
}

// A contiguous Int tensor holding exactly `values`.
RawTensor int_tensor(std::vector<int64_t> sizes, const std::vector<int32_t>& values) {
  RawTensor t = long_tensor(std::move(sizes), std::vector<int64_t>(values.size(), 0));
  t.dtype = i32;
  t.storage.resize(values.size() * sizeof(int32_t));
  std::memcpy(t.storage.data(), values.data(), t.storage.size());
  return t;
}

TEST(CoreAtenMoreTorchDiff, EmbeddingBag) {
  std::vector<Case> cases;
  // 7 indices into 6 rows, 3 bags (the second empty) and a last one to the end
  const RawTensor indices = long_tensor({7}, {1, 4, 4, 0, 5, 2, 4});
  const RawTensor offsets = long_tensor({4}, {0, 2, 2, 5});
  const RawTensor offsets_last = long_tensor({4}, {0, 2, 2, 7});  // include_last_offset: 3 bags
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (int64_t mode : {0, 1, 2}) {
      for (Layout layout : {Layout::contiguous, Layout::transposed}) {
        cases.push_back({"aten::_embedding_bag", "",
                         {T(dt, {6, 5}, layout), T(indices), T(offsets), B(false), I(mode), B(false), None(), B(false), I(-1)},
                         t});
      }
      cases.push_back({"aten::_embedding_bag", "",
                       {T(dt, {6, 5}), T(indices), T(offsets_last), B(false), I(mode), B(false), None(), B(true), I(-1)}, t});
      // padding_idx 4: its rows left out of the bags (and of their sizes)
      cases.push_back({"aten::_embedding_bag", "",
                       {T(dt, {6, 5}), T(indices), T(offsets), B(false), I(mode), B(false), None(), B(false), I(4)}, t});
    }
    // rows of 37: the vectorized add row (whole vectors of every width and a tail), sum and mean
    for (int64_t mode : {0, 1})
      cases.push_back({"aten::_embedding_bag", "",
                       {T(dt, {6, 37}), T(indices), T(offsets), B(false), I(mode), B(false), None(), B(false), I(-1)}, t});
    cases.push_back({"aten::_embedding_bag", "",
                     {T(dt, {6, 5}), T(indices), T(offsets), B(false), I(0), B(false), T(dt, {7}), B(false), I(-1)}, t});
    // per_sample_weights with padding_idx; Int indices and offsets (Int results), Int with Long (promoted)
    cases.push_back({"aten::_embedding_bag", "",
                     {T(dt, {6, 5}), T(indices), T(offsets), B(false), I(0), B(false), T(dt, {7}), B(false), I(0)}, t});
    for (int64_t mode : {0, 1, 2}) {
      cases.push_back({"aten::_embedding_bag", "",
                       {T(dt, {6, 5}), T(int_tensor({7}, {1, 4, 4, 0, 5, 2, 4})), T(int_tensor({4}, {0, 2, 2, 5})),
                        B(false), I(mode), B(false), None(), B(false), I(-1)},
                       t});
      cases.push_back({"aten::_embedding_bag", "",
                       {T(dt, {6, 5}), T(int_tensor({7}, {1, 4, 4, 0, 5, 2, 4})), T(offsets), B(false), I(mode),
                        B(false), None(), B(false), I(2)},
                       t});
    }
    // no indices: every bag empty
    cases.push_back({"aten::_embedding_bag", "",
                     {T(dt, {6, 5}), T(long_tensor({0}, {})), T(long_tensor({2}, {0, 0})), B(false), I(1), B(false),
                      None(), B(false), I(-1)},
                     t});
  }
  const std::size_t valid = cases.size();
  // both throw: an index out of range, offsets[0] not 0, per_sample_weights with mode mean,
  // an integral weight, Float indices
  cases.push_back({"aten::_embedding_bag", "",
                   {T(f32, {6, 5}), T(long_tensor({3}, {1, 6, 0})), T(long_tensor({1}, {0})), B(false), I(0), B(false),
                    None(), B(false), I(-1)}});
  cases.push_back({"aten::_embedding_bag", "",
                   {T(f32, {6, 5}), T(indices), T(long_tensor({2}, {1, 3})), B(false), I(0), B(false), None(), B(false), I(-1)}});
  cases.push_back({"aten::_embedding_bag", "",
                   {T(f32, {6, 5}), T(indices), T(offsets), B(false), I(1), B(false), T(f32, {7}), B(false), I(-1)}});
  cases.push_back({"aten::_embedding_bag", "",
                   {T(i64, {6, 5}), T(indices), T(offsets), B(false), I(0), B(false), None(), B(false), I(-1)}});
  cases.push_back({"aten::_embedding_bag", "",
                   {T(f32, {6, 5}), T(f32, {7}), T(offsets), B(false), I(0), B(false), None(), B(false), I(-1)}});
  check_computed(cases, valid);
}

// The backward kernels on the auxiliary results the forward gives for offsets {0, 2, 2, 5} (bags
// {1, 4}, {}, {4, 0, 5, 2, 4}): dense (sum, mean with bag sizes, max with maximum indices; padding_idx;
// scale_grad_by_freq as ATen 1.13 scales), the composite _embedding_bag_backward (offset2bag made
// from offsets when empty: the sum fast path's), per_sample_weights' (offset2bag given or empty).
TEST(CoreAtenMoreTorchDiff, EmbeddingBagBackward) {
  std::vector<Case> cases;
  const RawTensor indices = long_tensor({7}, {1, 4, 4, 0, 5, 2, 4});
  const RawTensor offsets = long_tensor({3}, {0, 2, 2});
  const RawTensor offset2bag = long_tensor({7}, {0, 0, 2, 2, 2, 2, 2}), none_made = long_tensor({0}, {});
  const RawTensor bag_size = long_tensor({3}, {2, 0, 5}), no_max = long_tensor({3}, {0, 0, 0});
  const RawTensor max_indices = long_tensor({3, 4}, {1, 4, 1, 1, 0, 0, 0, 0, 5, 2, 4, 0});
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (bool freq : {false, true}) {
      for (int64_t padding : {-1, 4}) {
        for (int64_t mode : {0, 1}) {
          cases.push_back({"aten::_embedding_bag_dense_backward", "",
                           {T(dt, {3, 4}), T(indices), T(offset2bag), T(bag_size), T(no_max), I(6), B(freq), I(mode), None(),
                            I(padding)},
                           t});
          cases.push_back({"aten::_embedding_bag_backward", "",
                           {T(dt, {3, 4}), T(indices), T(offsets), T(mode == 0 ? none_made : offset2bag), T(bag_size),
                            T(no_max), I(6), B(freq), I(mode), B(false), None(), I(padding)},
                           t});
        }
        cases.push_back({"aten::_embedding_bag_dense_backward", "",
                         {T(dt, {3, 4}), T(indices), T(offset2bag), T(bag_size), T(no_max), I(6), B(freq), I(0),
                          T(dt, {7}, Layout::contiguous, Fill::standard, 2), I(padding)},
                         t});
      }
    }
    cases.push_back({"aten::_embedding_bag_dense_backward", "",
                     {T(dt, {3, 4}), T(indices), T(offset2bag), T(bag_size), T(max_indices), I(6), B(false), I(2), None(), I(-1)}, t});
    cases.push_back({"aten::_embedding_bag_dense_backward", "",
                     {T(dt, {3, 4}, Layout::transposed), T(indices), T(offset2bag), T(bag_size), T(no_max), I(6), B(false), I(1),
                      None(), I(-1)},
                     t});
    for (int64_t padding : {-1, 4}) {
      for (const RawTensor* o2b : {&offset2bag, &none_made}) {
        cases.push_back({"aten::_embedding_bag_per_sample_weights_backward", "",
                         {T(dt, {3, 4}), T(dt, {6, 4}, Layout::contiguous, Fill::standard, 2), T(indices), T(offsets), T(*o2b),
                          I(0), I(padding)},
                         t});
      }
    }
    cases.push_back({"aten::_embedding_bag_per_sample_weights_backward", "",
                     {T(dt, {3, 4}, Layout::transposed), T(dt, {6, 4}, Layout::sliced, Fill::standard, 2), T(indices), T(offsets),
                      T(offset2bag), I(0), I(-1)},
                     t});
  }
  const std::size_t valid = cases.size();
  // both throw: per_sample_weights' gradient in mode mean; an integral grad; Float indices
  cases.push_back({"aten::_embedding_bag_per_sample_weights_backward", "",
                   {T(f32, {3, 4}), T(f32, {6, 4}), T(indices), T(offsets), T(offset2bag), I(1), I(-1)}});
  cases.push_back({"aten::_embedding_bag_dense_backward", "",
                   {T(i64, {3, 4}), T(indices), T(offset2bag), T(bag_size), T(no_max), I(6), B(false), I(0), None(), I(-1)}});
  cases.push_back({"aten::_embedding_bag_per_sample_weights_backward", "",
                   {T(f32, {3, 4}), T(f32, {6, 4}), T(f32, {7}), T(offsets), T(offset2bag), I(0), I(-1)}});
  check_computed(cases, valid);
}

}  // namespace
