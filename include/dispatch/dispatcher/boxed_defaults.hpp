#pragma once
// A schema default as the boxed value a kernel's unboxing reads, computed at
// run time from a parsed schema: `int[2] stride=1` is the int list [1, 1],
// `float eps=1e-05` a double, `Tensor? w=None` None, `str mode="x"` the
// string. Every boxed caller that fills trailing arguments from the schema
// (the C entry opd_call_boxed, the Python binding) reads defaults here, so
// they agree. (Typed calls take their defaults at compile time: defaults.hpp.)
#include "dispatch/config.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd::detail {

OPD_API IValue default_ivalue(const schema::dynamic_schema& s, const schema::argument& a);

}  // namespace opd::detail

#ifdef OPD_HEADER_ONLY
#include "dispatch/dispatcher/boxed_defaults-inl.hpp"
#endif
