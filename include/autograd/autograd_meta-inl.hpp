#pragma once
// Autograd metadata, out of line (autograd_meta.hpp).
#include "autograd/autograd_meta.hpp"
#include "dispatch/dispatcher.hpp"
#include "dispatch/keys/local_dispatch_key_set.hpp"
#include "autograd/node.hpp"

namespace opd::autograd {

OPD_FUNC AutogradMeta& detail::make_autograd_meta(const Tensor& t) {
  OPD_CHECK(t.defined(), "autograd: undefined tensor");
  TensorImpl* impl = t.unsafe_get_impl();
  if (impl->autograd_meta() == nullptr) impl->set_autograd_meta(std::make_unique<AutogradMeta>());
  return *static_cast<AutogradMeta*>(impl->autograd_meta());
}

OPD_FUNC std::shared_ptr<Node> grad_accumulator(const Tensor& leaf) {
  AutogradMeta& m = materialize_autograd_meta(leaf);
  std::lock_guard<std::mutex> lock(m.mutex);
  std::shared_ptr<Node> acc = m.grad_accumulator.lock();
  if (!acc) {
    acc = make_node<AccumulateGrad>(leaf);
    m.grad_accumulator = acc;
  }
  return acc;
}

OPD_FUNC Edge gradient_edge(const Tensor& t) {
  AutogradMeta* m = autograd_meta(t);
  if (m == nullptr) return {};
  if (const std::shared_ptr<Node>& fn = grad_fn(t)) return Edge{fn, m->output_nr};  // (a view's, regenerated)
  if (m->requires_grad) return Edge{grad_accumulator(t), 0};
  return {};
}

namespace detail {
inline void add_autograd_key(const Tensor& t) {
  TensorImpl* impl = t.unsafe_get_impl();
  impl->add_keys(DispatchKeySet(autograd_key_for_backend(backend_key_for(t.device().type()))));
}
}  // namespace detail

OPD_FUNC void set_history(const Tensor& t, std::shared_ptr<Node> fn, std::uint32_t output_nr) {
  AutogradMeta& m = materialize_autograd_meta(t);
  m.grad_fn = std::move(fn);
  m.output_nr = output_nr;
  m.requires_grad = false;
  m.attr_version = t.version();  // (a view's grad_fn is current at this version)
  detail::add_autograd_key(t);
}

OPD_FUNC void set_requires_grad(const Tensor& t, bool needs_grad) {
  OPD_CHECK(t.defined(), "set_requires_grad: undefined tensor");
  AutogradMeta* m = autograd_meta(t);
  if (m != nullptr && m->grad_fn) {
    OPD_CHECK(needs_grad, "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                        "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    return;
  }
  if (needs_grad) {
    OPD_CHECK(is_floating_type(t.dtype()) || is_complex_type(t.dtype()),
              "only Tensors of floating point and complex dtype can require gradients");
    materialize_autograd_meta(t).requires_grad = true;
    detail::add_autograd_key(t);
  } else if (m != nullptr) {
    m->requires_grad = false;
  }
}

OPD_FUNC void set_grad(const Tensor& t, const Tensor& grad) {
  OPD_CHECK(t.defined(), "set_grad: undefined tensor");
  if (grad.defined()) {
    OPD_CHECK(!grad.is_same(t), "can't assign Variable as its own grad");
    OPD_CHECK(grad.dtype() == t.dtype(), "assigned grad has data of a different type");
    OPD_CHECK(grad.device() == t.device(), "assigned grad has data located on a different device");
    OPD_CHECK(grad.sizes() == t.sizes(), "assigned grad has data of a different size");
  }
  AutogradMeta* m = grad.defined() ? &materialize_autograd_meta(t) : autograd_meta(t);
  if (m == nullptr) return;  // None on a tensor that never had a .grad
  std::lock_guard<std::mutex> lock(m->mutex);
  m->grad = grad;
}

OPD_FUNC Tensor detach(const Tensor& t) {
  OPD_CHECK(t.defined(), "detach: undefined tensor");
  const TensorImpl& src = *t.unsafe_get_impl();
  // A functional wrapper or a lazy tensor is a TensorImpl subclass, which a
  // plain copy carrying its keys would impersonate (their kernels cast to the
  // subclass): those layers make the alias themselves, as aten::detach's view
  // below the autograd layers.
  if (src.key_set().has(DispatchKey::Functionalize) || src.key_set().has(DispatchKey::Lazy)) {
    const OperatorEntry* op = Dispatcher::singleton().find_schema("aten::detach");
    OPD_CHECK(op != nullptr, "detach: a functional or lazy tensor is detached by aten::detach, which is not registered "
                             "(opd::kernels::register_cpu() registers it)");
    ExcludeDispatchKeyGuard below(kAutogradKeys);
    Stack stack{IValue(t)};
    call_boxed(*op, stack);
    return stack.back().to_tensor();
  }
  auto impl = make_intrusive<TensorImpl>(src.storage(), src.key_set() - kAutogradKeys, src.dtype(), src.version_counter());
  impl->set_sizes_and_strides(src.sizes(), src.strides(), src.storage_offset());
  impl->set_wrapped_number(src.is_wrapped_number());
  return Tensor(std::move(impl));
}

}  // namespace opd::autograd
