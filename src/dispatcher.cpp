// libopdispatch: the Dispatcher (the one registry of the process), operator
// entries' table computation, and the calls' out-of-line parts.
#include "dispatch/dispatcher/call-inl.hpp"
#include "dispatch/dispatcher/dispatcher-inl.hpp"
#include "dispatch/dispatcher/operator_entry-inl.hpp"
#include "dispatch/dispatcher/make_kernel-inl.hpp"
