// The Core ATen operators added for issue 25 against libtorch 1.13 through
// the differential harness (diff/README.md), part of
// kernels_models_torch_diff_test: the inverse hyperbolic functions, elu,
// leaky_relu, scatter_add, scalar_tensor, full_like, _local_scalar_dense,
// reflection / replication / constant padding, the average pools' backward,
// _adaptive_avg_pool2d, the 1-D pools, native_group_norm and its backward,
// native_layer_norm_backward, upsample_nearest2d / upsample_bilinear2d,
// embedding_dense_backward, masked_scatter. float32 and float64, every layout of the
// harness (contiguous, transposed, expanded, sliced), edge shapes, out= and
// in-place variants, and cases where both sides must throw. Tolerances as
// torch.testing.assert_close's (float32 rtol 1.3e-6, atol 1e-5; float64
// rtol 1e-7, atol 1e-7).
#include <cstring>

#include "diff.hpp"

using namespace diff;

namespace {

// BFloat16 results. The library computes them in float and rounds once: to 1
// ulp of libtorch's float computation rounded (torch_in_float; 1, as the float
// sums may differ in order). ATen 1.13 rounds weights, products and sums to
// BFloat16 as it goes: on inputs in [-3, 3] that errs by up to about 0.06 (measured
// against float64 with python3-torch), which bf16_tol admits.
const Tolerance bf16_float_tol{.ulp = 1};
const Tolerance bf16_tol{.ulp = 2, .atol = 1.0 / 16, .rtol = 1.6e-2};

TEST(CoreAtenTorchDiff, InverseHyperbolic) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::acosh", "", {T(dt, {3, 5}, layout, Fill::positive)}, assert_close_tolerance(dt)});
      cases.push_back({"aten::asinh", "", {T(dt, {3, 5}, layout, Fill::special)}, assert_close_tolerance(dt)});
      cases.push_back({"aten::atanh", "", {T(dt, {3, 5}, layout, Fill::small)}, assert_close_tolerance(dt)});
    }
    cases.push_back({"aten::acosh", "", {T(dt, {7}, Layout::contiguous, Fill::special)}, assert_close_tolerance(dt)});  // NaN below 1
    cases.push_back({"aten::atanh", "", {T(dt, {7}, Layout::contiguous, Fill::special)}, assert_close_tolerance(dt)});  // +-inf at +-1
    cases.push_back({"aten::asinh_", "", {T(dt, {4, 3}, Layout::transposed)}, assert_close_tolerance(dt)});
    cases.push_back({"aten::atanh", "out", {T(dt, {2, 3}, Layout::contiguous, Fill::small), T(dt, {0})}, assert_close_tolerance(dt)});
  }
  cases.push_back({"aten::asinh", "", {T(i64, {5})}, assert_close_tolerance(f32)});  // integral: the default dtype
  cases.push_back({"aten::acosh", "", {T(f32, {0, 3})}});
  cases.push_back({"aten::acosh_", "", {T(i64, {3})}});  // both throw: a Float result into Long
  check_all(cases);
}

TEST(CoreAtenTorchDiff, EluAndLeakyRelu) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::elu", "", {T(dt, {3, 5}, layout, Fill::special), I(1), I(1), I(1)}, assert_close_tolerance(dt)});
      cases.push_back({"aten::leaky_relu", "", {T(dt, {3, 5}, layout, Fill::special), D(0.01)}, assert_close_tolerance(dt)});
    }
    cases.push_back({"aten::elu", "", {T(dt, {4, 4}), D(0.5), D(1.0507), D(2.0)}, assert_close_tolerance(dt)});  // scaled
    cases.push_back({"aten::elu_", "", {T(dt, {4, 4}, Layout::transposed), D(1.6732), D(1.0507), I(1)}, assert_close_tolerance(dt)});
    cases.push_back({"aten::elu", "out", {T(dt, {6}), I(2), I(1), D(0.5), T(dt, {0})}, assert_close_tolerance(dt)});
    cases.push_back({"aten::leaky_relu_", "", {T(dt, {2, 3, 4}, Layout::sliced), D(0.2)}, assert_close_tolerance(dt)});
    cases.push_back({"aten::leaky_relu", "out", {T(dt, {5}), D(-3.0), T(dt, {5})}, assert_close_tolerance(dt)});
  }
  cases.push_back({"aten::elu", "", {T(f32, {})  , I(1), I(1), I(1)}, assert_close_tolerance(f32)});  // 0-dim
  cases.push_back({"aten::elu", "", {T(i64, {4}), I(1), I(1), I(1)}});              // both throw
  cases.push_back({"aten::leaky_relu", "", {T(i32, {4}), D(0.1)}});                 // both throw
  check_all(cases);
}

TEST(CoreAtenTorchDiff, ScatterAdd) {
  std::vector<Case> cases;
  const RawTensor idx0 = long_tensor({2, 4}, {0, 2, 1, 2, 2, 2, 0, 1});  // repeated targets accumulate
  const RawTensor idx1 = long_tensor({3, 2}, {4, 0, 1, 1, 3, 4});
  for (int dt : {f32, f64, i64}) {
    const Tolerance t = dt == i64 ? Tolerance{} : assert_close_tolerance(dt);
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::scatter_add", "", {T(dt, {3, 5}, layout), I(0), T(idx0), T(dt, {2, 5})}, t});
      cases.push_back({"aten::scatter_add", "", {T(dt, {3, 5}), I(1), T(idx1), T(dt, {3, 4}, layout)}, t});
    }
    cases.push_back({"aten::scatter_add_", "", {T(dt, {3, 5}), I(-1), T(idx1), T(dt, {3, 2})}, t});
    cases.push_back({"aten::scatter_add", "out", {T(dt, {3, 5}), I(0), T(idx0), T(dt, {2, 4}), T(dt, {3, 5})}, t});
  }
  cases.push_back({"aten::scatter_add", "", {T(f32, {3, 5}), I(0), T(long_tensor({1, 2}, {3, 0})), T(f32, {1, 2})}});  // both throw
  cases.push_back({"aten::scatter_add", "", {T(f32, {3, 5}), I(2), T(idx0), T(f32, {2, 5})}});  // both throw: dim
  cases.push_back({"aten::scatter_add", "", {T(f32, {3, 5}), I(0), T(idx0), T(f64, {2, 5})}});  // both throw: dtype
  check_all(cases);
}

TEST(CoreAtenTorchDiff, ScalarsAndFullLike) {
  std::vector<Case> cases;
  cases.push_back({"aten::scalar_tensor", "", {D(2.5), None(), None(), None(), None()}});
  cases.push_back({"aten::scalar_tensor", "", {I(3), None(), None(), None(), None()}});  // the default dtype, Float
  cases.push_back({"aten::scalar_tensor", "", {I(7), ScalarT(i64), None(), None(), None()}});
  cases.push_back({"aten::scalar_tensor", "", {B(true), ScalarT(f64), None(), None(), None()}});
  for (int dt : {f32, f64, i64, b8}) {
    cases.push_back({"aten::_local_scalar_dense", "", {T(dt, {1})}});
    cases.push_back({"aten::_local_scalar_dense", "", {T(dt, {1, 1, 1}, Layout::expanded, Fill::special, 3)}});
    cases.push_back({"aten::full_like", "", {T(dt, {3, 4}, Layout::transposed), I(1), None(), None(), None(), None(), None()}});
  }
  cases.push_back({"aten::_local_scalar_dense", "", {T(f32, {2, 3}, Layout::sliced)}});  // the first element, as ATen
  cases.push_back({"aten::full_like", "", {T(f32, {2, 3}), D(-1.5), ScalarT(f64), None(), None(), None(), None()}});
  cases.push_back({"aten::full_like", "", {T(i32, {0, 3}), I(4), None(), None(), None(), None(), None()}});
  check_all(cases);
}

TEST(CoreAtenTorchDiff, Padding) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    for (const char* op : {"aten::reflection_pad1d", "aten::replication_pad1d"}) {
      for (Layout layout : all_layouts) cases.push_back({op, "", {T(dt, {2, 3, 6}, layout), L({2, 3})}});
      cases.push_back({op, "", {T(dt, {3, 6}), L({-1, 5})}});  // unbatched, a negative pad crops
      cases.push_back({op, "", {T(dt, {0, 3, 6}), L({1, 1})}});  // empty batch
      cases.push_back({op, "out", {T(dt, {1, 2, 5}), L({4, 0}), T(dt, {0})}});
    }
    for (const char* op : {"aten::reflection_pad2d", "aten::replication_pad2d"}) {
      for (Layout layout : all_layouts) cases.push_back({op, "", {T(dt, {2, 3, 5, 6}, layout), L({1, 2, 3, 0})}});
      cases.push_back({op, "", {T(dt, {3, 4, 4}), L({3, 3, -2, 1})}});
      cases.push_back({op, "out", {T(dt, {1, 1, 3, 3}), L({2, 2, 2, 2}), T(dt, {1})}});
    }
    for (const char* op : {"aten::reflection_pad3d", "aten::replication_pad3d"}) {
      for (Layout layout : all_layouts) cases.push_back({op, "", {T(dt, {1, 2, 3, 4, 5}, layout), L({1, 1, 2, 0, 1, 2})}});
      cases.push_back({op, "", {T(dt, {2, 3, 3, 3}), L({2, 0, 0, 2, 1, 1})}});
      cases.push_back({op, "out", {T(dt, {1, 1, 2, 2, 2}), L({1, 1, 1, 1, 1, 1}), T(dt, {0})}});
    }
    // constant_pad_nd: positive, negative and mixed pads, fewer pads than dimensions
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::constant_pad_nd", "", {T(dt, {2, 3, 4}, layout), L({1, 2}), D(0.5)}});
      cases.push_back({"aten::constant_pad_nd", "", {T(dt, {2, 3, 4}, layout), L({1, -1, 2, 0}), I(0)}});
    }
    cases.push_back({"aten::constant_pad_nd", "", {T(dt, {2, 3, 4}), L({-1, -1, 0, -2}), I(3)}});  // crop only
    cases.push_back({"aten::constant_pad_nd", "", {T(dt, {2, 3}), L({0, 0, 1, 1}), D(-2)}});
    cases.push_back({"aten::constant_pad_nd", "", {T(dt, {1, 2, 2, 2, 2}), L({1, 1, 1, 1, 1, 1, 1, 1}), I(1)}});
  }
  cases.push_back({"aten::constant_pad_nd", "", {T(i64, {3, 3}), L({1, 1}), I(7)}});
  cases.push_back({"aten::constant_pad_nd", "", {T(b8, {3, 3}), L({0, 1, 1, 0}), B(true)}});
  cases.push_back({"aten::reflection_pad1d", "", {T(i64, {2, 3, 6}), L({2, 3})}});    // both throw: integral
  cases.push_back({"aten::replication_pad2d", "", {T(b8, {2, 3, 6}), L({1, 1, 1, 1})}});
  // both throw: a reflection pad not below its dimension, an output too small,
  // the wrong number of dimensions, an odd pad list, more pads than dimensions
  cases.push_back({"aten::reflection_pad1d", "", {T(f32, {2, 3, 4}), L({4, 0})}});
  cases.push_back({"aten::reflection_pad2d", "", {T(f32, {1, 3, 4, 4}), L({1, 1, 0, 4})}});
  cases.push_back({"aten::replication_pad1d", "", {T(f32, {2, 3, 4}), L({-3, -2})}});
  cases.push_back({"aten::replication_pad2d", "", {T(f32, {4, 4}), L({1, 1, 1, 1})}});
  cases.push_back({"aten::replication_pad3d", "", {T(f32, {1, 1, 2, 2, 2}), L({1, 1, 1, 1})}});
  cases.push_back({"aten::constant_pad_nd", "", {T(f32, {2, 3}), L({1, 1, 1}), I(0)}});
  cases.push_back({"aten::constant_pad_nd", "", {T(f32, {3}), L({1, 1, 1, 1}), I(0)}});
  cases.push_back({"aten::constant_pad_nd", "", {T(f32, {3}), L({-2, -2}), I(0)}});
  check_all(cases);
}

// The pads' backward kernels: grad_output of the padded sizes added into
// self's. Large pads make several outputs read one input (replication: every
// pad element reads the edge; reflection: a pad of in - 1 reads each element
// twice), so the order of the sums shows; values of varied magnitude make a
// different order round differently.
TEST(CoreAtenTorchDiff, PaddingBackward) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance exact{.ulp = 0};
    for (const char* op : {"aten::reflection_pad1d_backward", "aten::replication_pad1d_backward"}) {
      for (Layout layout : all_layouts) cases.push_back({op, "", {T(dt, {2, 3, 11}, layout, Fill::special, 2), T(dt, {2, 3, 6}), L({2, 3})}, exact});
      cases.push_back({op, "", {T(dt, {3, 10}), T(dt, {3, 6}), L({-1, 5})}, exact});  // unbatched, a crop
      cases.push_back({op, "", {T(dt, {3, 15}), T(dt, {3, 6}), L({5, 4})}, exact});   // pads of in - 1 and in - 2
      cases.push_back({op, "", {T(dt, {0, 3, 8}), T(dt, {0, 3, 6}), L({1, 1})}, exact});
      cases.push_back({op, "grad_input", {T(dt, {1, 2, 9}), T(dt, {1, 2, 5}), L({4, 0}), T(dt, {0})}, exact});
    }
    for (const char* op : {"aten::reflection_pad2d_backward", "aten::replication_pad2d_backward"}) {
      for (Layout layout : all_layouts)
        cases.push_back({op, "", {T(dt, {2, 3, 8, 9}, layout, Fill::special, 2), T(dt, {2, 3, 5, 6}), L({1, 2, 3, 0})}, exact});
      cases.push_back({op, "", {T(dt, {3, 3, 10}), T(dt, {3, 4, 4}), L({3, 3, -2, 1})}, exact});
      cases.push_back({op, "", {T(dt, {1, 2, 7, 7}), T(dt, {1, 2, 3, 3}), L({2, 2, 2, 2})}, exact});
      cases.push_back({op, "grad_input", {T(dt, {1, 1, 7, 7}), T(dt, {1, 1, 3, 3}), L({2, 2, 2, 2}), T(dt, {1})}, exact});
    }
    for (const char* op : {"aten::reflection_pad3d_backward", "aten::replication_pad3d_backward"}) {
      for (Layout layout : all_layouts)
        cases.push_back({op, "", {T(dt, {1, 2, 6, 6, 7}, layout, Fill::special, 2), T(dt, {1, 2, 3, 4, 5}), L({1, 1, 2, 0, 1, 2})}, exact});
      cases.push_back({op, "", {T(dt, {2, 6, 5, 5}), T(dt, {2, 3, 3, 3}), L({2, 0, 0, 2, 1, 2})}, exact});
      cases.push_back({op, "grad_input", {T(dt, {1, 1, 4, 4, 4}), T(dt, {1, 1, 2, 2, 2}), L({1, 1, 1, 1, 1, 1}), T(dt, {0})}, exact});
    }
  }
  // reflection_pad3d_backward takes BFloat16 and Half too (sums rounded as ATen's)
  cases.push_back({"aten::reflection_pad3d_backward", "", {T(bf16, {1, 2, 5, 6, 7}), T(bf16, {1, 2, 3, 4, 5}), L({1, 1, 2, 0, 1, 1})}});
  // both throw: integral and reduced dtypes, a grad_output of the wrong size, dtypes that differ
  cases.push_back({"aten::reflection_pad1d_backward", "", {T(i64, {2, 3, 11}), T(i64, {2, 3, 6}), L({2, 3})}});
  cases.push_back({"aten::replication_pad2d_backward", "", {T(bf16, {1, 2, 7, 7}), T(bf16, {1, 2, 3, 3}), L({2, 2, 2, 2})}});
  cases.push_back({"aten::reflection_pad2d_backward", "", {T(f32, {1, 2, 7, 6}), T(f32, {1, 2, 3, 3}), L({2, 2, 2, 2})}});
  cases.push_back({"aten::replication_pad1d_backward", "", {T(f32, {2, 7}), T(f32, {2, 3}), L({2, 1})}});
  cases.push_back({"aten::reflection_pad3d_backward", "", {T(f32, {1, 4, 4, 5}), T(f32, {1, 2, 2, 2}), L({1, 1, 1, 1, 1, 1})}});
  cases.push_back({"aten::replication_pad2d_backward", "", {T(f64, {1, 2, 7, 7}), T(f32, {1, 2, 3, 3}), L({2, 2, 2, 2})}});
  check_all(cases);
}

TEST(CoreAtenTorchDiff, AveragePools) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::_adaptive_avg_pool2d", "", {T(dt, {2, 3, 7, 9}, layout), L({3, 4})}, t});
      cases.push_back({"aten::_adaptive_avg_pool2d_backward", "", {T(dt, {2, 3, 3, 4}, layout), T(dt, {2, 3, 7, 9})}, t});
      cases.push_back({"aten::avg_pool1d", "", {T(dt, {2, 3, 10}, layout), L({3}), L({2}), L({1}), B(false), B(true)}, t});
      cases.push_back({"aten::adaptive_avg_pool1d", "", {T(dt, {2, 3, 10}, layout), L({4})}, t});
      // avg_pool2d's backward: grad_output of the forward's size (1, 2, 4, 4)
      cases.push_back({"aten::avg_pool2d_backward", "",
                       {T(dt, {1, 2, 4, 4}, layout), T(dt, {1, 2, 7, 7}), L({3}), L({2}), L({1}), B(false), B(true), None()}, t});
    }
    cases.push_back({"aten::_adaptive_avg_pool2d", "", {T(dt, {3, 5, 5}), L({1, 1})}, t});
    cases.push_back({"aten::_adaptive_avg_pool2d", "", {T(dt, {1, 2, 4, 4}), L({6, 5})}, t});  // output above input
    cases.push_back({"aten::_adaptive_avg_pool2d_backward", "", {T(dt, {3, 6, 5}), T(dt, {3, 4, 4})}, t});
    cases.push_back({"aten::avg_pool1d", "", {T(dt, {3, 9}), L({4}), L({}), L({2}), B(true), B(false)}, t});
    cases.push_back({"aten::adaptive_avg_pool1d", "", {T(dt, {3, 5}), L({7})}, t});
    // ceil_mode (a last window past the input), count_include_pad off, divisor_override
    cases.push_back({"aten::avg_pool2d_backward", "",
                     {T(dt, {2, 3, 3}), T(dt, {2, 6, 5}), L({3, 2}), L({2}), L({1}), B(true), B(false), None()}, t});
    cases.push_back({"aten::avg_pool2d_backward", "",
                     {T(dt, {1, 1, 3, 3}), T(dt, {1, 1, 6, 6}), L({2}), L({2}), L({0}), B(false), B(true), I(3)}, t});
    cases.push_back({"aten::avg_pool2d_backward", "grad_input",
                     {T(dt, {1, 2, 4, 4}), T(dt, {1, 2, 7, 7}), L({3}), L({2}), L({1}), B(false), B(true), None(), T(dt, {0})}, t});
  }
  // both throw: a grad_output of the wrong size, an integral grad, a 2-D input
  cases.push_back({"aten::avg_pool2d_backward", "",
                   {T(f32, {1, 2, 3, 4}), T(f32, {1, 2, 7, 7}), L({3}), L({2}), L({1}), B(false), B(true), None()}});
  cases.push_back({"aten::_adaptive_avg_pool2d_backward", "", {T(i64, {1, 2, 2, 2}), T(i64, {1, 2, 4, 4})}});
  cases.push_back({"aten::_adaptive_avg_pool2d", "", {T(f32, {4, 4}), L({2, 2})}});
  cases.push_back({"aten::avg_pool1d", "", {T(f32, {2, 3, 4, 4}), L({2}), L({2}), L({0}), B(false), B(true)}});
  check_all(cases);
}

TEST(CoreAtenTorchDiff, GroupAndLayerNorm) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    const Value w = T(dt, {6}, Layout::contiguous, Fill::standard, 2), b = T(dt, {6}, Layout::contiguous, Fill::standard, 3);
    // contiguous inputs: ATen 1.13 refuses others ("Expected X.is_contiguous(memory_format)"); the
    // library takes them (a copy first)
    cases.push_back({"aten::native_group_norm", "", {T(dt, {2, 6, 4, 5}), w, b, I(2), I(6), I(20), I(3), D(1e-5)}, t});
    cases.push_back({"aten::native_group_norm", "", {T(dt, {3, 6}), None(), None(), I(3), I(6), I(1), I(6), D(1e-3)}, t});
    cases.push_back({"aten::native_group_norm", "", {T(dt, {1, 6, 2, 2, 3}), None(), b, I(1), I(6), I(12), I(1), D(1e-5)}, t});
    cases.push_back({"aten::native_group_norm", "", {T(dt, {0, 6, 3}), w, b, I(0), I(6), I(3), I(2), D(1e-5)}, t});
    // backward: any mean and (positive) rstd make a well-defined function to compare
    const Value mean = T(dt, {2, 3}, Layout::contiguous, Fill::small, 4);
    const Value rstd = T(dt, {2, 3}, Layout::contiguous, Fill::positive, 5);
    // contiguous grad_out: ATen 1.13 reads any grad_out's memory as if contiguous
    cases.push_back({"aten::native_group_norm_backward", "",
                     {T(dt, {2, 6, 4, 5}, Layout::contiguous, Fill::standard, 6), T(dt, {2, 6, 4, 5}), mean, rstd, w,
                      I(2), I(6), I(20), I(3), BL({true, true, true})},
                     t});
    cases.push_back({"aten::native_group_norm_backward", "",
                     {T(dt, {2, 6, 3}, Layout::contiguous, Fill::standard, 6), T(dt, {2, 6, 3}), mean, rstd, None(), I(2),
                      I(6), I(3), I(3), BL({true, false, false})},
                     t});
    cases.push_back({"aten::native_group_norm_backward", "",
                     {T(dt, {2, 6, 3}, Layout::contiguous, Fill::standard, 6), T(dt, {2, 6, 3}), mean, rstd, w, I(2),
                      I(6), I(3), I(3), BL({false, true, true})},
                     t});
    // layer norm's backward over the last one and two dimensions
    const Value lmean = T(dt, {4, 3, 1}, Layout::contiguous, Fill::small, 7);
    const Value lrstd = T(dt, {4, 3, 1}, Layout::contiguous, Fill::positive, 8);
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::native_layer_norm_backward", "",
                       {T(dt, {4, 3, 5}, layout, Fill::standard, 9), T(dt, {4, 3, 5}), L({5}), lmean, lrstd,
                        T(dt, {5}, Layout::contiguous, Fill::standard, 2), T(dt, {5}, Layout::contiguous, Fill::standard, 3),
                        BL({true, true, true})},
                       t});
    }
    // rows long enough for the vectorized row kernels (several whole vectors
    // of every width, and a tail): 83 elements per row, per channel 9 x 9
    for (bool with_weight : {true, false})
      cases.push_back({"aten::native_layer_norm_backward", "",
                       {T(dt, {3, 83}, Layout::contiguous, Fill::standard, 9), T(dt, {3, 83}), L({83}),
                        T(dt, {3, 1}, Layout::contiguous, Fill::small, 7), T(dt, {3, 1}, Layout::contiguous, Fill::positive, 8),
                        with_weight ? T(dt, {83}, Layout::contiguous, Fill::standard, 2) : None(),
                        T(dt, {83}, Layout::contiguous, Fill::standard, 3),
                        with_weight ? BL({true, true, true}) : BL({true, false, true})},  // libtorch: no dweight without weight
                       t});
    cases.push_back({"aten::native_group_norm_backward", "",
                     {T(dt, {2, 6, 9, 9}, Layout::contiguous, Fill::standard, 6), T(dt, {2, 6, 9, 9}), mean, rstd, w,
                      I(2), I(6), I(81), I(3), BL({true, true, true})},
                     t});
    cases.push_back({"aten::native_layer_norm_backward", "",
                     {T(dt, {4, 3, 5}, Layout::contiguous, Fill::standard, 9), T(dt, {4, 3, 5}), L({3, 5}),
                      T(dt, {4, 1, 1}, Layout::contiguous, Fill::small, 7), T(dt, {4, 1, 1}, Layout::contiguous, Fill::positive, 8),
                      None(), None(), BL({true, false, false})},
                     t});
  }
  // BFloat16: as libtorch computes it in float, rounded once (torch_in_float, to 1 ulp: how the library
  // computes it), and against libtorch's own BFloat16 kernel (bf16_tol)
  {
    const Value w = T(bf16, {6}, Layout::contiguous, Fill::standard, 2), b = T(bf16, {6}, Layout::contiguous, Fill::standard, 3);
    const Value mean = T(bf16, {2, 3}, Layout::contiguous, Fill::small, 4);
    const Value rstd = T(bf16, {2, 3}, Layout::contiguous, Fill::positive, 5);
    for (bool in_float : {true, false}) {
      const Tolerance t = in_float ? bf16_float_tol : bf16_tol;
      cases.push_back({"aten::native_group_norm", "", {T(bf16, {2, 6, 4, 5}), w, b, I(2), I(6), I(20), I(3), D(1e-5)}, t, in_float});
      cases.push_back({"aten::native_group_norm", "", {T(bf16, {3, 6}), None(), None(), I(3), I(6), I(1), I(6), D(1e-3)}, t, in_float});
    }
    cases.push_back({"aten::native_group_norm_backward", "",
                     {T(bf16, {2, 6, 4, 5}, Layout::contiguous, Fill::standard, 6), T(bf16, {2, 6, 4, 5}), mean, rstd, w,
                      I(2), I(6), I(20), I(3), BL({true, true, true})},
                     bf16_float_tol, true});
  }
  // both throw: Half and Long (ATen's "GroupNormKernelImpl" not implemented), a weight or a mean of another dtype
  cases.push_back({"aten::native_group_norm", "", {T(f16, {2, 6, 4}), None(), None(), I(2), I(6), I(4), I(3), D(1e-5)}});
  cases.push_back({"aten::native_group_norm", "", {T(i64, {2, 6, 4}), None(), None(), I(2), I(6), I(4), I(3), D(1e-5)}});
  cases.push_back({"aten::native_group_norm", "", {T(f32, {2, 6, 4}), T(f64, {6}), None(), I(2), I(6), I(4), I(3), D(1e-5)}});
  cases.push_back({"aten::native_group_norm_backward", "",
                   {T(bf16, {2, 6, 3}), T(bf16, {2, 6, 3}), T(f32, {2, 3}), T(f32, {2, 3}, Layout::contiguous, Fill::positive),
                    None(), I(2), I(6), I(3), I(3), BL({true, false, false})}});
  // both throw: channels not divisible by the groups, a weight of the wrong size, mismatched normalized_shape
  cases.push_back({"aten::native_group_norm", "", {T(f32, {2, 6, 4}), None(), None(), I(2), I(6), I(4), I(4), D(1e-5)}});
  cases.push_back({"aten::native_group_norm", "", {T(f32, {2, 6, 4}), T(f32, {5}), None(), I(2), I(6), I(4), I(3), D(1e-5)}});
  cases.push_back({"aten::native_layer_norm_backward", "",
                   {T(f32, {4, 3}), T(f32, {4, 3}), L({4}), T(f32, {4, 1}), T(f32, {4, 1}), None(), None(),
                    BL({true, true, true})}});
  check_all(cases);
}

Value doubles(std::vector<double> d) { return DL(std::move(d)); }

TEST(CoreAtenTorchDiff, Upsample) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::upsample_nearest2d", "", {T(dt, {2, 3, 4, 5}, layout), L({8, 10}), None(), None()}});
      cases.push_back({"aten::upsample_nearest2d", "", {T(dt, {2, 3, 4, 5}, layout), L({7, 3}), None(), None()}});
      cases.push_back({"aten::upsample_bilinear2d", "", {T(dt, {2, 3, 4, 5}, layout), L({7, 9}), B(false), None(), None()}, t});
      cases.push_back({"aten::upsample_bilinear2d", "", {T(dt, {2, 3, 4, 5}, layout), L({7, 9}), B(true), None(), None()}, t});
    }
    // scales given with the size (ATen then uses 1 / scale), downsampling, one output pixel
    cases.push_back({"aten::upsample_nearest2d", "", {T(dt, {1, 2, 5, 5}), L({7, 7}), D(1.5), D(1.5)}});
    cases.push_back({"aten::upsample_bilinear2d", "", {T(dt, {1, 2, 5, 5}), L({7, 7}), B(false), D(1.5), D(1.5)}, t});
    cases.push_back({"aten::upsample_bilinear2d", "", {T(dt, {1, 2, 6, 8}), L({3, 1}), B(true), None(), None()}, t});
    cases.push_back({"aten::upsample_bilinear2d", "", {T(dt, {1, 2, 6, 8}), L({4, 3}), B(false), None(), None()}, t});
    // .vec: output_size or scale_factors
    cases.push_back({"aten::upsample_nearest2d", "vec", {T(dt, {1, 3, 4, 4}), None(), doubles({2.0, 2.0})}});
    cases.push_back({"aten::upsample_nearest2d", "vec", {T(dt, {1, 3, 4, 4}), L({6, 5}), None()}});
    cases.push_back({"aten::upsample_bilinear2d", "vec", {T(dt, {1, 3, 4, 4}), None(), B(false), doubles({1.7, 2.5})}, t});
    cases.push_back({"aten::upsample_bilinear2d", "vec", {T(dt, {1, 3, 4, 4}), L({5, 9}), B(true), None()}, t});
    cases.push_back({"aten::upsample_nearest2d", "out", {T(dt, {1, 1, 2, 3}), L({4, 6}), None(), None(), T(dt, {0})}});
    cases.push_back({"aten::upsample_bilinear2d", "out",
                     {T(dt, {1, 1, 2, 3}), L({4, 6}), B(false), None(), None(), T(dt, {0})}, t});
  }
  // BFloat16, as for group norm
  for (bool in_float : {true, false}) {
    const Tolerance t = in_float ? bf16_float_tol : bf16_tol;
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::upsample_bilinear2d", "", {T(bf16, {2, 3, 4, 5}, layout), L({7, 9}), B(false), None(), None()}, t, in_float});
      cases.push_back({"aten::upsample_bilinear2d", "", {T(bf16, {2, 3, 4, 5}, layout), L({3, 9}), B(true), None(), None()}, t, in_float});
    }
    cases.push_back({"aten::upsample_bilinear2d", "vec", {T(bf16, {1, 3, 4, 4}), None(), B(false), doubles({1.7, 2.5})}, t, in_float});
  }
  cases.push_back({"aten::upsample_nearest2d", "", {T(u8, {1, 2, 3, 3}), L({5, 5}), None(), None()}});
  cases.push_back({"aten::upsample_bilinear2d", "", {T(f16, {1, 2, 3, 3}), L({5, 5}), B(false), None(), None()}});  // both throw
  // both throw: a 3-D input, a zero output size, both or neither of size and scales, an integral bilinear
  cases.push_back({"aten::upsample_nearest2d", "", {T(f32, {2, 3, 4}), L({8, 8}), None(), None()}});
  cases.push_back({"aten::upsample_nearest2d", "", {T(f32, {1, 2, 3, 4}), L({0, 8}), None(), None()}});
  cases.push_back({"aten::upsample_nearest2d", "vec", {T(f32, {1, 3, 4, 4}), L({6, 5}), doubles({2.0, 2.0})}});
  cases.push_back({"aten::upsample_bilinear2d", "vec", {T(f32, {1, 3, 4, 4}), None(), B(false), None()}});
  cases.push_back({"aten::upsample_bilinear2d", "", {T(i64, {1, 2, 3, 3}), L({5, 5}), B(false), None(), None()}});
  check_all(cases);
}

// The upsamplings' backward kernels: grad_output of the output's sizes added
// into zeros of input_size. Upsampling makes several outputs read one input,
// downsampling leaves some inputs unread; values of varied magnitude make a
// different order of the sums round differently.
TEST(CoreAtenTorchDiff, UpsampleBackward) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    const Tolerance exact{.ulp = 0}, t = assert_close_tolerance(dt);
    for (Layout layout : all_layouts) {
      const Value g = T(dt, {2, 3, 8, 10}, layout, Fill::special, 2), gs = T(dt, {2, 3, 8, 10}, layout);
      cases.push_back({"aten::upsample_nearest2d_backward", "", {g, L({8, 10}), L({2, 3, 4, 5}), None(), None()}, exact});
      cases.push_back({"aten::upsample_nearest2d_backward", "", {g, L({8, 10}), L({2, 3, 3, 7}), None(), None()}, exact});
      cases.push_back({"aten::upsample_bilinear2d_backward", "", {gs, L({8, 10}), L({2, 3, 3, 4}), B(false), None(), None()}, t});
      cases.push_back({"aten::upsample_bilinear2d_backward", "", {gs, L({8, 10}), L({2, 3, 5, 7}), B(true), None(), None()}, t});
    }
    const Value g = T(dt, {1, 2, 7, 7}, Layout::contiguous, Fill::special, 3), gs = T(dt, {1, 2, 7, 7});
    // scales given with the size, downsampling, equal sizes (a copy), one output pixel
    cases.push_back({"aten::upsample_nearest2d_backward", "", {g, L({7, 7}), L({1, 2, 5, 5}), D(1.5), D(1.5)}, exact});
    cases.push_back({"aten::upsample_bilinear2d_backward", "", {gs, L({7, 7}), L({1, 2, 5, 5}), B(false), D(1.5), D(1.5)}, t});
    cases.push_back({"aten::upsample_bilinear2d_backward", "", {gs, L({7, 7}), L({1, 2, 7, 12}), B(false), None(), None()}, t});
    cases.push_back({"aten::upsample_bilinear2d_backward", "", {gs, L({7, 7}), L({1, 2, 7, 3}), B(true), None(), None()}, t});
    cases.push_back({"aten::upsample_nearest2d_backward", "", {g, L({7, 7}), L({1, 2, 11, 3}), None(), None()}, exact});
    cases.push_back({"aten::upsample_bilinear2d_backward", "",
                     {T(dt, {1, 2, 1, 1}), L({1, 1}), L({1, 2, 4, 3}), B(true), None(), None()}, t});
    // .vec: output_size or scale factors; .grad_input
    cases.push_back({"aten::upsample_nearest2d_backward", "vec", {T(dt, {1, 3, 8, 8}), None(), L({1, 3, 4, 4}), doubles({2.0, 2.0})}, exact});
    cases.push_back({"aten::upsample_nearest2d_backward", "vec", {T(dt, {1, 3, 6, 5}), L({6, 5}), L({1, 3, 4, 4}), None()}, exact});
    cases.push_back({"aten::upsample_bilinear2d_backward", "vec",
                     {T(dt, {1, 3, 6, 10}), None(), L({1, 3, 4, 4}), B(false), doubles({1.7, 2.5})}, t});
    cases.push_back({"aten::upsample_bilinear2d_backward", "vec", {T(dt, {1, 3, 5, 9}), L({5, 9}), L({1, 3, 4, 4}), B(true), None()}, t});
    cases.push_back({"aten::upsample_nearest2d_backward", "grad_input",
                     {T(dt, {1, 1, 4, 6}), L({4, 6}), L({1, 1, 2, 3}), None(), None(), T(dt, {0})}, exact});
    cases.push_back({"aten::upsample_bilinear2d_backward", "grad_input",
                     {T(dt, {1, 1, 4, 6}), L({4, 6}), L({1, 1, 2, 3}), B(false), None(), None(), T(dt, {0})}, t});
  }
  // BFloat16: accumulated in BFloat16 as ATen 1.13's loops
  for (Layout layout : all_layouts) {
    cases.push_back({"aten::upsample_nearest2d_backward", "", {T(bf16, {2, 3, 8, 10}, layout), L({8, 10}), L({2, 3, 3, 4}), None(), None()}, bf16_tol});
    cases.push_back({"aten::upsample_bilinear2d_backward", "", {T(bf16, {2, 3, 8, 10}, layout), L({8, 10}), L({2, 3, 3, 4}), B(false), None(), None()}, bf16_tol});
  }
  // both throw: Half and integral, a grad_output of the wrong shape or dimension, a zero or missing size
  cases.push_back({"aten::upsample_nearest2d_backward", "", {T(f16, {1, 2, 8, 8}), L({8, 8}), L({1, 2, 4, 4}), None(), None()}});
  cases.push_back({"aten::upsample_bilinear2d_backward", "", {T(i64, {1, 2, 8, 8}), L({8, 8}), L({1, 2, 4, 4}), B(false), None(), None()}});
  cases.push_back({"aten::upsample_nearest2d_backward", "", {T(f32, {1, 2, 8, 7}), L({8, 8}), L({1, 2, 4, 4}), None(), None()}});
  cases.push_back({"aten::upsample_bilinear2d_backward", "", {T(f32, {2, 8, 8}), L({8, 8}), L({1, 2, 4, 4}), B(true), None(), None()}});
  cases.push_back({"aten::upsample_nearest2d_backward", "", {T(f32, {1, 2, 8, 8}), L({8, 8}), L({1, 2, 4}), None(), None()}});
  cases.push_back({"aten::upsample_nearest2d_backward", "vec", {T(f32, {1, 2, 8, 8}), L({8, 8}), L({1, 2, 4, 4}), doubles({2.0, 2.0})}});
  check_all(cases);
}

RawTensor bool_mask(std::vector<int64_t> sizes, const std::vector<int>& values) {
  RawTensor t;
  t.dtype = b8;
  t.sizes = sizes;
  t.strides = contiguous_strides(sizes);
  for (int v : values) t.storage.push_back(static_cast<unsigned char>(v != 0));
  return t;
}

TEST(CoreAtenTorchDiff, EmbeddingBackwardAndMaskedScatter) {
  std::vector<Case> cases;
  const RawTensor idx = long_tensor({2, 3}, {4, 0, 4, 2, 4, 1});  // 4 three times
  for (int dt : {f32, f64}) {
    const Tolerance t = assert_close_tolerance(dt);
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::embedding_dense_backward", "", {T(dt, {2, 3, 5}, layout), T(idx), I(6), I(-1), B(false)}, t});
      cases.push_back({"aten::embedding_dense_backward", "", {T(dt, {2, 3, 5}, layout), T(idx), I(5), I(4), B(true)}, t});
    }
    cases.push_back({"aten::embedding_dense_backward", "", {T(dt, {6, 3}), T(long_tensor({6}, {1, 1, 0, 2, 1, 0})), I(3), I(0), B(true)}, t});
    cases.push_back({"aten::embedding_dense_backward", "", {T(dt, {0, 4}), T(long_tensor({0}, {})), I(3), I(-1), B(false)}, t});
  }
  // both throw: float indices
  cases.push_back({"aten::embedding_dense_backward", "", {T(f32, {2, 4}), T(f32, {2}), I(3), I(-1), B(false)}});
  const RawTensor mask = bool_mask({2, 3}, {1, 0, 1, 1, 0, 1});
  const RawTensor row_mask = bool_mask({3}, {0, 1, 1});
  for (int dt : {f32, f64, i64, b8, i16, c128}) {  // every element size: 4, 8, 1, 2, 16 bytes
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::masked_scatter", "", {T(dt, {2, 3}, layout), T(mask), T(dt, {7}, Layout::contiguous, Fill::standard, 2)}});
      cases.push_back({"aten::masked_scatter", "", {T(dt, {2, 3}), T(row_mask), T(dt, {2, 3}, layout, Fill::standard, 3)}});
    }
    // (a contiguous self in place: ATen 1.13's masked_scatter_ walks a non-contiguous self in memory order)
    cases.push_back({"aten::masked_scatter_", "", {T(dt, {4, 3}), T(row_mask), T(dt, {10})}});
    cases.push_back({"aten::masked_scatter", "", {T(dt, {3}), T(mask), T(dt, {4})}});  // self broadcast to the mask's shape
    // random masks long enough for the vector loop (AVX-512 expand: 8 to 64
    // elements a step) and a scalar tail after it; self as is, broadcast, in place
    const Value long_mask = T(b8, {3, 100}, Layout::contiguous, Fill::standard, 5);
    cases.push_back({"aten::masked_scatter", "", {T(dt, {3, 100}), long_mask, T(dt, {300}, Layout::contiguous, Fill::standard, 2)}});
    cases.push_back({"aten::masked_scatter", "", {T(dt, {100}), long_mask, T(dt, {300}, Layout::contiguous, Fill::standard, 3)}});
    cases.push_back({"aten::masked_scatter_", "", {T(dt, {3, 100}), long_mask, T(dt, {3, 100}, Layout::contiguous, Fill::standard, 4)}});
  }
  // both throw: too few source elements, dtypes differ, a mask that does not broadcast to self in place
  cases.push_back({"aten::masked_scatter", "", {T(f32, {2, 3}), T(mask), T(f32, {3})}});
  cases.push_back({"aten::masked_scatter", "", {T(f32, {2, 3}), T(mask), T(f64, {6})}});
  cases.push_back({"aten::masked_scatter_", "", {T(f32, {3}), T(mask), T(f32, {6})}});
  check_all(cases);
}

}  // namespace
