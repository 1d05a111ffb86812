#pragma once
// In-place operations on views of tensors that require grad, as PyTorch does
// them (variable.cpp: rebase_history, CopySlices, the view's grad_fn):
//
//   b = a * 1;  v = b.select(0, 0);  v.mul_(2);
//     b.grad_fn  = CopySlices         (b's gradient, its v region replaced by
//                                      MulBackward0's gradient of that region)
//     v.grad_fn  = AsStridedBackward0 (regenerated from b's new history)
//
// A view is replayed from its base by its geometry (sizes, strides, storage
// offset: PyTorch's as_strided fallback), which every strided view has, so no
// view operator needs anything of its own. The base is the root base
// (TensorImpl::base(): a view of a view has the first one's base), and views
// share its version counter: an in-place write on the base or on any view
// bumps it, and a view whose grad_fn was made at an older version regenerates
// it on next use (grad_fn(t), gradient_edge(t)).
//
// The Autograd kernels call, for a view operator, record_view on its result;
// for an in-place operator whose self is a view and that records grad,
// check_inplace_on_view before the call (PyTorch's refusals, with its
// wording) and rebase_view_history after it.
#include <cstdint>
#include <memory>
#include <string_view>

#include "autograd/autograd_meta.hpp"
#include "autograd/node.hpp"
#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::autograd {

// A view operator's result: a differentiable view of `input`'s base. Its
// creation meta is `creation`, or the input's when `creation` is DEFAULT.
OPD_API void record_view(const Tensor& view, const Tensor& input, CreationMeta creation);

// Before an in-place call on the view `self` that records grad: PyTorch's
// errors (a view from a multi-output operator, one made in no_grad mode, a
// view of a leaf that requires grad, overlapping elements), and what this
// library does not rebase (a dtype other than the base's, a view reaching
// outside its base's elements): NotImplementedError naming `op`. Nothing has
// changed when it throws. (Functional and lazy tensors are never TensorImpl
// views: functionalization refuses their views written in place itself.)
OPD_API void check_inplace_on_view(const Tensor& self, std::string_view op);

// After the call on the view `self` (whose history the kernel set to `fn`): its
// base's history is rebased through a CopySlices node over fn, and self's grad_fn
// regenerated from it.
OPD_API void rebase_view_history(const Tensor& self, std::shared_ptr<Node> fn);

// Sizes, strides and storage offset: how a view is replayed from its base.
struct TensorGeometry {
  SizesVector sizes;
  SizesVector strides;
  std::int64_t offset = 0;
  explicit TensorGeometry(const Tensor& t) : sizes(t.sizes()), strides(t.strides()), offset(t.storage_offset()) {}
};

// The base's new grad_fn after an in-place call `fn` on one of its views. Its
// edges: the base's previous history, then fn's edges but the first (fn's other
// inputs). Backward: the base's gradient with the view's region replaced by
// fn's gradient for self, computed from that region's gradient.
class OPD_API CopySlices final : public Node {
 public:
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn);
  std::string name() const override { return "CopySlices"; }
  variable_list apply(variable_list&& grads) override;
  void release_variables() override { fn_->release_variables(); }

 private:
  TensorGeometry base_;
  TensorGeometry view_;
  std::shared_ptr<Node> fn_;
};

// A view's regenerated grad_fn: its gradient put at its place in zeros of the
// base's geometry (summed over broadcast dimensions).
class OPD_API AsStridedBackward0 final : public Node {
 public:
  AsStridedBackward0(const Tensor& base, const Tensor& view);
  std::string name() const override { return "AsStridedBackward0"; }
  variable_list apply(variable_list&& grads) override;

 private:
  TensorGeometry base_;
  TensorGeometry view_;
};

}  // namespace opd::autograd

#ifdef OPD_HEADER_ONLY
#include "autograd/view_history-inl.hpp"
#endif
