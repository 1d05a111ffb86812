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
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dispatch/core/allocator.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/dispatcher.hpp"
#include "structured/out_semantics.hpp"

namespace opd {

// Copies src into self (same sizes; any strides; self's dtype).
struct structured_copy_op : op<"opd::_structured_copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)"> {};

namespace structured_detail {

template <class T>
inline constexpr bool is_complex_v = false;
template <class T>
inline constexpr bool is_complex_v<std::complex<T>> = true;

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

inline void check_copy_shapes(const Tensor& self, const Tensor& src) {
  if (!(self.sizes() == src.sizes()))
    throw Error("_structured_copy_: destination of shape " + shape_str(self.sizes()) +
                " and source of shape " + shape_str(src.sizes()) + " differ");
}

// The built-in CPU kernel: strided on both sides, converting dtypes.
inline Tensor& copy_cpu(Tensor& self, const Tensor& src) {
  check_copy_shapes(self, src);
  OPD_CHECK(self.is_cpu() && src.is_cpu(), "_structured_copy_ (CPU kernel): expected CPU tensors, got ",
            self.device(), " and ", src.device());
  if (self.numel() == 0) return self;
  visit_scalar_type(self.dtype(), [&](auto dst_tag) {
    using D = typename decltype(dst_tag)::type;
    visit_scalar_type(src.dtype(), [&](auto src_tag) {
      using S = typename decltype(src_tag)::type;
      D* d = static_cast<D*>(self.data_ptr());
      const S* s = static_cast<const S*>(src.data_ptr());
      for_each_offset_pair(self.sizes(), self.strides(), src.strides(),
                           [&](int64_t od, int64_t os) { d[od] = convert_element<D>(s[os]); });
    });
  });
  return self;
}

// Meta tensors hold no data: check the shapes, copy nothing.
inline Tensor& copy_meta(Tensor& self, const Tensor& src) {
  check_copy_shapes(self, src);
  return self;
}

// Registers the CPU and Meta kernels of structured_copy_op once per process
// (unless kernels for those keys are there already); they stay registered.
// (Held through a static pointer and never destroyed: kernels may be called
// until exit, and the Dispatcher they would deregister from may be gone first.)
inline void ensure_builtin_copy_kernels() {
  static RegistrationSet* const kept = [] {
    auto* set = new RegistrationSet();
    OperatorEntry& e = entry_for<structured_copy_op>();
    if (!e.has_kernel_for(DispatchKey::CPU)) set->add(register_kernel<structured_copy_op, &copy_cpu>(DispatchKey::CPU));
    if (!e.has_kernel_for(DispatchKey::Meta))
      set->add(register_kernel<structured_copy_op, &copy_meta>(DispatchKey::Meta));
    return set;
  }();
  (void)kept;
}

inline Allocator* allocator_of(const Tensor& t) { return t.storage().unsafe_get_impl()->allocator(); }

// The backend's allocator cannot do this copy and the backend has no copy
// kernel: say what to register (the operator's own name means nothing to a user).
[[gnu::cold, gnu::noinline]] inline void throw_no_copy_kernel(const Tensor& dst, const Tensor& src, DispatchKey key) {
  const std::string_view k = to_string(key);
  throw NotImplementedError(detail::str_cat(
      "cannot copy a ", src.dtype(), " result into this ", k, " tensor of dtype ", dst.dtype(), " and strides ",
      shape_str(dst.strides()), ": the backend's allocator copies only contiguous data of one dtype, and ", k,
      " has no copy kernel. Register one with opd::register_kernel<opd::structured_copy_op>(opd::DispatchKey::", k,
      ", my_copy), where my_copy(opd::Tensor& self, const opd::Tensor& src) -> opd::Tensor& copies src into self "
      "(same sizes, any strides, converting to self's dtype), and keep the handle it returns"));
}

// dst <- src (same sizes), at the backend `key` (the copy kernel's key).
inline void copy_into(const Tensor& dst, const Tensor& src, DispatchKey key) {
  if (dst.is_same(src) || dst.numel() == 0 || dst.is_meta()) {
    check_copy_shapes(dst, src);
    return;
  }
  check_copy_shapes(dst, src);
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous() && dst.device() == src.device()) {
    if (dst.data_ptr() == src.data_ptr()) return;
    Allocator* a = allocator_of(dst);
    if (a != nullptr && a == allocator_of(src)) {
      a->copy_data(dst.data_ptr(), src.data_ptr(), dst.nbytes());
      return;
    }
  }
  if (!entry_for<structured_copy_op>().has_kernel_for(key)) [[unlikely]]
    throw_no_copy_kernel(dst, src, key);
  Tensor d = dst;
  redispatch<structured_copy_op>(DispatchKeySet(key), d, src);
}

}  // namespace structured_detail
}  // namespace opd
