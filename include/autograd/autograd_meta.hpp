#pragma once
// Autograd's per-tensor state, hung on the TensorImpl (TensorImpl::autograd_meta):
// requires_grad, .grad, grad_fn and output_nr, the leaf's gradient accumulator,
// and the leaf's hooks. A tensor that never required grad has none (null), and
// carries no Autograd key: its calls never enter the Autograd layer.
//
// A tensor that needs_grad grad (a leaf with requires_grad, or an output with a
// grad_fn) carries its backend's Autograd key (AutogradCPU, ...), which routes
// its calls through the Autograd kernels.
//
// A differentiable view (made by a view operator's Autograd kernel, or written
// in place with grad) also records how it was made and the version its grad_fn
// belongs to: once its base or another view of it is written in place (the
// version counter is shared), its grad_fn is regenerated from the base's new
// history (view_history.hpp: PyTorch's DifferentiableViewMeta).
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "autograd/node.hpp"
#include "dispatch/config.hpp"
#include "dispatch/core/object_pool.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::autograd {

// How a view was made, for PyTorch's refusals of in-place writes to it.
enum class CreationMeta : std::uint8_t {
  DEFAULT,            // rebased through its base when written in place
  NO_GRAD_MODE,       // made in no_grad mode from a tensor that requires grad
  MULTI_OUTPUT_NODE,  // one of several views (split, unbind, chunk)
};

struct AutogradMeta final : AutogradMetaInterface {
  OPD_POOLED_NEW(AutogradMeta)  // one per tensor that requires grad or has a history
  bool requires_grad = false;       // a leaf's flag (a non-leaf needs_grad grad through grad_fn)
  Tensor grad;                      // .grad of a leaf
  std::shared_ptr<Node> grad_fn;    // null for a leaf
  std::weak_ptr<Node> grad_accumulator;
  std::uint32_t output_nr = 0;
  std::vector<TensorHook> hooks;    // a leaf's hooks (a non-leaf's are its grad_fn's pre-hooks)
  std::mutex mutex;                 // .grad and the accumulator, for backward calls on several threads
  // A differentiable view (the base is the TensorImpl's base()):
  bool is_view = false;
  CreationMeta creation_meta = CreationMeta::DEFAULT;
  std::uint32_t attr_version = 0;   // the version grad_fn was made at
};

// Null when t has none.
inline AutogradMeta* autograd_meta(const Tensor& t) noexcept {
  return t.defined() ? static_cast<AutogradMeta*>(t.unsafe_get_impl()->autograd_meta()) : nullptr;
}
namespace detail {
OPD_API AutogradMeta& make_autograd_meta(const Tensor& t);
}  // namespace detail
// Creates it when missing.
inline AutogradMeta& materialize_autograd_meta(const Tensor& t) {
  if (AutogradMeta* m = autograd_meta(t)) [[likely]]
    return *m;
  return detail::make_autograd_meta(t);
}

inline bool requires_grad(const Tensor& t) noexcept {
  const AutogradMeta* m = autograd_meta(t);
  if (m == nullptr) return false;
  if (m->requires_grad || m->grad_fn != nullptr) return true;
  if (!m->is_view) return false;
  const Tensor base = t._base();  // a view made in no_grad mode of a base that requires grad does too (PyTorch)
  return base.defined() && requires_grad(base);
}
// A view's grad_fn, regenerated when its base was written in place since it
// was made (view_history-inl.hpp).
OPD_API const std::shared_ptr<Node>& view_grad_fn(const Tensor& view, AutogradMeta& m);
inline const std::shared_ptr<Node>& grad_fn(const Tensor& t) {
  static const std::shared_ptr<Node> none;
  AutogradMeta* m = autograd_meta(t);
  if (m == nullptr) return none;
  if (m->is_view) [[unlikely]] return view_grad_fn(t, *m);
  return m->grad_fn;
}

// The leaf's AccumulateGrad node (made on first use; the leaf holds it weakly).
OPD_API std::shared_ptr<Node> grad_accumulator(const Tensor& leaf);
// Where t's gradient goes: (grad_fn, output_nr), the accumulator of a leaf that
// needs_grad grad, or an invalid edge.
OPD_API Edge gradient_edge(const Tensor& t);
// Makes t output `output_nr` of `fn` and adds its backend's Autograd key.
OPD_API void set_history(const Tensor& t, std::shared_ptr<Node> fn, std::uint32_t output_nr);
// A leaf's flag; errors as PyTorch's for a non-leaf and for integer dtypes.
OPD_API void set_requires_grad(const Tensor& t, bool needs_grad);
// t.grad = grad (undefined: None), with PyTorch's checks (Python's .grad setter:
// the same dtype, device and sizes; not t itself).
OPD_API void set_grad(const Tensor& t, const Tensor& grad);
// A tensor over t's storage and version counter with no autograd state.
OPD_API Tensor detach(const Tensor& t);

}  // namespace opd::autograd

#ifdef OPD_HEADER_ONLY
#include "autograd/autograd_meta-inl.hpp"
#include "autograd/node-inl.hpp"
#include "autograd/view_history.hpp"  // (its tail includes view_history-inl.hpp)
#endif
