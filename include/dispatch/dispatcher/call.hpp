#pragma once
// Calling an operator.
//
//   opd::call<my_add>(a, b)                           typed; defaults filled from the schema
//   opd::call<my_add>(a, b, opd::arg<"alpha"> = 2)    a keyword(-only) argument by name
//   opd::redispatch<my_add>(ks, a, b)                  from a kernel, on a reduced key set
//   opd::call_boxed(opd::entry_for<my_add>(), stack)   boxed, on a Stack
//   opd::call_fallback<&my_fallback, my_add>(a, b)     an unboxed kernel handing its own call to a boxed fallback
//
// The typed hot path: the key set is read from the tensor-bearing parameters
// only (known at compile time from the schema), combined with the thread's
// included/excluded keys, looked up in the operator's atomic table, and the
// kernel's unboxed entry is called with the arguments as they are.
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11.hpp>

#include "dispatch/core/tensor.hpp"
#include "dispatch/dispatcher/boxing.hpp"
#include "dispatch/dispatcher/defaults.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/dispatcher/make_kernel.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"
#include "dispatch/dispatcher/repeated_int.hpp"
#include "dispatch/dispatcher/tensor_args.hpp"
#include "dispatch/keys/local_dispatch_key_set.hpp"
#include "dispatch/schema/alias_facts.hpp"
#include "dispatch/schema/cpp_types.hpp"
#include "dispatch/schema/fixed_string.hpp"
#include "dispatch/schema/printer.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd {

namespace detail {
// Declares a compile-time operator's schema text (permanently), with the
// alias facts the compiler computed for it, and returns its entry. Out of
// line (call-inl.hpp): each entry_for<Op> only passes constants to it.
OPD_API OperatorEntry& declare_compiled(const schema::runtime_schema::parts& s,
                                        const schema::precomputed_alias_facts& facts);
// The schema's pieces as a constant: the call site passes one address.
template <class Op>
inline constexpr schema::runtime_schema::parts static_parts = schema::runtime_schema::parts_of(Op::schema);
// The operator's alias facts (schema/alias_facts.hpp), computed by the compiler.
template <class Op>
inline constexpr auto static_alias_table =
    schema::alias_table_of<schema::properties_detail::schema_value(Op::schema).arguments.size(),
                           schema::properties_detail::schema_value(Op::schema).returns.size()>(Op::schema);
template <class Op>
inline constexpr schema::precomputed_alias_facts static_alias_facts{
    static_alias_table<Op>.written, static_alias_table<Op>.return_written, static_alias_table<Op>.view_return};
}  // namespace detail

// An operator type whose schema has a return annotated as written
// (`Tensor(a!)`) that no written argument shares a set with: nothing the
// caller passed could be handed back. Named for the compiler's message.
template <class Op, std::size_t Return>
struct written_return_matches_no_argument {
  static_assert(Return == schema::no_position,
                "a return annotated as written (Tensor(a!)) must be one of the written arguments, but no argument "
                "is written in its alias set (Op, Return: the template arguments of "
                "opd::written_return_matches_no_argument above)");
  static constexpr bool ok = false;
};

namespace detail {
template <class Op>
constexpr bool written_returns_have_arguments() {
  constexpr std::size_t r = static_alias_table<Op>.unmatched_return;
  if constexpr (r != schema::no_position) (void)sizeof(written_return_matches_no_argument<Op, r>);  // its message
  return true;
}

// The Stack of a typed call that reaches a boxed kernel, borrowed from a
// per-thread pool rather than allocated: its capacity outlives the call, so
// the call allocates nothing. A boxed kernel that calls further operators
// borrows the next stack of the pool; each is cleared when given back.
// (Inline, with the pool in the caller's binary: a thread_local reached
// through a function of the shared library costs about 100 instructions per
// call, measured on BM_call_to_boxed. The pool is a cache, so one per binary
// is harmless.)
class pooled_stack {
 public:
  pooled_stack() : pool_(thread_pool()) {
    if (pool_.depth == pool_.stacks.size()) [[unlikely]]
      grow(pool_);
    stack_ = pool_.stacks[pool_.depth++].get();
  }
  pooled_stack(const pooled_stack&) = delete;
  pooled_stack& operator=(const pooled_stack&) = delete;
  ~pooled_stack() {
    stack_->clear();
    --pool_.depth;
  }
  Stack& get() noexcept { return *stack_; }

 private:
  struct pool {
    std::vector<std::unique_ptr<Stack>> stacks;
    std::size_t depth = 0;
  };
  static pool& thread_pool() {
    thread_local pool p;
    return p;
  }
  [[gnu::noinline, gnu::cold]] static void grow(pool& p) { p.stacks.push_back(std::make_unique<Stack>()); }
  pool& pool_;
  Stack* stack_;
};

// A boxed kernel that left fewer values than the operator returns.
[[noreturn]] OPD_API void throw_missing_result(const OperatorEntry& e, std::size_t stack_size, std::size_t index);

// Every kernel call of the dispatcher (typed, boxed, to a fallback) catches
// what the kernel throws and calls this: an opd::Error gets the operator's
// name in front ("aten::mm: expected scalar type Float but found Long"),
// unless an inner call (a composite kernel calling another operator) named
// its own first, and goes on with its own type. Out of line and cold: a
// kernel call that does not throw pays nothing for it (zero-cost exception
// tables), each call site's handler is one call.
[[noreturn, gnu::cold]] OPD_API void rethrow_naming_operator(const OperatorEntry& e);
}  // namespace detail

// The operator's entry in the Dispatcher, declared with Op's schema on first
// use and cached: after that, one initialised-static check per call.
template <schema::schema_holder Op>
OperatorEntry& entry_for() {
  // The compile-time schema copied, not parsed again from its text.
  static_assert(detail::written_returns_have_arguments<Op>());
  static OperatorEntry& e = detail::declare_compiled(detail::static_parts<Op>, detail::static_alias_facts<Op>);
  return e;
}

// ---- keyword arguments ---------------------------------------------------
template <fixed_string Name, class T>
struct named_arg {
  // (Read through this member rather than by matching named_arg<Name, T>
  // in a partial specialisation, which nvcc's front end does not match.)
  static constexpr std::string_view keyword = Name.view();
  T value;  // a forwarding reference
};
template <fixed_string Name>
struct arg_name {
  template <class T>
  constexpr named_arg<Name, T&&> operator=(T&& v) const {
    return {std::forward<T>(v)};
  }
  // opd::arg<"padding"> = {1, 2}: an int list written in place (its
  // elements live until the end of the call's full-expression).
  constexpr named_arg<Name, std::initializer_list<std::int64_t>> operator=(std::initializer_list<std::int64_t> v) const {
    return {v};
  }
};
// opd::arg<"alpha"> = 2
template <fixed_string Name>
inline constexpr arg_name<Name> arg{};

namespace detail {

template <class T>
struct named_info {
  static constexpr bool is_named = false;
  static constexpr std::string_view name = {};
};
template <class T>
  requires requires { T::keyword; }
struct named_info<T> {
  static constexpr bool is_named = true;
  static constexpr std::string_view name = T::keyword;
};

// ---- dispatch-key extraction (which arguments bear tensors: tensor_args.hpp)
inline DispatchKeySet keys_of(const Tensor& t) noexcept { return t.defined() ? t.key_set() : DispatchKeySet(); }
template <class P>
[[gnu::always_inline]] inline DispatchKeySet tensor_keys(const P& p) noexcept {
  DispatchKeySet ks;
  for_each_tensor([&](const Tensor& t) { ks = ks | t.key_set(); }, p);
  return ks;
}

inline DispatchKeySet keys_of_device(Device d) noexcept { return DispatchKeySet(backend_key_for(d.type())); }
inline DispatchKeySet keys_of_device(const std::optional<Device>& d) noexcept {
  return keys_of_device(d ? *d : Device(DeviceType::CPU));
}
template <class P>
DispatchKeySet device_keys(const P& p) noexcept {
  if constexpr (is_device_param_v<P>) return keys_of_device(p);
  else return {};
}

// Keys from the tensor-bearing parameters; a factory op (none) dispatches on
// the backend of its Device argument (CPU when absent or when there is none):
// BackendSelect, resolved at compile time.
template <class... Args>
DispatchKeySet extract_keys(const Args&... args) noexcept {
  if constexpr ((bears_tensor_v<Args> || ...)) return (tensor_keys(args) | ... | DispatchKeySet());
  else if constexpr ((is_device_param_v<Args> || ...)) return (device_keys(args) | ... | DispatchKeySet());
  else return DispatchKeySet(DispatchKey::CPU);
}

// The argument a returned `Tensor&` aliases: the mutable argument with the
// same alias set (for add_.Tensor and add.out, `self` and `out`).
template <class Op>
constexpr std::size_t aliased_argument(std::size_t ret) {
  const auto& s = Op::schema;
  const auto& rt = s.type_of(s.returns[ret]);
  if (rt.alias == schema::no_index) return s.arguments.size();
  const auto& ra = s.alias(rt.alias);
  for (std::size_t i = 0; i < s.arguments.size(); ++i) {
    const auto& at = s.type_of(s.arguments[i]);
    if (at.alias == schema::no_index) continue;
    const auto& aa = s.alias(at.alias);
    if (aa.is_write && ra.before.count > 0 && aa.before.count > 0 && aa.before.names[0] == ra.before.names[0]) return i;
  }
  return s.arguments.size();
}

// A typed call that reached a boxed kernel: box, call, unbox. A returned
// Tensor& is the caller's own argument, as with an unboxed kernel.
template <class Op, class R, class... Args>
R call_through_boxed(BoxedKernelFn boxed, void* functor, const OperatorEntry& e, DispatchKeySet ks, Args&&... args) {
  pooled_stack pooled;
  Stack& stack = pooled.get();
  if (stack.capacity() < sizeof...(Args)) [[unlikely]]
    stack.reserve(sizeof...(Args));  // once per pooled stack: its capacity is kept
  // Counted pushes, not borrows: a boxed kernel that returns an argument
  // (moves it out of the stack) would take the reference back at once, and
  // an increment right before the caller's decrement costs more than one
  // taken early (measured: +2-3 ns on BM_call_to_boxed).
  (boxing::push(stack, args), ...);
  boxed(functor, e, ks, &stack);
  if constexpr (std::is_void_v<R>) {
    return;
  } else {
    auto arguments = std::forward_as_tuple(args...);
    auto element = [&]<std::size_t J, class T>(std::integral_constant<std::size_t, J>, std::type_identity<T>) -> T {
      if constexpr (std::is_lvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>) {
        constexpr std::size_t a = aliased_argument<Op>(J);
        static_assert(a < sizeof...(Args), "a returned Tensor& must alias a mutable argument");
        return std::get<a>(arguments);
      } else {
        if (stack.size() <= J) throw_missing_result(e, stack.size(), J);
        return boxing::take_result<T>(std::move(stack[J]));
      }
    };
    if constexpr (boxing::is_tuple<R>::value) {
      return [&]<std::size_t... J>(std::index_sequence<J...>) {
        return R(element(std::integral_constant<std::size_t, J>{}, std::type_identity<std::tuple_element_t<J, R>>{})...);
      }(std::make_index_sequence<std::tuple_size_v<R>>{});
    } else {
      return element(std::integral_constant<std::size_t, 0>{}, std::type_identity<R>{});
    }
  }
}

template <class Op, class Sig = schema::kernel_signature_t<Op>>
struct typed_caller;
template <class Op, class R, class... Args>
struct typed_caller<Op, R(Args...)> {
  using unboxed_fn = R (*)(void*, DispatchKeySet, Args...);

  static R dispatch(DispatchKeySet ks, Args... args) {
    const OperatorEntry& e = entry_for<Op>();
    const KernelFunction& k = e.lookup_and_mask(ks);
    try {
      if (k.unboxed != nullptr) [[likely]]
        return reinterpret_cast<unboxed_fn>(k.unboxed)(k.functor, ks, std::forward<Args>(args)...);
      return call_through_boxed<Op, R>(k.boxed, k.functor, e, ks, std::forward<Args>(args)...);
    } catch (...) {
      // (entry_for again rather than `e`: keeping `e` live across the call
      // took a register and spilled the key set, +2 instructions per call.)
      rethrow_naming_operator(entry_for<Op>());
    }
  }
  static R call(Args... args) {
    return dispatch(compute_dispatch_key_set(extract_keys<std::remove_cvref_t<Args>...>(args...)), std::forward<Args>(args)...);
  }
  template <BoxedKernelFn Fallback>
  static R call_fallback(Args... args) {
    const DispatchKeySet ks = compute_dispatch_key_set(extract_keys<std::remove_cvref_t<Args>...>(args...));
    const OperatorEntry& e = entry_for<Op>();
    try {
      return call_through_boxed<Op, R>(Fallback, nullptr, e, ks, std::forward<Args>(args)...);
    } catch (...) {
      rethrow_naming_operator(e);
    }
  }
};

// ---- mapping a call's arguments onto the schema's ----------------------------
template <class... A>
constexpr std::size_t positional_count() {
  std::size_t n = 0;
  bool named_seen = false;
  ((named_info<std::remove_cvref_t<A>>::is_named ? (named_seen = true) : (named_seen ? false : (++n, true))), ...);
  return n;
}
template <class... A>
constexpr bool named_after_positional() {
  bool named_seen = false, ok = true;
  ((named_info<std::remove_cvref_t<A>>::is_named ? (named_seen = true) : (ok = ok && !named_seen)), ...);
  return ok;
}
template <class Op, class... A>
constexpr std::size_t find_named(std::size_t param) {
  constexpr std::string_view names[] = {named_info<std::remove_cvref_t<A>>::is_named
                                            ? named_info<std::remove_cvref_t<A>>::name
                                            : std::string_view()...,
                                        std::string_view()};
  for (std::size_t j = 0; j < sizeof...(A); ++j)
    if (!names[j].empty() && names[j] == Op::schema.arguments[param].name) return j;
  return sizeof...(A);
}
template <class Op, class... A>
constexpr bool every_named_is_known() {
  constexpr std::string_view names[] = {named_info<std::remove_cvref_t<A>>::is_named
                                            ? named_info<std::remove_cvref_t<A>>::name
                                            : std::string_view()...,
                                        std::string_view()};
  for (std::size_t j = 0; j < sizeof...(A); ++j) {
    if (names[j].empty()) continue;
    bool found = false;
    for (const auto& a : Op::schema.arguments) found = found || a.name == names[j];
    if (!found) return false;
  }
  return true;
}

template <std::size_t Position, class Op>
struct missing_argument_without_default {
  static_assert(Position != Position, "opd::call: an argument without a default was not given (template arguments: its position and the operator)");
  static constexpr int value = 0;
};

// Is argument I left to its default in a call with arguments A...?
template <class Op, std::size_t I, class... A>
constexpr bool uses_default() {
  return I >= positional_count<A...>() && find_named<Op, A...>(I) == sizeof...(A);
}
// A defaulted parameter taken by non-const reference (Tensor(a!)? out=None)
// needs an object of its own for the call: this slot holds it; others are empty.
template <class Op, std::size_t I, class P, bool Needed>
struct default_slot {};
template <class Op, std::size_t I, class P>
struct default_slot<Op, I, P, true> {
  std::remove_cvref_t<P> value = default_for<Op, I, P>();
};
// Argument I given as one integer for an int[N] (repeated_int.hpp)?
template <class Op, std::size_t I, class... A>
constexpr bool repeats_integer() {
  if constexpr (repeated_int_size<Op, I>() == 0 || uses_default<Op, I, A...>()) {
    return false;
  } else {
    constexpr std::size_t j = I < positional_count<A...>() ? I : find_named<Op, A...>(I);
    using G = boost::mp11::mp_at_c<boost::mp11::mp_list<A...>, j>;
    if constexpr (named_info<std::remove_cvref_t<G>>::is_named) return single_integer<decltype(std::declval<G>().value)>;
    else return single_integer<G>;
  }
}
template <class Op, std::size_t I, class... A>
using default_slot_for = std::conditional_t<
    repeats_integer<Op, I, A...>(), repeated_int_slot<repeated_int_size<Op, I>()>,
    default_slot<Op, I, schema::arg_type_t<Op, I>,
                 uses_default<Op, I, A...>() && std::is_lvalue_reference_v<schema::arg_type_t<Op, I>> &&
                     !std::is_const_v<std::remove_reference_t<schema::arg_type_t<Op, I>>>>>;

template <class Op, std::size_t I, class Tuple, class Slots, class... A>
decltype(auto) pick(Tuple& given, Slots& slots) {
  using P = schema::arg_type_t<Op, I>;
  constexpr std::size_t npos = positional_count<A...>();
  if constexpr (repeats_integer<Op, I, A...>()) {
    if constexpr (I < npos) return std::get<I>(slots).fill(std::get<I>(given));
    else return std::get<I>(slots).fill(std::get<find_named<Op, A...>(I)>(given).value);
  } else if constexpr (I < npos) {
    return std::get<I>(std::move(given));
  } else if constexpr (constexpr std::size_t j = find_named<Op, A...>(I); j < sizeof...(A)) {
    return std::forward<decltype(std::get<j>(given).value)>(std::get<j>(given).value);
  } else if constexpr (Op::schema.arguments[I].has_default) {
    if constexpr (std::is_lvalue_reference_v<P> && !std::is_const_v<std::remove_reference_t<P>>) {
      return static_cast<P>(std::get<I>(slots).value);
    } else {
      return default_for<Op, I, P>();
    }
  } else {
    return missing_argument_without_default<I, Op>::value;
  }
}

template <class Op, class... A, std::size_t... I>
decltype(auto) call_mapped(std::index_sequence<I...>, A&&... a) {
  static_assert(named_after_positional<A...>(), "opd::call: keyword arguments (opd::arg<\"name\"> = v) must follow the positional ones");
  static_assert(every_named_is_known<Op, A...>(), "opd::call: a keyword argument names no argument of this operator");
  static_assert(positional_count<A...>() <= sizeof...(I), "opd::call: more positional arguments than the schema has");
  auto given = std::forward_as_tuple(std::forward<A>(a)...);
  std::tuple<default_slot_for<Op, I, A...>...> slots;
  return typed_caller<Op>::call(pick<Op, I, decltype(given), decltype(slots), A...>(given, slots)...);
}

// What a call of an operator with a malformed schema returns: it converts to
// whatever the caller asked for (never defined: the program does not
// compile), so that the schema's own error stays the only one.
struct malformed_call_result {
  template <class T>
  operator T&() const;
};

}  // namespace detail

// ---- the public calls ------------------------------------------------------
template <schema::schema_holder Op, class... A>
decltype(auto) call(A&&... a) {
  constexpr std::size_t n = boost::mp11::mp_size<schema::arg_types_t<Op>>::value;
  if constexpr (schema::schema_malformed_v<Op>)
    return detail::malformed_call_result{};  // (the schema's own error is the diagnostic)
  else
    return detail::call_mapped<Op>(std::make_index_sequence<n>{}, std::forward<A>(a)...);
}

// From inside a kernel that took a DispatchKeySet: call again on `ks`
// (typically ks.remove(own key), or ks & DispatchKeySet::full_after(own key)).
template <schema::schema_holder Op, class... A>
decltype(auto) redispatch(DispatchKeySet ks, A&&... a) {
  return detail::typed_caller<Op>::dispatch(ks, std::forward<A>(a)...);
}

namespace detail {
// What one stack value contributes to the key set (for_each_tensor's
// IValue overload): a Tensor inline, the tensors of a list out of line.
[[gnu::noinline]] inline DispatchKeySet keys_of_tensor_list(const IValue& v) noexcept {
  DispatchKeySet ks;
  for_each_tensor([&](const Tensor& t) { ks = ks | t.key_set(); }, v);
  return ks;
}
inline DispatchKeySet keys_of(const IValue& v) noexcept {
  if (v.is_tensor()) [[likely]]
    return keys_of(v.to_tensor());
  return v.is_list() ? keys_of_tensor_list(v) : DispatchKeySet();
}
// The same for a value at tensor-bearing position p of op's arguments: a
// value that can bear no tensor there (an Int for a Tensor) is reported as
// that argument's error, not as a missing kernel for an empty key set.
inline DispatchKeySet keys_of_argument(const OperatorEntry& op, const IValue* base, std::size_t p) {
  const IValue& v = base[p];
  if (v.is_tensor()) [[likely]]
    return keys_of(v.to_tensor());
  if (v.is_list()) return keys_of_tensor_list(v);
  if (!v.is_none()) [[unlikely]]
    throw_not_a_tensor(op, p, v);
  return DispatchKeySet();
}
inline DispatchKeySet keys_of_device(const IValue& v) noexcept {
  return v.is_device() ? keys_of_device(v.to_device()) : DispatchKeySet(DispatchKey::CPU);
}

// For an operator known at compile time the positions (and kinds) of its
// tensor-bearing arguments are constants: the key set reads exactly those
// stack slots, as the typed call reads exactly those parameters.
template <class Params, std::size_t... I>
DispatchKeySet boxed_keys(const OperatorEntry& op, const IValue* base, std::index_sequence<I...>) {
  using namespace boost::mp11;
  if constexpr ((bears_tensor_v<mp_at_c<Params, I>> || ...)) {
    DispatchKeySet ks;
    ((bears_tensor_v<mp_at_c<Params, I>> ? (void)(ks = ks | keys_of_argument(op, base, I)) : (void)0), ...);
    return ks;
  } else {
    constexpr std::size_t first = mp_find_if<Params, is_device_param_t>::value;
    if constexpr (first < sizeof...(I)) return keys_of_device(base[first]);
    else return DispatchKeySet(DispatchKey::CPU);
  }
}
}  // namespace detail

// The key set a boxed call on `stack` dispatches on (its arguments are the
// last N values).
inline DispatchKeySet boxed_key_set(const OperatorEntry& op, const Stack& stack) {
  if (!op.has_schema()) [[unlikely]]
    (void)op.schema();  // throws, naming the operator
  const std::size_t n = op.num_arguments();
  detail::check_stack_size(op, stack, n);
  const IValue* base = stack.data() + (stack.size() - n);
  DispatchKeySet ks;
  for (std::size_t p : op.tensor_argument_positions()) ks = ks | detail::keys_of_argument(op, base, p);
  if (op.tensor_argument_positions().empty()) {
    const std::ptrdiff_t d = op.factory_device_position();
    ks = d >= 0 ? detail::keys_of_device(base[d]) : DispatchKeySet(DispatchKey::CPU);
  }
  return compute_dispatch_key_set(ks);
}
template <schema::schema_holder Op>
[[gnu::always_inline]] inline DispatchKeySet boxed_key_set(const OperatorEntry& op, const Stack& stack) {
  using Params = schema::arg_types_t<Op>;
  constexpr std::size_t n = boost::mp11::mp_size<Params>::value;
  detail::check_stack_size(op, stack, n);
  return compute_dispatch_key_set(
      detail::boxed_keys<Params>(op, stack.data() + (stack.size() - n), std::make_index_sequence<n>{}));
}

// Calls the operator's kernel for key set ks on the stack's last N values,
// which it replaces by the results.
inline void redispatch_boxed(const OperatorEntry& op, DispatchKeySet ks, Stack& stack) {
  const KernelFunction& k = op.lookup_and_mask(ks);
  try {
    k.boxed(k.functor, op, ks, &stack);
  } catch (...) {
    detail::rethrow_naming_operator(op);
  }
}
// The same on the key set the stack's arguments give. A stack that holds
// fewer values than the operator's arguments gets the trailing ones from the
// schema's defaults (by name, by handle and by operator type alike, as the C
// entry opd_call_boxed): the stack is then the call's arguments alone.
inline void call_boxed(const OperatorEntry& op, Stack& stack) {
  if (stack.size() < op.num_arguments()) [[unlikely]]
    detail::fill_boxed_defaults(op, stack, op.num_arguments());
  redispatch_boxed(op, boxed_key_set(op, stack), stack);
}
template <schema::schema_holder Op>
void call_boxed(Stack& stack) {
  const OperatorEntry& op = entry_for<Op>();
  constexpr std::size_t n = boost::mp11::mp_size<schema::arg_types_t<Op>>::value;
  if (stack.size() < n) [[unlikely]]
    detail::fill_boxed_defaults(op, stack, n);
  redispatch_boxed(op, boxed_key_set<Op>(op, stack), stack);
}
inline void call_boxed(std::string_view op_name, Stack& stack) {
  call_boxed(Dispatcher::singleton().find_schema_or_throw(op_name), stack);
}

// An unboxed kernel passing its own call to a boxed fallback, typed: no
// operator name in a string, and a returned Tensor& is the caller's argument.
template <BoxedKernelFn Fallback, schema::schema_holder Op, class... A>
decltype(auto) call_fallback(A&&... a) {
  return detail::typed_caller<Op>::template call_fallback<Fallback>(std::forward<A>(a)...);
}
// The same for a fallback written as void f(const OperatorEntry&, DispatchKeySet, Stack*).
namespace detail {
template <void (*Fallback)(const OperatorEntry&, DispatchKeySet, Stack*)>
struct plain_fallback {
  static void run(void*, const OperatorEntry& op, DispatchKeySet ks, Stack* s) { Fallback(op, ks, s); }
};
}  // namespace detail
template <void (*Fallback)(const OperatorEntry&, DispatchKeySet, Stack*), schema::schema_holder Op, class... A>
decltype(auto) call_fallback(A&&... a) {
  return detail::typed_caller<Op>::template call_fallback<&detail::plain_fallback<Fallback>::run>(std::forward<A>(a)...);
}

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/dispatcher/call-inl.hpp"
#endif
