#pragma once
// opd::cpu_fallback: one boxed kernel that runs any operator on the CPU for a
// device that has no kernel of its own for it (PyTorch's at::native::cpu_fallback).
//
//   auto fb = opd::register_fallback(opd::DispatchKey::PrivateUse1, opd::cpu_fallback);   // every operator
//   auto fb = opd::register_cpu_fallback(opd::DispatchKey::PrivateUse1, options);         // with a policy
//   opd::call_fallback<&opd::cpu_fallback, Op>(args...)   from a typed kernel, no operator name
//
// For a call (op, ks, stack), in order:
//   1. policy: a blocked operator, or one outside an `only` list, is an
//      opd::NotImplementedError "'aten::foo' is not implemented for device X";
//      a view operator (a return aliasing an argument it does not write) is
//      one too, unless the options ask to warn and return a copy;
//   2. every device tensor among the arguments (Tensor, Tensor?, Tensor[],
//      Tensor?[]) moves to the CPU in ONE opd::to_cpu call (one batched
//      transfer per device), except out= tensors (keyword-only, written),
//      whose values the kernel does not read: they get fresh CPU tensors of
//      their sizes and dtype; undefined tensors and None pass through; a
//      Device argument is remembered as the target device and CPU is passed;
//   3. the operator runs on its CPU kernel (a redispatch on {CPU});
//   4. every written argument (Tensor(a!), Tensor(a!)?, Tensor(a!)[]) is
//      copied back into the caller's device tensors, resized where the CPU
//      kernel resized it (opd::copy_from_and_resize);
//   5. a return aliasing a written argument is the caller's own tensor; fresh
//      returns move to the target device: the Device argument, else the first
//      device tensor argument, else the first device tensor of a list.
// If the CPU kernel throws, nothing is copied back: the device tensors keep
// their values. The alias facts (written arguments, returns, views) are the
// operator entry's: computed by the compiler for an operator type, when
// declared for a run-time schema; never during a call.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"

namespace opd {

// What the fallback does with a view operator, whose result must share its
// input's storage and so cannot come from the CPU.
enum class FallbackViews : std::uint8_t {
  error,          // opd::NotImplementedError naming the operator and the device (the default)
  warn_and_copy,  // a warning, then the result is a copy on the device
};

struct CpuFallbackOptions {
  // Operator names ("aten::add.out") that fall back; empty: every operator.
  std::vector<std::string> only;
  // Operator names that must not fall back: NotImplementedError instead.
  std::vector<std::string> blocked;
  FallbackViews views = FallbackViews::error;
  // Hears the warning of FallbackViews::warn_and_copy; null: stderr.
  void (*warning_handler)(std::string_view) = nullptr;

  // The same by operator type (no name to spell).
  template <schema::schema_holder Op>
  CpuFallbackOptions& allow() {
    only.push_back(entry_for<Op>().name());
    return *this;
  }
  template <schema::schema_holder Op>
  CpuFallbackOptions& block() {
    blocked.push_back(entry_for<Op>().name());
    return *this;
  }
};

// The fallback with the default options: every operator, views are an error.
OPD_API void cpu_fallback(const OperatorEntry& op, DispatchKeySet ks, Stack* stack);
// The same with a policy.
OPD_API void cpu_fallback_with(const CpuFallbackOptions& options, const OperatorEntry& op, DispatchKeySet ks,
                               Stack* stack);

// register_fallback(key, a kernel calling cpu_fallback_with(options, ...)).
OPD_API RegistrationHandle register_cpu_fallback(DispatchKey key, CpuFallbackOptions options = {},
                                                 const source_location& where = source_location::current());

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "fallback/cpu_fallback-inl.hpp"
#endif
