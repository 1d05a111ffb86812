#pragma once
// An operator's C entry point, derived from its schema:
//
//   OPD_EXPORT_C(opd_add_out, opd::kernels::ops::add::out)
//
// exports, with C linkage,
//   int32_t opd_add_out(opd_tensor out, opd_tensor self, opd_tensor other, opd_scalar alpha);
//   const uint64_t opd_add_out_fingerprint;   // opd::c_abi::c_fingerprint of that signature
// a function callable from C, through dlsym and from ctypes as any other (on
// x86-64 and AArch64 ELF; elsewhere a constant pointer to the shim, which a C
// caller calls with the same syntax: see OPD_C_EXPORTS_FUNCTIONS in opd_c.h).
//
// The shim unpacks the C parameters into the operator's kernel parameter
// types (cpp_types.hpp), calls it through the dispatcher's typed path, writes
// the results through the out-pointers, and turns every exception into a
// status (handles.hpp). Hot types are unpacked inline (a tensor handle binds
// `const Tensor&` directly; an int64_t array becomes a span over the caller's
// memory); the others go through an IValue and the boxed unpacking.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "dispatch/c_abi/c_signature.hpp"
#include "dispatch/c_abi/c_types.hpp"
#include "dispatch/c_abi/handles.hpp"
#include "dispatch/c_abi/opd_c.h"
#include "dispatch/dispatcher/boxing.hpp"
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/schema/cpp_types.hpp"
#include "dispatch/schema/printer.hpp"

namespace opd::c_abi {

// ---- C parameter -> C++ type ------------------------------------------------
template <c_base B>
struct base_cpp;
template <> struct base_cpp<c_base::tensor> { using type = opd_tensor; };
template <> struct base_cpp<c_base::i64> { using type = std::int64_t; };
template <> struct base_cpp<c_base::f64> { using type = double; };
template <> struct base_cpp<c_base::i32> { using type = std::int32_t; };
template <> struct base_cpp<c_base::str> { using type = opd_str; };
template <> struct base_cpp<c_base::scalar> { using type = opd_scalar; };
template <> struct base_cpp<c_base::complex> { using type = opd_complex; };
template <> struct base_cpp<c_base::any> { using type = opd_any; };
template <> struct base_cpp<c_base::value> { using type = opd_value; };

// T, const T*, const T* const*, ...
template <class T, unsigned Depth>
struct const_pointers {
  using type = typename const_pointers<const T*, Depth - 1>::type;
};
template <class T>
struct const_pointers<T, 0> {
  using type = T;
};

// (Keyed on an integer, base | depth << 8 | is_return << 16: g++ 12 crashes
// on a class-type template argument taken from an array inside a pack expansion.)
constexpr std::uint32_t c_param_key(const c_param& p) {
  return static_cast<std::uint32_t>(p.base) | static_cast<std::uint32_t>(p.depth) << 8 |
         static_cast<std::uint32_t>(p.is_return) << 16;
}
template <std::uint32_t Key, class Base = typename base_cpp<static_cast<c_base>(Key & 0xff)>::type>
using c_param_key_t =
    std::conditional_t<(Key >> 16) != 0, Base*, typename const_pointers<Base, (Key >> 8) & 0xff>::type>;
// The C++ type of C parameter P (opd_c.h's type).
template <c_param P>
using c_param_t = c_param_key_t<c_param_key(P)>;

namespace detail {

template <std::size_t N, class Schema>
constexpr std::array<c_param, N> collect_c_params(const Schema& s) {
  std::array<c_param, N> out{};
  std::size_t i = 0;
  for_each_c_param(s, [&](const c_param& p) { out[i++] = p; });
  return out;
}

// Everything the shim of Op needs, computed once per schema.
template <class Op>
struct c_layout {
  static constexpr std::size_t count = c_param_count(Op::schema);
  static constexpr std::array<c_param, count> params = collect_c_params<count>(Op::schema);
  // Position of the first C parameter of argument / return i.
  static constexpr std::size_t first_of(std::int16_t source, bool is_return) {
    for (std::size_t k = 0; k < count; ++k)
      if (params[k].source == source && params[k].is_return == is_return) return k;
    return count;
  }
  template <std::size_t... I>
  static auto make(std::index_sequence<I...>) -> std::int32_t (*)(c_param_key_t<c_param_key(params[I])>...);
  using function = std::remove_pointer_t<decltype(make(std::make_index_sequence<count>{}))>;
};

// How the shim unpacks one argument: inline for the hot (kernel type, C form)
// pairs, else through an IValue.
enum class unpack : std::uint8_t {
  generic, tensor, mutable_tensor, i64, f64, boolean, scalar, int_list, optional_tensor, optional_i64,
  optional_f64, dtype
};
template <class P>
constexpr unpack unpack_of(c_form f) {
  using S = c_shape;
  if (f.shape == S::leaf) {
    if (f.base == c_base::tensor && std::is_same_v<P, const Tensor&>) return unpack::tensor;
    if (f.base == c_base::tensor && std::is_same_v<P, Tensor&>) return unpack::mutable_tensor;
    if (f.base == c_base::i64 && std::is_same_v<P, std::int64_t>) return unpack::i64;
    if (f.base == c_base::f64 && std::is_same_v<P, double>) return unpack::f64;
    if (f.base == c_base::i32 && std::is_same_v<P, bool>) return unpack::boolean;
    if (f.base == c_base::scalar && std::is_same_v<P, const Scalar&>) return unpack::scalar;
    if (f.base == c_base::i32 && std::is_same_v<P, ScalarType>) return unpack::dtype;
  } else if (f.shape == S::optional) {
    if (f.base == c_base::tensor && std::is_same_v<P, const std::optional<Tensor>&>) return unpack::optional_tensor;
    if (f.base == c_base::i64 && std::is_same_v<P, std::optional<std::int64_t>>) return unpack::optional_i64;
    if (f.base == c_base::f64 && std::is_same_v<P, std::optional<double>>) return unpack::optional_f64;
  } else if (f.shape == S::list && !f.optional_elements && f.fixed_size < 0) {
    if (f.base == c_base::i64 && std::is_same_v<P, std::span<const std::int64_t>>) return unpack::int_list;
  }
  return unpack::generic;
}

// c_arg<P, F, How>(first, second, op, arg).get(): the value for kernel parameter P.
template <class P, c_form F, unpack How = unpack_of<P>(F)>
struct c_arg {
  IValue value;
  boxing::unboxed_arg<P> unboxed;
  c_arg(const void* first, std::int64_t second, std::string_view op, std::string_view arg)
      : value(ivalue_from_c(F, first, second, op, arg)), unboxed(value) {}
  P get() { return unboxed.get(); }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::tensor> {
  const Tensor* t;
  c_arg(const void* first, std::int64_t, std::string_view op, std::string_view arg) {
    const opd_tensor h = *static_cast<const opd_tensor*>(first);
    if (h == nullptr) [[unlikely]]
      throw_null_tensor(op, arg);
    t = &h->t;
  }
  const Tensor& get() { return *t; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::mutable_tensor> {
  Tensor* t;
  c_arg(const void* first, std::int64_t, std::string_view op, std::string_view arg) {
    const opd_tensor h = *static_cast<const opd_tensor*>(first);
    if (h == nullptr) [[unlikely]]
      throw_null_tensor(op, arg);
    t = &h->t;
  }
  Tensor& get() { return *t; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::i64> {
  std::int64_t v;
  c_arg(const void* first, std::int64_t, std::string_view, std::string_view) : v(*static_cast<const std::int64_t*>(first)) {}
  std::int64_t get() { return v; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::f64> {
  double v;
  c_arg(const void* first, std::int64_t, std::string_view, std::string_view) : v(*static_cast<const double*>(first)) {}
  double get() { return v; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::boolean> {
  bool v;
  c_arg(const void* first, std::int64_t, std::string_view, std::string_view)
      : v(*static_cast<const std::int32_t*>(first) != 0) {}
  bool get() { return v; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::dtype> {
  ScalarType v;
  c_arg(const void* first, std::int64_t, std::string_view op, std::string_view arg) {
    const std::int32_t code = *static_cast<const std::int32_t*>(first);
    if (!is_valid_scalar_type(code)) [[unlikely]]
      throw_bad_dtype(op, arg, code);
    v = static_cast<ScalarType>(code);
  }
  ScalarType get() { return v; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::scalar> {
  Scalar v;
  c_arg(const void* first, std::int64_t, std::string_view op, std::string_view arg)
      : v(scalar_from_c(*static_cast<const opd_scalar*>(first), op, arg)) {}
  const Scalar& get() { return v; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::int_list> {
  std::span<const std::int64_t> v;
  c_arg(const void* first, std::int64_t length, std::string_view op, std::string_view arg) {
    const std::int64_t* data = *static_cast<const std::int64_t* const*>(first);
    if (length < 0 || (data == nullptr && length > 0)) [[unlikely]]
      throw_bad_list(op, arg, length);
    v = std::span<const std::int64_t>(data, static_cast<std::size_t>(length));
  }
  std::span<const std::int64_t> get() { return v; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::optional_tensor> {
  std::optional<Tensor> v;
  c_arg(const void* first, std::int64_t, std::string_view op, std::string_view arg) {
    const opd_tensor* p = *static_cast<const opd_tensor* const*>(first);
    if (p == nullptr) return;
    if (*p == nullptr) [[unlikely]]
      throw_null_tensor(op, arg);
    v = (*p)->t;
  }
  const std::optional<Tensor>& get() { return v; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::optional_i64> {
  std::optional<std::int64_t> v;
  c_arg(const void* first, std::int64_t, std::string_view, std::string_view) {
    if (const std::int64_t* p = *static_cast<const std::int64_t* const*>(first)) v = *p;
  }
  std::optional<std::int64_t> get() { return v; }
};
template <class P, c_form F>
struct c_arg<P, F, unpack::optional_f64> {
  std::optional<double> v;
  c_arg(const void* first, std::int64_t, std::string_view, std::string_view) {
    if (const double* p = *static_cast<const double* const*>(first)) v = *p;
  }
  std::optional<double> get() { return v; }
};

// ---- results -----------------------------------------------------------------
template <class T>
void write_flat(const T& v, void* out, void* out_index) {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<U, Tensor>) {
    *static_cast<opd_tensor*>(out) = new_tensor(v);
  } else if constexpr (std::is_same_v<U, bool>) {
    *static_cast<std::int32_t*>(out) = v ? 1 : 0;
  } else if constexpr (std::is_same_v<U, Scalar>) {
    *static_cast<opd_scalar*>(out) = scalar_to_c(v);
  } else if constexpr (std::is_same_v<U, std::complex<double>>) {
    *static_cast<opd_complex*>(out) = opd_complex{v.real(), v.imag()};
  } else if constexpr (std::is_same_v<U, Device>) {
    *static_cast<std::int32_t*>(out) = static_cast<std::int32_t>(v.type());
    if (out_index) *static_cast<std::int32_t*>(out_index) = static_cast<std::int32_t>(v.index());
  } else if constexpr (std::is_same_v<U, std::string>) {
    static_assert(sizeof(U) == 0, "str returns go as opd_value");
  } else if constexpr (std::is_enum_v<U>) {
    *static_cast<std::int32_t*>(out) = static_cast<std::int32_t>(v);
  } else if constexpr (std::is_floating_point_v<U>) {
    *static_cast<double*>(out) = static_cast<double>(v);
  } else {
    static_assert(std::is_integral_v<U>, "write_flat: no flat C form");
    *static_cast<std::int64_t*>(out) = static_cast<std::int64_t>(v);
  }
}

template <class Op, class CParams, class Returns, class Holders>
struct shim_impl;

}  // namespace detail

// The C function type of Op: int32_t(C parameters...).
template <schema::schema_holder Op>
using c_function_t = typename detail::c_layout<schema::detail::holder_t<Op>>::function;

// The fingerprint of Op's C signature (c_signature.hpp).
template <schema::schema_holder Op>
inline constexpr std::uint64_t c_fingerprint_v = c_fingerprint(Op::schema);

// Op's C prototype under `name` (empty: opd_<ns>_<name>_<overload>), a
// compile-time string.
template <schema::schema_holder Op>
struct c_prototype {
  static constexpr std::size_t size = [] {
    schema::counting_sink n;
    print_c_prototype(Op::schema, "", n);
    return n.size;
  }();
  static constexpr schema::buffer_sink<size> text = [] {
    schema::buffer_sink<size> b;
    print_c_prototype(Op::schema, "", b);
    return b;
  }();
  static constexpr std::string_view view() { return std::string_view(text.data, text.size); }
};

template <schema::schema_holder Op, class Sig = c_function_t<Op>>
struct shim;
template <schema::schema_holder Op, class... CP>
struct shim<Op, std::int32_t(CP...)> {
  using layout = detail::c_layout<schema::detail::holder_t<Op>>;
  using signature = schema::kernel_signature_t<Op>;
  static constexpr std::size_t nargs = Op::schema.arguments.size();
  static constexpr std::string_view op_name = Op::schema.name;

  // The entry point: never throws.
  static std::int32_t call(CP... cp) noexcept {
    try {
      const void* addresses[] = {static_cast<const void*>(&cp)..., nullptr};
      const std::int64_t ints[] = {int_of(cp)..., 0};
      return step<0>(addresses, ints);
    } catch (...) {
      return status_from_current_exception();
    }
  }

 private:
  template <class T>
  static std::int64_t int_of(const T& v) {
    if constexpr (std::is_integral_v<T>) return static_cast<std::int64_t>(v);
    else return 0;
  }
  template <std::size_t A>
  static constexpr c_form form_of() {
    return arg_form(Op::schema, Op::schema.arguments[A].type);
  }

  // Unpacks argument K, then the rest, then calls the operator.
  template <std::size_t K, class... Got>
  [[gnu::always_inline]] static std::int32_t step(const void* const* addr, const std::int64_t* ints, Got&&... got) {
    if constexpr (K == nargs) {
      using R = schema::return_type_t<Op>;
      if constexpr (std::is_void_v<R>) {
        schema_call(std::forward<Got>(got)...);
      } else {
        decltype(auto) r = schema_call(std::forward<Got>(got)...);
        write_returns(r, addr);
      }
      return OPD_OK;
    } else {
      constexpr c_form f = form_of<K>();
      constexpr std::size_t first = layout::first_of(static_cast<std::int16_t>(K), false);
      using P = schema::arg_type_t<Op, K>;
      detail::c_arg<P, f> h(addr[first], f.arity() == 2 ? ints[first + 1] : 0, op_name,
                            Op::schema.arguments[K].name);
      return step<K + 1>(addr, ints, std::forward<Got>(got)..., h.get());
    }
  }
  template <class... Got>
  static decltype(auto) schema_call(Got&&... got) {
    return ::opd::detail::typed_caller<Op>::call(std::forward<Got>(got)...);
  }

  template <class R>
  static void write_returns(R& r, const void* const* addr) {
    using U = std::remove_cvref_t<R>;
    if constexpr (boxing::is_tuple<U>::value) {
      [&]<std::size_t... I>(std::index_sequence<I...>) { (write_return<I>(std::get<I>(r), addr), ...); }(
          std::make_index_sequence<std::tuple_size_v<U>>{});
    } else {
      write_return<0>(r, addr);
    }
  }
  template <std::size_t I, class V>
  static void write_return(V& v, const void* const* addr) {
    constexpr std::int16_t type = Op::schema.returns[I].type;
    constexpr c_return kind = return_kind(Op::schema, type);
    if constexpr (kind != c_return::omitted) {
      constexpr std::size_t first = layout::first_of(static_cast<std::int16_t>(I), true);
      void* out = *static_cast<void* const*>(addr[first]);
      if (out == nullptr) return;  // a result the caller does not want
      if constexpr (kind == c_return::value) {
        *static_cast<opd_value*>(out) = detail::new_value(boxing::box(v));
      } else {
        void* out_index = arg_form(Op::schema, type).device ? *static_cast<void* const*>(addr[first + 1]) : nullptr;
        detail::write_flat(v, out, out_index);
      }
    }
  }
};

}  // namespace opd::c_abi

// Exports operator Op (an opd::op type) as a C entry point `sym` and its
// fingerprint `sym_fingerprint` (see the top of this file).
//
// Where opd_c.h's OPD_C_EXPORTS_FUNCTIONS is 1, `sym` is a function with C
// linkage: declared through the derived function type (so the compiler holds
// the symbol to that type), and defined by OPD_C_TRAMPOLINE, a few
// instructions of assembly that tail-jump through `sym_opd_target`, a hidden
// constant pointer to the shim. (C++ cannot spell a parameter list of a
// length computed at compile time outside a template, and a template's
// instantiation gets no C name: the jump gives it one, at the cost of one
// indirect branch.) Elsewhere `sym` is that constant pointer itself.
#if OPD_C_EXPORTS_FUNCTIONS
#define OPD_EXPORT_C(sym, ...)                                                                      \
  extern "C" {                                                                                      \
  OPD_C_API ::opd::c_abi::c_function_t<__VA_ARGS__> sym;                                            \
  __attribute__((visibility("hidden"))) extern ::opd::c_abi::c_function_t<__VA_ARGS__>* const       \
      sym##_opd_target;                                                                             \
  __attribute__((used))::opd::c_abi::c_function_t<__VA_ARGS__>* const                               \
      sym##_opd_target = &::opd::c_abi::shim<__VA_ARGS__>::call;                                    \
  OPD_C_API extern const ::std::uint64_t sym##_fingerprint;                                         \
  const ::std::uint64_t sym##_fingerprint = ::opd::c_abi::c_fingerprint_v<__VA_ARGS__>;             \
  }                                                                                                 \
  OPD_C_TRAMPOLINE(sym)
#else
#define OPD_EXPORT_C(sym, ...)                                                                      \
  extern "C" {                                                                                      \
  OPD_C_API extern ::opd::c_abi::c_function_t<__VA_ARGS__>* const sym;                              \
  ::opd::c_abi::c_function_t<__VA_ARGS__>* const sym = &::opd::c_abi::shim<__VA_ARGS__>::call;      \
  OPD_C_API extern const ::std::uint64_t sym##_fingerprint;                                         \
  const ::std::uint64_t sym##_fingerprint = ::opd::c_abi::c_fingerprint_v<__VA_ARGS__>;             \
  }
#endif

// The function `sym`: jump to the address held in `sym_opd_target`, leaving
// every argument register and the stack as the caller set them. In its own
// section, so that the linker's --gc-sections treats it as any function.
// (An indirect-branch landing pad first where the compiler is told to
// protect indirect branches: endbr64 under -fcf-protection, bti under
// -mbranch-protection.)
#if defined(__x86_64__)
#if defined(__CET__) && (__CET__ & 1)
#define OPD_C_TRAMPOLINE_LANDING "endbr64\n"
#else
#define OPD_C_TRAMPOLINE_LANDING ""
#endif
#define OPD_C_TRAMPOLINE(sym)                                                                \
  __asm__(".pushsection .text." #sym ",\"ax\",@progbits\n"                                   \
          ".globl " #sym "\n"                                                                \
          ".type " #sym ",@function\n"                                                       \
          ".p2align 4\n" #sym ":\n" OPD_C_TRAMPOLINE_LANDING "jmp *" #sym "_opd_target(%rip)\n" \
          ".size " #sym ",.-" #sym "\n"                                                      \
          ".popsection\n");
#elif defined(__aarch64__)
#if defined(__ARM_FEATURE_BTI_DEFAULT)
#define OPD_C_TRAMPOLINE_LANDING "bti c\n"
#else
#define OPD_C_TRAMPOLINE_LANDING ""
#endif
#define OPD_C_TRAMPOLINE(sym)                                                                          \
  __asm__(".pushsection .text." #sym ",\"ax\",%progbits\n"                                             \
          ".globl " #sym "\n"                                                                          \
          ".type " #sym ",%function\n"                                                                 \
          ".p2align 2\n" #sym ":\n" OPD_C_TRAMPOLINE_LANDING "adrp x16, " #sym "_opd_target\n"          \
          "ldr x16, [x16, #:lo12:" #sym "_opd_target]\n"                                               \
          "br x16\n"                                                                                   \
          ".size " #sym ",.-" #sym "\n"                                                                \
          ".popsection\n");
#endif
