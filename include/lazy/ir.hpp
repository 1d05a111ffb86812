#pragma once
// Header-only, the definitions come after the declarations of every lazy
// header this one includes: only the outermost lazy header includes them,
// at its end (an inner one would reach lazy-inl.hpp mid-declaration).
#ifndef OPD_LAZY_DECLARING
#define OPD_LAZY_DECLARING
#define OPD_LAZY_OUTERMOST_IR
#endif
// The lazy backend's IR (docs/lazy.md): one Node type for every operator,
// derived from the operator's schema at trace time, never written per
// operator (PyTorch's LTC generates one class per operator instead).
//
//   operands    the tensor arguments (Tensor, Tensor[], Tensor?[] elements),
//               each a (node, output index) Operand;
//   attributes  every other argument, owned (IValue copies: strings and lists
//               are the node's own);
//   shape       output sizes, strides and dtypes, from the operator's Meta
//               kernel (cached per operator, attributes and operand shapes);
//   hash        the schema's hash combined with the attributes, the operands'
//               shapes and dtypes (shape_key) and the operands' hashes.
//
// A node that has run holds its results (`data`) and no operands: it is
// device data, as a graph input is.
//
// lazy/op_node.hpp reads a node as its operator's typed node, OpNode<Op>
// (attributes with the schema's C++ types, operands by argument name).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "dispatch/config.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/small_vector.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd {
class OperatorEntry;
}

namespace opd::lazy {

// 64-bit hash combination (a murmur3 finalizer over the pair).
constexpr std::uint64_t hash_combine(std::uint64_t seed, std::uint64_t v) noexcept {
  std::uint64_t h = seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// An operator's schema text hashed (FNV-1a, then mixed): the seed of its
// nodes' hashes. constexpr, so a typed node (op_node.hpp) has it at compile
// time and the tracer computes the same number from the registry's text.
constexpr std::uint64_t schema_hash(std::string_view text) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash_combine(0x5c4e6d61, h);
}

// One output's geometry: what a Meta kernel returned.
struct OutputMeta {
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;
  ScalarType dtype = ScalarType::Float;
  bool wrapped_number = false;
  std::uint64_t hash = 0;  // of the above
};

// What an operator returns for one (attributes, operand shapes): the flat
// outputs and how they group into returns (-1: a Tensor, n >= 0: a Tensor[] of n).
struct OpShape {
  std::vector<OutputMeta> outputs;
  std::vector<std::int32_t> returns;
};

class Node;
using NodePtr = std::shared_ptr<Node>;

struct Operand {
  NodePtr node;  // null: an absent element of a Tensor?[]
  std::uint32_t index = 0;
};

enum class ArgKind : std::uint8_t {
  attribute,            // attributes[i] is the value
  tensor,               // one operand
  tensor_list,          // attributes[i] (Int) operands
  optional_tensor_list  // attributes[i] (Int) operands, null ones are None
};

// Per-argument storage kept inline in the node: most operators take at most
// six arguments and three tensors, so tracing one allocates the node alone.
inline constexpr std::size_t kInlineArgs = 6;
inline constexpr std::size_t kInlineOperands = 3;

class OPD_API Node {
 public:
  const OperatorEntry* op = nullptr;                                  // null for a graph input created from data
  SmallVector<ArgKind, kInlineArgs> kinds;                            // one per schema argument
  boost::container::small_vector<IValue, kInlineArgs> attributes;     // one per schema argument (see ArgKind)
  boost::container::small_vector<Operand, kInlineOperands> operands;
  std::shared_ptr<const OpShape> shape;
  std::vector<Tensor> data;     // one CPU tensor per output once materialized
  // Which value `data` is: a new number each time a node becomes data (a
  // graph input, a root after its sync). Its tensors are never written while
  // the node lives (a plan writes only inputs that die with the run), so a
  // plan may keep what it derives from them across runs (CpuPlan's weights).
  std::uint64_t data_serial = 0;
  std::uint64_t shape_key = 0;  // schema, attributes, operand shapes and dtypes
  std::uint64_t hash = 0;       // shape_key and the operands' hashes
  // Scratch for graph collection (under the executor's lock).
  std::uint64_t mark = 0;
  std::uint32_t order = 0;

  bool is_data() const noexcept { return !data.empty(); }
  std::size_t num_outputs() const noexcept { return shape->outputs.size(); }
  const OutputMeta& output(std::size_t i) const { return shape->outputs[i]; }
  // "aten::add.Tensor" (or "data"), then the attributes by name: "alpha=1".
  std::string op_name() const;
  std::string attributes_str() const;
  // Where argument i's operands start: operands are in argument order, a
  // Tensor[] / Tensor?[] as its elements, a None Tensor? as none.
  std::size_t first_operand(std::size_t argument) const;
};

// Graph input / materialized values: a node holding CPU tensors.
OPD_API NodePtr make_data_node(std::vector<Tensor> values);
OPD_API OutputMeta meta_of(const Tensor& t);
// Attribute hashing (tags and values; lists element-wise).
OPD_API std::uint64_t hash_ivalue(const IValue& v) noexcept;

}  // namespace opd::lazy

#ifdef OPD_LAZY_OUTERMOST_IR
#undef OPD_LAZY_OUTERMOST_IR
#undef OPD_LAZY_DECLARING
// Header-only: the definitions (lazy/lazy.hpp includes them).
#ifdef OPD_HEADER_ONLY
#include "lazy/lazy.hpp"
#endif
#endif
