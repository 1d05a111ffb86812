#pragma once
// Shared helpers of the schema tests: reading the data files copied into
// tests/data/, and rendering our type trees the way PyTorch's TorchScript
// printer (Type::annotation_str) spells them.
#include <dispatch/schema.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../support/json.hpp"

#ifndef OPD_TEST_DATA_DIR
#error "OPD_TEST_DATA_DIR must name the tests/data directory"
#endif

namespace opd::test {

inline std::string data_path(std::string_view file) { return std::string(OPD_TEST_DATA_DIR) + "/" + std::string(file); }

inline std::string read_file(std::string_view file) {
  std::ifstream in(data_path(file), std::ios::binary);
  if (!in) throw std::runtime_error("cannot open test data file " + data_path(file));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Non-empty lines, without a trailing '\r'.
inline std::vector<std::string> read_lines(std::string_view file) {
  std::istringstream in(read_file(file));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

inline std::vector<json::value> read_jsonl(std::string_view file) {
  std::vector<json::value> records;
  for (const std::string& line : read_lines(file)) records.push_back(json::parse(line));
  return records;
}

// TorchScript's spelling of a type (what torch._C.parse_schema's
// Argument.type prints): List[int], Optional[Tensor], number for Scalar, int
// for SymInt / ScalarType / Layout / MemoryFormat, str for Dimname, ...
template <class Schema>
std::string torchscript_type(const Schema& s, std::int16_t t) {
  using schema::base_type;
  using schema::type_kind;
  const schema::type_node& n = s.type(t);
  auto members = [&](std::string open) {
    std::string out = std::move(open) + "[";
    for (std::int16_t m = n.child; m != schema::no_index; m = s.type(m).next) {
      if (m != n.child) out += ", ";
      out += torchscript_type(s, m);
    }
    return out + "]";
  };
  switch (n.kind) {
    case type_kind::base:
      switch (n.base) {
        case base_type::int_:
        case base_type::SymInt:
        case base_type::ScalarType:
        case base_type::Layout:
        case base_type::MemoryFormat:
        case base_type::DeviceIndex:
        case base_type::ConstQuantizerPtr: return "int";
        case base_type::SymFloat: return "float";
        case base_type::SymBool: return "bool";
        case base_type::Scalar: return "number";
        case base_type::Dimname: return "str";
        case base_type::None: return "NoneType";
        default: return std::string(schema::spelling(n.base));
      }
    case type_kind::type_var:
    case type_kind::custom_class: return std::string(n.name);
    case type_kind::list: return "List[" + torchscript_type(s, n.child) + "]";
    case type_kind::optional: return "Optional[" + torchscript_type(s, n.child) + "]";
    case type_kind::tuple: return n.child == schema::no_index ? std::string("Tuple[()]") : members("Tuple");
    case type_kind::dict: return members("Dict");
    case type_kind::future: return members("Future");
    case type_kind::rref: return members("RRef");
    case type_kind::union_: return members("Union");
  }
  return "?";
}

// The N of PyTorch's Argument: the fixed size of the outermost list, written T[N] or T[N]?.
template <class Schema>
std::int32_t fixed_list_size(const Schema& s, std::int16_t t) {
  const schema::type_node* n = &s.type(t);
  if (n->kind == schema::type_kind::optional) n = &s.type(n->child);
  return n->kind == schema::type_kind::list ? n->fixed_size : -1;
}

// A schema with its error message, for failure output.
inline std::string describe(const schema::parse_result& r) { return r ? std::string("ok") : r.message(); }

}  // namespace opd::test
