#pragma once
// Conversions between a kernel's C++ parameter/return types (the mapping of
// schema/cpp_types.hpp) and IValues on a Stack. Unboxing borrows whenever it
// can: a `const Tensor&` parameter refers to the Tensor inside the IValue, a
// `std::span<const int64_t>` views the IValue's vector. What must be built (a
// std::optional<Tensor>, a span over converted elements) lives in an
// `unboxed_arg` holder for the duration of the call.
#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::boxing {

template <class T>
struct is_span : std::false_type {};
template <class T>
struct is_span<std::span<const T>> : std::true_type {};
template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_tuple : std::false_type {};
template <class... T>
struct is_tuple<std::tuple<T...>> : std::true_type {};

// ---- C++ -> IValue ---------------------------------------------------------
template <class T>
IValue box(const T& v) {
  using U = std::remove_cvref_t<T>;
  if constexpr (is_span<U>::value || is_std_array<U>::value) {
    using E = std::remove_const_t<typename U::value_type>;
    return IValue(std::vector<E>(v.begin(), v.end()));
  } else if constexpr (is_optional<U>::value) {
    if (!v) return IValue();
    return box(*v);
  } else if constexpr (is_tuple<U>::value) {
    return std::apply([](const auto&... e) { return IValue::tuple(std::vector<IValue>{box(e)...}); }, v);
  } else {
    return IValue(v);
  }
}

// The types a typed call that reaches a boxed kernel pushes most (a boxed
// fallback's Tensors and numbers): constructed in place on the stack, no
// temporary to move from and destroy.
template <class U>
inline constexpr bool pushed_in_place = std::is_same_v<U, Tensor> || std::is_same_v<U, Scalar> ||
                                        std::is_same_v<U, int64_t> || std::is_same_v<U, double> ||
                                        std::is_same_v<U, bool> || std::is_same_v<U, IValue>;

// Pushes a C++ value onto a stack as box(v) would. Every other type goes
// through push_back(IValue&&): one instantiation of the vector's growth path
// shared by all of them, instead of one emplace_back<T> per type and call
// (compile time: about 0.05 s of g++ -O2 per typed call of a factory).
template <class T>
void push(Stack& stack, const T& v) {
  using U = std::remove_cvref_t<T>;
  if constexpr (is_optional<U>::value) {
    if (v) push(stack, *v);
    else stack.emplace_back();
  } else if constexpr (pushed_in_place<U>) {
    stack.emplace_back(v);
  } else {
    stack.push_back(box(v));
  }
}

// The parameter types pushed through a temporary IValue (lists, enums,
// strings and their optionals; cpp_types.hpp's mapping of ATen's argument
// types). The compiled library instantiates their push once
// (src/dispatcher.cpp), so a user file whose typed calls may reach a boxed
// kernel does not compile them again (about 0.1 s of g++ -O2 for a factory's
// call). Optionals of the in-place types stay inline: their push is a branch
// and an emplace, cheaper than the call (measured: +17 instructions per call
// on the to-boxed path for a double?). Header-only: compiled where used.
#define OPD_BOXING_PUSHED_TYPES(X)                                                                                 \
  X(std::span<const int64_t>) X(std::optional<std::span<const int64_t>>) X(std::span<const double>)               \
  X(std::span<const Tensor>) X(std::span<const std::optional<Tensor>>) X(std::vector<bool>)                        \
  X(std::optional<ScalarType>) X(std::optional<Layout>) X(std::optional<Device>)                                   \
  X(std::optional<MemoryFormat>) X(std::optional<std::string_view>) X(ScalarType) X(Layout) X(Device)              \
  X(MemoryFormat) X(std::string_view)
#ifndef OPD_HEADER_ONLY
#define OPD_BOXING_DECLARE_PUSH(T) extern template OPD_API void push<T>(Stack&, const T&);
OPD_BOXING_PUSHED_TYPES(OPD_BOXING_DECLARE_PUSH)
#undef OPD_BOXING_DECLARE_PUSH
#endif

// ---- IValue -> C++ ---------------------------------------------------------
// unboxed_arg<P>: built from the IValue, get() yields what binds to parameter P.
template <class P>
struct unboxed_arg {  // by value: int64_t, double, bool, enums, Device, std::optional<int64_t>, ...
  P value;
  explicit unboxed_arg(const IValue& iv) : value(iv.to<P>()) {}
  P get() { return value; }
};
template <>
struct unboxed_arg<const Tensor&> {
  const Tensor* t;
  explicit unboxed_arg(const IValue& iv) : t(&iv.to_tensor()) {}
  const Tensor& get() { return *t; }
};
template <>
struct unboxed_arg<Tensor&> {  // a mutable argument: the caller's tensor handle lives in the stack
  Tensor* t;
  // A kernel may rebind its Tensor&: a borrowed slot takes a reference first
  // (the stack is the boxed kernel's, not const; only this view of it is).
  explicit unboxed_arg(const IValue& iv) : t(const_cast<Tensor*>(&iv.to_tensor())) {
    if (iv.is_borrowed()) [[unlikely]]
      const_cast<IValue&>(iv).make_owned();
  }
  Tensor& get() { return *t; }
};
template <>
struct unboxed_arg<std::optional<Tensor>&> {  // Tensor(a!)? : the kernel may write through it
  std::optional<Tensor> value;
  explicit unboxed_arg(const IValue& iv) : value(iv.to<std::optional<Tensor>>()) {}
  std::optional<Tensor>& get() { return value; }
};
template <class T>
struct unboxed_arg<const T&> {  // const Scalar&, const std::optional<Tensor>&, const IValue&, ...
  std::remove_cvref_t<T> value;
  explicit unboxed_arg(const IValue& iv) : value(iv.to<std::remove_cvref_t<T>>()) {}
  const T& get() { return value; }
};
template <>
struct unboxed_arg<const IValue&> {
  const IValue* v;
  explicit unboxed_arg(const IValue& iv) : v(&iv) {}
  const IValue& get() { return *v; }
};
template <>
struct unboxed_arg<const std::vector<bool>&> {
  const std::vector<bool>* v;
  explicit unboxed_arg(const IValue& iv) : v(&iv.to_bool_list()) {}
  const std::vector<bool>& get() { return *v; }
};
template <>
struct unboxed_arg<std::string_view> {
  std::string_view s;
  explicit unboxed_arg(const IValue& iv) : s(iv.to_string_view()) {}
  std::string_view get() { return s; }
};
template <>
struct unboxed_arg<std::optional<std::string_view>> {
  std::optional<std::string_view> s;
  explicit unboxed_arg(const IValue& iv) {
    if (!iv.is_none()) s = iv.to_string_view();
  }
  std::optional<std::string_view> get() { return s; }
};
template <std::size_t N>
struct unboxed_arg<std::array<bool, N>> {
  std::array<bool, N> value{};
  explicit unboxed_arg(const IValue& iv) {
    const auto& v = iv.to_bool_list();
    OPD_CHECK_TYPE(v.size() == N, "Expected a list of ", N, " bools but got ", v.size());
    for (std::size_t i = 0; i < N; ++i) value[i] = v[i];
  }
  std::array<bool, N> get() { return value; }
};

// Element types an IValue list stores directly (a span can view them in place).
template <class E>
inline constexpr bool list_stored_directly =
    std::is_same_v<E, Tensor> || std::is_same_v<E, std::optional<Tensor>> || std::is_same_v<E, int64_t> ||
    std::is_same_v<E, double> || std::is_same_v<E, std::string>;

template <class E>
struct unboxed_arg<std::span<const E>> {
  std::vector<E> converted;  // only for element types a list does not store as such
  std::span<const E> view;
  explicit unboxed_arg(const IValue& iv) {
    if constexpr (list_stored_directly<E>) {
      const auto& v = iv.list_ref<E>();
      view = std::span<const E>(v.data(), v.size());
    } else {
      converted = iv.to<std::vector<E>>();
      view = std::span<const E>(converted.data(), converted.size());
    }
  }
  std::span<const E> get() { return view; }
};
template <class E>
struct unboxed_arg<std::optional<std::span<const E>>> {
  std::optional<unboxed_arg<std::span<const E>>> inner;
  explicit unboxed_arg(const IValue& iv) {
    if (!iv.is_none()) inner.emplace(iv);
  }
  std::optional<std::span<const E>> get() {
    if (!inner) return std::nullopt;
    return inner->get();
  }
};

// ---- results -------------------------------------------------------------
template <class R>
void push_result(Stack& s, R&& r) {
  using U = std::remove_cvref_t<R>;
  if constexpr (is_tuple<U>::value) {
    std::apply([&](auto&&... e) { (s.push_back(box(e)), ...); }, r);
  } else if constexpr (std::is_same_v<U, std::vector<IValue>>) {  // -> ...
    for (auto& v : r) s.push_back(std::move(v));
  } else {
    s.push_back(box(r));
  }
}

// A by-value result (or one element of a tuple of results) taken off the stack.
template <class T>
T take_result(IValue&& iv) {
  using U = std::remove_cvref_t<T>;
  return std::move(iv).template to<U>();
}

}  // namespace opd::boxing
