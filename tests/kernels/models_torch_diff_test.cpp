// The operators torchvision's CNNs reach below autograd (tools/record_aten_calls.py:
// resnet18, mobilenet_v2, squeezenet1_0) against libtorch 1.13 through the
// differential harness (diff/README.md): convolution (1-D, 2-D, 3-D,
// transposed, groups, dilation, padding) and its front ends, native_batch_norm
// (training, with the running statistics compared after the call, and
// inference), max_pool2d_with_indices and its backward, hardtanh, _reshape_alias
// and lift_fresh, over shapes, float32 and float64, and layouts; cases where
// both sides must throw. Tolerances as torch.testing.assert_close's
// (|x - y| <= atol + rtol * |y|): float32 rtol 1.3e-6, atol 1e-5; float64
// rtol 1e-7, atol 1e-7.
#include <cstring>

#include "diff.hpp"

using namespace diff;

namespace {

// x + offset, elementwise, on a BFloat16 tensor's storage (rounded to nearest
// even): values far from zero, whose batch statistics are ill-conditioned.
RawTensor shifted_bfloat16(RawTensor t, float offset) {
  for (std::size_t i = 0; i + 1 < t.storage.size(); i += 2) {
    uint16_t half = 0;
    std::memcpy(&half, &t.storage[i], 2);
    uint32_t bits = static_cast<uint32_t>(half) << 16;
    float f = 0;
    std::memcpy(&f, &bits, 4);
    f += offset;
    std::memcpy(&bits, &f, 4);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    half = static_cast<uint16_t>(bits >> 16);
    std::memcpy(&t.storage[i], &half, 2);
  }
  return t;
}

struct Conv {
  std::vector<int64_t> input, weight;
  bool bias;
  std::vector<int64_t> stride, padding, dilation;
  bool transposed;
  std::vector<int64_t> output_padding;
  int64_t groups;
};

Case convolution(const Conv& c, int dt, Layout layout = Layout::contiguous) {
  const int64_t out_channels = c.transposed ? c.weight[1] * c.groups : c.weight[0];
  return {"aten::convolution",
          "",
          // weights in [-0.5, 0.5] (a trained model's scale, as kaiming's init): with inputs in
          // [-3, 3] too, a 7x7x3 window's float sum loses ~1e-5 to rounding in any order.
          {T(dt, c.input, layout), T(dt, c.weight, Layout::contiguous, Fill::small, 2),
           c.bias ? T(dt, {out_channels}, Layout::contiguous, Fill::standard, 3) : None(), L(c.stride), L(c.padding),
           L(c.dilation), B(c.transposed), L(c.output_padding), I(c.groups)},
          assert_close_tolerance(dt)};
}

const std::vector<Conv>& conv_cases() {
  static const std::vector<Conv> cases{
      // 2-D: resnet18's shapes scaled down (7x7/2 stem, 3x3, 1x1/2 downsample), mobilenet's depthwise.
      {{1, 3, 20, 20}, {8, 3, 7, 7}, false, {2}, {3}, {1}, false, {0}, 1},
      {{2, 8, 9, 9}, {8, 8, 3, 3}, false, {1}, {1}, {1}, false, {0}, 1},
      {{2, 8, 9, 9}, {16, 8, 3, 3}, true, {2}, {1}, {1}, false, {0}, 1},
      {{1, 8, 9, 9}, {16, 8, 1, 1}, false, {2}, {0}, {1}, false, {0}, 1},
      {{1, 8, 9, 9}, {16, 8, 1, 1}, true, {1}, {0}, {1}, false, {0}, 1},
      {{1, 8, 10, 10}, {8, 1, 3, 3}, false, {1}, {1}, {1}, false, {0}, 8},   // depthwise
      {{1, 8, 10, 10}, {8, 1, 3, 3}, true, {2}, {1}, {1}, false, {0}, 8},    // depthwise, stride 2
      {{1, 4, 8, 8}, {6, 2, 3, 3}, true, {1}, {1}, {1}, false, {0}, 2},      // groups
      {{1, 3, 11, 9}, {4, 3, 3, 2}, true, {2, 1}, {1, 0}, {2, 3}, false, {0, 0}, 1},  // per-dim, dilation
      {{1, 3, 6, 6}, {4, 3, 3, 3}, true, {1}, {2}, {1}, false, {0}, 1},     // padding beyond the kernel's half
      // squeezenet's fire module (1x1 squeeze, 1x1 and 3x3 expand).
      {{1, 16, 7, 7}, {4, 16, 1, 1}, true, {1}, {0}, {1}, false, {0}, 1},
      {{1, 4, 7, 7}, {8, 4, 3, 3}, true, {1}, {1}, {1}, false, {0}, 1},
      // 1-D.
      {{2, 3, 10}, {4, 3, 3}, true, {1}, {1}, {1}, false, {0}, 1},
      {{2, 4, 17}, {6, 2, 4}, true, {2}, {1}, {2}, false, {0}, 2},
      // 3-D.
      {{1, 2, 5, 6, 7}, {3, 2, 3, 3, 3}, true, {1}, {1}, {1}, false, {0}, 1},
      {{2, 4, 5, 6, 5}, {4, 2, 2, 3, 1}, false, {2, 1, 1}, {0, 1, 0}, {1, 2, 1}, false, {0}, 2},
      // Transposed (weight: in, out / groups, k...).
      {{1, 4, 5, 5}, {4, 3, 3, 3}, true, {2}, {1}, {1}, true, {1}, 1},
      {{2, 4, 4, 6}, {4, 2, 3, 2}, false, {1, 2}, {0, 1}, {2, 1}, true, {0, 1}, 2},
      {{1, 3, 7}, {3, 2, 4}, true, {3}, {1}, {1}, true, {2}, 1},
      {{1, 2, 3, 4, 3}, {2, 3, 2, 2, 2}, true, {2}, {0}, {1}, true, {1}, 1},
      // Grouped 2-D (oneDNN's grouped kernels where built in): batch 2, bias, dilation, a
      // channel multiplier of 2 (depthwise), groups of 2 channels at a stride.
      {{2, 8, 9, 9}, {8, 2, 3, 3}, true, {1}, {2}, {2}, false, {0}, 4},
      {{2, 4, 9, 9}, {8, 1, 3, 3}, true, {2}, {1}, {1}, false, {0}, 4},
      {{2, 6, 16, 16}, {6, 1, 3, 3}, false, {1}, {1}, {1}, false, {0}, 6},
  };
  return cases;
}

TEST(ModelsTorchDiff, Convolution) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    for (const Conv& c : conv_cases()) cases.push_back(convolution(c, dt));
  }
  // Transposed convolutions of int64 (ATen's slow_conv_transpose: exact in any order).
  for (std::size_t k = 16; k < conv_cases().size(); ++k) {
    cases.push_back(convolution(conv_cases()[k], i64));
    cases.back().tol = Tolerance{.ulp = 0};
  }
  // Non-contiguous inputs.
  for (Layout layout : {Layout::transposed, Layout::sliced}) {
    cases.push_back(convolution(conv_cases()[1], f32, layout));
    cases.push_back(convolution(conv_cases()[12], f32, layout));
    cases.push_back(convolution(conv_cases()[16], f32, layout));
  }
  // Both throw: channels, groups, dims, kernel larger than the padded input,
  // negative padding, output_padding not below stride or dilation, dtypes.
  cases.push_back(convolution({{1, 4, 8, 8}, {8, 3, 3, 3}, false, {1}, {0}, {1}, false, {0}, 1}, f32));
  cases.push_back(convolution({{1, 4, 8, 8}, {6, 2, 3, 3}, false, {1}, {0}, {1}, false, {0}, 4}, f32));
  cases.push_back(convolution({{4, 8, 8}, {6, 4, 3, 3}, false, {1}, {0}, {1}, false, {0}, 1}, f32));
  cases.push_back(convolution({{1, 4, 2, 2}, {6, 4, 3, 3}, false, {1}, {0}, {1}, false, {0}, 1}, f32));
  cases.push_back(convolution({{1, 4, 5, 5}, {6, 4, 3, 3}, false, {1}, {-1}, {1}, false, {0}, 1}, f32));
  cases.push_back(convolution({{1, 4, 5, 5}, {4, 3, 3, 3}, false, {1}, {0}, {1}, true, {2}, 1}, f32));
  cases.push_back(convolution({{1, 4, 5, 5}, {6, 4, 3, 3}, false, {1, 1, 1}, {0}, {1}, false, {0}, 1}, f32));
  cases.push_back({"aten::convolution", "",
                   {T(f32, {1, 2, 5, 5}), T(f64, {3, 2, 3, 3}), None(), L({1}), L({0}), L({1}), B(false), L({0}), I(1)}});
  check_all(cases);
}

TEST(ModelsTorchDiff, ConvolutionFrontEnds) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    // conv2d batched and unbatched, conv1d, conv3d, conv_transpose2d: composites over convolution.
    cases.push_back({"aten::conv2d", "", {T(dt, {2, 4, 9, 9}), T(dt, {6, 4, 3, 3}), T(dt, {6}), L({2}), L({1}), L({1}), I(1)}, assert_close_tolerance(dt)});
    cases.push_back({"aten::conv2d", "", {T(dt, {4, 9, 9}), T(dt, {6, 2, 3, 3}), None(), L({1}), L({1}), L({2}), I(2)}, assert_close_tolerance(dt)});
    cases.push_back({"aten::conv1d", "", {T(dt, {2, 4, 12}), T(dt, {6, 4, 3}), T(dt, {6}), L({1}), L({1}), L({1}), I(1)}, assert_close_tolerance(dt)});
    cases.push_back({"aten::conv1d", "", {T(dt, {4, 12}), T(dt, {6, 4, 3}), None(), L({2}), L({0}), L({1}), I(1)}, assert_close_tolerance(dt)});
    cases.push_back({"aten::conv3d", "", {T(dt, {1, 2, 4, 5, 6}), T(dt, {3, 2, 2, 2, 2}), T(dt, {3}), L({1}), L({1}), L({1}), I(1)}, assert_close_tolerance(dt)});
    cases.push_back({"aten::conv_transpose2d", "input",
                     {T(dt, {1, 4, 5, 5}), T(dt, {4, 3, 3, 3}), T(dt, {3}), L({2}), L({1}), L({1}), I(1), L({1})}, assert_close_tolerance(dt)});
    cases.push_back({"aten::conv_transpose1d", "",
                     {T(dt, {4, 7}), T(dt, {4, 2, 3}), None(), L({2}), L({0}), L({0}), I(2), L({1})}, assert_close_tolerance(dt)});
  }
  // One shape with a bias, then without: oneDNN's cached primitive is per bias too (tests/opinfo found the
  // second call failing with "could not execute a primitive").
  for (bool with_bias : {true, false}) {
    cases.push_back({"aten::convolution", "",
                     {T(f32, {1, 3, 7, 7}), T(f32, {5, 3, 3, 3}), with_bias ? T(f32, {5}) : None(), L({2, 2}), L({2, 2}),
                      L({1, 1}), B(false), L({0, 0}), I(1)}, assert_close_tolerance(f32)});
  }
  cases.push_back({"aten::conv2d", "", {T(f32, {9, 9}), T(f32, {6, 4, 3, 3}), None(), L({1}), L({0}), L({1}), I(1)}});  // both throw
  check_all(cases);
}

TEST(ModelsTorchDiff, NativeBatchNorm) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{2, 3, 4, 5}, {1, 8, 7, 7}, {5, 3}, {2, 3, 2, 3, 4}}) {
      const int64_t c = shape[1];
      const Value w = T(dt, {c}, Layout::contiguous, Fill::positive, 2), b = T(dt, {c}, Layout::contiguous, Fill::standard, 3);
      const Value rm = T(dt, {c}, Layout::contiguous, Fill::small, 4), rv = T(dt, {c}, Layout::contiguous, Fill::positive, 5);
      // training: the batch's statistics, running statistics updated in place (compared after the call)
      cases.push_back({"aten::native_batch_norm", "", {T(dt, shape), w, b, rm, rv, B(true), D(0.1), D(1e-5)}, assert_close_tolerance(dt)});
      cases.push_back({"aten::native_batch_norm", "", {T(dt, shape), None(), None(), None(), None(), B(true), D(0.3), D(1e-3)}, assert_close_tolerance(dt)});
      // inference: running statistics read
      cases.push_back({"aten::native_batch_norm", "", {T(dt, shape), w, b, rm, rv, B(false), D(0.1), D(1e-5)}, assert_close_tolerance(dt)});
      cases.push_back({"aten::native_batch_norm", "", {T(dt, shape), None(), b, rm, rv, B(false), D(0.1), D(1e-3)}, assert_close_tolerance(dt)});
    }
  }
  // BFloat16, to the bit (the harness's default allows 4 units): ATen 1.13's rounding steps, for images and for
  // one value per channel and image (whose variance ATen sums around the BFloat16-rounded mean).
  const Tolerance exact{.ulp = 0};
  for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{2, 3, 4, 5}, {7, 3}, {37, 4}, {2, 3, 2, 3, 4}}) {
    const int64_t c = shape[1];
    const Value w = T(bf16, {c}, Layout::contiguous, Fill::positive, 2), b = T(bf16, {c}, Layout::contiguous, Fill::standard, 3);
    const Value rm = T(bf16, {c}, Layout::contiguous, Fill::small, 4), rv = T(bf16, {c}, Layout::contiguous, Fill::positive, 5);
    cases.push_back({"aten::native_batch_norm", "", {T(bf16, shape), w, b, rm, rv, B(true), D(0.1), D(1e-5)}, exact});
    cases.push_back({"aten::native_batch_norm", "", {T(bf16, shape, Layout::contiguous, Fill::positive, 6), None(), None(), rm, rv, B(true), D(0.3), D(1e-3)}, exact});
    cases.push_back({"aten::native_batch_norm", "", {T(bf16, shape), w, b, rm, rv, B(false), D(0.1), D(1e-5)}, exact});
    cases.push_back({"aten::native_batch_norm", "", {T(bf16, shape), None(), b, rm, rv, B(false), D(0.1), D(1e-3)}, exact});
  }
  // Around -20, the BFloat16 mean is far enough from the float one to change the variance's rounding: the
  // two-pass statistics (4 x 50: one value per channel and image) and the one-pass ones (2 x 64 x 3).
  for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{4, 50}, {2, 64, 3}}) {
    cases.push_back({"aten::native_batch_norm", "",
                     {T(shifted_bfloat16(make_tensor(bf16, shape, Layout::contiguous, Fill::standard, 7), -20.0f)), None(),
                      None(), None(), None(), B(true), D(0.1), D(1e-5)}, exact});
  }
  cases.push_back({"aten::native_batch_norm", "",
                   {T(f32, {2, 3, 4, 4}, Layout::transposed), T(f32, {3}), T(f32, {3}), T(f32, {3}, Layout::contiguous, Fill::small),
                    T(f32, {3}, Layout::contiguous, Fill::positive), B(true), D(0.1), D(1e-5)},
                   assert_close_tolerance(f32)});
  cases.push_back({"aten::native_batch_norm", "",
                   {T(f32, {2, 3, 4, 4}, Layout::sliced), T(f32, {3}), T(f32, {3}), T(f32, {3}, Layout::contiguous, Fill::small),
                    T(f32, {3}, Layout::contiguous, Fill::positive), B(false), D(0.1), D(1e-5)},
                   assert_close_tolerance(f32)});
  check_all(cases);
}

TEST(ModelsTorchDiff, MaxPool2dWithIndices) {
  std::vector<Case> cases;
  // BFloat16 as ATen 1.13's CPU kernel has it (found by tests/opinfo); Half refused on both sides
  for (Layout layout : all_layouts) {
    cases.push_back({"aten::max_pool2d_with_indices", "", {T(bf16, {2, 3, 9, 9}, layout, Fill::special), L({3}), L({2}), L({1}), L({1}), B(true)}});
  }
  cases.push_back({"aten::max_pool2d_with_indices", "", {T(f16, {1, 3, 6, 6}), L({2}), L({}), L({0}), L({1}), B(false)}});  // both throw
  for (int dt : {f32, f64}) {
    for (Layout layout : all_layouts) {
      // resnet18's stem pool (3x3/2, padding 1), squeezenet's (3x3/2, ceil_mode)
      cases.push_back({"aten::max_pool2d_with_indices", "", {T(dt, {1, 3, 12, 12}, layout), L({3}), L({2}), L({1}), L({1}), B(false)}});
      cases.push_back({"aten::max_pool2d_with_indices", "", {T(dt, {2, 3, 13, 13}, layout), L({3}), L({2}), L({0}), L({1}), B(true)}});
    }
    cases.push_back({"aten::max_pool2d_with_indices", "", {T(dt, {3, 9, 10}, Layout::contiguous, Fill::special), L({2, 3}), L({}), L({1}), L({2}), B(false)}});
    cases.push_back({"aten::max_pool2d_with_indices", "", {T(dt, {2, 2, 8, 8}), L({2}), L({1, 2}), L({0, 1}), L({1}), B(true)}});
    cases.push_back({"aten::max_pool2d_with_indices", "out",
                     {T(dt, {1, 2, 7, 7}), L({3}), L({2}), L({1}), L({1}), B(false), T(dt, {0}), T(i64, {0})}});
    // backward: grad_output (1, 2, 2, 2) scattered into (1, 2, 4, 4) planes, indices repeated (accumulated)
    cases.push_back({"aten::max_pool2d_with_indices_backward", "",
                     {T(dt, {1, 2, 2, 2}), T(dt, {1, 2, 4, 4}), L({2}), L({2}), L({0}), L({1}), B(false),
                      T(long_tensor({1, 2, 2, 2}, {0, 3, 9, 15, 5, 5, 10, 10}))}});
    cases.push_back({"aten::max_pool2d_with_indices_backward", "grad_input",
                     {T(dt, {2, 2, 2}), T(dt, {2, 4, 4}), L({2}), L({2}), L({0}), L({1}), B(false),
                      T(long_tensor({2, 2, 2}, {1, 2, 12, 15, 0, 0, 0, 0})), T(dt, {0})}});
  }
  // both throw: padding above half the kernel, 2-D input, an integral input
  cases.push_back({"aten::max_pool2d_with_indices", "", {T(f32, {1, 3, 8, 8}), L({2}), L({2}), L({2}), L({1}), B(false)}});
  cases.push_back({"aten::max_pool2d_with_indices", "", {T(f32, {8, 8}), L({2}), L({2}), L({0}), L({1}), B(false)}});
  cases.push_back({"aten::max_pool2d_with_indices", "", {T(i64, {1, 3, 8, 8}), L({2}), L({2}), L({0}), L({1}), B(false)}});
  check_all(cases);
}

TEST(ModelsTorchDiff, Hardtanh) {
  std::vector<Case> cases;
  for (int dt : {f32, f64, f16, bf16, i64, i32, i8}) {
    const bool in_float = dt == f16;  // clamp computes Half here; libtorch 1.13's CPU clamp refuses it
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::hardtanh", "", {T(dt, {3, 5}, layout, Fill::special), I(-1), I(1)}, {}, in_float});
      cases.push_back({"aten::hardtanh_", "", {T(dt, {3, 5}, layout, Fill::special), D(0), D(6)}, {}, in_float});  // relu6
    }
    cases.push_back({"aten::hardtanh", "out", {T(dt, {4, 2}), D(-0.5), D(2.5), T(dt, {0})}, {}, in_float});
  }
  cases.push_back({"aten::hardtanh", "", {T(u8, {6}), I(0), I(6)}});
  cases.push_back({"aten::hardtanh", "", {T(u8, {6}), I(-1), I(6)}});   // both throw
  cases.push_back({"aten::hardtanh", "", {T(b8, {6}), I(0), I(1)}});    // both throw
  check_all(cases);
}

TEST(ModelsTorchDiff, ReshapeAliasAndLiftFresh) {
  std::vector<Case> cases;
  for (int dt : {f32, i64, b8}) {
    cases.push_back({"aten::_reshape_alias", "", {T(dt, {2, 3}), L({3, 2}), L({2, 1})}});
    cases.push_back({"aten::_reshape_alias", "", {T(dt, {2, 3, 4}), L({6, 4}), L({4, 1})}});
    cases.push_back({"aten::_reshape_alias", "", {T(dt, {4, 3}, Layout::transposed), L({4, 3}), L({1, 4})}});
    cases.push_back({"aten::lift_fresh", "", {T(dt, {2, 3}, Layout::sliced)}});
  }
  cases.push_back({"aten::_reshape_alias", "", {T(f32, {1, 512, 1, 1}), L({1, 512}), L({512, 1})}});  // resnet18's flatten
  check_all(cases);
}

}  // namespace
