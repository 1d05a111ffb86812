#pragma once
// Out-of-line part of ops_view_copies.hpp (compiled in
// src/kernels/view_copies.cpp): the one default kernel of every *_copy
// operator, and register_view_copies().
#include <utility>
#include <vector>

#include "kernels/ops_view_copies.hpp"
#include "kernels/ops_views.hpp"

namespace opd::kernels {

namespace view_copy_detail {

// A fresh contiguous tensor with t's values (ATen's *_copy results).
inline Tensor contiguous_copy(const Tensor& t) { return call<ops::clone>(t, arg<"memory_format"> = MemoryFormat::Contiguous); }
inline std::vector<Tensor> contiguous_copy(const std::vector<Tensor>& ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(contiguous_copy(t));
  return out;
}

// The kernel of view_copy_of<View>, typed exactly as its schema says: the
// view through the dispatcher, then a contiguous copy of each result.
template <class Copy, class Signature = typename Copy::signature>
struct kernel;
template <class Copy, class R, class... Args>
struct kernel<Copy, R(Args...)> {
  static R run(Args... args) { return contiguous_copy(call<typename Copy::view_op>(std::forward<Args>(args)...)); }
};

template <class Copy>
RegistrationHandle register_copy() {
  return register_kernel<Copy, &kernel<Copy>::run>(DispatchKey::CompositeExplicitAutograd);
}

}  // namespace view_copy_detail

OPD_FUNC RegistrationSet register_view_copies() {
  namespace d = view_copy_detail;
  RegistrationSet set;
  set.add(d::register_copy<ops::view_copy>());
  set.add(d::register_copy<ops::transpose_copy>());
  set.add(d::register_copy<ops::t_copy>());
  set.add(d::register_copy<ops::permute_copy>());
  set.add(d::register_copy<ops::slice_copy>());
  set.add(d::register_copy<ops::select_copy>());
  set.add(d::register_copy<ops::diagonal_copy>());
  set.add(d::register_copy<ops::unsqueeze_copy>());
  set.add(d::register_copy<ops::squeeze_copy>());
  set.add(d::register_copy<ops::squeeze_dim_copy>());
  set.add(d::register_copy<ops::expand_copy>());
  set.add(d::register_copy<ops::as_strided_copy>());
  set.add(d::register_copy<ops::alias_copy>());
  set.add(d::register_copy<ops::split_copy>());
  set.add(d::register_copy<ops::split_with_sizes_copy>());
  set.add(d::register_copy<ops::unbind_copy>());
  set.add(d::register_copy<ops::unfold_copy>());
  set.add(d::register_copy<ops::detach_copy>());
  return set;
}

}  // namespace opd::kernels
