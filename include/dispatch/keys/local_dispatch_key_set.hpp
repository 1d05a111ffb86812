// Thread-local included/excluded dispatch keys and their RAII guards.
//
// Why: the key a call dispatches to is not only a property of its tensors.
// A mode (Tracer) is switched on for a region of code by *including* its key,
// and a kernel redispatching "below itself" (autograd calling the backend,
// a tracer calling the real op) *excludes* its own key for the duration.
// Both are per-thread state: one thread tracing must not affect another.
//
// The state is one constant-initialised thread_local POD (two 64-bit words),
// so reading it is a TLS load with no guard variable or constructor call.
// It is defined once per process (in libopdispatch, or as an exported inline
// variable under OPD_HEADER_ONLY): a plugin's guards affect its host's calls.
#pragma once

#include "dispatch/config.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"

namespace opd {

// Keys every thread includes by default, as c10's default_included_set:
// their table entries are fallthroughs unless an operator has a kernel there
// (masked out by the non-fallthrough keys, so they cost a call nothing), and
// a kernel registered at BackendSelect or ADInplaceOrView runs for an
// ordinary call without any guard.
inline constexpr DispatchKeySet kDefaultIncludedKeys{DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView};

struct LocalDispatchKeySet {
  DispatchKeySet included = kDefaultIncludedKeys;
  DispatchKeySet excluded;

  friend constexpr bool operator==(const LocalDispatchKeySet&, const LocalDispatchKeySet&) noexcept = default;
};

namespace detail {
// constinit: guaranteed static initialisation, hence no TLS init wrapper.
#ifdef OPD_HEADER_ONLY
OPD_API inline thread_local constinit LocalDispatchKeySet tls_local_dispatch_key_set{};
#else
OPD_API extern thread_local constinit LocalDispatchKeySet tls_local_dispatch_key_set;  // src/core.cpp
#endif
}  // namespace detail

// Snapshot of this thread's state (e.g. to carry into a worker thread).
inline LocalDispatchKeySet tls_local_dispatch_key_set() noexcept { return detail::tls_local_dispatch_key_set; }

// Replaces this thread's state wholesale (pair with the snapshot above).
inline void force_tls_local_dispatch_key_set(LocalDispatchKeySet state) noexcept {
  detail::tls_local_dispatch_key_set = state;
}

// The set a call dispatches on: (keys from its tensors | included) - excluded.
inline DispatchKeySet compute_dispatch_key_set(DispatchKeySet from_tensors) noexcept {
  const LocalDispatchKeySet& local = detail::tls_local_dispatch_key_set;
  return (from_tensors | local.included) - local.excluded;
}

// Adds keys to this thread's included set for the guard's lifetime; the
// destructor restores the set exactly as it was, so guards nest.
class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet keys) noexcept
      : saved_(detail::tls_local_dispatch_key_set.included) {
    detail::tls_local_dispatch_key_set.included = saved_ | keys;
  }
  explicit IncludeDispatchKeyGuard(DispatchKey key) : IncludeDispatchKeyGuard(DispatchKeySet(key)) {}
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;
  ~IncludeDispatchKeyGuard() { detail::tls_local_dispatch_key_set.included = saved_; }

 private:
  DispatchKeySet saved_;
};

// Adds keys to this thread's excluded set for the guard's lifetime; the
// destructor restores the set exactly as it was, so guards nest.
class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet keys) noexcept
      : saved_(detail::tls_local_dispatch_key_set.excluded) {
    detail::tls_local_dispatch_key_set.excluded = saved_ | keys;
  }
  explicit ExcludeDispatchKeyGuard(DispatchKey key) : ExcludeDispatchKeyGuard(DispatchKeySet(key)) {}
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;
  ~ExcludeDispatchKeyGuard() { detail::tls_local_dispatch_key_set.excluded = saved_; }

 private:
  DispatchKeySet saved_;
};

// Installs a whole LocalDispatchKeySet for a scope (e.g. in a worker thread
// that should behave like its parent) and restores the previous one.
class ForceDispatchKeyGuard {
 public:
  explicit ForceDispatchKeyGuard(LocalDispatchKeySet state) noexcept : saved_(tls_local_dispatch_key_set()) {
    force_tls_local_dispatch_key_set(state);
  }
  ForceDispatchKeyGuard(const ForceDispatchKeyGuard&) = delete;
  ForceDispatchKeyGuard& operator=(const ForceDispatchKeyGuard&) = delete;
  ~ForceDispatchKeyGuard() { force_tls_local_dispatch_key_set(saved_); }

 private:
  LocalDispatchKeySet saved_;
};

}  // namespace opd
