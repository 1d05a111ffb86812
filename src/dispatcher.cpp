// libopdispatch: the Dispatcher (the one registry of the process), operator
// entries' table computation, and the calls' out-of-line parts.
#include "dispatch/dispatcher/boxed_defaults-inl.hpp"
#include "dispatch/dispatcher/call-inl.hpp"
#include "dispatch/dispatcher/dispatcher-inl.hpp"
#include "dispatch/dispatcher/operator_entry-inl.hpp"
#include "dispatch/dispatcher/make_kernel-inl.hpp"
#include "dispatch/dispatcher/registrations-inl.hpp"

// The pushes boxing.hpp declares extern in compiled mode.
namespace opd::boxing {
#define OPD_BOXING_DEFINE_PUSH(T) template OPD_API void push<T>(Stack&, const T&);
OPD_BOXING_PUSHED_TYPES(OPD_BOXING_DEFINE_PUSH)
#undef OPD_BOXING_DEFINE_PUSH
}  // namespace opd::boxing
