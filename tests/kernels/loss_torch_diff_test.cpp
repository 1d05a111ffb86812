// The negative log-likelihood losses (kernels/ops_loss.hpp) against libtorch
// 1.13 through the differential harness (diff/README.md): nll_loss_forward,
// nll_loss2d_forward and their backward (functional and out=) over Float,
// Double and BFloat16, the three reductions, with and without class weights,
// ignore_index (the default -100 and a class), Byte targets, 1-D inputs,
// empty batches, non-contiguous inputs; the composites nll_loss, nll_loss2d,
// nll_loss_nd (1-D to 5-D) and cross_entropy_loss (class indices, class
// probabilities, label smoothing); and inputs both sides
// refuse (targets out of range, wrong dtypes and shapes). Not compared: the
// backward of reduction none with a target out of range, which ATen 1.13
// does not check (it writes out of bounds); loss_test in kernels_nn_test
// checks that opd refuses it.
#include <cstring>

#include "diff.hpp"

using namespace diff;

namespace {

// Class indices in [0, classes), every fifth one `ignored` (when set), from a seed.
RawTensor targets(std::vector<int64_t> sizes, int64_t classes, uint64_t seed, std::optional<int64_t> ignored = -100,
                  int dtype = i64) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<int64_t> v(static_cast<std::size_t>(n));
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (int64_t i = 0; i < n; ++i) {
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    v[static_cast<std::size_t>(i)] = static_cast<int64_t>((x >> 17) % static_cast<uint64_t>(classes));
    if (ignored && i % 5 == 3) v[static_cast<std::size_t>(i)] = *ignored;
  }
  RawTensor t = long_tensor(std::move(sizes), v);
  if (dtype == u8) {  // narrowed in place: the same values as Byte
    std::vector<unsigned char> bytes(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) bytes[i] = static_cast<unsigned char>(v[i]);
    t.dtype = u8;
    t.storage = bytes;
  }
  return t;
}

Tolerance tol_for(int dt) { return dt == bf16 ? Tolerance{.ulp = 2} : Tolerance{.ulp = 4}; }

TEST(LossTorchDiff, NllLossForwardAndBackward) {
  std::vector<Case> cases;
  const int64_t n = 6, c = 4;
  for (int dt : {f32, f64, bf16}) {
    const Tolerance tol = tol_for(dt);
    for (int64_t reduction : {0, 1, 2}) {
      for (int64_t ignore : {int64_t{-100}, int64_t{2}}) {
        for (bool weighted : {false, true}) {
          const Value w = weighted ? T(dt, {c}, Layout::contiguous, Fill::positive, 5) : None();
          const RawTensor tgt = targets({n}, c, 3, ignore);
          for (Layout layout : all_layouts)
            cases.push_back({"aten::nll_loss_forward", "", {T(dt, {n, c}, layout), T(tgt), w, I(reduction), I(ignore)}, tol});
          // 1-D input, 0-dim target (one sample)
          cases.push_back({"aten::nll_loss_forward", "", {T(dt, {c}), T(long_tensor({}, {1})), w, I(reduction), I(ignore)}, tol});
          cases.push_back({"aten::nll_loss_forward", "", {T(dt, {c}), T(long_tensor({}, {ignore})), w, I(reduction), I(ignore)}, tol});
          // an empty batch: NaN for mean, 0 otherwise
          cases.push_back({"aten::nll_loss_forward", "", {T(dt, {0, c}), T(long_tensor({0}, {})), w, I(reduction), I(ignore)}, tol});
          // backward: grad_output per sample for none, one element otherwise; total_weight as given
          const Value go = reduction == 0 ? T(dt, {n}, Layout::sliced, Fill::standard, 7) : T(dt, {}, Layout::contiguous, Fill::standard, 7);
          const Value tw = T(dt, {}, Layout::contiguous, Fill::positive, 8);
          cases.push_back({"aten::nll_loss_backward", "", {go, T(dt, {n, c}), T(tgt), w, I(reduction), I(ignore), tw}, tol});
          cases.push_back({"aten::nll_loss_backward", "", {T(dt, {}), T(dt, {c}), T(long_tensor({}, {3})), w, I(reduction), I(ignore), tw}, tol});
          // 2-D: (N, C, H, W), targets (N, H, W)
          const RawTensor tgt2 = targets({2, 3, 5}, c, 4, ignore);
          for (Layout layout : {Layout::contiguous, Layout::sliced})
            cases.push_back({"aten::nll_loss2d_forward", "", {T(dt, {2, c, 3, 5}, layout), T(tgt2), w, I(reduction), I(ignore)}, tol});
          const Value go2 = reduction == 0 ? T(dt, {2, 3, 5}, Layout::transposed, Fill::standard, 9) : T(dt, {1}, Layout::contiguous, Fill::standard, 9);
          cases.push_back({"aten::nll_loss2d_backward", "", {go2, T(dt, {2, c, 3, 5}), T(tgt2), w, I(reduction), I(ignore), tw}, tol});
        }
      }
    }
  }
  // Byte targets (nll_loss only), a longer batch (several cascade levels), out= variants.
  cases.push_back({"aten::nll_loss_forward", "", {T(f32, {7, 5}), T(targets({7}, 5, 2, 1, u8)), None(), I(1), I(1)}});
  cases.push_back({"aten::nll_loss_backward", "", {T(f32, {}), T(f32, {7, 5}), T(targets({7}, 5, 2, 1, u8)), None(), I(1), I(1), T(f32, {}, Layout::contiguous, Fill::positive)}});
  cases.push_back({"aten::nll_loss_forward", "", {T(f32, {1000, 3}), T(targets({1000}, 3, 6)), T(f32, {3}, Layout::contiguous, Fill::positive), I(1), I(-100)}});
  cases.push_back({"aten::nll_loss2d_forward", "", {T(f32, {3, 3, 20, 17}), T(targets({3, 20, 17}, 3, 6)), None(), I(2), I(-100)}});
  cases.push_back({"aten::nll_loss_forward", "output", {T(f32, {6, 4}), T(targets({6}, 4, 3)), None(), I(0), I(-100), T(f32, {0}), T(f32, {0})}});
  cases.push_back({"aten::nll_loss_forward", "output", {T(f64, {6, 4}), T(targets({6}, 4, 3)), None(), I(1), I(-100), T(f64, {2}), T(f64, {})}});
  cases.push_back({"aten::nll_loss2d_forward", "output", {T(f32, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4)), None(), I(0), I(-100), T(f32, {0}), T(f32, {0})}});
  cases.push_back({"aten::nll_loss_backward", "grad_input", {T(f32, {}), T(f32, {6, 4}), T(targets({6}, 4, 3)), None(), I(1), I(-100), T(f32, {}, Layout::contiguous, Fill::positive), T(f32, {0})}});
  cases.push_back({"aten::nll_loss2d_backward", "grad_input", {T(f32, {}), T(f32, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4)), None(), I(2), I(-100), T(f32, {}, Layout::contiguous, Fill::positive), T(f32, {0})}});
  check_all(cases);
}

TEST(LossTorchDiff, Composites) {
  std::vector<Case> cases;
  const Tolerance tol{.ulp = 16, .atol = 1e-6};
  for (int64_t reduction : {0, 1, 2}) {
    const Value w = T(f32, {4}, Layout::contiguous, Fill::positive, 5);
    cases.push_back({"aten::nll_loss", "", {T(f32, {6, 4}), T(targets({6}, 4, 3)), w, I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss2d", "", {T(f64, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_nd", "", {T(f32, {4}), T(long_tensor({}, {2})), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_nd", "", {T(f32, {6, 4}, Layout::transposed), T(targets({6}, 4, 3)), w, I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_nd", "", {T(f32, {2, 4, 7}, Layout::transposed), T(targets({2, 7}, 4, 3)), w, I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_nd", "", {T(f64, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4)), w, I(reduction), I(1)}});
    cases.push_back({"aten::nll_loss_nd", "", {T(f64, {2, 4, 3, 2, 2}), T(targets({2, 3, 2, 2}, 4, 4)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_nd", "", {T(f32, {0, 4, 3}), T(long_tensor({0, 3}, {})), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f32, {6, 4}), T(targets({6}, 4, 3)), w, I(reduction), I(-100), D(0.0)}, tol});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {4}), T(long_tensor({}, {3})), None(), I(reduction), I(-100), D(0.0)}, tol});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4)), None(), I(reduction), I(-100), D(0.0)}, tol});
  }
  // cross_entropy_loss's other paths: class probabilities (with weights, smoothing, 0 samples) and
  // label smoothing over class indices (weights, ignore_index)
  for (int64_t reduction : {0, 1, 2}) {
    const Value w = T(f64, {4}, Layout::contiguous, Fill::positive, 5);
    for (double ls : {0.0, 0.2}) {
      cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {6, 4}), T(f64, {6, 4}, Layout::contiguous, Fill::positive, 2), None(), I(reduction), I(-100), D(ls)}, tol});
      cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {2, 4, 3}), T(f64, {2, 4, 3}, Layout::transposed, Fill::positive, 2), w, I(reduction), I(-100), D(ls)}, tol});
      cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {4}), T(f64, {4}, Layout::contiguous, Fill::positive, 2), w, I(reduction), I(-100), D(ls)}, tol});
      cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {0, 4}), T(f64, {0, 4}), None(), I(reduction), I(-100), D(ls)}, tol});
    }
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {6, 4}), T(targets({6}, 4, 3)), None(), I(reduction), I(-100), D(0.3)}, tol});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f32, {6, 4}), T(targets({6}, 4, 3)), T(f32, {4}, Layout::contiguous, Fill::positive, 5), I(reduction), I(-100), D(0.1)}, tol});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4, 1)), w, I(reduction), I(1), D(0.5)}, tol});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {4}), T(long_tensor({}, {3})), w, I(reduction), I(-100), D(1.0)}, tol});
    // both refuse: smoothing over 1, ignore_index with probabilities, integer probabilities
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {6, 4}), T(targets({6}, 4, 3)), None(), I(reduction), I(-100), D(1.5)}});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {6, 4}), T(f64, {6, 4}), None(), I(reduction), I(2), D(0.0)}});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {6, 4}), T(i64, {6, 4}), None(), I(reduction), I(-100), D(0.0)}});
    cases.push_back({"aten::cross_entropy_loss", "", {T(f64, {6, 4}), T(f64, {6, 4}), T(f64, {3}), I(reduction), I(-100), D(0.0)}});
  }
  // Both refuse: a 0-dim input; batch sizes that differ; a 3-D target of the wrong size.
  cases.push_back({"aten::nll_loss_nd", "", {T(f32, {}), T(long_tensor({}, {0})), None(), I(1), I(-100)}});
  cases.push_back({"aten::nll_loss_nd", "", {T(f32, {3, 4}), T(targets({2}, 4, 3)), None(), I(1), I(-100)}});
  cases.push_back({"aten::nll_loss_nd", "", {T(f32, {2, 4, 7}), T(targets({2, 6}, 4, 3)), None(), I(1), I(-100)}});
  check_all(cases);
}

TEST(LossTorchDiff, BothRefuse) {
  std::vector<Case> cases;
  const Value tw = T(f32, {}, Layout::contiguous, Fill::positive);
  for (int64_t reduction : {0, 1, 2}) {
    for (int64_t bad : {int64_t{4}, int64_t{-1}, int64_t{-100}}) {  // -100 is fine unless ignore_index differs
      const RawTensor tgt = long_tensor({3}, {0, bad, 1});
      cases.push_back({"aten::nll_loss_forward", "", {T(f32, {3, 4}), T(tgt), None(), I(reduction), I(2)}});
      cases.push_back({"aten::nll_loss2d_forward", "", {T(f32, {1, 4, 1, 3}), T(long_tensor({1, 1, 3}, {0, bad, 1})), None(), I(reduction), I(2)}});
      if (reduction != 0) {  // ATen 1.13's backward checks the targets only when reducing
        cases.push_back({"aten::nll_loss_backward", "", {T(f32, {}), T(f32, {3, 4}), T(tgt), None(), I(reduction), I(2), tw}});
        cases.push_back({"aten::nll_loss2d_backward", "", {T(f32, {}), T(f32, {1, 4, 1, 3}), T(long_tensor({1, 1, 3}, {0, bad, 1})), None(), I(reduction), I(2), tw}});
      }
    }
    cases.push_back({"aten::nll_loss_forward", "", {T(f32, {}), T(long_tensor({}, {0})), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_forward", "", {T(f32, {2, 3, 4}), T(targets({2}, 3, 1)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_forward", "", {T(f32, {3, 4}), T(targets({3, 1}, 4, 1)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_forward", "", {T(f32, {3, 4}), T(targets({2}, 4, 1)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_forward", "", {T(f32, {3, 4}), T(targets({3}, 4, 1)), T(f32, {3}), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_forward", "", {T(f32, {3, 4}), T(targets({3}, 4, 1)), T(f64, {4}), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_forward", "", {T(f32, {3, 4}), T(i32, {3}, Layout::contiguous, Fill::positive), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_forward", "", {T(i64, {3, 4}), T(targets({3}, 4, 1)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss_forward", "", {T(f16, {3, 4}), T(targets({3}, 4, 1)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss2d_forward", "", {T(f32, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4, -100, u8)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss2d_forward", "", {T(f32, {2, 4, 3, 5}), T(targets({2, 3, 4}, 4, 4)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss2d_forward", "", {T(f32, {2, 4, 3}), T(targets({2, 3}, 4, 4)), None(), I(reduction), I(-100)}});
    cases.push_back({"aten::nll_loss2d_forward", "", {T(f32, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4)), T(f32, {3}), I(reduction), I(-100)}});
    // backward: grad_output of the wrong shape or dtype, total_weight of several elements
    cases.push_back({"aten::nll_loss_backward", "", {T(f32, {2}), T(f32, {3, 4}), T(targets({3}, 4, 1)), None(), I(reduction), I(-100), tw}});
    cases.push_back({"aten::nll_loss_backward", "", {T(f32, {3}), T(f32, {3, 4}), T(targets({3}, 4, 1)), None(), I(reduction), I(-100), T(f32, {2})}});
    cases.push_back({"aten::nll_loss_backward", "", {T(f64, {3}), T(f32, {3, 4}), T(targets({3}, 4, 1)), None(), I(reduction), I(-100), tw}});
    cases.push_back({"aten::nll_loss2d_backward", "", {T(f32, {2, 3, 4}), T(f32, {2, 4, 3, 5}), T(targets({2, 3, 5}, 4, 4)), None(), I(reduction), I(-100), tw}});
  }
  // out= of the wrong dtype
  cases.push_back({"aten::nll_loss_forward", "output", {T(f32, {6, 4}), T(targets({6}, 4, 3)), None(), I(0), I(-100), T(f64, {0}), T(f32, {0})}});
  cases.push_back({"aten::nll_loss_forward", "output", {T(f32, {6, 4}), T(targets({6}, 4, 3)), None(), I(1), I(-100), T(f32, {0}), T(i64, {0})}});
  check_all(cases);
}

}  // namespace
