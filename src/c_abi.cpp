// libopdispatch: the C ABI's run-time parts (errors, conversions off the
// shims' hot path), DLPack conversion and the extern "C" functions of opd_c.h.
#include "dispatch/c_abi/runtime-inl.hpp"
#include "dispatch/c_abi/dlpack-inl.hpp"
#include "dispatch/c_abi/c_entry_points-inl.hpp"
