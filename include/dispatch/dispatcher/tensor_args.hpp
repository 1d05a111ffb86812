#pragma once
// The tensor-bearing arguments of an operator, answered in one place for
// every path that needs them: dispatch-key extraction (typed and boxed
// calls, the operator entry's analysis of a run-time schema), structured
// kernels' device and dtype checks, and the layers that move or unwrap every
// tensor of a call (fallback, functionalization, C ABI).
//
//   schema::classify_argument(s, type)   a schema type's kind (Tensor, Tensor?, Tensor[], Tensor?[], Device)
//   param_kind<P>                        the same for a kernel parameter type
//   for_each_tensor(f, arg)              f(t) for every defined tensor of a typed argument
//   for_each_tensor(f, ivalue)           the same for a stack value
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>

#include "dispatch/core/device.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/schema/model.hpp"

namespace opd {

enum class argument_kind : std::uint8_t {
  other,
  tensor,                // Tensor
  optional_tensor,       // Tensor?
  tensor_list,           // Tensor[] (and Tensor[]?)
  optional_tensor_list,  // Tensor?[]
  device,                // Device, Device?: a factory's backend
};
constexpr bool bears_tensor(argument_kind k) noexcept {
  return k == argument_kind::tensor || k == argument_kind::optional_tensor || k == argument_kind::tensor_list ||
         k == argument_kind::optional_tensor_list;
}

namespace schema {
// The kind of a schema type (of a compile-time or a run-time schema).
template <class S>
constexpr argument_kind classify_argument(const S& s, std::int16_t t) {
  const auto strip = [&](std::int16_t i, bool& optional) -> const auto& {
    const auto* n = &s.type(i);
    while (n->kind == type_kind::optional) {
      optional = true;
      n = &s.type(n->child);
    }
    return *n;
  };
  bool optional = false;
  const auto& n = strip(t, optional);
  if (n.kind == type_kind::base) {
    if (n.base == base_type::Tensor) return optional ? argument_kind::optional_tensor : argument_kind::tensor;
    if (n.base == base_type::Device) return argument_kind::device;
    return argument_kind::other;
  }
  if (n.kind == type_kind::list) {
    bool element_optional = false;
    const auto& e = strip(n.child, element_optional);
    if (e.kind == type_kind::base && e.base == base_type::Tensor)
      return element_optional ? argument_kind::optional_tensor_list : argument_kind::tensor_list;
  }
  return argument_kind::other;
}
}  // namespace schema

// The kind of a kernel parameter type (schema/cpp_types.hpp's mapping).
template <class P>
inline constexpr argument_kind param_kind =
    std::is_same_v<P, Tensor>                                         ? argument_kind::tensor
    : std::is_same_v<P, std::optional<Tensor>>                        ? argument_kind::optional_tensor
    : std::is_same_v<P, std::span<const Tensor>>                      ? argument_kind::tensor_list
    : std::is_same_v<P, std::optional<std::span<const Tensor>>>       ? argument_kind::tensor_list
    : std::is_same_v<P, std::span<const std::optional<Tensor>>>       ? argument_kind::optional_tensor_list
    : std::is_same_v<P, Device> || std::is_same_v<P, std::optional<Device>> ? argument_kind::device
                                                                      : argument_kind::other;
template <class P>
inline constexpr bool bears_tensor_v = bears_tensor(param_kind<std::remove_cvref_t<P>>);
template <class P>
using bears_tensor_t = std::bool_constant<bears_tensor_v<P>>;
template <class P>
inline constexpr bool is_device_param_v = param_kind<std::remove_cvref_t<P>> == argument_kind::device;
template <class P>
using is_device_param_t = std::bool_constant<is_device_param_v<P>>;

// ---- visiting the defined tensors of one argument ---------------------------
template <class F>
[[gnu::always_inline]] inline void for_each_tensor(F&& f, const Tensor& t) {
  if (t.defined()) f(t);
}
template <class F>
[[gnu::always_inline]] inline void for_each_tensor(F&& f, const std::optional<Tensor>& t) {
  if (t && t->defined()) f(*t);
}
template <class F>
void for_each_tensor(F&& f, std::span<const Tensor> ts) {
  for (const Tensor& t : ts) for_each_tensor(f, t);
}
template <class F>
void for_each_tensor(F&& f, std::span<const std::optional<Tensor>> ts) {
  for (const auto& t : ts) for_each_tensor(f, t);
}
template <class F>
void for_each_tensor(F&& f, const std::optional<std::span<const Tensor>>& ts) {
  if (ts) for_each_tensor(f, *ts);
}
// Any other parameter type bears no tensor: nothing, at compile time.
template <class F, class T>
  requires(!bears_tensor_v<T> && !std::is_same_v<std::remove_cvref_t<T>, IValue> &&
           !std::is_convertible_v<const T&, std::span<const Tensor>> &&
           !std::is_convertible_v<const T&, std::span<const std::optional<Tensor>>>)
[[gnu::always_inline]] inline void for_each_tensor(F&&, const T&) {}

// A stack value: a Tensor, or the defined tensors of a list. Anything else
// (None, or a value of the wrong type, which the kernel's unboxing reports)
// has none.
template <class F>
void for_each_tensor(F&& f, const IValue& v) {
  if (v.is_tensor()) [[likely]] {
    for_each_tensor(f, v.to_tensor());
  } else if (v.is_tensor_list()) {
    for (const auto& t : v.to_tensor_list()) for_each_tensor(f, t);
  } else if (v.is_optional_tensor_list()) {
    for (const auto& t : v.to_optional_tensor_list()) for_each_tensor(f, t);
  }
}

}  // namespace opd
