// libopdispatch: values and their process-wide state (one instance per
// process: the allocator table, interned dimension names, the thread's
// dispatch keys, the default generator).
#include "dispatch/core/allocator-inl.hpp"
#include "dispatch/core/cpu_block_cache-inl.hpp"
#include "dispatch/core/dimname-inl.hpp"
#include "dispatch/core/error-inl.hpp"
#include "dispatch/core/generator-inl.hpp"
#include "dispatch/core/ivalue-inl.hpp"
#include "dispatch/core/scalar-inl.hpp"
#include "dispatch/core/tensor-inl.hpp"
#include "dispatch/core/tensor_impl-inl.hpp"
#include "dispatch/core/tensor_print-inl.hpp"
#include "dispatch/keys/dispatch_key_set-inl.hpp"
#include "dispatch/keys/local_dispatch_key_set.hpp"

namespace opd::detail {
constinit thread_local LocalDispatchKeySet tls_local_dispatch_key_set{};
}  // namespace opd::detail
