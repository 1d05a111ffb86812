#pragma once
// A kernel as the dispatch table holds it: a boxed entry point (always
// present, so any caller can reach it with a Stack) and, when the kernel was
// registered from a typed callable, an unboxed entry point whose type is the
// operator's kernel signature with (void* functor, DispatchKeySet) in front.
// Typed calls use the unboxed pointer directly; boxed calls the boxed one.
//
// Light: Stack and OperatorEntry are only named here (dispatch/fwd.hpp).
#include <memory>

#include "dispatch/fwd.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"

namespace opd {

using BoxedKernelFn = void (*)(void* functor, const OperatorEntry& op, DispatchKeySet ks, Stack* stack);

struct KernelFunction {
  BoxedKernelFn boxed = nullptr;
  void* unboxed = nullptr;        // R(*)(void* functor, DispatchKeySet, Args...), or null (boxed-only kernel)
  void* functor = nullptr;        // state of a functor / lambda kernel, owned by `owner`
  std::shared_ptr<void> owner;    // keeps `functor` alive
  bool fallthrough = false;       // skip this key: dispatch continues below it (masked at registration)

  bool is_valid() const { return boxed != nullptr || fallthrough; }

  static KernelFunction make_fallthrough() {
    KernelFunction k;
    k.fallthrough = true;
    return k;
  }
  // A boxed kernel from a plain function: void f(const OperatorEntry&, DispatchKeySet, Stack*).
  template <void (*F)(const OperatorEntry&, DispatchKeySet, Stack*)>
  static KernelFunction make_boxed() {
    KernelFunction k;
    k.boxed = [](void*, const OperatorEntry& op, DispatchKeySet ks, Stack* s) { F(op, ks, s); };
    return k;
  }
  // A boxed kernel from a function pointer known only at run time: the
  // pointer rides in `functor` (no allocation, one indirect call).
  static KernelFunction make_boxed_pointer(void (*f)(const OperatorEntry&, DispatchKeySet, Stack*)) {
    using Fn = void (*)(const OperatorEntry&, DispatchKeySet, Stack*);
    KernelFunction k;
    k.functor = reinterpret_cast<void*>(f);
    k.boxed = [](void* fn, const OperatorEntry& op, DispatchKeySet ks, Stack* s) { reinterpret_cast<Fn>(fn)(op, ks, s); };
    return k;
  }
  // A boxed kernel from any callable with that signature (a lambda with state, say).
  template <class F>
  static KernelFunction make_boxed_functor(F f) {
    KernelFunction k;
    auto holder = std::make_shared<F>(std::move(f));
    k.functor = holder.get();
    k.owner = std::move(holder);
    k.boxed = [](void* fn, const OperatorEntry& op, DispatchKeySet ks, Stack* s) { (*static_cast<F*>(fn))(op, ks, s); };
    return k;
  }
};

}  // namespace opd
