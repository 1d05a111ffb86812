#pragma once
// The Functionalize key's kernel: ONE boxed function serves every operator,
// compile-time and run-time declared, reading what the schema says about
// aliasing (OperatorEntry::alias_facts(), computed when the operator was
// declared). In the order it decides:
//
//   1. an operator with a CompositeImplicitAutograd kernel that is no view
//      decomposes above the layer: its parts come back here (composite views
//      such as reshape or narrow are handled as views, step 2: the library's
//      kernels for them read the tensor's geometry, which a wrapper lacks);
//   2. a view (a return aliasing an argument it does not write): the base is
//      synced, the view (keep_views) or its *_copy (remove_views) of its value
//      is computed below, and the result is a new alias of the same
//      functional storage whose chain is the parent's plus this view;
//      a multi-output view (split, unbind) gives each output its index;
//      in remove_views mode chunk is the split ATen makes of it
//      (decompose_view), so the backend sees split_copy;
//   3. an operator that writes arguments: its functional variant
//      (functionalization/variants.hpp) runs below on the synced values;
//      in-place: each written argument takes its new value (same shape, else
//      an opd::Error naming operator and argument, nothing changed), the
//      update is committed to every alias of its base; out=: the out
//      wrappers take the results, resized as out= resizes; other mutable
//      operators: their `_functional` variant returns the written arguments'
//      new values after its own returns (so do in-place and out= variants
//      for written arguments they do not return: _foreach_add_ -> () gives
//      _foreach_add -> Tensor[]). A written Tensor(a!)[] takes a list of as
//      many new values, each element committed to its own alias chain.
//      No variant: opd::NotImplementedError naming the operator and the
//      name looked for;
//   4. anything else runs below on the synced values; tensor results (also in
//      Tensor[] / Tensor?[]) come back as new functional tensors.
// A schema the layer cannot express (a view that also writes, a view of a
// tensor list) is an opd::NotImplementedError naming the operator.
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "functionalize/functional_tensor.hpp"

namespace opd::functionalization {

OPD_API void functionalize_kernel(const OperatorEntry& op, DispatchKeySet ks, Stack* stack);

// The view replay mode new functional bases of this thread get (keep_views
// unless a FunctionalizeGuard says otherwise).
OPD_API ViewReplay current_replay() noexcept;
OPD_API ViewReplay exchange_current_replay(ViewReplay mode) noexcept;

// A new functional base over `value` (value itself when already functional;
// undefined stays undefined).
OPD_API Tensor wrap(const Tensor& value, ViewReplay replay);

// Registers the kernel at the Functionalize key, once per process; every
// entry point (to_functional, FunctionalizeGuard) calls it.
OPD_API void ensure_registered();

}  // namespace opd::functionalization

#ifdef OPD_HEADER_ONLY
#include "functionalize/kernel-inl.hpp"
#endif
