#pragma once
// Out-of-line part of copy.hpp (compiled in src/structured.cpp): the
// built-in _structured_copy_ kernels (the CPU one converts between every
// pair of dtypes) and their once-per-process registration.
#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <string>
#include <string_view>

#include "dispatch/core/allocator.hpp"
#include "dispatch/core/error.hpp"
#include "structured/copy.hpp"

namespace opd {
namespace structured_detail {

OPD_FUNC void check_copy_shapes(const Tensor& self, const Tensor& src) {
  if (!(self.sizes() == src.sizes()))
    throw Error("_structured_copy_: destination of shape " + shape_str(self.sizes()) +
                " and source of shape " + shape_str(src.sizes()) + " differ");
}

// The conversion goes through a wide type: int64_t from bool and the
// integer types, std::complex<double> from the floating and complex ones.
// Both keep the value convert_element reads (the integer; a float's or a
// complex's double value), so convert_element<D>(wide(s)) is
// convert_element<D>(s) for every pair, and the per-dtype code is 12 loads
// and 24 stores rather than a loop per pair (144). (This is the derived
// kernels' slow path: an out= or self of another dtype or layout.)
template <class S>
using wide_t = std::conditional_t<std::is_integral_v<S>, int64_t, std::complex<double>>;

inline constexpr int64_t kWideChunk = 128;

// n <= kWideChunk elements of src (stride in elements) widened into `wide`.
template <class S>
void load_wide(void* wide, const void* src, int64_t src_stride, int64_t n) {
  auto* w = static_cast<wide_t<S>*>(wide);
  const S* s = static_cast<const S*>(src);
  for (int64_t j = 0; j < n; ++j) w[j] = convert_element<wide_t<S>>(s[j * src_stride]);
}
// n elements of `wide` (of type W) converted into dst (stride in elements).
template <class D, class W>
void store_wide(void* dst, int64_t dst_stride, const void* wide, int64_t n) {
  D* d = static_cast<D*>(dst);
  const W* w = static_cast<const W*>(wide);
  for (int64_t j = 0; j < n; ++j) d[j * dst_stride] = convert_element<D>(w[j]);
}
using LoadWide = void (*)(void*, const void*, int64_t, int64_t);
using StoreWide = void (*)(void*, int64_t, const void*, int64_t);

OPD_FUNC Tensor& copy_cpu(Tensor& self, const Tensor& src) {
  check_copy_shapes(self, src);
  OPD_CHECK(self.is_cpu() && src.is_cpu(), "_structured_copy_ (CPU kernel): expected CPU tensors, got ",
            self.device(), " and ", src.device());
  if (self.numel() == 0) return self;
  const auto d_item = static_cast<int64_t>(self.itemsize());
  const auto s_item = static_cast<int64_t>(src.itemsize());
  struct Load {
    LoadWide fn;
    bool integral;  // wide_t is int64_t
  };
  const Load load = visit_scalar_type(src.dtype(), [](auto tag) -> Load {
    using S = typename decltype(tag)::type;
    return {&load_wide<S>, std::is_integral_v<S>};
  });
  const bool integral_src = load.integral;
  const StoreWide store = visit_scalar_type(self.dtype(), [&](auto tag) -> StoreWide {
    using D = typename decltype(tag)::type;
    return integral_src ? &store_wide<D, int64_t> : &store_wide<D, std::complex<double>>;
  });
  auto row = [&](char* dst, int64_t dst_stride, const char* from, int64_t src_stride, int64_t count) {
    alignas(16) unsigned char wide[kWideChunk * sizeof(std::complex<double>)];
    for (int64_t base = 0; base < count; base += kWideChunk) {
      const int64_t m = std::min(kWideChunk, count - base);
      load.fn(wide, from + base * src_stride * s_item, src_stride, m);
      store(dst + base * dst_stride * d_item, dst_stride, wide, m);
    }
  };
  // Rows along the last dimension; a 0-dim tensor is one row of one element.
  const std::size_t nd = self.sizes().size();
  const int64_t n = nd == 0 ? 1 : self.sizes()[nd - 1];
  const int64_t ds = nd == 0 ? 1 : self.strides()[nd - 1];
  const int64_t ss = nd == 0 ? 1 : src.strides()[nd - 1];
  const std::size_t outer = nd == 0 ? 0 : nd - 1;
  char* d = static_cast<char*>(self.data_ptr());
  const char* s = static_cast<const char*>(src.data_ptr());
  for_each_offset_pair(self.sizes().slice(0, outer), self.strides().slice(0, outer), src.strides().slice(0, outer),
                       [&](int64_t od, int64_t os) { row(d + od * d_item, ds, s + os * s_item, ss, n); });
  return self;
}

OPD_FUNC Tensor& copy_meta(Tensor& self, const Tensor& src) {
  check_copy_shapes(self, src);
  return self;
}

// (Held through a static pointer and never destroyed: kernels may be called
// until exit, and the Dispatcher they would deregister from may be gone first.)
OPD_FUNC void ensure_builtin_copy_kernels() {
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

OPD_FUNC void copy_into(const Tensor& dst, const Tensor& src, DispatchKey key) {
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
