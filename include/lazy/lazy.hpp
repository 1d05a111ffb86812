#pragma once
// The lazy tensor backend (docs/lazy.md): operators on lazy tensors are
// recorded as IR nodes derived from their schemas (ir.hpp), shapes come from
// Meta kernels, and the pending graph runs at sync (graph_executor.hpp) on
// the CPU kernels or on a backend's compiler (backend.hpp).
//
//   auto kernels = opd::kernels::register_cpu();   // CPU and Meta kernels
//   opd::lazy::ensure_registered();                 // the Lazy kernels
//   opd::Tensor x = opd::lazy::to_lazy(cpu);
//   opd::Tensor y = opd::call<ops::relu>(x);        // recorded
//   opd::Tensor r = opd::lazy::to_cpu(y);           // compiled once, run
#include "dispatch/config.hpp"
#include "lazy/backend.hpp"
#include "lazy/graph_executor.hpp"
#include "lazy/ir.hpp"
#include "lazy/lazy_tensor.hpp"

namespace opd::lazy {

// Registers the lazy kernel (one boxed kernel, the same for every operator)
// at the Lazy key for every operator declared so far, and as the Lazy key's
// fallback for those declared later; idempotent (again after new operators
// were declared, it registers those). Functionalization is registered too.
OPD_API void ensure_registered();

}  // namespace opd::lazy

#ifdef OPD_HEADER_ONLY
#include "lazy/lazy-inl.hpp"
#include "lazy/cpu_plan-inl.hpp"
#endif
