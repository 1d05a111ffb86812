// opd-schema: check operator schemas, one per line, with opdispatch's parser.
//
//   opd-schema [--json | --c] [--strict] < schemas.txt
//
// For each input line it writes one output line:
//   ok<TAB><the schema in canonical form>
//   error<TAB><column><TAB><message>
// With --json, a parsed schema is written as one JSON object instead of its
// canonical form (error lines stay as they are); with --c, as the C prototype
// of its C entry point (dispatch/c_abi/c_signature.hpp, the derivation the
// OPD_EXPORT_C shims use). A type variable that looks
// like a typo (`tensor`, `int64`) gets a warning on standard error, or with
// --strict an error line. Exit status: 0 when every line parsed, 1 when some
// did not, 2 on bad usage.
#include <dispatch/c_abi/c_signature.hpp>
#include <dispatch/schema.hpp>
#include <dispatch/schema/queries.hpp>
#include <dispatch/schema/typo.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace {

namespace sch = opd::schema;

constexpr std::string_view usage_text =
    "usage: opd-schema [--json | --c] [--strict] [--help]\n"
    "\n"
    "Reads operator schemas from standard input, one per line, and writes one\n"
    "line for each:\n"
    "  ok<TAB><schema>                  the schema parsed; printed in canonical form\n"
    "  error<TAB><column><TAB><message> it did not; column is 1-based, in bytes\n"
    "\n"
    "  --json   for a schema that parsed, write its structure as one JSON object\n"
    "           (name, overload, namespace, arguments, returns; each argument with\n"
    "           name, type, kwarg_only, is_out, default, alias, N) instead of the\n"
    "           canonical form\n"
    "  --c      for a schema that parsed, write the C prototype of its C entry\n"
    "           point (opdispatch's C ABI, docs/c_abi.md) instead\n"
    "  --strict a type variable that looks like a typo ('tensor', 'int64') is an\n"
    "           error; without --strict it is a warning on standard error\n"
    "  --help   show this text\n"
    "\n"
    "A trailing carriage return is dropped from each line. Every line counts,\n"
    "blank ones too (they are empty schemas). Control characters inside a\n"
    "printed schema are written as \\xHH.\n"
    "\n"
    "Exit status: 0 if every line parsed, 1 if some did not, 2 on bad usage.\n";

// ---- JSON output ----------------------------------------------------------

// Length of the well-formed UTF-8 sequence at s[i], or 0 if there is none.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  std::uint32_t cp = 0, min = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1Fu, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0Fu, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07u, min = 0x10000;
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;  // overlong, too big, surrogate
  return n;
}

// A JSON string literal. Control characters become \u00XX; a byte that is not
// part of well-formed UTF-8 becomes \u00XX too (read as Latin-1), so the
// output is valid JSON whatever the input held.
void put_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n') {
      out += "\\n", ++i;
    } else if (c == '\t') {
      out += "\\t", ++i;
    } else if (c == '\r') {
      out += "\\r", ++i;
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t n = utf8_sequence(s, i)) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    }
  }
  out += '"';
}

void put_alias_set(std::string& out, const sch::alias_set& set) {
  out += '[';
  for (std::size_t i = 0; i < set.count; ++i) {
    if (i) out += ", ";
    put_json_string(out, set.names[i]);
  }
  out += ']';
}

void put_argument(std::string& out, const sch::dynamic_schema& s, const sch::argument& a) {
  out += "{\"name\": ";
  put_json_string(out, a.name);
  out += ", \"type\": ";
  sch::string_sink type;
  sch::print_type(s, a.type, type);
  put_json_string(out, type.out);
  out += ", \"kwarg_only\": ";
  out += a.kwarg_only ? "true" : "false";
  out += ", \"is_out\": ";
  out += sch::is_out(s, a) ? "true" : "false";
  out += ", \"default\": ";
  if (a.has_default) {
    sch::string_sink text;
    sch::print_default(a.def.text, text);
    put_json_string(out, text.out);
  } else {
    out += "null";
  }
  out += ", \"alias\": ";
  if (const std::optional<sch::alias_info> alias = sch::top_level_alias(s, a)) {
    out += "{\"before\": ";
    put_alias_set(out, alias->before);
    out += ", \"after\": ";
    put_alias_set(out, alias->after);
    out += ", \"is_write\": ";
    out += alias->is_write ? "true" : "false";
    out += '}';
  } else {
    out += "null";
  }
  out += ", \"N\": ";
  const sch::type_node* n = &s.type_of(a);
  if (n->kind == sch::type_kind::optional) n = &s.type(n->child);
  if (n->kind == sch::type_kind::list && n->fixed_size >= 0) out += std::to_string(n->fixed_size);
  else out += "null";
  out += '}';
}

template <class Args>
void put_arguments(std::string& out, const sch::dynamic_schema& s, const Args& args) {
  out += '[';
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    put_argument(out, s, args[i]);
  }
  out += ']';
}

std::string to_json(const sch::dynamic_schema& s) {
  std::string out = "{\"name\": ";
  put_json_string(out, s.name);
  out += ", \"overload\": ";
  put_json_string(out, s.overload);
  out += ", \"namespace\": ";
  put_json_string(out, s.ns);
  out += ", \"arguments\": ";
  put_arguments(out, s, s.arguments);
  out += ", \"returns\": ";
  put_arguments(out, s, s.returns);
  out += ", \"is_vararg\": ";
  out += s.is_vararg ? "true" : "false";
  out += ", \"is_varret\": ";
  out += s.is_varret ? "true" : "false";
  out += '}';
  return out;
}

// ---- text output ----------------------------------------------------------

// The canonical form on one line: control characters (possible only inside a
// string default) as \xHH, so that the output keeps one line per input line.
std::string one_line(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

// A type variable that looks like a typo: its column and what to say, or a
// column of 0. ('tensor' is legal, PyTorch reads it as a type variable.)
std::pair<std::size_t, std::string> suspicious_type_variable(const sch::runtime_schema& s) {
  const std::int16_t t = sch::first_suspicious_type_variable(s.value());
  if (t == sch::no_index) return {0, {}};
  const std::string_view name = s->types[static_cast<std::size_t>(t)].name;
  // (Appended piece by piece: g++ 12's -Wrestrict misfires on "..." + std::string in Release builds.)
  std::string message = "'";
  message += name;
  message += "' is read as a type variable; did you mean '";
  message += sch::type_variable_suggestion(name);
  message += "'?";
  return {static_cast<std::size_t>(name.data() - s->text.data()) + 1, std::move(message)};
}

// The message without its "column N: " prefix (the column has its own field).
std::string message_of(const sch::parse_result& r) {
  const std::string m = r.message();
  const std::size_t colon = m.find(": ");
  return colon == std::string::npos ? m : m.substr(colon + 2);
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, strict = false, c_abi = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--c") {
      c_abi = true;
    } else if (arg == "--strict") {
      strict = true;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << usage_text;
      return 0;
    } else {
      std::cerr << "opd-schema: unknown argument '" << arg << "'\n" << usage_text;
      return 2;
    }
  }

  std::ios::sync_with_stdio(false);
  bool all_ok = true;
  std::string line, out;
  std::size_t line_number = 0;
  while (std::getline(std::cin, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.clear();
    const sch::parse_result r = sch::parse(line);
    const auto [typo_column, typo] = r ? suspicious_type_variable(*r.schema) : std::pair<std::size_t, std::string>();
    if (typo_column != 0 && strict) {
      out = "error\t";
      out += std::to_string(typo_column);
      out += '\t';
      out += typo;
      all_ok = false;
    } else if (r) {
      if (typo_column != 0)
        std::cerr << "opd-schema: line " << line_number << ", column " << typo_column << ": warning: " << typo << "\n";
      out = "ok\t";
      if (c_abi) {
        sch::string_sink prototype;
        opd::c_abi::print_c_prototype(r.schema->value(), "", prototype);
        out += prototype.out;
      } else {
        out += json ? to_json(r.schema->value()) : one_line(sch::to_string(r.schema->value()));
      }
    } else {
      out = "error\t" + std::to_string(r.column) + "\t" + message_of(r);
      all_ok = false;
    }
    out += '\n';
    std::cout << out;
  }
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "opd-schema: cannot write the output\n";
    return 2;
  }
  return all_ok ? 0 : 1;
}
