#pragma once
// Out-of-line part of functionalize/view_inverse.hpp (compiled in
// src/functionalize/view_inverse.cpp). One entry per view operator: how to
// replay it (boxed, by name: the view, or its *_copy) and how to write a new
// value of its output back into its base, through the dispatcher.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/dispatcher.hpp"
#include "functionalize/view_inverse.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_reductions.hpp"
#include "kernels/ops_scatter.hpp"
#include "kernels/ops_view_copies.hpp"
#include "kernels/ops_views.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::functionalization {

namespace inverse_detail {

namespace ops = kernels::ops;
namespace views = kernels::views;
using ints = std::span<const int64_t>;

enum class view_kind {
  view, reshape, flatten, transpose, t, permute, slice, narrow, select, diagonal, unsqueeze, squeeze, squeeze_dim,
  expand, expand_as, as_strided, alias, detach, split, split_with_sizes, chunk, unbind, unfold,
};

using entry_fn = OperatorEntry& (*)();

struct view_info {
  std::string_view name;  // the view operator
  view_kind kind;
  entry_fn view;          // its entry
  entry_fn copy;          // its *_copy operator's, or null (then view_forward computes the copy itself)
  std::size_t num_args;   // boxed arguments after self
  bool multi_output;
};

template <class Op>
constexpr entry_fn e = &entry_for<Op>;

inline constexpr std::array<view_info, 23> table{{
    {"aten::view", view_kind::view, e<ops::view>, e<ops::view_copy>, 1, false},
    {"aten::reshape", view_kind::reshape, e<ops::reshape>, nullptr, 1, false},
    {"aten::flatten.using_ints", view_kind::flatten, e<ops::flatten>, nullptr, 2, false},
    {"aten::transpose.int", view_kind::transpose, e<ops::transpose>, e<ops::transpose_copy>, 2, false},
    {"aten::t", view_kind::t, e<ops::t>, e<ops::t_copy>, 0, false},
    {"aten::permute", view_kind::permute, e<ops::permute>, e<ops::permute_copy>, 1, false},
    {"aten::slice.Tensor", view_kind::slice, e<ops::slice>, e<ops::slice_copy>, 4, false},
    {"aten::narrow", view_kind::narrow, e<ops::narrow>, nullptr, 3, false},
    {"aten::select.int", view_kind::select, e<ops::select>, e<ops::select_copy>, 2, false},
    {"aten::diagonal", view_kind::diagonal, e<ops::diagonal>, e<ops::diagonal_copy>, 3, false},
    {"aten::unsqueeze", view_kind::unsqueeze, e<ops::unsqueeze>, e<ops::unsqueeze_copy>, 1, false},
    {"aten::squeeze", view_kind::squeeze, e<ops::squeeze>, e<ops::squeeze_copy>, 0, false},
    {"aten::squeeze.dim", view_kind::squeeze_dim, e<ops::squeeze_dim>, e<ops::squeeze_dim_copy>, 1, false},
    {"aten::expand", view_kind::expand, e<ops::expand>, e<ops::expand_copy>, 2, false},
    {"aten::expand_as", view_kind::expand_as, e<ops::expand_as>, nullptr, 1, false},
    {"aten::as_strided", view_kind::as_strided, e<ops::as_strided>, e<ops::as_strided_copy>, 3, false},
    {"aten::alias", view_kind::alias, e<ops::alias>, e<ops::alias_copy>, 0, false},
    {"aten::detach", view_kind::detach, e<ops::detach>, e<ops::detach_copy>, 0, false},
    {"aten::split.Tensor", view_kind::split, e<ops::split>, e<ops::split_copy>, 2, true},
    {"aten::split_with_sizes", view_kind::split_with_sizes, e<ops::split_with_sizes>, e<ops::split_with_sizes_copy>, 2, true},
    {"aten::chunk", view_kind::chunk, e<ops::chunk>, nullptr, 2, true},
    {"aten::unbind.int", view_kind::unbind, e<ops::unbind>, e<ops::unbind_copy>, 1, true},
    {"aten::unfold", view_kind::unfold, e<ops::unfold>, e<ops::unfold_copy>, 3, false},
}};

[[gnu::cold, gnu::noinline]] inline void throw_unknown(std::string_view op) {
  throw Error(opd::detail::str_cat("opd::functionalize: ", op,
                                   " is no view operator that view_inverse / view_forward know"));
}

OPD_FUNC const view_info& info_of(std::string_view op) {
  for (const view_info& v : table)
    if (v.name == op) return v;
  throw_unknown(op);
  return table[0];  // unreachable
}
// By entry: an address comparison per view (each entry_for is a static).
OPD_FUNC const view_info& info_of(const OperatorEntry& op) {
  for (const view_info& v : table)
    if (&v.view() == &op) return v;
  throw_unknown(op.name());
  return table[0];  // unreachable
}

// The arguments of one call, checked against the table.
struct call_args {
  const view_info& info;
  const Stack& args;
  int64_t output_index;

  int64_t i(std::size_t k) const { return args[k].to_int(); }
  std::optional<int64_t> opt_i(std::size_t k) const {
    return args[k].is_none() ? std::nullopt : std::optional<int64_t>(args[k].to_int());
  }
  ints list(std::size_t k) const {
    const std::vector<int64_t>& v = args[k].to_int_list();
    return ints(v.data(), v.size());
  }
};

OPD_FUNC call_args check_args(const view_info& v, const Stack& args, int64_t output_index) {
  OPD_CHECK(args.size() == v.num_args, "opd::functionalize: ", v.name, " takes ", v.num_args,
            " arguments after self, got ", args.size());
  OPD_CHECK_INDEX(v.multi_output ? output_index >= 0 : output_index == 0, "opd::functionalize: ", v.name,
                  ": output_index ", output_index, v.multi_output ? " is negative" : " given for a single-output view");
  return call_args{v, args, output_index};
}

inline ints sizes_of(const Tensor& t) { return ints(t.sizes().data(), t.sizes().size()); }
inline ints span_of(const std::vector<int64_t>& v) { return ints(v.data(), v.size()); }

// The boxed call `op(self, args...)`, output number `index` of its result.
OPD_FUNC Tensor call_view_boxed(const OperatorEntry& op, const Tensor& self, const Stack& args, int64_t index) {
  const std::string_view name = op.name();
  Stack stack;
  stack.reserve(args.size() + 1);
  stack.emplace_back(self);
  for (const IValue& a : args) stack.push_back(a);
  call_boxed(op, stack);
  OPD_CHECK(stack.size() == 1, "opd::functionalize: ", name, " returned ", stack.size(), " values");
  if (stack[0].is_tensor_list()) {
    const std::vector<Tensor>& pieces = stack[0].to_tensor_list();
    OPD_CHECK_INDEX(index >= 0 && static_cast<std::size_t>(index) < pieces.size(), "opd::functionalize: ", name,
                    ": output_index ", index, " out of range for ", pieces.size(), " outputs");
    return pieces[static_cast<std::size_t>(index)];
  }
  return stack[0].to_tensor();
}

// t with base's sizes again (the inverse of view, reshape, flatten, squeeze):
// view / view_copy, made contiguous first where the strides allow no view.
OPD_FUNC Tensor reshape_to(const Tensor& t, IntArrayRef sizes, InverseMode mode) {
  const ints s(sizes.data(), sizes.size());
  if (mode == InverseMode::keep_views) return call<ops::reshape>(t, s);
  const views::Geometry g{SizesVector(t.sizes()), SizesVector(t.strides()), t.storage_offset()};
  if (views::compute_stride(g, sizes)) return call<ops::view_copy>(t, s);
  return call<ops::view_copy>(call<ops::clone>(t, arg<"memory_format"> = MemoryFormat::Contiguous), s);
}

// base with its slice [start, start + length) along dim replaced by src.
inline Tensor slice_back(const Tensor& base, const Tensor& src, int64_t dim, int64_t start, int64_t length) {
  return call<ops::slice_scatter>(base, src, dim, std::optional<int64_t>(start), std::optional<int64_t>(start + length),
                                  int64_t{1});
}

// The inverse of a view whose elements may repeat base elements (expand,
// overlapping unfold windows): each base element gets the sum of the changes
// made to its copies, base + sum(mutated - view(base)) -- what an in-place add
// through the view does eagerly; exact when a mutation reached each base
// element through one copy (eager refuses to add through an expanded view).
OPD_FUNC Tensor expand_inverse(const Tensor& base, const Tensor& mutated, InverseMode mode) {
  if (mutated.sizes() == base.sizes()) return mutated;
  const int64_t lead = mutated.dim() - base.dim();
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < mutated.dim(); ++d)
    if (d < lead || (base.sizes()[static_cast<std::size_t>(d - lead)] == 1 && mutated.sizes()[static_cast<std::size_t>(d)] != 1))
      dims.push_back(d);
  const Tensor delta = call<ops::sub::functional>(mutated, base);  // broadcasts base as the expand did
  const Tensor summed = call<ops::sum_dim>(delta, std::optional<ints>(span_of(dims)), true);
  return call<ops::add::functional>(base, reshape_to(summed, base.sizes(), mode));
}

OPD_FUNC Tensor unfold_inverse(const Tensor& base, const Tensor& mutated, int64_t dim, int64_t size, int64_t step,
                               InverseMode mode) {
  if (step >= size) {  // windows apart: each base element is in at most one window
    const Tensor dense = base.is_contiguous() ? base : call<ops::clone>(base, arg<"memory_format"> = MemoryFormat::Contiguous);
    const SizesVector sizes(base.sizes());
    const views::Geometry g =
        views::unfold("aten::unfold", views::Geometry{sizes, opd::detail::contiguous_strides(sizes), 0}, dim, size, step);
    return call<ops::as_strided_scatter>(dense, mutated, ints(g.sizes.data(), g.sizes.size()),
                                         ints(g.strides.data(), g.strides.size()), std::optional<int64_t>(0));
  }
  const Tensor before = mode == InverseMode::keep_views ? call<ops::unfold>(base, dim, size, step)
                                                        : call<ops::unfold_copy>(base, dim, size, step);
  const Tensor delta = call<ops::sub::functional>(mutated, before);
  return call<ops::add::functional>(base, call<ops::unfold_backward>(delta, sizes_of(base), dim, size, step));
}

OPD_FUNC int64_t wrapped(std::string_view op, int64_t dim, int64_t ndim) { return views::wrap_dim(op, dim, ndim); }

OPD_FUNC Tensor inverse(const call_args& a, const Tensor& base, const Tensor& mutated, InverseMode mode) {
  const bool keep = mode == InverseMode::keep_views;
  const std::string_view op = a.info.name;
  switch (a.info.kind) {
    case view_kind::view:
    case view_kind::reshape:
    case view_kind::flatten:
    case view_kind::squeeze: return reshape_to(mutated, base.sizes(), mode);
    case view_kind::transpose:
      return keep ? call<ops::transpose>(mutated, a.i(0), a.i(1)) : call<ops::transpose_copy>(mutated, a.i(0), a.i(1));
    case view_kind::t: return keep ? call<ops::t>(mutated) : call<ops::t_copy>(mutated);
    case view_kind::permute: {
      const ints dims = a.list(0);
      std::vector<int64_t> inv(dims.size());
      for (std::size_t k = 0; k < dims.size(); ++k)
        inv[static_cast<std::size_t>(wrapped(op, dims[k], base.dim()))] = static_cast<int64_t>(k);
      return keep ? call<ops::permute>(mutated, span_of(inv)) : call<ops::permute_copy>(mutated, span_of(inv));
    }
    case view_kind::slice: return call<ops::slice_scatter>(base, mutated, a.i(0), a.opt_i(1), a.opt_i(2), a.i(3));
    case view_kind::narrow: {
      const int64_t dim = wrapped(op, a.i(0), base.dim());
      int64_t start = a.i(1);
      if (start < 0) start += base.sizes()[static_cast<std::size_t>(dim)];
      return slice_back(base, mutated, dim, start, a.i(2));
    }
    case view_kind::select: return call<ops::select_scatter>(base, mutated, a.i(0), a.i(1));
    case view_kind::diagonal: return call<ops::diagonal_scatter>(base, mutated, a.i(0), a.i(1), a.i(2));
    case view_kind::unsqueeze:
      return keep ? call<ops::squeeze_dim>(mutated, a.i(0)) : call<ops::squeeze_dim_copy>(mutated, a.i(0));
    case view_kind::squeeze_dim: {
      if (base.dim() == 0) return mutated;
      const int64_t dim = wrapped(op, a.i(0), base.dim());
      if (base.sizes()[static_cast<std::size_t>(dim)] != 1) return mutated;  // nothing was squeezed
      return keep ? call<ops::unsqueeze>(mutated, dim) : call<ops::unsqueeze_copy>(mutated, dim);
    }
    case view_kind::expand:
    case view_kind::expand_as: return expand_inverse(base, mutated, mode);
    case view_kind::as_strided: return call<ops::as_strided_scatter>(base, mutated, a.list(0), a.list(1), a.opt_i(2));
    case view_kind::alias:
    case view_kind::detach: return mutated;
    case view_kind::split: {
      const int64_t dim = wrapped(op, a.i(1), base.dim());
      return slice_back(base, mutated, dim, a.output_index * a.i(0), mutated.sizes()[static_cast<std::size_t>(dim)]);
    }
    case view_kind::split_with_sizes: {
      const int64_t dim = wrapped(op, a.i(1), base.dim());
      const ints sizes = a.list(0);
      OPD_CHECK_INDEX(static_cast<std::size_t>(a.output_index) < sizes.size(), "opd::functionalize: ", op,
                      ": output_index ", a.output_index, " out of range for ", sizes.size(), " outputs");
      int64_t start = 0;
      for (int64_t k = 0; k < a.output_index; ++k) start += sizes[static_cast<std::size_t>(k)];
      return slice_back(base, mutated, dim, start, sizes[static_cast<std::size_t>(a.output_index)]);
    }
    case view_kind::chunk: {
      const int64_t dim = wrapped(op, a.i(1), base.dim());
      const int64_t chunks = a.i(0);
      OPD_CHECK_VALUE(chunks > 0, op, ": chunk expects `chunks` to be greater than 0, got: ", chunks);
      const int64_t n = base.sizes()[static_cast<std::size_t>(dim)];
      const int64_t split_size = (n + chunks - 1) / chunks;
      return slice_back(base, mutated, dim, a.output_index * split_size, mutated.sizes()[static_cast<std::size_t>(dim)]);
    }
    case view_kind::unbind: return call<ops::select_scatter>(base, mutated, a.i(0), a.output_index);
    case view_kind::unfold: return unfold_inverse(base, mutated, a.i(0), a.i(1), a.i(2), mode);
  }
  throw_unknown(op);
  return mutated;  // unreachable
}

OPD_FUNC Tensor forward(const call_args& a, const Tensor& base, InverseMode mode) {
  if (mode == InverseMode::keep_views) return call_view_boxed(a.info.view(), base, a.args, a.output_index);
  if (a.info.copy != nullptr) return call_view_boxed(a.info.copy(), base, a.args, a.output_index);
  switch (a.info.kind) {  // the implicit views, which ATen decomposes and gives no *_copy
    case view_kind::reshape:
      return reshape_to(base, views::infer_size(a.info.name, IntArrayRef(a.list(0).data(), a.list(0).size()), base.numel()).ref(), mode);
    case view_kind::flatten:
      return reshape_to(base, views::flatten_shape(a.info.name, base.sizes(), a.i(0), a.i(1)).ref(), mode);
    case view_kind::narrow: {
      const int64_t dim = wrapped(a.info.name, a.i(0), base.dim());
      int64_t start = a.i(1);
      if (start < 0) start += base.sizes()[static_cast<std::size_t>(dim)];
      return call<ops::slice_copy>(base, dim, std::optional<int64_t>(start), std::optional<int64_t>(start + a.i(2)),
                                   int64_t{1});
    }
    case view_kind::expand_as: return call<ops::expand_copy>(base, sizes_of(a.args[0].to_tensor()));
    case view_kind::chunk: {  // ATen's chunk: split by ceil(n / chunks), or n pieces of 0 when n is 0
      const int64_t dim = wrapped(a.info.name, a.i(1), base.dim());
      const int64_t chunks = a.i(0);
      OPD_CHECK_VALUE(chunks > 0, a.info.name, ": chunk expects `chunks` to be greater than 0, got: ", chunks);
      const int64_t n = base.sizes()[static_cast<std::size_t>(dim)];
      std::vector<Tensor> pieces =
          n == 0 ? call<ops::split_with_sizes_copy>(base, span_of(std::vector<int64_t>(static_cast<std::size_t>(chunks), 0)), dim)
                 : call<ops::split_copy>(base, (n + chunks - 1) / chunks, dim);
      OPD_CHECK_INDEX(static_cast<std::size_t>(a.output_index) < pieces.size(), "opd::functionalize: ", a.info.name,
                      ": output_index ", a.output_index, " out of range for ", pieces.size(), " outputs");
      return pieces[static_cast<std::size_t>(a.output_index)];
    }
    default: break;
  }
  throw_unknown(a.info.name);
  return base;  // unreachable
}

}  // namespace inverse_detail

OPD_FUNC Tensor view_inverse(std::string_view view_op, const Tensor& base, const Tensor& mutated_view,
                             const Stack& view_args, int64_t output_index, InverseMode mode) {
  const inverse_detail::view_info& v = inverse_detail::info_of(view_op);
  return inverse_detail::inverse(inverse_detail::check_args(v, view_args, output_index), base, mutated_view, mode);
}
OPD_FUNC Tensor view_inverse(const OperatorEntry& view_op, const Tensor& base, const Tensor& mutated_view,
                             const Stack& view_args, int64_t output_index, InverseMode mode) {
  const inverse_detail::view_info& v = inverse_detail::info_of(view_op);
  return inverse_detail::inverse(inverse_detail::check_args(v, view_args, output_index), base, mutated_view, mode);
}
OPD_FUNC Tensor view_forward(std::string_view view_op, const Tensor& base, const Stack& view_args,
                             int64_t output_index, InverseMode mode) {
  const inverse_detail::view_info& v = inverse_detail::info_of(view_op);
  return inverse_detail::forward(inverse_detail::check_args(v, view_args, output_index), base, mode);
}
OPD_FUNC Tensor view_forward(const OperatorEntry& view_op, const Tensor& base, const Stack& view_args,
                             int64_t output_index, InverseMode mode) {
  const inverse_detail::view_info& v = inverse_detail::info_of(view_op);
  return inverse_detail::forward(inverse_detail::check_args(v, view_args, output_index), base, mode);
}
OPD_FUNC ViewDecomposition decompose_view(const OperatorEntry& view_op, const Tensor& self, const Stack& view_args) {
  using namespace inverse_detail;
  for (const view_info& v : table) {
    if (&v.view() != &view_op) continue;
    if (v.kind != view_kind::chunk) return {};
    const call_args a = check_args(v, view_args, 0);
    OPD_CHECK_VALUE(self.dim() > 0, v.name, ": chunk expects at least a 1-dimensional tensor");
    const int64_t chunks = a.i(0);
    OPD_CHECK_VALUE(chunks > 0, v.name, ": chunk expects `chunks` to be greater than 0, got: ", chunks);
    const int64_t n = self.sizes()[static_cast<std::size_t>(wrapped(v.name, a.i(1), self.dim()))];
    ViewDecomposition d;
    if (n == 0) {
      d.op = &entry_for<ops::split_with_sizes>();
      d.args.emplace_back(std::vector<int64_t>(static_cast<std::size_t>(chunks), 0));
    } else {
      d.op = &entry_for<ops::split>();
      d.args.emplace_back((n + chunks - 1) / chunks);
    }
    d.args.push_back(a.args[1]);
    return d;
  }
  return {};
}

OPD_FUNC bool has_view_inverse(std::string_view view_op) {
  for (const inverse_detail::view_info& v : inverse_detail::table)
    if (v.name == view_op) return true;
  return false;
}

}  // namespace opd::functionalization
