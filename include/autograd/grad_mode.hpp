#pragma once
// Grad mode and inference mode: the thread-local switches of autograd.
//
//   { opd::NoGradGuard g; ... }        no graph is recorded (the Autograd kernels still run
//                                      and redispatch at once; tensors keep requires_grad)
//   { opd::EnableGradGuard g; ... }    recording again inside a NoGradGuard
//   { opd::InferenceMode g; ... }      the Autograd and ADInplaceOrView layers are skipped:
//                                      their keys are excluded, so a call costs what it costs
//                                      without autograd (no version bumps either)
//
// Why a plain thread_local bool (constinit, as the dispatch key set): the Autograd
// kernel reads it once per call, and reading it must be one TLS load.
#include "dispatch/config.hpp"
#include "dispatch/keys/local_dispatch_key_set.hpp"

namespace opd {

namespace autograd::detail {
#ifdef OPD_HEADER_ONLY
OPD_API inline thread_local constinit bool tls_grad_enabled = true;
#else
OPD_API extern thread_local constinit bool tls_grad_enabled;  // src/autograd.cpp
#endif
}  // namespace autograd::detail

struct GradMode {
  static bool is_enabled() noexcept { return autograd::detail::tls_grad_enabled; }
  static void set_enabled(bool on) noexcept { autograd::detail::tls_grad_enabled = on; }
};

// Sets grad mode for its lifetime; restores the previous mode (guards nest).
class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) noexcept : saved_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;
  ~AutoGradMode() { GradMode::set_enabled(saved_); }

 private:
  bool saved_;
};

class NoGradGuard : public AutoGradMode {
 public:
  NoGradGuard() noexcept : AutoGradMode(false) {}
};
class EnableGradGuard : public AutoGradMode {
 public:
  EnableGradGuard() noexcept : AutoGradMode(true) {}
};

// c10's InferenceMode: grad mode off and the autograd layers excluded. A tensor
// made inside is an ordinary tensor (this library has no "inference tensor" flag).
class InferenceMode {
 public:
  explicit InferenceMode(bool enabled = true) noexcept
      : grad_(enabled ? false : GradMode::is_enabled()),
        exclude_(enabled ? (kAutogradKeys | DispatchKeySet(DispatchKey::ADInplaceOrView)) : DispatchKeySet()) {}
  InferenceMode(const InferenceMode&) = delete;
  InferenceMode& operator=(const InferenceMode&) = delete;
  static bool is_enabled() noexcept {
    return detail::tls_local_dispatch_key_set.excluded.has(DispatchKey::ADInplaceOrView);
  }

 private:
  AutoGradMode grad_;
  ExcludeDispatchKeyGuard exclude_;
};

}  // namespace opd
