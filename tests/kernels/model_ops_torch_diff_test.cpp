// The operators that the last torchvision / torch.nn models needed (issue
// 26) against libtorch 1.13 through the differential harness (diff/README.md),
// part of kernels_models_torch_diff_test: hardsigmoid, clamp_min (Scalar and
// Tensor), new_zeros, fill_.Tensor, unsafe_split, the in-place views
// as_strided_ and transpose_, the fused _native_multi_head_attention and
// _transformer_encoder_layer_fwd; and the layout of elementwise outputs
// (strides compared: TensorIterator's output follows its inputs' strides).
#include "diff.hpp"

using namespace diff;

namespace {

TEST(ModelOpsTorchDiff, Hardsigmoid) {
  std::vector<Case> cases;
  for (int dt : {f32, f64}) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::hardsigmoid", "", {T(dt, {3, 5}, layout, Fill::special)}, {.ulp = 0}});
    }
    cases.push_back({"aten::hardsigmoid_", "", {T(dt, {4, 3}, Layout::transposed)}, {.ulp = 0}});
    cases.push_back({"aten::hardsigmoid", "out", {T(dt, {2, 3}), T(dt, {0})}, {.ulp = 0}});
  }
  cases.push_back({"aten::hardsigmoid", "", {T(f32, {0, 3})}});
  cases.push_back({"aten::hardsigmoid", "", {T(f32, {})}});
  cases.push_back({"aten::hardsigmoid", "", {T(i64, {4})}});  // both throw: integral
  cases.push_back({"aten::hardsigmoid", "", {T(b8, {4})}});
  check_all(cases);
}

TEST(ModelOpsTorchDiff, ClampMin) {
  std::vector<Case> cases;
  for (int dt : {f32, f64, i64}) {
    for (Layout layout : all_layouts) {
      cases.push_back({"aten::clamp_min", "", {T(dt, {3, 5}, layout, Fill::special), I(0)}});
      cases.push_back({"aten::clamp_min", "Tensor", {T(dt, {3, 5}, layout), T(dt, {5})}});
    }
    cases.push_back({"aten::clamp_min_", "", {T(dt, {4, 3}, Layout::transposed), I(-1)}});
    cases.push_back({"aten::clamp_min_", "Tensor", {T(dt, {4, 3}), T(dt, {4, 1})}});
    cases.push_back({"aten::clamp_min", "out", {T(dt, {2, 3}), I(1), T(dt, {0})}});
    cases.push_back({"aten::clamp_min", "Tensor_out", {T(dt, {2, 3}), T(dt, {3}), T(dt, {2, 3})}});
  }
  cases.push_back({"aten::clamp_min", "", {T(i64, {5}), D(0.5)}});          // promotes to the default dtype
  cases.push_back({"aten::clamp_min", "Tensor", {T(i32, {5}), T(f64, {5})}});  // result_type
  cases.push_back({"aten::clamp_min", "", {T(f32, {0, 2}), D(0.5)}});
  cases.push_back({"aten::clamp_min_", "", {T(i64, {5}), D(0.5)}});          // both throw: Float into Long
  cases.push_back({"aten::clamp_min", "Tensor", {T(f32, {2, 3}), T(f32, {4})}});  // both throw: shapes
  check_all(cases);
}

TEST(ModelOpsTorchDiff, NewZerosAndFillTensor) {
  std::vector<Case> cases;
  for (int dt : {f32, i64, b8}) {
    cases.push_back({"aten::new_zeros", "", {T(dt, {2, 3}), L({4, 1, 2}), None(), None(), None(), None()}});
    cases.push_back({"aten::new_zeros", "", {T(dt, {2}, Layout::sliced), L({0, 3}), ScalarT(f64), None(), None(), None()}});
    cases.push_back({"aten::fill_", "Tensor", {T(dt, {3, 4}, Layout::transposed), T(dt, {})}});
    cases.push_back({"aten::fill_", "Tensor", {T(dt, {3, 4}), T(f64, {})}});
    cases.push_back({"aten::fill_", "Tensor", {T(dt, {2, 2}, Layout::expanded), T(dt, {})}});  // written as fill_.Scalar
  }
  // both throw (every argument given: libtorch's boxed call reads the schema's count off the stack)
  cases.push_back({"aten::new_zeros", "", {T(f32, {2}), L({-1}), None(), None(), None(), None()}});
  cases.push_back({"aten::fill_", "Tensor", {T(f32, {0, 4}), T(f32, {})}});
  cases.push_back({"aten::fill_", "Tensor", {T(f32, {3}), T(f32, {1})}});  // both throw: not 0-dim
  cases.push_back({"aten::fill_", "Tensor", {T(i64, {3}), T(f32, {})}});   // the value converted
  check_all(cases);
}

TEST(ModelOpsTorchDiff, UnsafeSplitAndInPlaceViews) {
  std::vector<Case> cases;
  for (Layout layout : all_layouts) {
    cases.push_back({"aten::unsafe_split", "Tensor", {T(f32, {4, 6}, layout), I(4), I(1)}});
    cases.push_back({"aten::unsafe_split", "Tensor", {T(f32, {4, 6}, layout), I(2), I(0)}});
    cases.push_back({"aten::transpose_", "", {T(f32, {2, 3, 4}, layout), I(0), I(-1)}});
  }
  cases.push_back({"aten::unsafe_split", "Tensor", {T(i64, {5}), I(2), I(0)}});
  cases.push_back({"aten::unsafe_split", "Tensor", {T(f32, {0, 3}), I(1), I(1)}});
  cases.push_back({"aten::unsafe_split", "Tensor", {T(f32, {4}), I(-1), I(0)}});  // both throw
  cases.push_back({"aten::unsafe_split", "Tensor", {T(f32, {4}), I(2), I(1)}});   // both throw: dim
  cases.push_back({"aten::transpose_", "", {T(f32, {3, 4}), I(1), I(1)}});
  cases.push_back({"aten::transpose_", "", {T(f32, {3, 4}), I(0), I(2)}});  // both throw: dim
  // as_strided_: self itself re-viewed (its own offset unless one is given)
  cases.push_back({"aten::as_strided_", "", {T(f32, {4, 6}), L({3, 2}), L({1, 6}), None()}});
  cases.push_back({"aten::as_strided_", "", {T(f32, {4, 6}), L({2, 2, 2}), L({12, 1, 3}), I(5)}});
  cases.push_back({"aten::as_strided_", "", {T(f32, {3, 4}, Layout::sliced), L({3, 3}), L({8, 2}), None()}});
  cases.push_back({"aten::as_strided_", "", {T(f32, {4, 6}), L({4, 7}), L({6, 1}), None()}});  // both throw: storage
  cases.push_back({"aten::as_strided_", "", {T(f32, {4, 6}), L({2, 2}), L({1}), None()}});     // both throw
  cases.push_back({"aten::as_strided_", "", {T(f32, {4, 6}), L({2, 2}), L({-1, 1}), None()}});  // both throw
  check_all(cases);
}

// B 2, T 5, D 8, 2 heads; query, key and value distinct tensors.
std::vector<Value> attention_args(Value mask, bool need_weights, bool average, Value mask_type) {
  return {T(f32, {2, 5, 8}, Layout::contiguous, Fill::standard, 1), T(f32, {2, 5, 8}, Layout::contiguous, Fill::standard, 2),
          T(f32, {2, 5, 8}, Layout::contiguous, Fill::standard, 3), I(8), I(2),
          T(f32, {24, 8}, Layout::contiguous, Fill::small, 4), T(f32, {24}, Layout::contiguous, Fill::small, 5),
          T(f32, {8, 8}, Layout::contiguous, Fill::small, 6), T(f32, {8}, Layout::contiguous, Fill::small, 7),
          std::move(mask), B(need_weights), B(average), std::move(mask_type)};
}

TEST(ModelOpsTorchDiff, NativeMultiHeadAttention) {
  const Tolerance tol{.ulp = 0, .atol = 1e-5, .rtol = 1e-5};
  std::vector<Case> cases;
  for (bool need : {false, true}) {
    for (bool average : {false, true}) {
      cases.push_back({"aten::_native_multi_head_attention", "", attention_args(None(), need, average, None()), tol});
    }
  }
  // a key padding mask (B, T) and a mask of the scores' shape (B, H, T, T)
  // (mask_type 1 or 2); True masks out, a row masked whole gives NaN
  for (int64_t type : {1, 2}) {
    cases.push_back({"aten::_native_multi_head_attention", "",
                     attention_args(T(b8, {2, 5}, Layout::contiguous, Fill::standard, 10), true, true, I(type)), tol});
    cases.push_back({"aten::_native_multi_head_attention", "",
                     attention_args(T(b8, {2, 2, 5, 5}, Layout::transposed, Fill::standard, 11), true, false, I(type)),
                     tol});
  }
  cases.push_back({"aten::_native_multi_head_attention", "",
                   attention_args(T(b8, {2, 5}, Layout::contiguous, Fill::positive), false, true, I(1)), tol});
  // both throw: a mask whose first dimension is not the batch, no mask_type,
  // mask_type 0 (no src_mask on CPU in 1.13), a mask of another shape
  cases.push_back({"aten::_native_multi_head_attention", "", attention_args(T(b8, {5, 5}), true, true, I(1))});
  cases.push_back({"aten::_native_multi_head_attention", "", attention_args(T(b8, {2, 5}), true, true, None())});
  cases.push_back({"aten::_native_multi_head_attention", "", attention_args(T(b8, {2, 5}), true, true, I(0))});
  cases.push_back({"aten::_native_multi_head_attention", "", attention_args(T(b8, {2, 1, 5, 5}), true, true, I(2))});
  {  // a transposed query
    std::vector<Value> a = attention_args(None(), true, true, None());
    a[0] = T(f32, {2, 5, 8}, Layout::transposed);
    cases.push_back({"aten::_native_multi_head_attention", "", a, tol});
  }
  {  // both throw: embed_dim not the query's last dimension
    std::vector<Value> a = attention_args(None(), false, true, None());
    a[3] = I(6);
    cases.push_back({"aten::_native_multi_head_attention", "", a});
  }
  {  // both throw: qkv_weight of the wrong shape
    std::vector<Value> a = attention_args(None(), false, true, None());
    a[5] = T(f32, {16, 8});
    cases.push_back({"aten::_native_multi_head_attention", "", a});
  }
  {  // both throw: key of another shape
    std::vector<Value> a = attention_args(None(), false, true, None());
    a[1] = T(f32, {2, 4, 8});
    cases.push_back({"aten::_native_multi_head_attention", "", a});
  }
  check_all(cases);
}

// d_model 8, 2 heads, feed-forward 16.
std::vector<Value> encoder_args(bool use_gelu, bool norm_first, Value mask, Value mask_type) {
  const auto w = [](std::vector<int64_t> sizes, uint64_t seed) {
    return T(f32, std::move(sizes), Layout::contiguous, Fill::small, seed);
  };
  return {T(f32, {2, 5, 8}), I(8), I(2), w({24, 8}, 2), w({24}, 3), w({8, 8}, 4), w({8}, 5), B(use_gelu),
          B(norm_first), D(1e-5), T(f32, {8}, Layout::contiguous, Fill::positive, 6), w({8}, 7),
          T(f32, {8}, Layout::contiguous, Fill::positive, 8), w({8}, 9), w({16, 8}, 10), w({16}, 11), w({8, 16}, 12),
          w({8}, 13), std::move(mask), std::move(mask_type)};
}

TEST(ModelOpsTorchDiff, TransformerEncoderLayerFwd) {
  const Tolerance tol{.ulp = 0, .atol = 1e-5, .rtol = 1e-5};
  std::vector<Case> cases;
  for (bool gelu : {false, true}) {
    for (bool norm_first : {false, true}) {
      cases.push_back({"aten::_transformer_encoder_layer_fwd", "", encoder_args(gelu, norm_first, None(), None()), tol});
    }
  }
  cases.push_back({"aten::_transformer_encoder_layer_fwd", "",
                   encoder_args(false, false, T(b8, {2, 5}, Layout::contiguous, Fill::standard, 14), I(1)), tol});
  {  // an empty batch: a clone of src
    std::vector<Value> a = encoder_args(false, false, None(), None());
    a[0] = T(f32, {0, 5, 8});
    cases.push_back({"aten::_transformer_encoder_layer_fwd", "", a, tol});
  }
  {  // both throw: a norm weight of the wrong size
    std::vector<Value> a = encoder_args(false, false, None(), None());
    a[10] = T(f32, {7});
    cases.push_back({"aten::_transformer_encoder_layer_fwd", "", a});
  }
  check_all(cases);
}

// The output's strides as TensorIterator's: a permuted input gives a permuted
// output (maxvit_t's add of a permuted tensor, read by a _reshape_alias with
// the strides ATen's output had), broadcasting and mixed layouts sorted by
// the first input that orders two dimensions.
TEST(ModelOpsTorchDiff, ElementwiseOutputLayout) {
  std::vector<Case> cases;
  const auto c = [&](const char* op, const char* overload, std::vector<Value> args) {
    Case k{op, overload, std::move(args), assert_close_tolerance(f32)};
    k.same_layout = true;
    cases.push_back(std::move(k));
  };
  for (Layout a : all_layouts) {
    for (Layout b : all_layouts) {
      c("aten::add", "Tensor", {T(f32, {3, 4, 5}, a), T(f32, {3, 4, 5}, b), I(1)});
      c("aten::mul", "Tensor", {T(f32, {2, 3, 4, 5}, a), T(f32, {4, 5}, b)});
    }
    c("aten::add", "Tensor", {T(f32, {4, 5}, Layout::contiguous), T(f32, {3, 4, 5}, a), I(1)});
    c("aten::sub", "Tensor", {T(f32, {3, 4, 5}, a), T(f32, {}), I(2)});
    c("aten::div", "Tensor", {T(f32, {3, 4, 1}, a), T(f32, {5}), });
    c("aten::hardsigmoid", "", {T(f32, {2, 4, 5}, a)});
    c("aten::sigmoid", "", {T(f32, {2, 4, 5}, a)});
    c("aten::relu", "", {T(f32, {2, 4, 5}, a)});
    c("aten::gelu", "", {T(f32, {2, 4, 5}, a), S("none")});
    c("aten::clamp", "", {T(f32, {2, 4, 5}, a), D(-0.5), D(0.5)});
    c("aten::where", "self", {T(b8, {4, 5}), T(f32, {2, 4, 5}, a), T(f32, {2, 4, 5})});
    c("aten::maximum", "", {T(f32, {2, 4, 5}, a), T(f32, {2, 4, 5}, Layout::transposed)});
    c("aten::add", "out", {T(f32, {3, 4, 5}, a), T(f32, {3, 4, 5}, a), I(1), T(f32, {0})});  // resized out
    c("aten::add_", "Tensor", {T(f32, {3, 4, 5}, a), T(f32, {3, 4, 5}), I(1)});
  }
  c("aten::add", "Tensor", {T(f32, {1, 4, 1, 5}, Layout::transposed), T(f32, {3, 1, 2, 1}), I(1)});
  c("aten::add", "Tensor", {T(f32, {2, 1, 5, 3}, Layout::transposed), T(f32, {2, 4, 5, 3}, Layout::transposed), I(1)});
  c("aten::mul", "Tensor", {T(f32, {0, 4, 5}, Layout::transposed), T(f32, {0, 4, 5})});
  check_all(cases);
}

}  // namespace
