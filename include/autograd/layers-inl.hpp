#pragma once
// ADInplaceOrView and the Autograd fallback, out of line (layers.hpp).
#include <algorithm>

#include "autograd/autograd_kernel.hpp"
#include "autograd/layers.hpp"
#include <vector>

namespace opd::autograd {

OPD_FUNC void inplace_or_view_boxed(const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
  std::vector<Tensor> written;
  for (std::size_t i : op.alias_facts().written) {
    if (i < stack->size()) for_each_tensor([&](const Tensor& t) { written.push_back(t); }, (*stack)[i]);
  }
  redispatch_boxed(op, ks & DispatchKeySet::full_after(DispatchKey::ADInplaceOrView), *stack);
  for (const Tensor& t : written) t.bump_version();
}

OPD_FUNC void autograd_fallback(const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
  bool needs_grad = false;
  if (GradMode::is_enabled()) {
    for (const IValue& v : *stack) for_each_tensor([&](const Tensor& t) { needs_grad = needs_grad || requires_grad(t); }, v);
  }
  const AliasFacts& facts = op.alias_facts();
  auto not_implemented = [&] {
    throw NotImplementedError("the derivative for '" + op.name() +
                              "' is not implemented: no formula is declared for it (opd::autograd::derivatives) "
                              "and it is not declared non-differentiable, but one of its inputs requires grad");
  };
  if (needs_grad) {
    if (!facts.outs.empty()) kernel_detail::throw_out_variant(op.name());
    for (std::size_t i : facts.written) {
      if (i >= stack->size()) continue;
      for_each_tensor(
          [&](const Tensor& t) {
            const AutogradMeta* m = autograd_meta(t);
            if (m != nullptr && m->requires_grad && !m->grad_fn) kernel_detail::throw_leaf_inplace();
          },
          (*stack)[i]);
    }
    if (!facts.written.empty()) not_implemented();  // before the call: the written tensors stay as they were
  }
  {
    ExcludeDispatchKeyGuard below(kAutogradKeys);
    redispatch_boxed(op, ks & kBelowAutograd, *stack);
  }
  if (!needs_grad) return;
  bool differentiable_output = false;
  for (const IValue& v : *stack) {
    for_each_tensor(
        [&](const Tensor& t) {
          differentiable_output = differentiable_output || is_floating_type(t.dtype()) || is_complex_type(t.dtype());
        },
        v);
  }
  if (differentiable_output) not_implemented();
}

OPD_FUNC void non_differentiable_boxed(const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
  ExcludeDispatchKeyGuard below(kAutogradKeys);
  redispatch_boxed(op, ks & kBelowAutograd, *stack);
}

OPD_FUNC RegistrationSet register_autograd_layers() {
  RegistrationSet set;
  Dispatcher& d = Dispatcher::singleton();
  // every operator that writes an argument and has no typed kernel, declared now or later (the
  // dispatcher makes this fallback a fallthrough for the operators that write nothing)
  set.add(register_fallback(DispatchKey::ADInplaceOrView, &inplace_or_view_boxed));
  // A composite (CompositeImplicitAutograd) view without a formula may make its
  // result directly rather than through view operators, which would record
  // nothing: it takes the fallback (an error when an input requires grad).
  for (const std::string& name : d.operator_names()) {
    const OperatorEntry* e = d.find_schema(name);
    if (e == nullptr || !e->alias_facts().is_view()) continue;
    if (!e->has_kernel_for(DispatchKey::CompositeImplicitAutograd) || e->has_kernel_for(DispatchKey::AutogradCPU)) continue;
    for (DispatchKey k : kAutogradKeyList) set.add(register_boxed_kernel(name, k, &autograd_fallback));
  }
  for (DispatchKey k : kAutogradKeyList) set.add(register_fallback(k, &autograd_fallback));
  return set;
}

}  // namespace opd::autograd
