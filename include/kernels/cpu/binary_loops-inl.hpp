#pragma once
// The loops of add, sub, mul and div: the op functors and, per op family,
// the dtype switch that runs them on the elementwise engine. Each family is
// compiled once, in its own source (src/kernels/binary_{add_sub,mul,div}.cpp:
// the dtype product makes them the library's costliest code); the checks,
// meta and impl around them are in binary_ops-inl.hpp.
#include <array>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "kernels/cpu/complex_arith-inl.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/loops-inl.hpp"
#include "kernels/cpu/simd_row_split-inl.hpp"

namespace opd::kernels {

// ------------------------------------------------------------- op functors ---
// T is the type the op computes in (opmath_t of the common dtype). Integer
// arithmetic wraps (two's complement) without undefined behaviour.

namespace detail {
template <class T>
using wrap_t = std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>;
}  // namespace detail

template <class T>
struct AddOp {
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (std::is_integral_v<T>) {
      using U = detail::wrap_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
};

// a + alpha * b. Also sub's loop: sub is add with -alpha (ATen's sub_impl
// calls add_stub likewise), exact for floats (a + (-1) * b == a - b) and
// for wrapping integers. (A loop of its own for sub's alpha = 1 cost every
// dtype another loop to compile; add's alpha = 1 keeps AddOp.)
template <class T>
struct AddAlphaOp {
  T alpha;
  T operator()(T a, T b) const noexcept {
    if constexpr (std::is_same_v<T, bool>) {
      return a || (alpha && b);
    } else if constexpr (std::is_integral_v<T>) {
      using U = detail::wrap_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(alpha) * static_cast<U>(b));
    } else if constexpr (is_complex_v<T>) {
      return a + complex_mul(alpha, b);
    } else {
      return a + alpha * b;
    }
  }
};

template <class T>
struct MulOp {
  T operator()(T a, T b) const noexcept {
    if constexpr (is_complex_v<T>) {
      return complex_mul(a, b);
    } else if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (std::is_integral_v<T>) {
      using U = detail::wrap_t<T>;
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    } else {
      return a * b;
    }
  }
};

template <class T>
struct DivOp {
  static_assert(std::is_floating_point_v<T> || is_complex_v<T>, "DivOp is true division: floating types only");
  T operator()(T a, T b) const noexcept {
    if constexpr (is_complex_v<T>) {
      return complex_div(a, b);
    } else {
      return a / b;
    }
  }
};

// ----------------------------------------------------------------- families ---

namespace detail {

// sub is add with -alpha, so add and sub share one family (and its loops).
enum class BinaryFamily { AddSub, Mul, Div };

// out = op(inputs[0], inputs[1]) computed in `common`, every check done.
// alpha: add/sub's effective alpha (sub's already negated), null otherwise
// (AddSub without alpha: the plain sum a + b, complex32's second step);
// name: the op's name for errors.
template <BinaryFamily F>
void binary_loops(const char* name, const Scalar* alpha, ScalarType common, const OperandRef& out,
                  const std::array<OperandRef, 2>& inputs) {
  auto run = [&](auto tag, const auto& op) {
    using T = typename decltype(tag)::type;
    cpu_kernel<T>(out, inputs, op);
  };
  if constexpr (F == BinaryFamily::AddSub) {
    dispatch_dtype_with_complex(common, name, [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = opmath_t<T>;
      if constexpr (is_complex_v<C>) {
        if (alpha == nullptr) return run(tag, AddOp<C>{});
      }
      const C a = static_cast<C>(checked_scalar_to<T>(*alpha));
      // (complex: a + 1 * b even for alpha = 1, as ATen: (1 + 0j) * (inf + 0j) is inf + nanj)
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        // alpha 1 and -1 (sub): exact as the vector rows' a + b and a - b
        if (a == 1 && try_basic_arith_simd(BasicArith::Add, common, out, inputs)) return;
        if (a == -1 && try_basic_arith_simd(BasicArith::Sub, common, out, inputs)) return;
      }
      if constexpr (!is_complex_v<C>) {
        if (a == static_cast<C>(1)) return run(tag, AddOp<C>{});
      }
      run(tag, AddAlphaOp<C>{a});
    });
  } else if constexpr (F == BinaryFamily::Mul) {
    if (try_basic_arith_simd(BasicArith::Mul, common, out, inputs)) return;
    dispatch_dtype_with_complex(common, name,
                                [&](auto tag) { run(tag, MulOp<opmath_t<typename decltype(tag)::type>>{}); });
  } else if (is_complex_kernel_dtype(common)) {
    dispatch_complex_dtype(common, name, [&](auto tag) { run(tag, DivOp<typename decltype(tag)::type>{}); });
  } else {
    // Float/Double contiguous rows: Highway's widest division (arith_simd.hpp).
    if (try_basic_arith_simd(BasicArith::Div, common, out, inputs)) return;
    dispatch_floating_dtype(common, name,
                            [&](auto tag) { run(tag, DivOp<opmath_t<typename decltype(tag)::type>>{}); });
  }
}

#ifndef OPD_HEADER_ONLY
// Instantiated once each, in src/kernels/binary_{add_sub,mul,div}.cpp.
extern template void binary_loops<BinaryFamily::AddSub>(const char*, const Scalar*, ScalarType, const OperandRef&,
                                                         const std::array<OperandRef, 2>&);
extern template void binary_loops<BinaryFamily::Mul>(const char*, const Scalar*, ScalarType, const OperandRef&,
                                                      const std::array<OperandRef, 2>&);
extern template void binary_loops<BinaryFamily::Div>(const char*, const Scalar*, ScalarType, const OperandRef&,
                                                      const std::array<OperandRef, 2>&);
#endif

}  // namespace detail
}  // namespace opd::kernels
