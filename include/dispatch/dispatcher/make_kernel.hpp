#pragma once
// Turns a typed kernel (function, function pointer, lambda, functor) for an
// operator into a KernelFunction with both entry points: the unboxed one
// typed calls jump to, and a boxed one that unboxes a Stack into the kernel's
// parameters (schema/cpp_types.hpp decides those types). The kernel's
// signature is checked against the schema at compile time.
#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11.hpp>

#include "dispatch/core/error.hpp"
#include "dispatch/dispatcher/boxing.hpp"
#include "dispatch/dispatcher/kernel_function.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"
#include "dispatch/schema/cpp_types.hpp"
#include "dispatch/schema/kernel_signature.hpp"
#include "dispatch/schema/printer.hpp"

namespace opd {

namespace detail {

// The boxed path's errors, out of line (make_kernel-inl.hpp): "op: argument
// 'x' (position 1) expected Tensor but got Int (...)".
[[noreturn, gnu::cold]] OPD_API void throw_boxed_argument_error(const OperatorEntry& op,
                                                                             std::size_t position,
                                                                             const IValue& got,
                                                                             const std::string& detail);
[[noreturn, gnu::cold]] OPD_API void throw_stack_too_small(const OperatorEntry& op, const Stack& stack,
                                                                        std::size_t n);
// A value at a tensor-bearing position that bears no tensor (an Int where a
// Tensor is expected): the error names the argument, before any key is
// extracted from it. None (Tensor?) and lists (Tensor[]) pass; the kernel's
// unboxing checks them.
[[noreturn, gnu::cold]] OPD_API void throw_not_a_tensor(const OperatorEntry& op, std::size_t position, const IValue& got);
// A top-level boxed call whose stack holds fewer than the operator's N
// arguments: the trailing ones take the schema's defaults (as the C entry
// and PyTorch's boxed call from Python fill them), or it throws naming the
// first one that has none.
[[gnu::cold]] OPD_API void fill_boxed_defaults(const OperatorEntry& op, Stack& stack, std::size_t n);
inline void check_stack_size(const OperatorEntry& op, const Stack& stack, std::size_t n) {
  if (stack.size() < n) [[unlikely]]
    throw_stack_too_small(op, stack, n);
}

// Replaces the stack's last n values (the arguments) by `results`: assigned
// into the arguments' slots where they fit, so a one-result call neither
// shrinks nor grows the vector, only pops the remaining arguments.
template <std::size_t K>
void replace_arguments(Stack& stack, std::size_t n, std::array<IValue, K>& results) {
  if (K <= n) {
    IValue* base = stack.data() + (stack.size() - n);
    for (std::size_t k = 0; k < K; ++k) base[k] = std::move(results[k]);
    for (std::size_t k = K; k < n; ++k) stack.pop_back();
  } else {
    stack.resize(stack.size() - n);
    for (auto& v : results) stack.push_back(std::move(v));
  }
}

// One argument unboxed for parameter type P; a value of the wrong type is
// reported with the operator, argument name, position and expected type.
// Out of line: one copy per parameter type, shared by every operator.
template <class P>
[[gnu::noinline]] boxing::unboxed_arg<P> unbox_argument_checked(const OperatorEntry& op, const IValue& v,
                                                                std::size_t position) {
  try {
    return boxing::unboxed_arg<P>(v);
  } catch (const TypeError& e) {
    throw_boxed_argument_error(op, position, v, e.what());
  }
}

// The tag a value of parameter type P has when it needs no conversion
// (None where there is no such tag), and whether None also fits.
template <class P>
struct exact_tag {
  using T = std::remove_cvref_t<P>;
  static constexpr IValueTag tag = std::is_same_v<T, Tensor>    ? IValueTag::Tensor
                                   : std::is_same_v<T, int64_t> ? IValueTag::Int
                                   : std::is_same_v<T, double>  ? IValueTag::Double
                                   : std::is_same_v<T, bool>    ? IValueTag::Bool
                                                                : IValueTag::None;
  static constexpr bool none_fits = false;
};
template <class T>
struct exact_tag<std::optional<T>> : exact_tag<T> {
  static constexpr bool none_fits = true;
};

// Reports a value that does not convert to P (operator, argument, position,
// expected type); returns when it does convert.
template <class P>
[[gnu::noinline]] void check_unboxes(const OperatorEntry& op, const IValue& v, std::size_t position) {
  (void)unbox_argument_checked<P>(op, v, position);
}

// Tensors and numbers are unboxed inline (a tag check and a load); a value
// of another tag is first checked out of line, so that a wrong one is
// reported with its context without a try/catch in every operator's boxed
// entry. Other parameter types are unboxed out of line, one copy per type
// shared by all operators: this keeps each boxed entry small to compile.
template <class P>
[[gnu::always_inline]] inline boxing::unboxed_arg<P> unbox_argument(const OperatorEntry& op, const IValue& v,
                                                                  std::size_t position) {
  using E = exact_tag<P>;
  if constexpr (E::tag != IValueTag::None) {
    if (v.tag() != E::tag && !(E::none_fits && v.is_none())) [[unlikely]]
      check_unboxes<P>(op, v, position);
    return boxing::unboxed_arg<P>(v);
  } else if constexpr (std::is_same_v<std::remove_cvref_t<P>, Scalar>) {  // any number tag fits
    if (!v.is_scalar()) [[unlikely]]
      check_unboxes<P>(op, v, position);
    return boxing::unboxed_arg<P>(v);
  } else {
    return unbox_argument_checked<P>(op, v, position);
  }
}

// The results of a kernel as IValues, in a fixed array (no allocation). R is
// the kernel's declared result type: a Tensor returned by value is moved into
// its IValue; a Tensor& (out= operators) is copied, the caller keeps it.
template <class R, class T>
auto box_results(T&& r) {
  if constexpr (std::is_same_v<R, Tensor>)
    return std::array<IValue, 1>{IValue(std::move(r))};
  else if constexpr (boxing::is_tuple<std::remove_cvref_t<T>>::value)
    return std::apply([](const auto&... e) { return std::array<IValue, sizeof...(e)>{boxing::box(e)...}; }, r);
  else
    return std::array<IValue, 1>{boxing::box(r)};
}

// Boxed entry of a typed kernel: unbox the last N stack values, call, put
// the results in their place. The unboxed values (some hold conversions)
// live until the results are boxed, so a returned Tensor& that refers to an
// argument is boxed before the arguments leave the stack.
template <class Sig>
struct boxed_adapter;
template <class R, class... Args>
struct boxed_adapter<R(Args...)> {
  static constexpr std::size_t N = sizeof...(Args);

  template <class Call>
  static void run(const OperatorEntry& op, DispatchKeySet ks, Stack& stack, Call&& call) {
    check_stack_size(op, stack, N);
    IValue* base = stack.data() + (stack.size() - N);
    // Each argument is unboxed in the call expression itself (no tuple to
    // copy through); the order is the compiler's, so with several wrong
    // arguments any one of them may be the one reported.
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      if constexpr (std::is_void_v<R>) {
        call(ks, unbox_argument<Args>(op, base[I], I).get()...);
        stack.resize(stack.size() - N);
      } else if constexpr (std::is_same_v<R, std::vector<IValue>>) {  // -> ... : any number of results
        std::vector<IValue> r = call(ks, unbox_argument<Args>(op, base[I], I).get()...);
        stack.resize(stack.size() - N);
        for (auto& v : r) stack.push_back(std::move(v));
      } else {
        auto results = box_results<R>(call(ks, unbox_argument<Args>(op, base[I], I).get()...));
        replace_arguments(stack, N, results);
      }
    }(std::index_sequence_for<Args...>{});
  }
};

template <class R, class... A>
using make_signature_t = R(A...);

// An argument in the form the kernel takes it (kernel_signature.hpp's
// param_form_accepted_v): a str copied into the std::string the kernel asks
// for; anything else passed on as it is (a Tensor taken by value is copied
// by the call itself).
template <class Param, class A>
decltype(auto) as_kernel_param(A&& a) {
  using P = std::remove_cvref_t<Param>;
  if constexpr (std::is_same_v<P, std::string>)
    return std::string(a);
  else if constexpr (std::is_same_v<P, std::optional<std::string>>)
    return a ? std::optional<std::string>(std::in_place, *a) : std::optional<std::string>();
  else
    return std::forward<A>(a);
}

// Calls the kernel f with the canonical arguments, adapted to its own
// parameter forms; R is the canonical result (void for `-> ()`, whatever the
// kernel returns then, e.g. std::tuple<>).
template <class R, class Fn, class Params>
struct kernel_invoker;
template <class R, class Fn, class... P>
struct kernel_invoker<R, Fn, boost::mp11::mp_list<P...>> {
  template <class... A>
  static R call(Fn&& f, DispatchKeySet ks, A&&... args) {
    if constexpr (std::is_void_v<R>) {
      if constexpr (schema::takes_dispatch_key_set_v<Fn>) (void)f(ks, as_kernel_param<P>(std::forward<A>(args))...);
      else (void)f(as_kernel_param<P>(std::forward<A>(args))...);
    } else if constexpr (schema::takes_dispatch_key_set_v<Fn>) {
      return f(ks, as_kernel_param<P>(std::forward<A>(args))...);
    } else {
      return f(as_kernel_param<P>(std::forward<A>(args))...);
    }
  }
};
template <class R, class F>
using kernel_invoker_for =
    kernel_invoker<R, F, typename schema::detail::schema_params<typename schema::detail::kernel_info<F>::params>::type>;

template <class R, class F>
R invoke_kernel(F& f, DispatchKeySet ks, auto&&... args) {
  return kernel_invoker_for<R, F&>::call(f, ks, std::forward<decltype(args)>(args)...);
}

template <class Op, class F, class Sig>
struct kernel_entry_points;
template <class Op, class F, class R, class... Args>
struct kernel_entry_points<Op, F, R(Args...)> {
  static R unboxed(void* functor, DispatchKeySet ks, Args... args) {
    return invoke_kernel<R>(*static_cast<F*>(functor), ks, std::forward<Args>(args)...);
  }
  static void boxed(void* functor, const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
    boxed_adapter<R(Args...)>::run(op, ks, *stack, [functor](DispatchKeySet k, auto&&... a) -> R {
      return invoke_kernel<R>(*static_cast<F*>(functor), k, std::forward<decltype(a)>(a)...);
    });
  }
};

// A function known at compile time: no functor, the typed call is direct.
template <class Op, auto Fn, class Sig>
struct static_kernel_entry_points;
template <class Op, auto Fn, class R, class... Args>
struct static_kernel_entry_points<Op, Fn, R(Args...)> {
  using F = decltype(Fn);
  static R unboxed(void*, DispatchKeySet ks, Args... args) {
    return kernel_invoker_for<R, F>::call(Fn, ks, std::forward<Args>(args)...);
  }
};

// The boxed entry of every static kernel with signature R(Args...): it
// unboxes and calls the kernel's own unboxed entry, which rides in `functor`.
// One instance per signature rather than per kernel: the unboxing is most of
// an entry's code, and a family of operators shares few signatures (the 59
// arithmetic kernels, 40 KB of boxed entries each compiled on its own). The
// price is one predictable indirect call per boxed call.
template <class Sig>
struct boxed_through_unboxed;
template <class R, class... Args>
struct boxed_through_unboxed<R(Args...)> {
  static void boxed(void* unboxed, const OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
    using unboxed_fn = R (*)(void*, DispatchKeySet, Args...);
    boxed_adapter<R(Args...)>::run(op, ks, *stack, [unboxed](DispatchKeySet k, auto&&... a) -> R {
      return reinterpret_cast<unboxed_fn>(unboxed)(nullptr, k, std::forward<decltype(a)>(a)...);
    });
  }
};

}  // namespace detail

namespace detail {
// A KernelFunction owning the callable f, with entry points for signature Sig.
template <class Sig, class F>
KernelFunction functor_kernel(F&& f) {
  using Fn = std::decay_t<F>;
  using points = kernel_entry_points<void, Fn, Sig>;
  KernelFunction k;
  auto holder = std::make_shared<Fn>(std::forward<F>(f));
  k.functor = holder.get();
  k.owner = std::move(holder);
  k.unboxed = reinterpret_cast<void*>(&points::unboxed);
  k.boxed = &points::boxed;
  return k;
}
}  // namespace detail

// A KernelFunction for Op from any callable; its signature must match the schema.
template <schema::schema_holder Op, class F>
KernelFunction make_kernel(F&& f) {
  static_assert(schema::check_kernel<Op, std::decay_t<F>>());
  if constexpr (schema::schema_malformed_v<Op>)
    return KernelFunction{};  // (the schema's own error is the diagnostic)
  else
    return detail::functor_kernel<schema::kernel_signature_t<Op>>(std::forward<F>(f));
}

// A KernelFunction from a typed callable for an operator whose schema is only
// known at run time (checked against it by the caller, see infer_schema.hpp).
template <class F>
KernelFunction make_runtime_kernel(F&& f) {
  using info = schema::detail::kernel_info<std::decay_t<F>>;
  using Sig = boost::mp11::mp_apply<
      detail::make_signature_t,
      boost::mp11::mp_push_front<
          boost::mp11::mp_transform<schema::canonical_param_t, typename schema::detail::schema_params<typename info::params>::type>,
          schema::canonical_return_t<typename info::return_type>>>;
  return detail::functor_kernel<Sig>(std::forward<F>(f));
}

// A KernelFunction for Op from a function known at compile time (fastest).
template <schema::schema_holder Op, auto Fn>
KernelFunction make_kernel() {
  static_assert(schema::check_kernel<Op, decltype(Fn)>());
  KernelFunction k;
  if constexpr (!schema::schema_malformed_v<Op>) {  // (else the schema's own error is the diagnostic)
    using Sig = schema::kernel_signature_t<Op>;
    k.unboxed = reinterpret_cast<void*>(&detail::static_kernel_entry_points<Op, Fn, Sig>::unboxed);
    k.functor = k.unboxed;  // (the unboxed entry ignores it; the shared boxed one calls it)
    k.boxed = &detail::boxed_through_unboxed<Sig>::boxed;
  }
  return k;
}

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/dispatcher/make_kernel-inl.hpp"
#endif
