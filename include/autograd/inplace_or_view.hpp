#pragma once
// The typed ADInplaceOrView kernel of an operator that writes an argument
// (Tensor(a!)): the call, then each written tensor's version counter bumped,
// so that a saved tensor modified since it was saved is detected. From the
// schema's alias facts alone (layers.hpp has the boxed form for operators
// without formulas).
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "dispatch/dispatcher.hpp"
#include "dispatch/schema/alias_facts.hpp"

namespace opd::autograd {

template <class Op, class Sig = schema::kernel_signature_t<Op>>
struct inplace_or_view_kernel;
template <class Op, class R, class... A>
struct inplace_or_view_kernel<Op, R(A...)> {
  static constexpr auto facts = schema::alias_table_of<sizeof...(A), 1>(Op::schema);
  static constexpr bool writes = [] {
    for (bool w : facts.written)
      if (w) return true;
    return false;
  }();
  static R run(DispatchKeySet ks, A... args) {
    auto all = std::forward_as_tuple(args...);
    R result = redispatch<Op>(ks & DispatchKeySet::full_after(DispatchKey::ADInplaceOrView), std::forward<A>(args)...);
    bump(all, std::make_index_sequence<sizeof...(A)>{});
    return result;
  }

 private:
  template <class Tuple, std::size_t... I>
  static void bump(const Tuple& all, std::index_sequence<I...>) {
    auto one = [](const auto& v) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(v)>, Tensor>) v.bump_version();
    };
    ((facts.written[I] ? one(std::get<I>(all)) : void()), ...);
  }
};

// Whether Op writes one of its arguments (it then needs an ADInplaceOrView kernel).
template <class Op>
inline constexpr bool writes_an_argument_v = inplace_or_view_kernel<Op>::writes;

template <class Op>
RegistrationHandle register_inplace_or_view(const source_location& where = source_location::current()) {
  return register_kernel<Op, &inplace_or_view_kernel<Op>::run>(DispatchKey::ADInplaceOrView, where);
}

}  // namespace opd::autograd
