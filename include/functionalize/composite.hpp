#pragma once
// opd::functionalize_composite<Op>: runs Op's composite kernel
// (CompositeExplicitAutograd, else CompositeImplicitAutograd) functionalized,
// as PyTorch's functionalize_aten_op / functionalize_op_helper. A backend
// without views or in-place kernels registers it for a composite operator
// whose kernel uses views and mutations internally:
//
//   auto k = opd::register_boxed_kernel<my_op>(DispatchKey::PrivateUse2,
//                                              &opd::functionalize_composite<my_op>);
//
// The call's tensors are wrapped as functional tensors, the composite kernel
// runs with the Functionalize key on (its views and mutations reach the
// layer, which hands the backend functional and *_copy / scatter operators),
// results are synced and unwrapped, and arguments the operator writes get
// their new values through aten::copy_ (the backend's one in-place kernel
// such an operator needs, as in PyTorch).
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "functionalize/functionalize.hpp"

namespace opd {

// The boxed body: Op's composite kernel on the stack, functionalized with `mode`.
OPD_API void functionalize_composite_boxed(const OperatorEntry& op, DispatchKeySet ks, Stack* stack,
                                           FunctionalizeMode mode);

template <schema::schema_holder Op, FunctionalizeMode Mode = FunctionalizeMode::remove_views>
void functionalize_composite(const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
  functionalize_composite_boxed(op, ks, stack, Mode);
}

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "functionalize/composite-inl.hpp"
#endif
