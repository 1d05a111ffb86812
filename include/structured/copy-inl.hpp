#pragma once
// Out-of-line part of copy.hpp (compiled in src/structured.cpp): the
// built-in _structured_copy_ kernels (the CPU one converts between every
// pair of dtypes) and their once-per-process registration.
#include <cstddef>
#include <cstdint>
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

// One row of n elements, converted (strides in elements).
template <class D, class S>
void convert_elements(void* dst, int64_t dst_stride, const void* src, int64_t src_stride, int64_t n) {
  D* d = static_cast<D*>(dst);
  const S* s = static_cast<const S*>(src);
  for (int64_t j = 0; j < n; ++j) d[j * dst_stride] = convert_element<D>(s[j * src_stride]);
}
using ConvertElements = void (*)(void*, int64_t, const void*, int64_t, int64_t);

// convert_elements<D, S> for a pair of dtypes: the only per-pair code (the
// iteration over the outer dimensions is shared).
inline ConvertElements convert_elements_for(ScalarType dst, ScalarType src) {
  return visit_scalar_type(dst, [&](auto dst_tag) -> ConvertElements {
    using D = typename decltype(dst_tag)::type;
    return visit_scalar_type(src, [](auto src_tag) -> ConvertElements {
      return &convert_elements<D, typename decltype(src_tag)::type>;
    });
  });
}

OPD_FUNC Tensor& copy_cpu(Tensor& self, const Tensor& src) {
  check_copy_shapes(self, src);
  OPD_CHECK(self.is_cpu() && src.is_cpu(), "_structured_copy_ (CPU kernel): expected CPU tensors, got ",
            self.device(), " and ", src.device());
  if (self.numel() == 0) return self;
  const ConvertElements row = convert_elements_for(self.dtype(), src.dtype());
  // Rows along the last dimension; a 0-dim tensor is one row of one element.
  const std::size_t nd = self.sizes().size();
  const int64_t n = nd == 0 ? 1 : self.sizes()[nd - 1];
  const int64_t ds = nd == 0 ? 1 : self.strides()[nd - 1];
  const int64_t ss = nd == 0 ? 1 : src.strides()[nd - 1];
  const std::size_t outer = nd == 0 ? 0 : nd - 1;
  char* d = static_cast<char*>(self.data_ptr());
  const char* s = static_cast<const char*>(src.data_ptr());
  const auto d_item = static_cast<int64_t>(self.itemsize());
  const auto s_item = static_cast<int64_t>(src.itemsize());
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
