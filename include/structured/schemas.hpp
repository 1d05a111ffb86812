#pragma once
// The schemas of a structured operator family, derived at compile time from
// its out= schema:
//
//   out=        mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
//   functional  mul.Tensor(Tensor self, Tensor other) -> Tensor
//   in-place    mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
//
// The functional schema is torchgen's functional variant of the out= schema
// (schema/variants.hpp) under a new overload name; the in-place one is that
// schema with `self` annotated Tensor(a!), the name suffixed with '_', and the
// return the annotated self. torchgen cannot derive the overload names (add.out
// goes with add.Tensor / add_.Tensor), so the family says them; the default is
// "out" -> "" and "X_out" -> "X".
//
// family_schemas<OutText, Overload> holds the result: `error` (why the out=
// schema does not describe a family, else none), `has_inplace`, and the texts
// functional_text / inplace_text (fixed_strings).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dispatch/schema/fixed_string.hpp"
#include "dispatch/schema/literal.hpp"
#include "dispatch/schema/model.hpp"
#include "dispatch/schema/printer.hpp"
#include "dispatch/schema/properties.hpp"
#include "dispatch/schema/variants.hpp"

namespace opd {

// The default second argument of opd::structured<...>: derive the overload
// name of the functional and in-place variants from the out= one.
inline constexpr fixed_string derive_overload_name = "<derived from the out= overload>";

namespace structured_detail {

enum class family_error : std::uint8_t {
  none,
  varargs,               // '...' in the schema
  not_out_schema,        // no kwarg-only Tensor(a!) argument
  out_count,             // more than one out= argument
  out_not_last,          // the out= argument is not the last argument
  out_not_plain_tensor,  // Tensor(a!)? / Tensor(a!)[] out= arguments are not supported
  returns_not_out,       // the schema must return exactly its out= argument: -> Tensor(a!)
  options_dropped,       // dtype/layout/device/pin_memory kwargs: the functional variant would drop them
  overload_not_derivable,  // the out= overload is neither "out" nor "<X>_out": say the overload name
  bad_overload_name,     // the given overload name is not an identifier
  name_clash,            // the functional variant would have the out= variant's name
};

template <class S>
constexpr family_error check_out_schema(const S& s) {
  if (s.is_vararg || s.is_varret) return family_error::varargs;
  if (schema::kind_of(s) != schema::schema_kind::out) return family_error::not_out_schema;
  std::size_t outs = 0, position = 0;
  for (std::size_t i = 0; i < s.arguments.size(); ++i)
    if (schema::is_out_argument(s, i)) {
      ++outs;
      position = i;
    }
  if (outs != 1) return family_error::out_count;
  if (position + 1 != s.arguments.size()) return family_error::out_not_last;
  const schema::type_node& out = s.type_of(s.arguments[position]);
  if (out.kind != schema::type_kind::base || out.base != schema::base_type::Tensor || out.alias == schema::no_index)
    return family_error::out_not_plain_tensor;
  if (s.returns.size() != 1) return family_error::returns_not_out;
  const schema::type_node& ret = s.type_of(s.returns[0]);
  if (ret.kind != schema::type_kind::base || ret.base != schema::base_type::Tensor || ret.alias == schema::no_index)
    return family_error::returns_not_out;
  const schema::alias_info& ra = s.alias(ret.alias);
  const schema::alias_info& oa = s.alias(out.alias);
  if (!ra.is_write || ra.before.count == 0 || oa.before.count == 0 || ra.before.names[0] != oa.before.names[0])
    return family_error::returns_not_out;
  const auto layout = schema::properties_detail::layout_of(s);
  if (layout.options != schema::no_position) return family_error::options_dropped;
  return family_error::none;
}

constexpr bool is_identifier_or_empty(std::string_view s) {
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

struct overload_choice {
  std::string_view name;
  family_error error = family_error::none;
};
// The overload name of the functional / in-place variants.
constexpr overload_choice functional_overload(std::string_view out_overload, std::string_view given) {
  if (given != derive_overload_name.view()) {
    if (!is_identifier_or_empty(given)) return {{}, family_error::bad_overload_name};
    return {given};
  }
  if (out_overload == "out") return {std::string_view()};
  constexpr std::string_view suffix = "_out";
  if (out_overload.size() > suffix.size() && out_overload.substr(out_overload.size() - suffix.size()) == suffix)
    return {out_overload.substr(0, out_overload.size() - suffix.size())};
  return {{}, family_error::overload_not_derivable};
}

// A schema object named through a type, as schema:: templates want it.
template <fixed_string Text>
struct out_schema_holder {
  static constexpr const auto& schema = schema::schema_of<Text>();
};

// Does the functional schema f have an in-place variant: its first argument
// is a positional plain `Tensor self` and it returns one plain Tensor.
template <class S>
constexpr bool inplace_possible(const S& f) {
  if (f.arguments.size() == 0 || f.returns.size() != 1) return false;
  const schema::argument& self = f.arguments[0];
  if (self.name != "self" || self.kwarg_only) return false;
  const schema::type_node& t = f.type_of(self);
  const schema::type_node& r = f.type_of(f.returns[0]);
  return t.kind == schema::type_kind::base && t.base == schema::base_type::Tensor &&
         r.kind == schema::type_kind::base && r.base == schema::base_type::Tensor;
}

// Prints the functional schema f under another overload name, or its
// in-place form (name_, self written to and returned).
template <class S, class Sink>
constexpr void print_variant(const S& f, std::string_view overload, bool inplace, Sink& out) {
  if (!f.ns.empty()) {
    out.put(f.ns);
    out.put("::");
  }
  out.put(f.name);
  if (inplace) out.put("_");
  if (!overload.empty()) {
    out.put(".");
    out.put(overload);
  }
  out.put("(");
  bool first = true;
  auto sep = [&] {
    if (!first) out.put(", ");
    first = false;
  };
  const std::size_t n = f.arguments.size();
  for (std::size_t i = 0; i <= n; ++i) {
    if (f.kwarg_marker >= 0 && static_cast<std::size_t>(f.kwarg_marker) == i) {
      sep();
      out.put("*");
    }
    if (i == n) break;
    sep();
    const schema::argument& a = f.arguments[i];
    if (inplace && i == 0) {
      out.put("Tensor(a!) ");  // the functional variant carries no annotations: 'a' is free
      out.put(a.name);
      if (a.has_default) {
        out.put("=");
        schema::print_default(a.def.text, out);
      }
    } else {
      schema::print_argument(f, a, out);
    }
  }
  out.put(") -> ");
  if (inplace) {
    out.put("Tensor(a!)");
  } else {
    if (f.returns.size() != 1) out.put("(");
    for (std::size_t i = 0; i < f.returns.size(); ++i) {
      if (i) out.put(", ");
      schema::print_argument(f, f.returns[i], out);
    }
    if (f.returns.size() != 1) out.put(")");
  }
}

template <std::size_t N>
struct fixed_sink {
  char* data;
  std::size_t size = 0;
  constexpr void put(std::string_view s) {
    for (char c : s)
      if (size < N) data[size++] = c;
  }
};

template <class Gen>
constexpr std::size_t printed_size() {
  schema::counting_sink c;
  Gen::print(c);
  return c.size;
}
// Gen::print(sink), as a fixed_string of exactly the printed length.
template <class Gen>
constexpr auto print_fixed() {
  constexpr std::size_t n = printed_size<Gen>();
  fixed_string<n> r{};
  fixed_sink<n> sink{r.data};
  Gen::print(sink);
  return r;
}

// The overload name given to opd::structured, named through a type.
template <fixed_string Overload>
struct overload_holder {
  static constexpr std::string_view value = Overload.view();
};

// (Out: an out_schema_holder, Overload: an overload_holder; types rather than
// fixed_strings, as nvcc's front end mismatches partial specializations over
// class-type template parameters.)
template <class Out, class Overload, bool Inplace>
struct variant_printer {
  template <class Sink>
  static constexpr void print(Sink& out) {
    constexpr const auto& f = schema::functional_variant_of<Out>::schema;
    print_variant(f, functional_overload(Out::schema.overload, Overload::value).name, Inplace, out);
  }
};

template <class Out, class Overload>
constexpr family_error family_check() {
  constexpr family_error e = check_out_schema(Out::schema);
  if constexpr (e != family_error::none) {
    return e;
  } else {
    constexpr overload_choice o = functional_overload(Out::schema.overload, Overload::value);
    if (o.error != family_error::none) return o.error;
    return o.name == Out::schema.overload ? family_error::name_clash : family_error::none;
  }
}

template <class Out, class Overload, bool Valid = family_check<Out, Overload>() == family_error::none>
struct family_schemas_of {
  static constexpr family_error error = family_check<Out, Overload>();
  static constexpr bool arguments_kept = true;  // (not asked: the error says what is wrong)
  static constexpr bool has_inplace = false;
};

template <class Out, class Overload>
struct family_schemas_of<Out, Overload, true> {
  static constexpr family_error error = family_error::none;
  static constexpr const auto& functional_base = schema::functional_variant_of<Out>::schema;
  // Every argument before out= must survive into the functional variant (the
  // kernels pass them on one to one).
  static constexpr bool arguments_kept = functional_base.arguments.size() + 1 == Out::schema.arguments.size();
  static constexpr bool has_inplace = arguments_kept && inplace_possible(functional_base);
  static constexpr auto functional_text = print_fixed<variant_printer<Out, Overload, false>>();
  static constexpr auto inplace_text = print_fixed<variant_printer<Out, Overload, true>>();
};

template <fixed_string OutText, fixed_string Overload>
using family_schemas = family_schemas_of<out_schema_holder<OutText>, overload_holder<Overload>>;

}  // namespace structured_detail
}  // namespace opd
