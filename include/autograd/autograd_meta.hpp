#pragma once
// Autograd's per-tensor state, hung on the TensorImpl (TensorImpl::autograd_meta):
// requires_grad, .grad, grad_fn and output_nr, the leaf's gradient accumulator,
// and the leaf's hooks. A tensor that never required grad has none (null), and
// carries no Autograd key: its calls never enter the Autograd layer.
//
// A tensor that needs_grad grad (a leaf with requires_grad, or an output with a
// grad_fn) carries its backend's Autograd key (AutogradCPU, ...), which routes
// its calls through the Autograd kernels.
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "autograd/node.hpp"
#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::autograd {

struct AutogradMeta final : AutogradMetaInterface {
  bool requires_grad = false;       // a leaf's flag (a non-leaf needs_grad grad through grad_fn)
  Tensor grad;                      // .grad of a leaf
  std::shared_ptr<Node> grad_fn;    // null for a leaf
  std::weak_ptr<Node> grad_accumulator;
  std::uint32_t output_nr = 0;
  std::vector<TensorHook> hooks;    // a leaf's hooks (a non-leaf's are its grad_fn's pre-hooks)
  std::mutex mutex;                 // .grad and the accumulator, for backward calls on several threads
};

// Null when t has none.
inline AutogradMeta* autograd_meta(const Tensor& t) noexcept {
  return t.defined() ? static_cast<AutogradMeta*>(t.unsafe_get_impl()->autograd_meta()) : nullptr;
}
// Creates it when missing.
OPD_API AutogradMeta& materialize_autograd_meta(const Tensor& t);

inline bool requires_grad(const Tensor& t) noexcept {
  const AutogradMeta* m = autograd_meta(t);
  return m != nullptr && (m->requires_grad || m->grad_fn != nullptr);
}
inline const std::shared_ptr<Node>& grad_fn(const Tensor& t) noexcept {
  static const std::shared_ptr<Node> none;
  const AutogradMeta* m = autograd_meta(t);
  return m != nullptr ? m->grad_fn : none;
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
#endif
