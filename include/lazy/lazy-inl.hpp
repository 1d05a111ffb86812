#pragma once
// The lazy backend's definitions (compiled into libopdispatch by
// src/lazy.cpp; included by lazy/lazy.hpp when header-only). In order: the
// state, the IR, the lazy kernel (trace or run eagerly), graph collection,
// sync and the graph cache, dumps, registration. The CPU plan is in
// lazy/cpu_plan-inl.hpp.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <limits>
#include <list>
#include <memory>
#include <mutex>
#include <sstream>
#include <typeinfo>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "dispatch/core/object_pool.hpp"
#include "dispatch/dispatcher.hpp"
#include "functionalize/functionalize.hpp"
#include "lazy/backend.hpp"
#include "lazy/graph_executor.hpp"
#include "lazy/ir.hpp"
#include "lazy/lazy.hpp"
#include "lazy/lazy_tensor.hpp"

namespace opd::lazy {

namespace detail {

// What the lazy kernel knows of one operator, computed once (at
// registration, or at its first call through the fallback).
struct OpInfo {
  const OperatorEntry* op = nullptr;
  std::uint64_t hash = 0;  // of the schema text
  bool eager = false;      // data-dependent, random, marked, or no tensor returns
  bool writes = false;
  bool mask_index = false;  // aten::index.Tensor: eager when an index is a mask (bool / uint8)
};

struct State {
  // live lazy tensors
  std::mutex live_mu;
  LazyTensorImpl* live_head = nullptr;
  std::size_t live_count = 0;
  // per-operator facts and registrations
  std::mutex ops_mu;
  std::unordered_map<const OperatorEntry*, std::unique_ptr<OpInfo>> infos;
  std::unordered_set<std::string> eager_names;
  std::unordered_set<std::string> registered;
  RegistrationSet registrations;
  bool fallback_registered = false;
  // shape cache: shape_key -> outputs (bounded: cleared when full)
  std::mutex shape_mu;
  std::unordered_map<std::uint64_t, std::shared_ptr<const OpShape>> shapes;
  // graph cache (LRU) and compiler, under sync_mu
  std::recursive_mutex sync_mu;
  std::list<std::pair<std::uint64_t, std::shared_ptr<Executable>>> lru;
  std::unordered_map<std::uint64_t, std::list<std::pair<std::uint64_t, std::shared_ptr<Executable>>>::iterator> graphs;
  std::size_t capacity = 1024;
  Compiler compiler;
  std::uint64_t epoch = 0;
  std::size_t last_graph_nodes = 0, last_graph_inputs = 0;  // collect's reserve hints
  // counters
  std::atomic<std::uint64_t> nodes_traced{0}, eager_ops{0}, syncs{0}, uncached_compile{0}, cached_compile{0},
      shape_cache_misses{0}, nodes_executed{0}, fused_nodes{0}, inputs_written{0}, weights_transposed{0};
  std::atomic<std::uint64_t> next_data_serial{1};
};

// Never destroyed: lazy tensors may outlive static destructors.
OPD_FUNC State& state() {
  static State* s = new State();
  return *s;
}

constexpr std::uint64_t kDataTag = 0x64617461;  // "data"
constexpr std::size_t kShapeCacheLimit = 1 << 14;

[[noreturn, gnu::cold, gnu::noinline]] OPD_FUNC void refuse(const OperatorEntry& op) {
  throw NotImplementedError(opd::detail::str_cat(
      "lazy: '", op.name(), "' writes its arguments: lazy tensors are never written (use opd::lazy::to_lazy, "
      "which puts functionalization above them)"));
}

OPD_FUNC bool names_eager(const std::unordered_set<std::string>& names, const std::string& op_name) {
  if (names.count(op_name) != 0) return true;
  const std::size_t dot = op_name.find('.');
  return dot != std::string::npos && names.count(op_name.substr(0, dot)) != 0;
}

OPD_FUNC std::unique_ptr<OpInfo> make_info(const OperatorEntry& op, const std::unordered_set<std::string>& eager) {
  auto info = std::make_unique<OpInfo>();
  info->op = &op;
  const std::string_view text = op.has_schema() ? std::string_view(op.schema().text()) : std::string_view(op.name());
  info->hash = schema_hash(text);  // OpNode<Op>::schema_hash, for an operator declared from a type
  // Random operators draw from a generator when they run: run them now.
  info->eager = names_eager(eager, op.name()) || text.find("Generator") != std::string_view::npos;
  info->writes = !op.alias_facts().written.empty();
  info->mask_index = op.name() == "aten::index.Tensor";
  return info;
}

OPD_FUNC OpInfo& info_for(const OperatorEntry& op) {
  State& s = state();
  std::lock_guard<std::mutex> lk(s.ops_mu);
  auto& slot = s.infos[&op];
  if (!slot) slot = make_info(op, s.eager_names);
  return *slot;
}

OPD_FUNC void link(LazyTensorImpl* t) {
  State& s = state();
  std::lock_guard<std::mutex> lk(s.live_mu);
  t->live_next = s.live_head;
  if (s.live_head != nullptr) s.live_head->live_prev = t;
  s.live_head = t;
  ++s.live_count;
}
OPD_FUNC void unlink(LazyTensorImpl* t) noexcept {
  State& s = state();
  std::lock_guard<std::mutex> lk(s.live_mu);
  if (t->live_prev != nullptr) t->live_prev->live_next = t->live_next;
  else s.live_head = t->live_next;
  if (t->live_next != nullptr) t->live_next->live_prev = t->live_prev;
  --s.live_count;
}

OPD_FUNC const OperatorEntry& clone_op() {
  static const OperatorEntry& op = Dispatcher::singleton().find_schema_or_throw("aten::clone");
  return op;
}
OPD_FUNC Tensor cpu_clone(const Tensor& t) {
  Stack s;
  s.emplace_back(t);
  s.emplace_back();  // memory_format = None
  redispatch_boxed(clone_op(), DispatchKeySet(DispatchKey::CPU), s);
  return std::move(s.back()).to_tensor();
}

OPD_FUNC Tensor wrap(const NodePtr& node, std::uint32_t index) {
  return Tensor(make_intrusive<LazyTensorImpl>(node, index));
}

// ---- tracing ---------------------------------------------------------------

struct Tracer {
  Node& node;
  std::uint64_t key;
  void operand(const Tensor& t, const OperatorEntry& op) {
    if (LazyTensorImpl* l = lazy_impl_unwrapped(t)) {
      node.operands.push_back(Operand{l->node(), l->index()});
    } else if (t.device().is_cpu()) {  // a CPU tensor among lazy ones: a graph input
      node.operands.push_back(Operand{make_data_node({t.unsafe_get_impl()->is_wrapped_number() ? t : cpu_clone(t)}), 0});
    } else {
      throw ValueError(opd::detail::str_cat("lazy: '", op.name(), "' got a tensor on ", t.device(),
                                            ": expected lazy tensors (or CPU ones)"));
    }
    const Operand& o = node.operands.back();
    key = hash_combine(key, o.node->output(o.index).hash);
  }
  static LazyTensorImpl* lazy_impl_unwrapped(const Tensor& t) {
    // An exact type test (the class is final): cheaper than dynamic_cast. A
    // functional wrapper over a lazy tensor carries the Lazy key too.
    if (!t.key_set().has(kLazyKey)) return nullptr;
    TensorImpl* impl = t.unsafe_get_impl();
    return typeid(*impl) == typeid(LazyTensorImpl) ? static_cast<LazyTensorImpl*>(impl) : nullptr;
  }
};

OPD_FUNC Tensor meta_tensor(const OutputMeta& m) {
  Tensor t = empty_strided(m.sizes, m.strides, m.dtype, Device::meta());
  if (m.wrapped_number) t.unsafe_get_impl()->set_wrapped_number(true);
  return t;
}

OPD_FUNC IValue device_to(const IValue& v, Device d) {
  if (v.is_device() && v.to_device().type() == DeviceType::Lazy) return IValue(d);
  return v;
}

// The operator's Meta kernel on meta tensors of the operands' shapes; null
// when the operator has none, it fails, or it returns something other than
// tensors (then the call runs eagerly, and reports a real error there).
OPD_FUNC std::shared_ptr<const OpShape> infer_shape(const OperatorEntry& op, const Node& node, OpInfo& info) {
  const KernelFunction& k = op.lookup(DispatchKey::Meta);
  if (&k == &OperatorEntry::missing_kernel() || k.fallthrough) {
    info.eager = true;
    return nullptr;
  }
  state().shape_cache_misses.fetch_add(1, std::memory_order_relaxed);
  Stack s;
  s.reserve(node.kinds.size());
  std::size_t j = 0;
  for (std::size_t i = 0; i < node.kinds.size(); ++i) {
    switch (node.kinds[i]) {
      case ArgKind::attribute: s.push_back(device_to(node.attributes[i], Device::meta())); break;
      case ArgKind::tensor: {
        const Operand& o = node.operands[j++];
        s.emplace_back(meta_tensor(o.node->output(o.index)));
        break;
      }
      case ArgKind::tensor_list: {
        std::vector<Tensor> list;
        for (std::int64_t e = 0; e < node.attributes[i].to_int(); ++e, ++j)
          list.push_back(meta_tensor(node.operands[j].node->output(node.operands[j].index)));
        s.emplace_back(std::move(list));
        break;
      }
      case ArgKind::optional_tensor_list: {
        std::vector<std::optional<Tensor>> list;
        for (std::int64_t e = 0; e < node.attributes[i].to_int(); ++e, ++j) {
          const Operand& o = node.operands[j];
          if (o.node) list.emplace_back(meta_tensor(o.node->output(o.index)));
          else list.emplace_back(std::nullopt);
        }
        s.emplace_back(std::move(list));
        break;
      }
    }
  }
  try {
    redispatch_boxed(op, DispatchKeySet(DispatchKey::Meta), s);
  } catch (const std::exception&) {
    return nullptr;
  }
  auto shape = std::make_shared<OpShape>();
  for (const IValue& r : s) {
    if (r.is_tensor() && r.to_tensor().defined()) {
      shape->outputs.push_back(meta_of(r.to_tensor()));
      shape->returns.push_back(-1);
    } else if (r.is_tensor_list()) {
      for (const Tensor& t : r.to_tensor_list()) shape->outputs.push_back(meta_of(t));
      shape->returns.push_back(static_cast<std::int32_t>(r.to_tensor_list().size()));
    } else {
      info.eager = true;  // returns a value that is no tensor: never lazy
      return nullptr;
    }
  }
  return shape;
}

OPD_FUNC void sync_nodes(std::vector<NodePtr> roots);

// Runs the operator now on the CPU: lazy inputs are materialized, the
// results become graph inputs (unless the call named another device).
OPD_FUNC void run_eager(const OperatorEntry& op, Stack& stack, std::size_t first) {
  State& st = state();
  st.eager_ops.fetch_add(1, std::memory_order_relaxed);
  std::vector<NodePtr> pending;
  auto note = [&](const Tensor& t) {
    if (LazyTensorImpl* l = Tracer::lazy_impl_unwrapped(t); l != nullptr && l->pending()) pending.push_back(l->node());
  };
  for (std::size_t i = first; i < stack.size(); ++i) {
    const IValue& v = stack[i];
    if (v.is_tensor()) note(v.to_tensor());
    else if (v.is_tensor_list())
      for (const Tensor& t : v.to_tensor_list()) note(t);
    else if (v.is_optional_tensor_list())
      for (const auto& t : v.to_optional_tensor_list())
        if (t) note(*t);
  }
  if (!pending.empty()) sync_nodes(std::move(pending));
  auto to_cpu_tensor = [](const Tensor& t) -> Tensor {
    if (LazyTensorImpl* l = Tracer::lazy_impl_unwrapped(t)) return l->node()->data[l->index()];
    return t;
  };
  bool other_device = false;
  for (std::size_t i = first; i < stack.size(); ++i) {
    IValue& v = stack[i];
    if (v.is_tensor()) {
      v = IValue(to_cpu_tensor(v.to_tensor()));
    } else if (v.is_tensor_list()) {
      std::vector<Tensor> list = v.to_tensor_list();
      for (Tensor& t : list) t = to_cpu_tensor(t);
      v = IValue(std::move(list));
    } else if (v.is_optional_tensor_list()) {
      std::vector<std::optional<Tensor>> list = v.to_optional_tensor_list();
      for (auto& t : list)
        if (t) t = to_cpu_tensor(*t);
      v = IValue(std::move(list));
    } else if (v.is_device()) {
      if (v.to_device().type() == DeviceType::Lazy) v = IValue(Device::cpu());
      else other_device = true;
    }
  }
  redispatch_boxed(op, DispatchKeySet(DispatchKey::CPU), stack);
  if (other_device) return;
  for (std::size_t i = first; i < stack.size(); ++i) {
    IValue& v = stack[i];
    if (v.is_tensor() && v.to_tensor().defined()) {
      v = IValue(wrap(make_data_node({v.to_tensor()}), 0));
    } else if (v.is_tensor_list()) {
      std::vector<Tensor> list = v.to_tensor_list();
      for (Tensor& t : list) t = wrap(make_data_node({t}), 0);
      v = IValue(std::move(list));
    }
  }
}

// The lazy kernel: the same boxed function for every operator.
OPD_FUNC void trace(OpInfo& info, const OperatorEntry& op, Stack& stack) {
  // A view is traced as its value: a lazy tensor is never written, so its
  // views need no alias (autograd's formulas call views on bare lazy tensors).
  if (info.writes) [[unlikely]]
    refuse(op);
  const std::size_t n = op.num_arguments();
  const std::size_t first = stack.size() - n;
  State& st = state();
  if (!info.eager) {
    auto node = std::allocate_shared<Node>(PoolAllocator<Node>{});
    node->op = &op;
    node->kinds.resize(n, ArgKind::attribute);
    node->attributes.resize(n);
    Tracer tr{*node, info.hash};
    bool other_device = false;
    for (std::size_t i = 0; i < n; ++i) {
      const IValue& v = stack[first + i];
      if (v.is_tensor()) {
        const Tensor& t = v.to_tensor();
        if (t.defined()) {
          node->kinds[i] = ArgKind::tensor;
          tr.operand(t, op);
        } else {
          tr.key = hash_combine(tr.key, 0x11);
        }
      } else if (v.is_tensor_list()) {
        node->kinds[i] = ArgKind::tensor_list;
        const auto& list = v.to_tensor_list();
        node->attributes[i] = IValue(static_cast<std::int64_t>(list.size()));
        tr.key = hash_combine(tr.key, 0x12 + list.size());
        for (const Tensor& t : list) tr.operand(t, op);
      } else if (v.is_optional_tensor_list()) {
        node->kinds[i] = ArgKind::optional_tensor_list;
        const auto& list = v.to_optional_tensor_list();
        node->attributes[i] = IValue(static_cast<std::int64_t>(list.size()));
        tr.key = hash_combine(tr.key, 0x13 + list.size());
        for (const auto& t : list) {
          if (t && t->defined()) {
            tr.operand(*t, op);
          } else {
            node->operands.push_back(Operand{});
            tr.key = hash_combine(tr.key, 0x14);
          }
        }
      } else {
        if (v.is_device() && v.to_device().type() != DeviceType::Lazy) other_device = true;
        node->attributes[i] = v;
        tr.key = hash_combine(tr.key, hash_ivalue(v));
      }
    }
    if (info.mask_index) [[unlikely]] {
      for (std::size_t j = 1; j < node->operands.size(); ++j) {  // after self: the indices
        const Operand& o = node->operands[j];
        const ScalarType dt = o.node ? o.node->output(o.index).dtype : ScalarType::Float;
        if (dt == ScalarType::Bool || dt == ScalarType::Byte) other_device = true;  // data-dependent: run now
      }
    }
    if (!other_device) {
      std::shared_ptr<const OpShape> shape;
      {
        std::lock_guard<std::mutex> lk(st.shape_mu);
        auto it = st.shapes.find(tr.key);
        if (it != st.shapes.end()) shape = it->second;
      }
      if (!shape) {
        shape = infer_shape(op, *node, info);
        if (shape) {
          std::lock_guard<std::mutex> lk(st.shape_mu);
          if (st.shapes.size() >= kShapeCacheLimit) st.shapes.clear();
          st.shapes.emplace(tr.key, shape);
        }
      }
      if (shape) {
        node->shape = std::move(shape);
        node->shape_key = tr.key;
        std::uint64_t h = tr.key;
        for (const Operand& o : node->operands) h = hash_combine(h, o.node ? hash_combine(o.node->hash, o.index) : 0x15);
        node->hash = h;
        stack.resize(first);
        std::uint32_t out = 0;
        for (const std::int32_t r : node->shape->returns) {
          if (r < 0) {
            stack.emplace_back(wrap(node, out++));
          } else {
            std::vector<Tensor> list;
            list.reserve(static_cast<std::size_t>(r));
            for (std::int32_t e = 0; e < r; ++e) list.push_back(wrap(node, out++));
            stack.emplace_back(std::move(list));
          }
        }
        st.nodes_traced.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
  }
  run_eager(op, stack, first);
}

OPD_FUNC void fallback_kernel(const OperatorEntry& op, DispatchKeySet, Stack* stack) { trace(info_for(op), op, *stack); }

// ---- graph collection --------------------------------------------------------

// Post-order from the roots (iterative: graphs may be deep), hashing the
// structure: each node's shape_key and the positions of its operands.
OPD_FUNC void collect(const std::vector<NodePtr>& roots, Graph& g) {
  State& st = state();
  const std::uint64_t epoch = ++st.epoch;
  std::uint64_t h = 0x67726170;  // "grap"
  // Sized as the last graph: a step's graph is usually the previous one again.
  g.nodes.reserve(st.last_graph_nodes);
  g.inputs.reserve(st.last_graph_inputs);
  std::vector<std::pair<Node*, std::size_t>> todo;
  todo.reserve(64);
  for (const NodePtr& root : roots) {
    if (root->mark == epoch) continue;
    root->mark = epoch;
    todo.emplace_back(root.get(), 0);
    while (!todo.empty()) {
      auto& [node, next] = todo.back();
      if (!node->is_data() && next < node->operands.size()) {
        Node* child = node->operands[next++].node.get();
        if (child != nullptr && child->mark != epoch) {
          child->mark = epoch;
          todo.emplace_back(child, 0);
        }
        continue;
      }
      Node* done = node;
      todo.pop_back();
      done->order = static_cast<std::uint32_t>(g.nodes.size());
      g.nodes.push_back(done);
      h = hash_combine(h, done->shape_key);
      if (done->is_data()) {
        g.inputs.push_back(done->order);
      } else {
        for (const Operand& o : done->operands)
          h = hash_combine(h, o.node ? (static_cast<std::uint64_t>(o.node->order) << 16 | o.index) + 1 : 0);
      }
    }
  }
  g.roots.reserve(roots.size());
  for (const NodePtr& root : roots) {
    if (root->is_data()) continue;
    g.roots.push_back(root->order);
    h = hash_combine(h, root->order);
  }
  g.hash = h;
  st.last_graph_nodes = g.nodes.size();
  st.last_graph_inputs = g.inputs.size();
}

// The pending nodes among these, each once, in their first order (the
// order is part of the graph's structure hash: keep it deterministic).
// Under sync_mu: duplicates are found with the nodes' marks, no set.
OPD_FUNC std::vector<NodePtr> unique_pending(std::vector<NodePtr> nodes) {
  const std::uint64_t epoch = ++state().epoch;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Node* n = nodes[i].get();
    if (n->is_data() || n->mark == epoch) continue;
    n->mark = epoch;
    if (kept != i) nodes[kept] = std::move(nodes[i]);
    ++kept;
  }
  nodes.resize(kept);
  return nodes;
}

OPD_FUNC std::uint64_t data_key(const OpShape& shape) {
  std::uint64_t h = kDataTag;
  for (const OutputMeta& m : shape.outputs) h = hash_combine(h, m.hash);
  return h;
}

OPD_FUNC void sync_nodes(std::vector<NodePtr> roots) {
  State& st = state();
  std::lock_guard<std::recursive_mutex> lk(st.sync_mu);
  roots = unique_pending(std::move(roots));
  if (roots.empty()) return;
  // (1)-(2) collect and hash
  Graph g;
  collect(roots, g);
  // (3) the graph cache
  std::shared_ptr<Executable> exe;
  if (auto it = st.graphs.find(g.hash); it != st.graphs.end()) {
    st.lru.splice(st.lru.begin(), st.lru, it->second);
    exe = it->second->second;
    st.cached_compile.fetch_add(1, std::memory_order_relaxed);
  } else {
    exe = st.compiler ? st.compiler(g) : compile_cpu_plan(g);
    st.uncached_compile.fetch_add(1, std::memory_order_relaxed);
    if (st.capacity > 0) {
      st.lru.emplace_front(g.hash, exe);
      st.graphs[g.hash] = st.lru.begin();
      while (st.lru.size() > st.capacity) {
        st.graphs.erase(st.lru.back().first);
        st.lru.pop_back();
      }
    }
  }
  // (4) run: throws before anything changed when an operator fails
  std::vector<Tensor> outputs = exe->run(g);
  st.syncs.fetch_add(1, std::memory_order_relaxed);
  // (5) the roots become data
  std::size_t k = 0;
  for (const std::uint32_t r : g.roots) {
    Node* node = g.nodes[r];
    const std::size_t n = node->num_outputs();
    node->data.assign(outputs.begin() + static_cast<std::ptrdiff_t>(k),
                      outputs.begin() + static_cast<std::ptrdiff_t>(k + n));
    k += n;
    node->data_serial = st.next_data_serial.fetch_add(1, std::memory_order_relaxed);
    node->operands.clear();
    node->shape_key = node->hash = data_key(*node->shape);
  }
}

OPD_FUNC std::vector<NodePtr> live_pending_nodes() {
  State& st = state();
  std::vector<NodePtr> nodes;
  std::lock_guard<std::mutex> lk(st.live_mu);
  for (LazyTensorImpl* t = st.live_head; t != nullptr; t = t->live_next)
    if (t->pending()) nodes.push_back(t->node());
  return nodes;
}

OPD_FUNC std::vector<NodePtr> pending_nodes_of(std::span<const Tensor> tensors) {
  std::vector<NodePtr> nodes;
  for (const Tensor& t : tensors) {
    if (!t.defined()) continue;
    if (is_functional(t)) opd::sync(t);
    if (LazyTensorImpl* l = lazy_impl(t); l != nullptr && l->pending()) nodes.push_back(l->node());
  }
  return nodes;
}

// ---- dumps -------------------------------------------------------------------

OPD_FUNC void print_meta(std::ostream& os, const OutputMeta& m) {
  os << to_string(m.dtype) << "[";
  for (std::size_t d = 0; d < m.sizes.size(); ++d) os << (d ? ", " : "") << m.sizes[d];
  os << "]";
}

OPD_FUNC std::string operand_name(const Operand& o) {
  if (!o.node) return "None";
  std::string s = "%" + std::to_string(o.node->order);
  if (o.node->num_outputs() > 1) s += "." + std::to_string(o.index);
  return s;
}

OPD_FUNC std::string dump_text(std::vector<NodePtr> roots) {
  std::lock_guard<std::recursive_mutex> lk(state().sync_mu);
  roots = unique_pending(std::move(roots));
  Graph g;
  collect(roots, g);
  std::ostringstream os;
  std::vector<bool> is_root(g.nodes.size(), false);
  for (const std::uint32_t r : g.roots) is_root[r] = true;
  for (const Node* n : g.nodes) {
    os << "%" << n->order << " = " << n->op_name() << "(";
    bool first = true;
    for (const Operand& o : n->operands) {
      os << (first ? "" : ", ") << operand_name(o);
      first = false;
    }
    const std::string attrs = n->is_data() ? std::string() : n->attributes_str();
    if (!attrs.empty()) os << (first ? "" : ", ") << attrs;
    os << ")  ";
    for (std::size_t i = 0; i < n->num_outputs(); ++i) {
      if (i) os << ", ";
      print_meta(os, n->output(i));
    }
    if (is_root[n->order]) os << "  (live)";
    os << "\n";
  }
  os << "graph hash " << std::hex << g.hash << std::dec << ", " << g.nodes.size() << " nodes, " << g.inputs.size()
     << " inputs, " << g.roots.size() << " live\n";
  return os.str();
}

OPD_FUNC std::string dump_dot_of(std::vector<NodePtr> roots) {
  std::lock_guard<std::recursive_mutex> lk(state().sync_mu);
  roots = unique_pending(std::move(roots));
  Graph g;
  collect(roots, g);
  std::ostringstream os;
  os << "digraph lazy {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (const Node* n : g.nodes) {
    os << "  n" << n->order << " [label=\"%" << n->order << " " << n->op_name();
    const std::string attrs = n->is_data() ? std::string() : n->attributes_str();
    if (!attrs.empty()) {
      std::string escaped;
      for (const char c : attrs) {
        if (c == '"' || c == '\\') escaped += '\\';
        escaped += c;
      }
      os << "\\n" << escaped;
    }
    for (std::size_t i = 0; i < n->num_outputs(); ++i) {
      os << "\\n";
      print_meta(os, n->output(i));
    }
    os << "\"" << (n->is_data() ? ", style=dashed" : "") << "];\n";
  }
  for (const Node* n : g.nodes)
    for (const Operand& o : n->operands)
      if (o.node) os << "  n" << o.node->order << " -> n" << n->order << ";\n";
  os << "}\n";
  return os.str();
}

}  // namespace detail

// ---- the IR ------------------------------------------------------------------

OPD_FUNC std::string Node::op_name() const { return is_data() || op == nullptr ? "data" : op->name(); }

OPD_FUNC std::size_t Node::first_operand(std::size_t argument) const {
  std::size_t first = 0;
  for (std::size_t i = 0; i < argument; ++i) {
    if (kinds[i] == ArgKind::tensor) ++first;
    else if (kinds[i] != ArgKind::attribute) first += static_cast<std::size_t>(attributes[i].to_int());
  }
  return first;
}

OPD_FUNC std::string Node::attributes_str() const {
  std::ostringstream os;
  bool first = true;
  const bool named = op != nullptr && op->has_schema();
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] != ArgKind::attribute) continue;
    os << (first ? "" : ", ");
    if (named) os << op->schema()->arguments[i].name << "=";
    os << attributes[i];
    first = false;
  }
  return os.str();
}

OPD_FUNC OutputMeta meta_of(const Tensor& t) {
  OutputMeta m;
  m.sizes.assign(t.sizes().begin(), t.sizes().end());
  m.strides.assign(t.strides().begin(), t.strides().end());
  m.dtype = t.dtype();
  m.wrapped_number = t.unsafe_get_impl()->is_wrapped_number();
  std::uint64_t h = hash_combine(static_cast<std::uint64_t>(m.dtype) + 1, m.wrapped_number ? 2 : 1);
  h = hash_combine(h, m.sizes.size());
  for (const std::int64_t s : m.sizes) h = hash_combine(h, static_cast<std::uint64_t>(s));
  for (const std::int64_t s : m.strides) h = hash_combine(h, static_cast<std::uint64_t>(s));
  m.hash = h;
  return m;
}

OPD_FUNC NodePtr make_data_node(std::vector<Tensor> values) {
  auto node = std::allocate_shared<Node>(PoolAllocator<Node>{});
  auto shape = std::make_shared<OpShape>();
  for (const Tensor& t : values) {
    shape->outputs.push_back(meta_of(t));
    shape->returns.push_back(-1);
  }
  node->shape = std::move(shape);
  node->data = std::move(values);
  node->data_serial = detail::state().next_data_serial.fetch_add(1, std::memory_order_relaxed);
  node->shape_key = node->hash = detail::data_key(*node->shape);
  return node;
}

OPD_FUNC std::uint64_t hash_ivalue(const IValue& v) noexcept {
  using Tag = IValueTag;
  std::uint64_t h = static_cast<std::uint64_t>(v.tag()) + 0x100;
  switch (v.tag()) {
    case Tag::Int: return hash_combine(h, static_cast<std::uint64_t>(v.to_int()));
    case Tag::Bool: return hash_combine(h, v.to_bool() ? 1 : 0);
    case Tag::Double: {
      const double d = v.to_double();
      std::uint64_t bits = 0;
      std::memcpy(&bits, &d, sizeof bits);
      return hash_combine(h, bits);
    }
    case Tag::ComplexDouble: {
      const std::complex<double> c = v.to_complex_double();
      return hash_combine(hash_ivalue(IValue(c.real())), hash_ivalue(IValue(c.imag())));
    }
    case Tag::String: return hash_combine(h, std::hash<std::string_view>{}(v.to_string_ref()));
    case Tag::Device: {
      const Device d = v.to_device();
      return hash_combine(hash_combine(h, static_cast<std::uint64_t>(d.type())), static_cast<std::uint64_t>(d.index() + 1));
    }
    case Tag::IntList:
      for (const std::int64_t x : v.to_int_list()) h = hash_combine(h, static_cast<std::uint64_t>(x));
      return hash_combine(h, v.to_int_list().size());
    case Tag::DoubleList:
      for (const double x : v.to_double_list()) h = hash_combine(h, hash_ivalue(IValue(x)));
      return hash_combine(h, v.to_double_list().size());
    case Tag::BoolList:
      for (const bool x : v.to_bool_list()) h = hash_combine(h, x ? 1 : 2);
      return hash_combine(h, v.to_bool_list().size());
    case Tag::StringList:
      for (const std::string& x : v.to_string_list()) h = hash_combine(h, std::hash<std::string>{}(x));
      return hash_combine(h, v.to_string_list().size());
    case Tag::GenericList:
      for (const IValue& x : v.to_generic_list()) h = hash_combine(h, hash_ivalue(x));
      return hash_combine(h, v.to_generic_list().size());
    case Tag::Tuple:
      for (const IValue& x : v.to_tuple()) h = hash_combine(h, hash_ivalue(x));
      return hash_combine(h, v.to_tuple().size());
    default: return h;
  }
}

// ---- lazy tensors ------------------------------------------------------------

OPD_FUNC LazyTensorImpl::LazyTensorImpl(NodePtr node, std::uint32_t index)
    : TensorImpl(Storage::from_blob(nullptr, std::numeric_limits<std::size_t>::max() / 4, kLazyDevice),
                 DispatchKeySet(kLazyKey), node->output(index).dtype),
      node_(std::move(node)),
      index_(index) {
  const OutputMeta& m = node_->output(index_);
  set_sizes_and_strides_unchecked(m.sizes, m.strides);  // a Meta kernel's (or a CPU tensor's) geometry
  if (m.wrapped_number) set_wrapped_number(true);
  detail::link(this);
}

OPD_FUNC LazyTensorImpl::~LazyTensorImpl() { detail::unlink(this); }

OPD_FUNC LazyTensorImpl* lazy_impl(const Tensor& t) {
  if (!t.defined()) return nullptr;
  if (is_functional(t)) return lazy_impl(from_functional(t));
  return detail::Tracer::lazy_impl_unwrapped(t);
}

namespace detail {

OPD_FUNC Tensor make_lazy_of(const Tensor& cpu, bool adopt) {
  OPD_CHECK_VALUE(cpu.defined() && cpu.device().is_cpu(), "opd::lazy::make_lazy: expected a defined CPU tensor");
  static const bool registered = (ensure_registered(), true);  // once; later operators: call ensure_registered
  (void)registered;
  return wrap(make_data_node({adopt ? cpu : cpu_clone(cpu)}), 0);
}

// Nobody but `mine` holds this CPU tensor or its memory.
OPD_FUNC bool sole_owner(const Tensor& mine) {
  const TensorImpl* impl = mine.unsafe_get_impl();
  return impl->use_count() == 1 && mine.storage().use_count() == 1 && impl->autograd_meta() == nullptr &&
         !impl->is_wrapped_number();
}

}  // namespace detail

OPD_FUNC Tensor make_lazy(const Tensor& cpu) { return detail::make_lazy_of(cpu, false); }
OPD_FUNC Tensor make_lazy(Tensor&& cpu) {
  const Tensor mine = std::move(cpu);
  return detail::make_lazy_of(mine, mine.defined() && detail::sole_owner(mine));
}

OPD_FUNC Tensor to_lazy(const Tensor& cpu) { return to_functional(make_lazy(cpu), FunctionalizeMode::remove_views); }
OPD_FUNC Tensor to_lazy(Tensor&& cpu) { return to_functional(make_lazy(std::move(cpu)), FunctionalizeMode::remove_views); }

namespace detail {

// t's lazy tensor, its value computed.
OPD_FUNC LazyTensorImpl& synced_lazy(const Tensor& t) {
  if (is_functional(t)) opd::sync(t);
  LazyTensorImpl* l = lazy_impl(t);
  OPD_CHECK_VALUE(l != nullptr, "opd::lazy::to_cpu: not a lazy tensor");
  if (l->pending()) sync_nodes({l->node()});
  return *l;
}

// Whether `mine` (handed over) is the only holder of its lazy value's buffer:
// its wrapper and the wrapper's storage unshared, the lazy tensor held only
// by them, its node by it alone (no other output's tensor, no pending
// reader), the buffer by the node alone (no view of it).
OPD_FUNC bool sole_holder(const Tensor& mine, const LazyTensorImpl& l) {
  std::size_t expected = 1;  // `mine` itself, when it is the lazy tensor
  if (const functionalization::FunctionalTensorImpl* f = functional_impl(mine)) {
    if (f->use_count() != 1 || f->functional_storage().use_count() != 1) return false;
    expected = f->functional_storage()->base().unsafe_get_impl() == &l ? 2 : 1;  // its value (and base)
  }
  if (l.use_count() != expected || l.node().use_count() != 1) return false;
  const Tensor& data = l.node()->data[l.index()];
  return data.unsafe_get_impl()->use_count() == 1 && data.storage().use_count() == 1;
}

}  // namespace detail

OPD_FUNC Tensor to_cpu(const Tensor& t) {
  const LazyTensorImpl& l = detail::synced_lazy(t);
  return detail::cpu_clone(l.node()->data[l.index()]);
}

OPD_FUNC Tensor to_cpu(Tensor&& t) {
  const Tensor mine = std::move(t);
  const LazyTensorImpl& l = detail::synced_lazy(mine);
  if (detail::sole_holder(mine, l)) return std::move(l.node()->data[l.index()]);  // the node dies with `mine`
  return detail::cpu_clone(l.node()->data[l.index()]);
}

// ---- executor entry points ------------------------------------------------------

OPD_FUNC Executable::~Executable() = default;

OPD_FUNC Counters counters() {
  const detail::State& s = detail::state();
  Counters c;
  c.nodes_traced = s.nodes_traced.load();
  c.eager_ops = s.eager_ops.load();
  c.syncs = s.syncs.load();
  c.uncached_compile = s.uncached_compile.load();
  c.cached_compile = s.cached_compile.load();
  c.shape_cache_misses = s.shape_cache_misses.load();
  c.nodes_executed = s.nodes_executed.load();
  c.fused_nodes = s.fused_nodes.load();
  c.inputs_written = s.inputs_written.load();
  c.weights_transposed = s.weights_transposed.load();
  return c;
}

OPD_FUNC void reset_counters() {
  detail::State& s = detail::state();
  for (auto* c : {&s.nodes_traced, &s.eager_ops, &s.syncs, &s.uncached_compile, &s.cached_compile,
                  &s.shape_cache_misses, &s.nodes_executed, &s.fused_nodes, &s.inputs_written, &s.weights_transposed})
    c->store(0);
}

OPD_FUNC void sync() { detail::sync_nodes(detail::live_pending_nodes()); }
OPD_FUNC void sync(std::span<const Tensor> tensors) { detail::sync_nodes(detail::pending_nodes_of(tensors)); }

OPD_FUNC std::string dump_graph() { return detail::dump_text(detail::live_pending_nodes()); }
OPD_FUNC std::string dump_graph(std::span<const Tensor> tensors) {
  return detail::dump_text(detail::pending_nodes_of(tensors));
}
OPD_FUNC std::string dump_dot() { return detail::dump_dot_of(detail::live_pending_nodes()); }
OPD_FUNC std::string dump_dot(std::span<const Tensor> tensors) {
  return detail::dump_dot_of(detail::pending_nodes_of(tensors));
}

OPD_FUNC void set_graph_cache_capacity(std::size_t capacity) {
  detail::State& s = detail::state();
  std::lock_guard<std::recursive_mutex> lk(s.sync_mu);
  s.capacity = capacity;
  while (s.lru.size() > s.capacity) {
    s.graphs.erase(s.lru.back().first);
    s.lru.pop_back();
  }
}
OPD_FUNC std::size_t graph_cache_size() {
  detail::State& s = detail::state();
  std::lock_guard<std::recursive_mutex> lk(s.sync_mu);
  return s.lru.size();
}
OPD_FUNC void clear_graph_cache() {
  detail::State& s = detail::state();
  std::lock_guard<std::recursive_mutex> lk(s.sync_mu);
  s.lru.clear();
  s.graphs.clear();
}
OPD_FUNC std::size_t live_tensor_count() {
  detail::State& s = detail::state();
  std::lock_guard<std::mutex> lk(s.live_mu);
  return s.live_count;
}

OPD_FUNC Compiler set_compiler(Compiler c) {
  detail::State& s = detail::state();
  std::lock_guard<std::recursive_mutex> lk(s.sync_mu);
  Compiler old = std::exchange(s.compiler, std::move(c));
  s.lru.clear();
  s.graphs.clear();
  return old;
}

OPD_FUNC void mark_eager(std::string_view op_name) {
  detail::State& s = detail::state();
  std::lock_guard<std::mutex> lk(s.ops_mu);
  s.eager_names.emplace(op_name);
  for (auto& [op, info] : s.infos)
    if (detail::names_eager(s.eager_names, op->name())) info->eager = true;
  std::lock_guard<std::mutex> shapes(s.shape_mu);
  s.shapes.clear();
}
OPD_FUNC bool is_marked_eager(std::string_view op_name) {
  detail::State& s = detail::state();
  std::lock_guard<std::mutex> lk(s.ops_mu);
  return detail::names_eager(s.eager_names, std::string(op_name));
}

// ---- registration --------------------------------------------------------------

OPD_FUNC void ensure_registered() {
  functionalization::ensure_registered();
  detail::State& s = detail::state();
  Dispatcher& d = Dispatcher::singleton();
  const std::vector<std::string> names = d.operator_names();
  std::lock_guard<std::mutex> lk(s.ops_mu);
  if (s.eager_names.empty()) {
    // Output shapes that depend on the data (as LTC's list), and reads of a value.
    for (const char* name : {"aten::nonzero", "aten::masked_select", "aten::unique", "aten::_unique", "aten::_unique2",
                             "aten::unique_dim", "aten::unique_consecutive", "aten::argwhere", "aten::nonzero_numpy",
                             "aten::_local_scalar_dense", "aten::item", "aten::equal", "aten::is_nonzero",
                             "aten::allclose", "aten::bincount", "aten::repeat_interleave"})
      s.eager_names.emplace(name);
  }
  if (!s.fallback_registered && !d.has_fallback(kLazyKey)) {
    s.registrations.add(register_fallback(kLazyKey, &detail::fallback_kernel));
    s.fallback_registered = true;
  }
  for (const std::string& name : names) {
    if (s.registered.count(name) != 0) continue;
    OperatorEntry* op = d.find_schema(name);
    if (op == nullptr) continue;
    auto& slot = s.infos[op];
    if (!slot) slot = detail::make_info(*op, s.eager_names);
    detail::OpInfo* info = slot.get();
    s.registrations.add(register_boxed_kernel(
        name, kLazyKey, [info](const OperatorEntry& e, DispatchKeySet, Stack* stack) { detail::trace(*info, e, *stack); }));
    s.registered.insert(name);
  }
}

}  // namespace opd::lazy
