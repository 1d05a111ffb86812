// An ATen graph (tools/export_aten_graph.py, format: docs/models.md) loaded
// for the boxed dispatcher, and run.
//
//   opd::graph::Graph g = opd::graph::Graph::load("resnet18.json");   // throws GraphError
//   std::vector<opd::Tensor> out = g.run(opd::graph::load_tensors("resnet18.io.json", "inputs"));
//
// Load does every check and lookup once: the JSON against the format, each
// weight's bytes against its dtype, sizes and strides and against the data
// file, each value used after the node that makes it, and each node's
// operator to its handle (opd::OperatorEntry). Run is then a loop over the
// nodes: push the arguments (values from the value table, constants built at
// load), call_boxed on the handle, store the outputs, drop the values whose
// last use this node was. Every error names the node and its operator.
//
// Used by tools/opd-run (opd_run.cpp) and bench/models.
#pragma once

#include <dispatch/dispatcher.hpp>
#include <dispatch/transfer.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace opd::graph {

// A malformed file, or a node that fails: the message names what and where.
struct GraphError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Time per ATen operator over the runs given a Profile.
struct Profile {
  struct Row {
    std::int64_t calls = 0;
    std::chrono::nanoseconds time{0};
  };
  std::map<std::string, Row> by_operator;
  std::chrono::nanoseconds total{0};
  // One line per operator, slowest first: "<ms> <percent> <calls> <operator>".
  std::string table(std::int64_t runs) const;
};

class Graph {
 public:
  // An argument: a value of the table, a list of them (Tensor[] / Tensor?[]),
  // or a constant built at load.
  struct Arg {
    enum class Kind : std::uint8_t { Value, Values, Constant } kind = Kind::Constant;
    std::int32_t value = -1;             // Value: slot
    std::vector<std::int32_t> values;    // Values: slots, -1 for None (Tensor?[])
    bool optional_list = false;          // Values: any None in it
    IValue constant;
  };
  struct Output {
    bool is_list = false;
    std::vector<std::int32_t> slots;  // one (or -1: not referred to) unless is_list
  };
  struct Node {
    std::string op;                         // "aten::convolution"
    const OperatorEntry* entry = nullptr;   // null: no such operator declared
    bool has_kernel = false;                // a kernel serving the graph's device
    std::vector<Arg> args;
    std::vector<Output> outputs;
    std::vector<std::int32_t> frees;        // slots whose last use is this node
  };
  struct InputSpec {
    std::int32_t slot;
    ScalarType dtype;
    std::vector<std::int64_t> sizes;
  };

  // Reads a graph file and its data file (the "data" member, relative to the
  // graph's folder), for `device` (weights copied there, factory "device"
  // arguments naming the CPU mapped to it). Unknown operators do not fail the
  // load: missing_operators() names them and run() refuses to start.
  static Graph load(const std::string& path, Device device = Device::cpu());

  // The operators of the graph with no kernel for its device, each once, in
  // graph order ("aten::foo (not declared)", "aten::bar (no CPU kernel)").
  std::vector<std::string> missing_operators() const;

  // Runs the graph on inputs (count, dtypes and sizes as the graph's); the
  // outputs in the graph's order. Throws GraphError naming the node.
  // on_node, when given, sees each node's tensor outputs right after its call
  // (opd-run --trace).
  using NodeHook = std::function<void(std::size_t index, const Node& node, const std::vector<Tensor>& outputs)>;
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, Profile* profile = nullptr,
                          const NodeHook* on_node = nullptr) const;

  const std::string& model() const { return model_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<InputSpec>& inputs() const { return inputs_; }
  std::size_t num_outputs() const { return outputs_.size(); }
  Device device() const { return device_; }

 private:
  std::string model_;
  Device device_ = Device::cpu();
  std::size_t num_slots_ = 0;
  std::vector<std::pair<std::int32_t, Tensor>> weights_;  // slot, tensor
  std::vector<InputSpec> inputs_;
  std::vector<Node> nodes_;
  std::vector<std::int32_t> outputs_;
};

// The tensors of an opd-tensors-1 file (docs/models.md) under `key`
// ("inputs" or "outputs"), on the CPU. Throws GraphError.
std::vector<Tensor> load_tensors(const std::string& path, const std::string& key);

// A deterministic stand-in for real inputs (uniform in [-1, 1) for floating
// dtypes, zeros otherwise).
std::vector<Tensor> synthetic_inputs(const Graph& g);

// max |a - b| / max |b| over the elements (both converted to double); throws
// GraphError when the shapes or dtypes differ.
double relative_error(const Tensor& ours, const Tensor& reference);

}  // namespace opd::graph
