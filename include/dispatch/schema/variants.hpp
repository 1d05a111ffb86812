#pragma once
// Derived schemas, string for string what torchgen (PyTorch's code generator)
// derives when native_functions.yaml lacks a variant of an operator:
//
//   out_variant        of a functional schema: torchgen's functional_to_out_signature
//                      mul.Tensor(Tensor self, Tensor other) -> Tensor
//                   => mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
//                      of an in-place one: self_to_out_signature
//                      add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
//                   => add.Tensor_out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
//                      of a mutable one: mutable_to_out_signature
//   functional_variant of an in-place, mutable or out= schema: generate_function(f, functional)
//                      add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
//                   => add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//   family_key         torchgen's FunctionSchema.signature(): equal for the
//                      functional, in-place, mutable and out= members of one family
//                      (add.Tensor, add_.Tensor, add.out all give
//                      add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor)
//
// The rules, as torchgen has them:
//  - out= overload name: "out", or "<overload>_out".
//  - New out= arguments come from the tensor-like returns (Tensor, Tensor?,
//    Tensor[]; one per return, in order): named `out` for a single return,
//    `out<i>` otherwise (i counts all returns), typed like the return and
//    annotated (<letter>!) with the i-th letter a..z not used by any argument.
//    The returns become those annotated tensors when every return is a plain
//    Tensor; otherwise the non-tensor returns alone stay (so Tensor[] -> ()).
//  - From a functional schema, arguments lose their alias annotations and the
//    TensorOptions kwargs (dtype, layout, device, pin_memory) are dropped.
//  - From an in-place schema, self loses its annotation and `out` takes
//    self's type and annotation; the returns stay as they are.
//  - The functional variant: the name without '_' ("_functional" appended
//    for a mutable schema), the overload kept, annotations and TensorOptions
//    and out= arguments dropped; written arguments that are not returned
//    (self, then out= arguments, then positional ones after self) become
//    extra returns named <argument>_out.
//
// Run time: out_variant(s) / functional_variant(s) give a parsed
// runtime_schema (or throw variant_failure); *_text give the string.
// Compile time: out_variant_of<Op> / functional_variant_of<Op> (Op::schema the
// source) give `text` (a fixed_string) and `schema` (its schema_of), and
// derived_out_schema<S> / derived_functional_schema<S> for a schema object S.
// Asking for what does not exist (the out= variant of an out= schema, the
// functional variant of a functional one, ...) stops compilation with a
// static_assert saying so.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fixed_string.hpp"
#include "literal.hpp"
#include "model.hpp"
#include "printer.hpp"
#include "properties.hpp"
#include "runtime.hpp"

namespace opd::schema {

enum class variant_error : std::uint8_t {
  none = 0,
  already_out,            // out_variant of an out= (or scratch) schema
  already_functional,     // functional_variant of a functional schema
  no_tensor_return,       // out_variant of a functional / mutable schema without a Tensor-like return
  returns_written_alias,  // ... whose returns alias a written argument (torchgen asserts against it)
  too_many_returns,       // more returns than free alias letters a..z
  varargs,                // '...' in the arguments or returns: torchgen has no such schemas
};

constexpr std::string_view variant_error_message(variant_error e) {
  switch (e) {
    case variant_error::none: return "no error";
    case variant_error::already_out: return "the schema already is an out= schema: it has no out= variant";
    case variant_error::already_functional: return "the schema already is functional: it has no functional variant";
    case variant_error::no_tensor_return:
      return "the schema returns no Tensor, Tensor? or Tensor[] that could become an out= argument";
    case variant_error::returns_written_alias:
      return "a return aliases a written argument: torchgen derives no out= variant from such a schema";
    case variant_error::too_many_returns: return "more returns than free alias set letters a..z";
    case variant_error::varargs: return "schemas with '...' have no derived variants";
  }
  return "unknown error";
}

// Thrown by the run-time derivations.
class variant_failure : public std::invalid_argument {
 public:
  variant_failure(variant_error code, const std::string& what) : std::invalid_argument(what), code_(code) {}
  variant_error code() const { return code_; }

 private:
  variant_error code_;
};

enum class derivation : std::uint8_t { out, functional, family_key };

namespace variants_detail {

using namespace properties_detail;

inline constexpr std::string_view alias_letters = "abcdefghijklmnopqrstuvwxyz";

enum class alias_mode : std::uint8_t { keep, strip, replace };

// One argument or return of a derived schema, printed from the source schema.
struct piece {
  std::int16_t type = no_index;
  alias_mode mode = alias_mode::keep;
  std::string_view letter;          // alias set of alias_mode::replace: Tensor(<letter>!)
  std::string_view name;            // may be empty (returns)
  std::string_view name_suffix;     // "_out"
  std::int32_t name_index = -1;     // out0, out1, ...: printed after the name
  const argument* with_default = nullptr;  // print this argument's default, if it has one
  std::string_view forced_default;  // bernoulli.p's p=0.5 (see family key)
  bool kwarg = false;
};

// The operator name of a derived schema.
struct name_piece {
  std::string_view ns;
  std::string_view base;
  bool dunder = false;
  bool inplace = false;
  bool functional = false;
  std::string_view overload;
  bool out_overload = false;  // overload becomes "out" / "<overload>_out"
};

template <class Sink>
constexpr void print_name_piece(const name_piece& n, Sink& out) {
  if (!n.ns.empty()) {
    out.put(n.ns);
    out.put("::");
  }
  if (n.dunder) {
    out.put(n.inplace ? "__i" : "__");
    out.put(n.base);
    out.put("__");
  } else {
    out.put(n.base);
    if (n.inplace) out.put("_");
    else if (n.functional) out.put("_functional");
  }
  if (n.out_overload) {
    out.put(".");
    if (!n.overload.empty()) {
      out.put(n.overload);
      out.put("_");
    }
    out.put("out");
  } else if (!n.overload.empty()) {
    out.put(".");
    out.put(n.overload);
  }
}

// print_type with the alias annotations kept, stripped, or stripped and
// replaced by (<letter>!) on the Tensor.
template <class S, class Sink>
constexpr void print_type_as(const S& s, std::int16_t t, alias_mode mode, std::string_view letter, Sink& out) {
  print_type(s, t, out, [&](const type_node& n, Sink& o) {
    if (mode == alias_mode::keep) {
      print_alias(s, n.alias, o);
    } else if (mode == alias_mode::replace && n.kind == type_kind::base && n.base == base_type::Tensor) {
      o.put("(");
      o.put(letter);
      o.put("!)");
    }
  });
}

template <class S, class Sink>
constexpr void print_piece(const S& s, const piece& p, Sink& out) {
  print_type_as(s, p.type, p.mode, p.letter, out);
  if (!p.name.empty()) {
    out.put(" ");
    out.put(p.name);
    out.put(p.name_suffix);
    if (p.name_index >= 0) detail::put_int(out, p.name_index);
  }
  if (p.with_default != nullptr && p.with_default->has_default) {
    out.put("=");
    print_default(p.with_default->def.text, out);
  } else if (!p.forced_default.empty()) {
    out.put("=");
    out.put(p.forced_default);
  }
}

// Letters a..z that no argument's annotation uses (torchgen's valid_annotations).
template <class S>
constexpr std::uint32_t used_letters(const S& s) {
  std::uint32_t mask = 0;
  for (const argument& a : s.arguments)
    if (const alias_info* ann = annotation(s, a.type))
      for (std::size_t i = 0; i < ann->before.count; ++i) {
        const std::string_view n = ann->before.names[i];
        if (n.size() == 1 && n[0] >= 'a' && n[0] <= 'z') mask |= 1u << (n[0] - 'a');
      }
  return mask;
}
// The i-th free letter, or empty when there are not that many.
constexpr std::string_view free_letter(std::uint32_t used, std::size_t i) {
  for (std::size_t k = 0; k < alias_letters.size(); ++k)
    if ((used & (1u << k)) == 0) {
      if (i == 0) return alias_letters.substr(k, 1);
      --i;
    }
  return {};
}

// Does any return carry the same annotation as argument a?
template <class S>
constexpr bool returned(const S& s, const argument& a) {
  const alias_info* ann = annotation(s, a.type);
  for (const argument& r : s.returns)
    if (same_annotation(ann, annotation(s, r.type))) return true;
  return false;
}

// Checks of torchgen's generate_out_args_from_schema.
template <class S>
constexpr variant_error check_out_args(const S& s) {
  std::size_t tensors = 0;
  for (const argument& r : s.returns) {
    if (writes(annotation(s, r.type))) return variant_error::returns_written_alias;
    tensors += tensor_like(s, r.type) ? 1u : 0u;
  }
  if (tensors == 0) return variant_error::no_tensor_return;
  if (free_letter(used_letters(s), s.returns.size() - 1).empty()) return variant_error::too_many_returns;
  return variant_error::none;
}

template <class S>
constexpr variant_error check(const S& s, derivation d) {
  if (s.is_vararg || s.is_varret) return variant_error::varargs;
  const schema_kind k = kind_of(s);
  switch (d) {
    case derivation::out:
      if (k == schema_kind::out || k == schema_kind::scratch) return variant_error::already_out;
      if (k == schema_kind::inplace) return variant_error::none;
      return check_out_args(s);
    case derivation::functional:
      return k == schema_kind::functional ? variant_error::already_functional : variant_error::none;
    case derivation::family_key: return variant_error::none;
  }
  return variant_error::none;
}

// The new out= arguments and the returns of torchgen's generate_out_args_from_schema.
template <class S, class Out>
constexpr void emit_out_args(const S& s, Out& out) {
  const std::uint32_t used = used_letters(s);
  const std::size_t n = s.returns.size();
  for (std::size_t i = 0; i < n; ++i) {
    const argument& r = s.returns[i];
    if (!tensor_like(s, r.type)) continue;
    piece p;
    p.type = r.type;
    p.mode = alias_mode::replace;
    p.letter = free_letter(used, i);
    p.name = "out";
    if (n != 1) p.name_index = static_cast<std::int32_t>(i);
    p.kwarg = true;
    out.arg(p);
  }
}
template <class S, class Out>
constexpr void emit_out_returns(const S& s, Out& out) {
  bool all_tensors = true;
  for (const argument& r : s.returns) all_tensors = all_tensors && plain_tensor(s, r.type);
  const std::uint32_t used = used_letters(s);
  for (std::size_t i = 0; i < s.returns.size(); ++i) {
    const argument& r = s.returns[i];
    piece p;
    p.type = r.type;
    if (tensor_like(s, r.type)) {
      if (!all_tensors) continue;
      p.mode = alias_mode::replace;
      p.letter = free_letter(used, i);
    } else {
      p.name = r.name;
    }
    out.ret(p);
  }
}

// The arguments of torchgen's Arguments.signature(): no annotations, no
// TensorOptions, no out= arguments (defaults kept).
template <class S, class Out>
constexpr void emit_signature_args(const S& s, const layout& l, bool bernoulli_p, Out& out) {
  for (std::size_t i = 0; i < l.first_out; ++i) {
    if (l.is_options(i)) continue;
    const argument& a = s.arguments[i];
    piece p;
    p.type = a.type;
    p.mode = alias_mode::strip;
    p.name = a.name;
    p.with_default = &a;
    p.kwarg = a.kwarg_only;
    // Note [bernoulli.p schema] of torchgen: its signature is taken with
    // "float p=0.5", so that it groups with bernoulli_.float.
    if (bernoulli_p && !a.has_default && a.name == "p" && s.type(a.type).kind == type_kind::base &&
        s.type(a.type).base == base_type::float_)
      p.forced_default = "0.5";
    out.arg(p);
  }
}

// The returns of torchgen's FunctionSchema.signature(): the returns without
// annotations, then the written arguments that no return aliases (self, the
// out= arguments, the positional ones after self), named <arg>_out or unnamed.
template <class S, class Out>
constexpr void emit_signature_returns(const S& s, const layout& l, bool keep_names, Out& out) {
  for (const argument& r : s.returns) {
    piece p;
    p.type = r.type;
    p.mode = alias_mode::strip;
    if (keep_names) p.name = r.name;
    out.ret(p);
  }
  auto written = [&](std::size_t i) {
    const argument& a = s.arguments[i];
    if (!writes(annotation(s, a.type)) || returned(s, a)) return;
    piece p;
    p.type = a.type;
    p.mode = alias_mode::strip;
    if (keep_names) {
      p.name = a.name;
      p.name_suffix = "_out";
    }
    out.ret(p);
  };
  if (l.self != no_position) written(l.self);
  for (std::size_t i = l.first_out; i < l.count; ++i) written(i);
  for (std::size_t i = 0; i < l.first_kwarg; ++i)
    if (l.post_self(i)) written(i);
}

// Drives Out (name / arg / ret callbacks, in that order) through the derived schema.
template <class S, class Out>
constexpr variant_error derive(const S& s, derivation d, Out& out) {
  const variant_error e = check(s, d);
  if (e != variant_error::none) return e;
  const layout l = layout_of(s);
  const schema_kind k = kind_of(s);
  const name_parts np = parse_name(s.name);
  name_piece name{s.ns, np.base, np.dunder, false, false, s.overload, false};

  if (d == derivation::family_key) {
    name.overload = {};
    out.name(name);
    const bool bernoulli_p = (s.ns.empty() || s.ns == "aten") && s.name == "bernoulli" && s.overload == "p";
    emit_signature_args(s, l, bernoulli_p, out);
    emit_signature_returns(s, l, false, out);
    return variant_error::none;
  }
  if (d == derivation::functional) {
    name.functional = k == schema_kind::mutable_;
    out.name(name);
    emit_signature_args(s, l, false, out);
    emit_signature_returns(s, l, true, out);
    return variant_error::none;
  }

  name.out_overload = true;
  if (k == schema_kind::functional) {  // functional_to_out_signature: keeps the name as it is
    name.inplace = np.inplace;
    name.functional = np.functional;
    out.name(name);
    emit_signature_args(s, l, false, out);
    emit_out_args(s, out);
    emit_out_returns(s, out);
    return variant_error::none;
  }
  out.name(name);  // remove_inplace()
  for (std::size_t i = 0; i < l.count; ++i) {
    const argument& a = s.arguments[i];
    piece p;
    p.type = a.type;
    p.mode = (k == schema_kind::inplace && i == l.self) ? alias_mode::strip : alias_mode::keep;
    p.name = a.name;
    p.with_default = &a;
    p.kwarg = a.kwarg_only;
    out.arg(p);
  }
  if (k == schema_kind::inplace) {  // self_to_out_signature
    piece p;
    p.type = s.arguments[l.self].type;
    p.name = "out";
    p.kwarg = true;
    out.arg(p);
    for (const argument& r : s.returns) {
      piece q;
      q.type = r.type;
      q.name = r.name;
      out.ret(q);
    }
    return variant_error::none;
  }
  emit_out_args(s, out);  // mutable_to_out_signature
  emit_out_returns(s, out);
  return variant_error::none;
}

struct return_counter {
  std::size_t returns = 0;
  constexpr void name(const name_piece&) {}
  constexpr void arg(const piece&) {}
  constexpr void ret(const piece&) { ++returns; }
};

template <class S, class Sink>
struct variant_printer {
  const S& s;
  Sink& out;
  std::size_t returns = 0;  // how many there will be
  std::size_t args = 0;
  std::size_t printed_returns = 0;
  bool star = false;

  constexpr void name(const name_piece& n) {
    print_name_piece(n, out);
    out.put("(");
  }
  constexpr void arg(const piece& p) {
    if (p.kwarg && !star) {
      if (args++) out.put(", ");
      out.put("*");
      star = true;
    }
    if (args++) out.put(", ");
    print_piece(s, p, out);
  }
  constexpr void ret(const piece& p) {
    if (printed_returns++ == 0) {
      out.put(") -> ");
      if (returns != 1) out.put("(");
    } else {
      out.put(", ");
    }
    print_piece(s, p, out);
  }
  constexpr void finish() {
    if (printed_returns == 0) out.put(") -> ()");
    else if (returns != 1) out.put(")");
  }
};

template <class S, class Sink>
constexpr variant_error print_derived(const S& s, derivation d, Sink& out) {
  return_counter counter;
  const variant_error e = derive(s, d, counter);
  if (e != variant_error::none) return e;
  variant_printer<S, Sink> p{s, out, counter.returns};
  derive(s, d, p);
  p.finish();
  return variant_error::none;
}

template <class S>
std::string derived_text(const S& s, derivation d, std::string_view what) {
  string_sink sink;
  const variant_error e = print_derived(s, d, sink);
  if (e != variant_error::none) {
    string_sink name;
    print_name(s, name);
    throw variant_failure(e, std::string(what) + " of " + name.out + ": " + std::string(variant_error_message(e)));
  }
  return std::move(sink.out);
}

}  // namespace variants_detail

// ---- run time (and constexpr printing) ----------------------------------------

template <class Schema>
constexpr variant_error check_out_variant(const Schema& s) {
  return variants_detail::check(properties_detail::schema_value(s), derivation::out);
}
template <class Schema>
constexpr variant_error check_functional_variant(const Schema& s) {
  return variants_detail::check(properties_detail::schema_value(s), derivation::functional);
}

// Print the derived schema to a sink (string_sink, counting_sink,
// buffer_sink<N>); nothing is printed when the result is not none.
template <class Schema, class Sink>
constexpr variant_error print_out_variant(const Schema& s, Sink& out) {
  return variants_detail::print_derived(properties_detail::schema_value(s), derivation::out, out);
}
template <class Schema, class Sink>
constexpr variant_error print_functional_variant(const Schema& s, Sink& out) {
  return variants_detail::print_derived(properties_detail::schema_value(s), derivation::functional, out);
}
// The family key (torchgen's FunctionSchema.signature()), printed as a schema.
// Schemas with '...' have none (varargs).
template <class Schema, class Sink>
constexpr variant_error print_family_key(const Schema& s, Sink& out) {
  return variants_detail::print_derived(properties_detail::schema_value(s), derivation::family_key, out);
}

// The derived schema's text; throws variant_failure when there is none.
template <class Schema>
std::string out_variant_text(const Schema& s) {
  return variants_detail::derived_text(properties_detail::schema_value(s), derivation::out, "out_variant");
}
template <class Schema>
std::string functional_variant_text(const Schema& s) {
  return variants_detail::derived_text(properties_detail::schema_value(s), derivation::functional, "functional_variant");
}
template <class Schema>
std::string family_key(const Schema& s) {
  return variants_detail::derived_text(properties_detail::schema_value(s), derivation::family_key, "family_key");
}

// The derived schema, parsed; throws variant_failure when there is none.
template <class Schema>
runtime_schema out_variant(const Schema& s) {
  return parse_or_throw(out_variant_text(s));
}
template <class Schema>
runtime_schema functional_variant(const Schema& s) {
  return parse_or_throw(functional_variant_text(s));
}

// ---- compile time ------------------------------------------------------------

namespace variants_detail {

template <std::size_t N>
struct fixed_string_sink {
  char* data;
  std::size_t size = 0;
  constexpr void put(std::string_view s) {
    for (char c : s)
      if (size < N) data[size++] = c;
  }
};

template <class Op, derivation D>
constexpr std::size_t derived_size() {
  counting_sink c;
  print_derived(Op::schema, D, c);
  return c.size;
}
template <class Op, derivation D>
constexpr auto derived_fixed_string() {
  constexpr std::size_t n = derived_size<Op, D>();
  fixed_string<n> r{};
  fixed_string_sink<n> sink{r.data};
  print_derived(Op::schema, D, sink);
  return r;
}

template <class Op, derivation D>
struct derived_of {
  static constexpr variant_error error = check(Op::schema, D);
  static constexpr auto text = derived_fixed_string<Op, D>();
  static constexpr const auto& get() {
    if constexpr (error == variant_error::none) {
      return schema_of<text>();
    } else {
      return Op::schema;  // unreachable in a well-formed program: the caller's static_assert fired
    }
  }
};

}  // namespace variants_detail

// The out= variant of Op::schema: `text` (fixed_string) and `schema` (parsed
// at compile time). Op is any type with `static constexpr const auto& schema`
// (schema_literal<"...">, schema_ref<S>, your own).
template <class Op>
struct out_variant_of {
 private:
  using derived = variants_detail::derived_of<Op, derivation::out>;
  static constexpr variant_error error = derived::error;
  static_assert(error != variant_error::already_out,
                "opd::schema::out_variant_of: the schema already is an out= schema (it writes to kwarg-only "
                "arguments), so it has no out= variant");
  static_assert(error != variant_error::no_tensor_return,
                "opd::schema::out_variant_of: the schema returns no Tensor, Tensor? or Tensor[] that could "
                "become an out= argument");
  static_assert(error != variant_error::returns_written_alias,
                "opd::schema::out_variant_of: a return aliases a written argument; torchgen derives no out= "
                "variant from such a schema");
  static_assert(error != variant_error::too_many_returns,
                "opd::schema::out_variant_of: more returns than free alias set letters a..z");
  static_assert(error != variant_error::varargs, "opd::schema::out_variant_of: schemas with '...' have no variants");

 public:
  static constexpr const auto& text = derived::text;
  static constexpr const auto& schema = derived::get();
};

// The functional variant of Op::schema (an in-place, mutable or out= schema).
template <class Op>
struct functional_variant_of {
 private:
  using derived = variants_detail::derived_of<Op, derivation::functional>;
  static constexpr variant_error error = derived::error;
  static_assert(error != variant_error::already_functional,
                "opd::schema::functional_variant_of: the schema already is functional (it writes to none of its "
                "arguments), so it has no functional variant");
  static_assert(error != variant_error::varargs,
                "opd::schema::functional_variant_of: schemas with '...' have no variants");

 public:
  static constexpr const auto& text = derived::text;
  static constexpr const auto& schema = derived::get();
};

// The family key of Op::schema as a fixed_string: two schemas are of one
// family when family_key_of<A>::text.view() == family_key_of<B>::text.view().
template <class Op>
struct family_key_of {
  static_assert(variants_detail::derived_of<Op, derivation::family_key>::error == variant_error::none,
                "opd::schema::family_key_of: schemas with '...' have no family key");
  static constexpr const auto& text = variants_detail::derived_of<Op, derivation::family_key>::text;
};

// Keyed by a schema object with static storage duration (see schema_ref):
//   constexpr auto mul = opd::schema::schema_of<"mul.Tensor(Tensor self, Tensor other) -> Tensor">();
//   static_assert(derived_out_text<mul>.view() == "mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
template <const auto& S>
inline constexpr const auto& derived_out_text = out_variant_of<schema_ref<S>>::text;
template <const auto& S>
inline constexpr const auto& derived_out_schema = out_variant_of<schema_ref<S>>::schema;
template <const auto& S>
inline constexpr const auto& derived_functional_text = functional_variant_of<schema_ref<S>>::text;
template <const auto& S>
inline constexpr const auto& derived_functional_schema = functional_variant_of<schema_ref<S>>::schema;

}  // namespace opd::schema
