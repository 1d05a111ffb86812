#pragma once
// The *_copy operator of every view operator (aten::view_copy,
// aten::transpose_copy.int, ...), which a functionalization layer calls in
// "remove views" mode so that a backend below it sees no view. One template
// for all of them: the schema is derived from the view's at compile time --
// "_copy" appended to the name (the overload kept), every alias annotation
// dropped, a list return staying a list -- and equals ATen 1.13's wherever
// ATen has one (kernels_view_copies_test compares each with the jsonl). The
// default kernel calls the view, then clones it as ATen 1.13 does
// (preserve_format: a transpose_copy keeps the transposed strides, a
// slice_copy with a step or an expand_copy comes out contiguous).
//
//   opd::Tensor t = opd::call<opd::kernels::ops::transpose_copy>(x, 0, 1);   // fresh storage
//   opd::call_boxed("aten::split_copy.Tensor", stack);
//
// Registered by register_view_copies() (which register_cpu() calls) at
// CompositeExplicitAutograd, so CPU, Meta and every backend made of the
// library's TensorImpl reach it, as they reach the views.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include <cstddef>

#include "dispatch/dispatcher.hpp"
#include "dispatch/schema/printer.hpp"
#include "dispatch/schema/properties.hpp"
#include "dispatch/schema/variants.hpp"
#include "kernels/ops_complex_views.hpp"
#include "kernels/ops_views.hpp"

namespace opd::kernels {

namespace view_copy_detail {

using schema::argument;
using namespace schema::variants_detail;

// Prints `ns::name_copy.overload(<arguments>) -> <returns>` with every alias
// annotation stripped; defaults, keyword-only marks and return names kept.
template <class S, class Sink>
constexpr void print_copy_schema(const S& s, Sink& out) {
  if (!s.ns.empty()) {
    out.put(s.ns);
    out.put("::");
  }
  out.put(s.name);
  out.put("_copy");
  if (!s.overload.empty()) {
    out.put(".");
    out.put(s.overload);
  }
  out.put("(");
  std::size_t n = 0;
  bool star = false;
  for (const argument& a : s.arguments) {
    if (a.kwarg_only && !star) {
      if (n++) out.put(", ");
      out.put("*");
      star = true;
    }
    if (n++) out.put(", ");
    piece p;
    p.type = a.type;
    p.mode = alias_mode::strip;
    p.name = a.name;
    p.with_default = &a;
    print_piece(s, p, out);
  }
  out.put(") -> ");
  const bool tuple = s.returns.size() != 1;
  if (tuple) out.put("(");
  for (std::size_t i = 0; i < s.returns.size(); ++i) {
    if (i) out.put(", ");
    piece p;
    p.type = s.returns[i].type;
    p.mode = alias_mode::strip;
    p.name = s.returns[i].name;
    print_piece(s, p, out);
  }
  if (tuple) out.put(")");
}

template <class View>
constexpr std::size_t copy_schema_size() {
  schema::counting_sink c;
  print_copy_schema(schema::properties_detail::schema_value(View::schema), c);
  return c.size;
}

template <class View>
constexpr auto copy_schema_text() {
  static_assert(schema::is_view(View::schema),
                "opd::kernels::view_copy_of<View>: View's schema returns no alias of an argument (it is no view)");
  constexpr std::size_t n = copy_schema_size<View>();
  fixed_string<n> r{};
  fixed_string_sink<n> sink{r.data};
  print_copy_schema(schema::properties_detail::schema_value(View::schema), sink);
  return r;
}

}  // namespace view_copy_detail

// The *_copy operator of the view operator View (a type such as ops::transpose).
template <class View>
struct view_copy_of : op<view_copy_detail::copy_schema_text<View>()> {
  using view_op = View;
};

namespace ops {

// ATen 1.13 has each of these, with the derived schema.
using view_copy = view_copy_of<view>;
using transpose_copy = view_copy_of<transpose>;
using t_copy = view_copy_of<t>;
using permute_copy = view_copy_of<permute>;
using slice_copy = view_copy_of<slice>;
using select_copy = view_copy_of<select>;
using diagonal_copy = view_copy_of<diagonal>;
using unsqueeze_copy = view_copy_of<unsqueeze>;
using squeeze_copy = view_copy_of<squeeze>;
using squeeze_dim_copy = view_copy_of<squeeze_dim>;
using expand_copy = view_copy_of<expand>;
using as_strided_copy = view_copy_of<as_strided>;
using alias_copy = view_copy_of<alias>;
using split_copy = view_copy_of<split>;
using split_with_sizes_copy = view_copy_of<split_with_sizes>;
using unbind_copy = view_copy_of<unbind>;
using unfold_copy = view_copy_of<unfold>;
using detach_copy = view_copy_of<detach>;
using view_as_real_copy = view_copy_of<view_as_real>;
using view_as_complex_copy = view_copy_of<view_as_complex>;

}  // namespace ops

// Registers the *_copy operators above at CompositeExplicitAutograd.
// register_cpu() calls it. Compiled once, in libopdispatch
// (src/kernels/view_copies.cpp).
OPD_API RegistrationSet register_view_copies();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_view_copies-inl.hpp"
#endif
