#pragma once
// The functional variants torchgen derives for in-place operators of the
// library that ATen 1.13 has as separate operators but the library did not
// declare: what the Functionalize layer calls for copy_, fill_ and zero_.
// Schemas are ATen 1.13's (tests/data/kinds_1.13.jsonl). Each kernel is
// CompositeExplicitAutograd: a clone of self, mutated in place (the backend
// below the layer sees only the functional operator when it registers a
// kernel for it, as the tracing backend does).
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"

namespace opd::functionalization {

namespace ops {
struct copy : op<"aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor"> {};
struct fill : op<"aten::fill.Scalar(Tensor self, Scalar value) -> Tensor"> {};
struct zero : op<"aten::zero(Tensor self) -> Tensor"> {};
}  // namespace ops

OPD_API RegistrationSet register_functional_ops();

}  // namespace opd::functionalization

#ifdef OPD_HEADER_ONLY
#include "functionalize/functional_ops-inl.hpp"
#endif
