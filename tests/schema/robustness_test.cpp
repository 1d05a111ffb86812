// Robustness of the run-time parser: deterministic fuzzing with mutations of
// real schemas. parse() must never crash, and must answer either a schema or
// an error whose column lies inside the text (1 <= column <= size + 1). What
// parses must print, and what it prints must parse again and print the same.
#include <dispatch/schema.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "schema_test_support.hpp"
#include "sanitized_build.hpp"

namespace {

using opd::schema::dynamic_schema;

// Sanitizers slow the parser down several times: fewer rounds there.
using opd_test::sanitized_build;

// splitmix64: the same sequence with every standard library (the <random>
// distributions are implementation-defined).
struct rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
  char byte() { return static_cast<char>(next() & 0xFF); }
};

// Pieces of the schema language, so that mutations reach deep into the grammar.
constexpr std::string_view fragments[] = {
    "(",      ")",       "[",      "]",       "[]",      "[2]",        "?",        "!",          "*",
    "|",      "->",      "...",    "=",       ",",       "'",          "\"",       "#",          "\n",
    "\\",     "None",    "True",   "False",   "0x",      "0x1F",       "1e",       "1e-5",       "-",
    ".",      "::",      ":",      "Tensor",  "int",     "float",      "Scalar",   "SymInt[2]",  "(a!)",
    "(a)",    "(a -> *)", "(a|b)", "(*)",     "Tensor!", "Dict(",      "Future(",  "RRef(",      "Union(",
    "__torch__.torch.classes.", "Mean", "long", "[1, 2]", "=[", "=None", "=1", "=-1.5", "=2j",
    "def",    "if",      "double", "t",       std::string_view("\0", 1), "\xff", "\x80", " ",
};

std::string mutate(rng& r, const std::vector<std::string>& corpus) {
  std::string s = corpus[r.below(corpus.size())];
  const std::size_t rounds = 1 + r.below(4);
  for (std::size_t k = 0; k < rounds; ++k) {
    const std::size_t at = r.below(s.size() + 1);
    switch (r.below(9)) {
      case 0:  // flip a bit
        if (!s.empty()) s[r.below(s.size())] ^= static_cast<char>(1u << r.below(8));
        break;
      case 1:  // replace a byte with any byte (NUL and 0xFF included)
        if (!s.empty()) s[r.below(s.size())] = r.byte();
        break;
      case 2: {  // insert random bytes
        const std::size_t n = 1 + r.below(4);
        for (std::size_t i = 0; i < n; ++i) s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), r.byte());
        break;
      }
      case 3:  // delete a range
        s.erase(at, 1 + r.below(8));
        break;
      case 4:  // truncate
        s.resize(at);
        break;
      case 5: {  // duplicate a range
        const std::size_t n = r.below(16);
        s.insert(at, s.substr(at, n));
        break;
      }
      case 6:
      case 7:  // insert a piece of the grammar
        s.insert(at, fragments[r.below(std::size(fragments))]);
        break;
      case 8: {  // splice with another schema
        const std::string& other = corpus[r.below(corpus.size())];
        s = s.substr(0, at) + other.substr(r.below(other.size() + 1));
        break;
      }
    }
  }
  return s;
}

// Reading the printed form must give back the same schema: names, types,
// alias annotations and default values (strings compared by their text).
std::string compare_arguments(const dynamic_schema& a, const dynamic_schema& b, bool returns) {
  const auto& xs = returns ? a.returns : a.arguments;
  const auto& ys = returns ? b.returns : b.arguments;
  if (xs.size() != ys.size()) return "a different number of arguments or returns";
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto& x = xs[i];
    const auto& y = ys[i];
    opd::schema::string_sink tx, ty;
    opd::schema::print_type(a, x.type, tx);
    opd::schema::print_type(b, y.type, ty);
    if (x.name != y.name || tx.out != ty.out || x.kwarg_only != y.kwarg_only || x.has_default != y.has_default)
      return "argument " + std::to_string(i) + " differs";
    const auto& dx = x.def;
    const auto& dy = y.def;
    const bool same_float = dx.floating == dy.floating || (dx.floating != dx.floating && dy.floating != dy.floating);
    if (dx.kind != dy.kind || dx.element != dy.element || dx.boolean != dy.boolean || dx.integer != dy.integer ||
        !same_float || dx.length != dy.length)
      return "the default of argument " + std::to_string(i) + " differs";
    if (dx.kind == opd::schema::default_kind::string && dx.text != dy.text)
      return "the string default of argument " + std::to_string(i) + " changed from " + std::string(dx.text) + " to " +
             std::string(dy.text);
  }
  return {};
}

// Checks one input; returns an empty string when all is well.
std::string check(const std::string& text, bool& accepted) {
  const opd::schema::parse_result r = opd::schema::parse(text);
  accepted = static_cast<bool>(r);
  if (!r) {
    if (r.code == opd::schema_error::none) return "an error without an error code";
    if (r.column < 1 || r.column > text.size() + 1)
      return "column " + std::to_string(r.column) + " outside 1.." + std::to_string(text.size() + 1);
    // `near` is the text at the column (unprintable bytes shown as '?').
    const std::string_view at = std::string_view(text).substr(r.column - 1, r.near.size());
    if (at.size() != r.near.size()) return "'near' runs past the end of the text";
    for (std::size_t i = 0; i < at.size(); ++i) {
      const auto c = static_cast<unsigned char>(at[i]);
      if (r.near[i] != ((c >= 32 && c < 127) ? at[i] : '?')) return "'near' is not the text at the column";
    }
    const std::string m = r.message();
    for (char c : m)
      if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) >= 127) return "unprintable message";
    return {};
  }
  const std::string printed = opd::schema::to_string(r.schema->value());
  const opd::schema::parse_result again = opd::schema::parse(printed);
  if (!again) return "printed form does not parse: " + printed + "\n  " + again.message();
  if (opd::schema::to_string(again.schema->value()) != printed) return "printing is not stable: " + printed;
  const dynamic_schema& first = r.schema->value();
  const dynamic_schema& second = again.schema->value();
  if (first.ns != second.ns || first.name != second.name || first.overload != second.overload ||
      first.is_vararg != second.is_vararg || first.is_varret != second.is_varret)
    return "the printed form names another operator: " + printed;
  for (bool returns : {false, true}) {
    const std::string diff = compare_arguments(first, second, returns);
    if (!diff.empty()) return diff + " after printing: " + printed;
  }
  return {};
}

std::string escaped(std::string_view s) {
  std::string out;
  for (unsigned char c : s.substr(0, 400)) {
    if (c >= 32 && c < 127 && c != '\\') {
      out += static_cast<char>(c);
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

TEST(SchemaRobustness, RandomMutationsOfRealSchemas) {
  std::vector<std::string> corpus = opd::test::read_lines("native_functions_main.txt");
  for (const auto& rec : opd::test::read_jsonl("custom_ops.jsonl")) corpus.push_back(rec["schema"].as_string());
  ASSERT_FALSE(corpus.empty());

  const auto start = std::chrono::steady_clock::now();
  rng r{20240917};
  constexpr std::size_t iterations = sanitized_build ? 50000 : 200000;
  std::size_t accepted_count = 0, failures = 0;
  for (std::size_t i = 0; i < iterations; ++i) {
    const std::string text = mutate(r, corpus);
    bool accepted = false;
    const std::string problem = check(text, accepted);
    accepted_count += accepted;
    if (!problem.empty() && ++failures <= 20) ADD_FAILURE() << problem << "\n  input: " << escaped(text);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[fuzz] " << iterations << " mutated schemas in " << seconds << " s: " << accepted_count
            << " accepted, " << (iterations - accepted_count) << " rejected\n";
  EXPECT_EQ(failures, 0u);
}

TEST(SchemaRobustness, HostileInputs) {
  const std::size_t mb = 1 << 20;
  const std::vector<std::string> inputs = {
      std::string(),
      std::string(1, '\0'),
      std::string(mb, '('),
      std::string(mb, '['),
      std::string(mb, ')'),
      std::string(mb, '\xff'),
      std::string(mb, '\0'),
      std::string(mb, ' '),
      std::string(mb, '#'),
      std::string(mb, '\''),
      std::string(mb, 'a'),
      "f" + std::string(mb, '.'),
      "f(" + std::string(mb, '['),
      "f(int" + std::string(mb, '['),
      "f(int[" + std::string(mb, '9') + "] x) -> Tensor",
      "f(int x=" + std::string(mb, '9') + ") -> Tensor",
      "f(float x=0." + std::string(mb, '9') + ") -> Tensor",
      "f(float x=1e" + std::string(mb, '9') + ") -> Tensor",
      "f(float x=1e-" + std::string(mb, '9') + ") -> Tensor",
      "f(str x='" + std::string(mb, '\\') + "') -> Tensor",
      "f(str x=\"" + std::string(mb, 'x'),
      "f(Tensor(" + std::string(mb, 'a') + ") x) -> Tensor",
      "f(Tensor x) -> Tensor" + std::string(mb, ' ') + "#",
      "f(" + std::string(mb, '*') + ") -> Tensor",
      "f(int[2] x=[" + std::string(mb, '1') + "]) -> Tensor",
      "f(int[] x=[" + std::string(mb, ',') + "]) -> Tensor",
      "f(Tensor x) -> (" + std::string(mb, ','),
      std::string("f(Tensor x) -> Tensor\0", 22),
      std::string("f(Tensor\0 x) -> Tensor", 22),
  };
  for (const std::string& text : inputs) {
    bool accepted = false;
    const std::string problem = check(text, accepted);
    EXPECT_TRUE(problem.empty()) << problem << "\n  input (" << text.size() << " bytes): " << escaped(text);
  }
}

// Where the grammar nests (tuples, containers, list and optional suffixes), a
// hostile schema can nest as deep as it likes, and a huge one can hold more
// type nodes than an int16 index reaches. The parser must answer (an error
// such as schema_too_complex, or a schema that passes check()) rather than run
// out of stack or overflow its indices. Each input runs in a child process, so
// a crash fails this test instead of ending the whole binary.
struct deep_case {
  const char* what;
  std::string text;
};
std::vector<deep_case> deep_cases() {
  const std::size_t n = 100000;
  std::string args;
  for (std::size_t i = 0; i < 40000; ++i) args += (i ? ", int a" : "int a") + std::to_string(i);
  auto repeat = [](std::string_view s, std::size_t k) {
    std::string out;
    out.reserve(s.size() * k);
    for (std::size_t i = 0; i < k; ++i) out += s;
    return out;
  };
  return {
      {"100k nested tuples", "f(" + std::string(n, '(') + "Tensor" + std::string(n, ')') + " x) -> Tensor"},
      {"1 MB of '(' after the name", "f(" + std::string(1 << 20, '(')},
      {"100k nested Future(", "f(" + repeat("Future(", n) + "int x) -> Tensor"},
      {"100k nested Dict(", "f(" + repeat("Dict(int, ", n) + "int x) -> Tensor"},
      {"40k list suffixes int[][]...", "f(int" + repeat("[]", 40000) + " x) -> Tensor"},
      {"40k optional suffixes int???...", "f(int" + std::string(40000, '?') + " x) -> Tensor"},
      {"40k arguments", "f(" + args + ") -> Tensor"},
      {"1 MB of '[]' suffixes", "f(Tensor" + repeat("[]", 1 << 19) + " x) -> Tensor"},
  };
}

TEST(SchemaRobustness, DeepNestingAndHugeSchemasDoNotCrash) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const deep_case& c : deep_cases()) {
    SCOPED_TRACE(c.what);
    EXPECT_EXIT(
        {
          bool accepted = false;
          const std::string problem = check(c.text, accepted);
          if (!problem.empty()) {
            std::cerr << problem << "\n";
            std::exit(2);
          }
          std::exit(0);
        },
        ::testing::ExitedWithCode(0), "")
        << c.what << " (" << c.text.size() << " bytes) crashed or failed the checks";
  }
}

}  // namespace
