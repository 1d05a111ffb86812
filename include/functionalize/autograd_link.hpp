#pragma once
// Autograd across the Functionalize layer (docs/functionalization.md,
// "Autograd"). Functionalize ranks above the Autograd keys, so autograd
// records the functional operators that run on the wrappers' values; but the
// wrapper is the tensor the user holds, so the autograd state (the leaf flag,
// .grad, grad_fn) is the wrapper's, as in eager mode. The layer hands it across:
//
//   unwrap        a wrapper that carries an Autograd key lends its state to its
//                 value: a leaf's gradient goes to the wrapper's AccumulateGrad,
//                 a result's to its grad_fn (the value may have been regenerated);
//   wrap          a result takes its value's history (grad_fn, output_nr);
//   in-place      the written wrapper takes the new value's history (PyTorch's
//                 rebase) when the call recorded one, refused as eager mode
//                 refuses it: on a leaf that requires grad, on a view, and out=;
//   views         computed with the view operator itself, not its *_copy, when
//                 the base carries an Autograd key and grad mode is on: autograd's
//                 formulas are the view's (the *_copy operators have none).
//
// Nothing is done for tensors without an Autograd key or with grad mode off.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "autograd/autograd_meta.hpp"
#include "autograd/grad_mode.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"
#include "functionalize/functional_tensor.hpp"

namespace opd::functionalization::autograd_link {

inline bool carries_autograd(const Tensor& t) noexcept { return t.defined() && t.key_set().has_any(kAutogradKeys); }

// Whether the call may record: grad mode is on and the wrapper carries an Autograd key.
inline bool records(const Tensor& wrapper) noexcept {
  return carries_autograd(wrapper) && GradMode::is_enabled();
}

// Holds the leaves' accumulators lent to values until the call below has
// recorded its node (which then holds them).
using Lent = std::vector<std::shared_ptr<autograd::Node>>;

// The wrapper's autograd state onto its value, before a call below.
inline void lend(const Tensor& wrapper, const Tensor& value, Lent& lent) {
  if (!records(wrapper) || !value.defined()) return;
  const autograd::AutogradMeta* w = autograd::autograd_meta(wrapper);
  if (w == nullptr) return;
  if (w->grad_fn) {
    if (autograd::grad_fn(value) != w->grad_fn) autograd::set_history(value, w->grad_fn, w->output_nr);
    return;
  }
  if (!w->requires_grad) return;
  std::shared_ptr<autograd::Node> acc = autograd::grad_accumulator(wrapper);
  autograd::AutogradMeta& v = autograd::materialize_autograd_meta(value);
  {
    std::lock_guard<std::mutex> lock(v.mutex);
    v.grad_fn = nullptr;
    v.grad_accumulator = acc;
  }
  autograd::set_requires_grad(value, true);
  lent.push_back(std::move(acc));
}

// A result wrapper takes its value's history.
inline void take_history(const Tensor& wrapper, const Tensor& value) {
  const std::shared_ptr<autograd::Node>& fn = autograd::grad_fn(value);
  if (fn) autograd::set_history(wrapper, fn, autograd::autograd_meta(value)->output_nr);
}

// An in-place update whose functional call recorded history (new_value has a
// grad_fn), before anything changes: eager mode's refusals.
inline void check_update(const OperatorEntry& op, const Tensor& wrapper, const Tensor& new_value, bool is_out_op) {
  if (!autograd::grad_fn(new_value)) return;
  if (is_out_op) {
    std::string_view base = op.name();
    base = base.substr(base.find("::") == std::string_view::npos ? 0 : base.find("::") + 2);
    throw Error(std::string(base.substr(0, base.find('.'))) +
                "(): functions with out=... arguments don't support automatic differentiation, but one of the "
                "arguments requires grad.");
  }
  if (!autograd::grad_fn(wrapper) && autograd::requires_grad(wrapper))
    throw Error("a leaf Variable that requires grad is being used in an in-place operation.");
  if (const FunctionalTensorImpl* f = functional_impl(wrapper); f != nullptr && !f->view_metas().empty())
    throw NotImplementedError(op.name() +
                              ": an in-place operation that records grad on a view is not supported yet "
                              "(PyTorch rebases the base's history through the view: CopySlices)");
}

}  // namespace opd::functionalization::autograd_link
