#pragma once
// The layers around the derived Autograd kernels:
//
//   ADInplaceOrView   from the schema's alias facts alone: an operator that writes
//                     an argument (Tensor(a!)) bumps its version counter after the
//                     call, so that a saved tensor modified since it was saved is
//                     detected. (A returned alias, Tensor(a), is already a view of
//                     its input: the kernels make it with TensorImpl::make_view,
//                     which records the base and shares the version counter; the
//                     Autograd kernel records it as a differentiable view,
//                     view_history.hpp.)
//                     Typed for the operators that have formulas
//                     (inplace_or_view_kernel<Op>, inplace_or_view.hpp), the boxed
//                     fallback for every other one, whenever it is declared (for an
//                     operator that writes nothing the dispatcher makes it a
//                     fallthrough).
//   Autograd fallback at every Autograd key: an operator without a formula
//                     (and without a CompositeImplicitAutograd kernel, which is
//                     differentiated through its parts) runs below autograd when no
//                     input requires grad; when one does, it is an error naming
//                     the operator, at the forward call, unless every output is
//                     of a dtype that cannot require grad (comparisons, indices).
//                     An out= call with an input that requires grad is PyTorch's error.
//   register_non_differentiable<Op>()  an operator whose outputs never require grad.
#include <string>
#include <type_traits>
#include <utility>

#include "autograd/autograd_meta.hpp"
#include "autograd/grad_mode.hpp"
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "autograd/inplace_or_view.hpp"
#include "dispatch/schema/alias_facts.hpp"

namespace opd::autograd {

// The boxed kernels (layers-inl.hpp).
OPD_API void inplace_or_view_boxed(const OperatorEntry& op, DispatchKeySet ks, Stack* stack);
OPD_API void autograd_fallback(const OperatorEntry& op, DispatchKeySet ks, Stack* stack);
OPD_API void non_differentiable_boxed(const OperatorEntry& op, DispatchKeySet ks, Stack* stack);

// The boxed ADInplaceOrView fallback (every operator that writes an argument
// and has no typed kernel, whenever it is declared) and the fallback at every
// Autograd key.
OPD_API RegistrationSet register_autograd_layers();

template <class Op>
RegistrationHandle register_non_differentiable(const source_location& where = source_location::current()) {
  return register_boxed_kernel<Op>(DispatchKey::Autograd, &non_differentiable_boxed, where);  // (no composite: detach)
}

}  // namespace opd::autograd

#ifdef OPD_HEADER_ONLY
#include "autograd/layers-inl.hpp"
#endif
