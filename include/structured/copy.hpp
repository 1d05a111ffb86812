#pragma once
// The copy the derived kernels finish with: a result computed into a fresh
// tensor is copied into self (in-place) or into out (out=), with copy_'s
// semantics: any strides on the destination, conversion to its dtype.
//
// structured_detail::copy_into(dst, src, backend) does it:
//   - nothing for Meta tensors or no elements;
//   - same dtype, both contiguous, memory from one allocator: the
//     allocator's own copy_data (memcpy for host memory; a device allocator
//     overrides it), so a backend whose allocator can copy needs nothing else;
//   - otherwise the operator opd::structured_copy_op
//       opd::_structured_copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)
//     at the backend's key. CPU and Meta kernels for it are built in
//     (registered by register_structured / derive_missing_variants); another
//     backend registers its own to support strided or converting copies:
//       opd::register_kernel<opd::structured_copy_op>(opd::DispatchKey::PrivateUse1, my_copy);
#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"
// (The dispatcher's parts, not dispatch/dispatcher.hpp: that one brings
// dispatch/transfer.hpp, whose header-only part uses this header.)
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/dispatcher/registration.hpp"
#include "dispatch/op.hpp"
#include "structured/out_semantics.hpp"

namespace opd {

// Copies src into self (same sizes; any strides; self's dtype).
struct structured_copy_op : op<"opd::_structured_copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)"> {};

namespace structured_detail {

template <class T>
inline constexpr bool is_complex_v = false;
template <class T>
inline constexpr bool is_complex_v<std::complex<T>> = true;
template <>
inline constexpr bool is_complex_v<ComplexHalf> = true;  // its parts convert as Half does

// One element, converted as copy_ does (complex -> real keeps the real part).
template <class D, class S>
D convert_element(const S& s) {
  if constexpr (std::is_same_v<D, S>) {
    return s;
  } else if constexpr (is_complex_v<S>) {
    if constexpr (is_complex_v<D>)
      return D(static_cast<typename D::value_type>(s.real()), static_cast<typename D::value_type>(s.imag()));
    else
      return convert_element<D>(s.real());
  } else if constexpr (is_complex_v<D>) {
    return D(static_cast<typename D::value_type>(static_cast<double>(s)), typename D::value_type(0));
  } else if constexpr (std::is_same_v<D, bool>) {
    if constexpr (std::is_integral_v<S>) return s != 0;
    else return static_cast<double>(s) != 0.0;
  } else if constexpr (std::is_integral_v<D>) {
    if constexpr (std::is_integral_v<S>) return static_cast<D>(s);
    else return static_cast<D>(static_cast<double>(s));
  } else if constexpr (std::is_same_v<D, Half> || std::is_same_v<D, BFloat16>) {
    return D(static_cast<float>(s));
  } else {
    return static_cast<D>(s);
  }
}

// f(offset_a, offset_b) for every element of two tensors of the same sizes,
// in row-major order of the logical index (offsets in elements).
template <class F>
void for_each_offset_pair(IntArrayRef sizes, IntArrayRef strides_a, IntArrayRef strides_b, F&& f) {
  for (int64_t s : sizes)
    if (s == 0) return;
  const std::size_t nd = sizes.size();
  std::vector<int64_t> index(nd, 0);
  int64_t a = 0, b = 0;
  while (true) {
    f(a, b);
    std::size_t d = nd;
    while (true) {
      if (d == 0) return;
      --d;
      if (++index[d] < sizes[d]) {
        a += strides_a[d];
        b += strides_b[d];
        break;
      }
      a -= (sizes[d] - 1) * strides_a[d];
      b -= (sizes[d] - 1) * strides_b[d];
      index[d] = 0;
    }
  }
}

OPD_API void check_copy_shapes(const Tensor& self, const Tensor& src);

// The built-in CPU kernel: strided on both sides, converting dtypes.
OPD_API Tensor& copy_cpu(Tensor& self, const Tensor& src);

// Meta tensors hold no data: check the shapes, copy nothing.
OPD_API Tensor& copy_meta(Tensor& self, const Tensor& src);

// Registers the CPU and Meta kernels of structured_copy_op once per process
// (unless kernels for those keys are there already); they stay registered.
OPD_API void ensure_builtin_copy_kernels();


// dst <- src (same sizes), at the backend `key` (the copy kernel's key).
OPD_API void copy_into(const Tensor& dst, const Tensor& src, DispatchKey key);

}  // namespace structured_detail
}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "structured/copy-inl.hpp"
#endif
