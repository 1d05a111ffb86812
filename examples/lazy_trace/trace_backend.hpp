#pragma once
// A tracing backend on PrivateUse2 (PyTorch's lazy tensor backend in small):
// every operator that reaches it is recorded as a node of a graph and
// evaluated at once with the CPU kernels. It has no view and no in-place
// kernel: an operator that returns a view or writes an argument is refused
// (opd::NotImplementedError naming it), so it only works beneath the
// Functionalize layer, which hands it functional and *_copy / scatter
// operators only (remove_views mode).
//
//   lazy::Backend backend;                       // registers the kernels; holds the graph
//   opd::Tensor x = lazy::from_cpu(cpu_tensor);  // a functional tensor over a trace tensor (a graph input)
//   { opd::FunctionalizeGuard on(opd::FunctionalizeMode::remove_views); ... }
//   opd::Tensor y = lazy::to_cpu(x);             // syncs, unwraps, the CPU value
//   backend.print(std::cout);
//
// The integration points of PyTorch PR #75527: factories called with the
// backend's device return functional wrappers (the Functionalize key is on
// inside the guard), transfer to CPU syncs and unwraps, transfer from CPU wraps.
#include <cstdint>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <dispatch/dispatcher.hpp>
#include <functionalize/functionalize.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_views.hpp>

namespace lazy {

inline const opd::Device kDevice(opd::DeviceType::PrivateUse2, 0);
inline constexpr opd::DispatchKey kKey = opd::DispatchKey::PrivateUse2;

// A trace tensor: its graph node and its value, computed by the CPU kernels.
class TraceTensorImpl final : public opd::TensorImpl {
 public:
  TraceTensorImpl(opd::Tensor cpu, std::int64_t node)
      : opd::TensorImpl(opd::Storage::from_blob(nullptr, std::numeric_limits<std::size_t>::max() / 4, kDevice),
                        opd::DispatchKeySet(kKey), cpu.dtype()),
        cpu_(std::move(cpu)),
        node_(node) {
    set_sizes_and_strides(cpu_.sizes(), cpu_.strides(), 0);
  }
  const opd::Tensor& cpu() const { return cpu_; }
  std::int64_t node() const { return node_; }

 private:
  opd::Tensor cpu_;
  std::int64_t node_;
};

inline TraceTensorImpl* trace_impl(const opd::Tensor& t) {
  return t.defined() ? dynamic_cast<TraceTensorImpl*>(t.unsafe_get_impl()) : nullptr;
}

struct Node {
  std::string op;                     // aten::name.overload
  std::vector<std::string> inputs;    // %n for tensors, the value otherwise
  std::vector<std::int64_t> outputs;  // node ids of the tensors it produced
};

class Backend {
 public:
  Backend() {
    instance() = this;
    for (const std::string& name : opd::Dispatcher::singleton().operator_names())
      if (opd::Dispatcher::singleton().find_schema(name) != nullptr)
        kernels_.add(opd::register_boxed_kernel(name, kKey, &Backend::kernel));
  }
  ~Backend() { instance() = nullptr; }
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  const std::vector<Node>& graph() const { return graph_; }
  // The operator names the backend received, in order.
  std::vector<std::string> ops() const {
    std::vector<std::string> out;
    for (const Node& n : graph_)
      if (n.op != "input") out.push_back(n.op);
    return out;
  }
  void clear() {
    graph_.clear();
    next_ = 0;
  }
  void print(std::ostream& os) const {
    for (const Node& n : graph_) {
      os << " ";
      for (std::size_t i = 0; i < n.outputs.size(); ++i) os << (i ? ", " : "") << "%" << n.outputs[i];
      os << " = " << n.op << "(";
      for (std::size_t i = 0; i < n.inputs.size(); ++i) os << (i ? ", " : "") << n.inputs[i];
      os << ")\n";
    }
  }

  // A graph input holding a copy of a CPU tensor.
  opd::Tensor input(const opd::Tensor& cpu) {
    const std::int64_t id = next_++;
    graph_.push_back(Node{"input", {}, {id}});
    return opd::Tensor(opd::make_intrusive<TraceTensorImpl>(opd::call<opd::kernels::ops::clone>(cpu, std::nullopt), id));
  }

  static Backend*& instance() {
    static Backend* b = nullptr;
    return b;
  }

 private:
  static std::string describe(const opd::IValue& v) {
    std::ostringstream os;
    if (v.is_tensor()) {
      const TraceTensorImpl* t = trace_impl(v.to_tensor());
      os << (t ? "%" + std::to_string(t->node()) : std::string("<cpu tensor>"));
    } else if (v.is_tensor_list()) {
      os << "[";
      for (const opd::Tensor& t : v.to_tensor_list()) os << describe(opd::IValue(t)) << " ";
      os << "]";
    } else if (v.is_none()) {
      os << "None";
    } else if (v.is_int()) {
      os << v.to_int();
    } else if (v.is_double()) {
      os << v.to_double();
    } else if (v.is_bool()) {
      os << (v.to_bool() ? "True" : "False");
    } else if (v.is_int_list()) {
      os << "[";
      for (std::size_t i = 0; i < v.to_int_list().size(); ++i) os << (i ? ", " : "") << v.to_int_list()[i];
      os << "]";
    } else {
      os << "<value>";
    }
    return os.str();
  }
  static opd::IValue to_cpu_value(const opd::IValue& v) {
    if (v.is_tensor()) {
      const TraceTensorImpl* t = trace_impl(v.to_tensor());
      return t ? opd::IValue(t->cpu()) : v;
    }
    if (v.is_tensor_list()) {
      std::vector<opd::Tensor> out;
      for (const opd::Tensor& t : v.to_tensor_list()) out.push_back(to_cpu_value(opd::IValue(t)).to_tensor());
      return opd::IValue(std::move(out));
    }
    if (v.is_optional_tensor_list()) {
      std::vector<std::optional<opd::Tensor>> out;
      for (const auto& t : v.to_optional_tensor_list())
        out.push_back(t ? std::optional<opd::Tensor>(to_cpu_value(opd::IValue(*t)).to_tensor()) : std::nullopt);
      return opd::IValue(std::move(out));
    }
    if (v.is_device() && v.to_device().type() == kDevice.type()) return opd::IValue(opd::Device::cpu());
    return v;
  }

  static void kernel(const opd::OperatorEntry& op, opd::DispatchKeySet, opd::Stack* stack) {
    const opd::AliasFacts& facts = op.alias_facts();
    if (facts.is_view() || !facts.written.empty())
      throw opd::NotImplementedError("trace backend: '" + op.name() + "' " +
                                     (facts.is_view() ? "returns a view" : "writes its arguments") +
                                     ": the backend has no such kernels (functionalize above it)");
    Backend& b = *instance();
    const std::size_t n = op.num_arguments();
    const std::size_t first = stack->size() - n;
    Node node{op.name(), {}, {}};
    for (std::size_t i = first; i < stack->size(); ++i) {
      node.inputs.push_back(describe((*stack)[i]));
      (*stack)[i] = to_cpu_value((*stack)[i]);
    }
    opd::redispatch_boxed(op, opd::DispatchKeySet(opd::DispatchKey::CPU), *stack);
    auto wrap = [&](const opd::Tensor& t) {
      const std::int64_t id = b.next_++;
      node.outputs.push_back(id);
      return opd::Tensor(opd::make_intrusive<TraceTensorImpl>(t, id));
    };
    for (std::size_t i = first; i < stack->size(); ++i) {
      opd::IValue& v = (*stack)[i];
      if (v.is_tensor() && v.to_tensor().defined()) {
        v = opd::IValue(wrap(v.to_tensor()));
      } else if (v.is_tensor_list()) {
        std::vector<opd::Tensor> list = std::move(v).to_tensor_list();
        for (opd::Tensor& t : list) t = wrap(t);
        v = opd::IValue(std::move(list));
      }
    }
    b.graph_.push_back(std::move(node));
  }

  opd::RegistrationSet kernels_;
  std::vector<Node> graph_;
  std::int64_t next_ = 0;
};

// Transfer from the CPU: a graph input, wrapped as a functional tensor.
inline opd::Tensor from_cpu(const opd::Tensor& cpu, opd::FunctionalizeMode mode = opd::FunctionalizeMode::remove_views) {
  return opd::to_functional(Backend::instance()->input(cpu), mode);
}
// Transfer to the CPU: syncs the functional tensor and unwraps its value.
inline opd::Tensor to_cpu(const opd::Tensor& t) {
  opd::sync(t);
  const opd::Tensor inner = opd::from_functional(t);
  const TraceTensorImpl* impl = trace_impl(inner);
  if (impl == nullptr) throw opd::Error("lazy::to_cpu: not a trace tensor");
  return impl->cpu();
}

}  // namespace lazy
