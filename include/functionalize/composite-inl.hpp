#pragma once
// Out-of-line part of composite.hpp.
#include <vector>

#include "functionalize/composite.hpp"
#include "functionalize/functionalize.hpp"

namespace opd {

OPD_FUNC void functionalize_composite_boxed(const OperatorEntry& op, DispatchKeySet ks, Stack* stack,
                                            FunctionalizeMode mode) {
  const KernelFunction* k = op.registered(DispatchKey::CompositeExplicitAutograd);
  if (k == nullptr) k = op.registered(DispatchKey::CompositeImplicitAutograd);
  if (k == nullptr)
    throw NotImplementedError("functionalize_composite: '" + op.name() + "' has no composite kernel to run");
  const std::size_t n = op.num_arguments();
  const std::size_t first = stack->size() - n;
  // 1. wrap: the caller's tensors are kept to copy mutations back
  std::vector<std::pair<Tensor, Tensor>> wrapped;  // (original, functional)
  for (std::size_t p : op.tensor_argument_positions()) {
    IValue& v = (*stack)[first + p];
    if (v.is_tensor() && v.to_tensor().defined()) {
      Tensor f = to_functional(v.to_tensor(), mode);
      wrapped.emplace_back(v.to_tensor(), f);
      v = IValue(f);
    } else if (v.is_tensor_list()) {
      std::vector<Tensor> list = v.to_tensor_list();
      for (Tensor& t : list) t = to_functional(t, mode);
      v = IValue(std::move(list));
    }
  }
  // 2. run the composite kernel with the layer on
  {
    FunctionalizeGuard on(mode);
    k->boxed(k->functor, op, ks.add(DispatchKey::Functionalize), stack);
  }
  // 3. sync and unwrap the results; a result that is a written argument is the caller's own tensor
  for (std::size_t i = first; i < stack->size(); ++i) {
    IValue& v = (*stack)[i];
    if (v.is_tensor()) {
      const Tensor t = v.to_tensor();
      Tensor original;
      for (const auto& [o, f] : wrapped)
        if (f.is_same(t)) original = o;
      if (original.defined()) {
        v = IValue(original);
      } else {
        sync(t);
        v = IValue(from_functional(t));
      }
    } else if (v.is_tensor_list()) {
      std::vector<Tensor> list = std::move(v).to_tensor_list();
      for (Tensor& t : list) {
        sync(t);
        t = from_functional(t);
      }
      v = IValue(std::move(list));
    }
  }
  // 4. the arguments' mutations, into the caller's tensors
  for (const auto& [o, f] : wrapped) copy_back_mutation(o, f);
}

}  // namespace opd
