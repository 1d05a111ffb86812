#pragma once
// The engine, out of line (engine.hpp): run_backward in the steps listed there.
#include <cstddef>
#include <queue>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "autograd/autograd_meta.hpp"
#include "autograd/engine.hpp"
#include "autograd/grad_mode.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/ops_arithmetic.hpp"

namespace opd::autograd {

namespace engine_detail {

// a + b, where an undefined gradient is zero.
inline Tensor accumulate(Tensor a, Tensor b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return call<kernels::ops::add::functional>(a, b);
}

// One functional call (not empty + fill_): a backend that records operators
// instead of writing memory (lazy tensors) gets the root gradient too.
inline Tensor ones_like(const Tensor& t) {
  ExcludeDispatchKeyGuard no_autograd(kAutogradKeys);
  return call<kernels::ops::full_like>(t, Scalar(1), std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                       MemoryFormat::Contiguous);
}

struct Capture {
  Node* node;
  std::uint32_t input_nr;
  std::size_t slot;
};

struct ReadyOrder {  // highest sequence number first
  bool operator()(Node* a, Node* b) const noexcept { return a->sequence_nr() < b->sequence_nr(); }
};

inline std::string shape_text(IntArrayRef s) {
  std::ostringstream os;
  os << "torch.Size(" << s << ")";
  return os.str();
}

// Steps 2-5 of engine.hpp over root edges with their gradients.
inline variable_list run_backward(const std::vector<Edge>& roots, variable_list root_grads, bool keep_graph,
                                  bool create_graph, const std::vector<Edge>& outputs, bool accumulate_grad) {
  // 2. dependencies (and every reachable node, kept alive by `alive`)
  std::unordered_map<Node*, int> dependencies;
  std::vector<std::shared_ptr<Node>> alive;
  {
    std::vector<Node*> stack;
    std::unordered_set<Node*> seen;
    for (const Edge& e : roots) {
      if (e.is_valid() && seen.insert(e.function.get()).second) {
        stack.push_back(e.function.get());
        alive.push_back(e.function);
      }
    }
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      for (const Edge& e : n->next_edges()) {
        if (!e.is_valid()) continue;
        ++dependencies[e.function.get()];
        if (seen.insert(e.function.get()).second) {
          stack.push_back(e.function.get());
          alive.push_back(e.function);
        }
      }
    }
  }
  // 3. grad(): run only nodes that lead to a captured input
  std::vector<Capture> captures;
  std::unordered_set<Node*> needed;
  const bool capture_mode = !accumulate_grad || !outputs.empty();
  if (capture_mode) {
    std::unordered_set<Node*> targets;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      if (!outputs[i].is_valid()) continue;
      captures.push_back({outputs[i].function.get(), outputs[i].input_nr, i});
      targets.insert(outputs[i].function.get());
    }
    // A node is needed when one of its edges reaches a target (post-order walk).
    std::unordered_map<Node*, bool> memo;
    std::vector<std::pair<Node*, std::size_t>> stack;
    for (const auto& n : alive) {
      if (memo.count(n.get())) continue;
      stack.emplace_back(n.get(), 0);
      memo[n.get()] = false;
      while (!stack.empty()) {
        auto& [node, next] = stack.back();
        const auto& edges = node->next_edges();
        if (next < edges.size()) {
          Node* child = edges[next++].function.get();
          if (child != nullptr && !memo.count(child)) {
            memo[child] = false;
            stack.emplace_back(child, 0);
          }
          continue;
        }
        bool reaches = false;
        for (const Edge& e : edges) reaches = reaches || (e.is_valid() && (targets.count(e.function.get()) || memo[e.function.get()]));
        memo[node] = reaches;
        stack.pop_back();
      }
    }
    for (const auto& [node, reaches] : memo) {
      if (reaches && !(accumulate_grad == false && dynamic_cast<AccumulateGrad*>(node) != nullptr)) needed.insert(node);
      if (accumulate_grad && targets.count(node)) needed.insert(node);  // backward(inputs=): their accumulators run
    }
  }
  variable_list captured(outputs.size());

  // 4. the ready queue
  std::unordered_map<Node*, variable_list> buffers;
  std::priority_queue<Node*, std::vector<Node*>, ReadyOrder> ready;
  auto deliver = [&](const Edge& e, Tensor g) {
    variable_list& buf = buffers[e.function.get()];
    if (buf.empty()) buf.resize(e.function->num_inputs());
    buf.at(e.input_nr) = accumulate(std::move(buf[e.input_nr]), std::move(g));
  };
  {
    AutoGradMode mode(create_graph);
    for (std::size_t i = 0; i < roots.size(); ++i) {
      if (roots[i].is_valid()) deliver(roots[i], std::move(root_grads[i]));
    }
  }
  {
    std::unordered_set<Node*> queued;
    for (const Edge& e : roots) {
      if (e.is_valid() && dependencies[e.function.get()] == 0 && queued.insert(e.function.get()).second)
        ready.push(e.function.get());
    }
  }
  while (!ready.empty()) {
    Node* node = ready.top();
    ready.pop();
    variable_list inputs = std::move(buffers[node]);
    buffers.erase(node);
    inputs.resize(node->num_inputs());
    variable_list outs;
    {
      AutoGradMode mode(create_graph);
      for (std::uint32_t i = 0; i < inputs.size(); ++i) inputs[i] = node->call_pre_hooks(i, std::move(inputs[i]));
      for (const Capture& c : captures) {
        if (c.node == node) captured[c.slot] = accumulate(std::move(captured[c.slot]), inputs.at(c.input_nr));
      }
      const bool run = !capture_mode || needed.count(node) != 0;
      if (run) {
        std::lock_guard<std::mutex> lock(node->mutex());
        outs = node->apply(std::move(inputs));
        if (!keep_graph) node->release_variables();
      }
      const auto& edges = node->next_edges();
      if (run) {
        OPD_CHECK(outs.size() == edges.size() || edges.empty(), "Function ", node->name(), " returned ", outs.size(),
                  " gradients, expected ", edges.size());
      }
      for (std::size_t i = 0; i < edges.size(); ++i) {
        const Edge& e = edges[i];
        if (!e.is_valid()) continue;
        if (run && i < outs.size()) deliver(e, std::move(outs[i]));
        if (--dependencies[e.function.get()] == 0) ready.push(e.function.get());
      }
    }
  }
  return captured;
}

// Step 1: the roots' edges and gradients, checked as PyTorch checks them.
inline void make_roots(const variable_list& tensors, const variable_list& grad_tensors, std::vector<Edge>& edges,
                       variable_list& grads) {
  OPD_CHECK(grad_tensors.empty() || grad_tensors.size() == tensors.size(), "grad_tensors has ", grad_tensors.size(),
            " elements, expected ", tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    Edge e = gradient_edge(t);
    OPD_CHECK(e.is_valid(), "element ", i, " of tensors does not require grad and does not have a grad_fn");
    Tensor g = grad_tensors.empty() ? Tensor() : grad_tensors[i];
    if (!g.defined()) {
      OPD_CHECK(t.numel() == 1, "grad can be implicitly created only for scalar outputs");
      g = ones_like(t);
    } else {
      OPD_CHECK(g.sizes() == t.sizes(), "Mismatch in shape: grad_output[", i, "] has a shape of ",
                shape_text(g.sizes()), " and output[", i, "] has a shape of ", shape_text(t.sizes()), ".");
    }
    edges.push_back(std::move(e));
    grads.push_back(std::move(g));
  }
}

}  // namespace engine_detail

OPD_FUNC void backward(const variable_list& tensors, const variable_list& grad_tensors,
                       std::optional<bool> retain_graph, bool create_graph, const variable_list& inputs) {
  std::vector<Edge> roots;
  variable_list grads;
  engine_detail::make_roots(tensors, grad_tensors, roots, grads);
  std::vector<Edge> outputs;
  for (const Tensor& in : inputs) {
    Edge e = gradient_edge(in);
    OPD_CHECK(e.is_valid(), "One of the differentiated Tensors does not require grad");
    // A non-leaf input: its gradient is accumulated into its .grad by PyTorch; here only leaves are supported.
    OPD_CHECK(autograd_meta(in)->grad_fn == nullptr, "backward(inputs=...): only leaf tensors are supported");
    outputs.push_back(std::move(e));
  }
  engine_detail::run_backward(roots, std::move(grads), retain_graph.value_or(create_graph), create_graph, outputs,
                              true);
}

OPD_FUNC variable_list grad(const variable_list& outputs, const variable_list& inputs,
                            const variable_list& grad_outputs, std::optional<bool> retain_graph, bool create_graph,
                            bool allow_unused) {
  std::vector<Edge> roots;
  variable_list grads;
  engine_detail::make_roots(outputs, grad_outputs, roots, grads);
  std::vector<Edge> wanted;
  for (const Tensor& in : inputs) {
    Edge e = gradient_edge(in);
    OPD_CHECK(e.is_valid(), "One of the differentiated Tensors does not require grad");
    wanted.push_back(std::move(e));
  }
  variable_list result = engine_detail::run_backward(roots, std::move(grads), retain_graph.value_or(create_graph),
                                                     create_graph, wanted, false);
  for (const Tensor& g : result) {
    OPD_CHECK(allow_unused || g.defined(),
              "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True "
              "if this is the desired behavior.");
  }
  return result;
}

}  // namespace opd::autograd
