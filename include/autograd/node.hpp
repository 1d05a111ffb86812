#pragma once
// The backward graph: a Node per recorded operator call, Edges to the nodes
// that produced its inputs.
//
//   y = mul(a, b)      y.grad_fn() = MulBackward0, next_edges = {a's edge, b's edge}
//                      a leaf's edge is its AccumulateGrad node (input 0), a non-leaf's
//                      is (its grad_fn, its output_nr); an input that needs no
//                      gradient has an invalid edge (null function)
//
// A Node takes one gradient per output of its forward call (num_inputs) and
// returns one per next edge. Nodes are shared (std::shared_ptr): a tensor owns
// its grad_fn, a node owns the nodes of its edges, so a graph lives exactly as
// long as some tensor can reach it. Saved outputs hold their node weakly
// (saved_variable.hpp), so no cycle keeps a graph alive.
//
// sequence_nr: a per-thread counter taken when the node is created. The engine
// runs the ready node with the highest one first (the one created last), as
// PyTorch's engine does; AccumulateGrad runs before any (UINT64_MAX).
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::autograd {

class Node;
using variable_list = std::vector<Tensor>;

struct Edge {
  std::shared_ptr<Node> function;
  std::uint32_t input_nr = 0;
  bool is_valid() const noexcept { return function != nullptr; }
};

// A tensor hook: sees the gradient of its tensor; returns a replacement, or an
// undefined tensor to keep the gradient as it is.
using TensorHook = std::function<Tensor(const Tensor&)>;

namespace detail {
OPD_API std::uint64_t next_sequence_nr() noexcept;
}  // namespace detail

class OPD_API Node : public std::enable_shared_from_this<Node> {
 public:
  explicit Node(std::uint32_t num_inputs = 1, std::uint64_t sequence_nr = detail::next_sequence_nr())
      : sequence_nr_(sequence_nr), num_inputs_(num_inputs) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  virtual ~Node() = default;

  // "MulBackward0", as PyTorch names it.
  virtual std::string name() const = 0;
  // The gradients of the forward call's inputs (one per next edge) from those
  // of its outputs (num_inputs(); undefined where no gradient flowed).
  virtual variable_list apply(variable_list&& grads) = 0;
  // Frees what the node saved (the engine calls it after apply unless the
  // graph is retained).
  virtual void release_variables() {}
  // Applies the tensor hooks registered on the gradient of input `input_nr`.
  virtual Tensor call_pre_hooks(std::uint32_t input_nr, Tensor grad);

  std::uint64_t sequence_nr() const noexcept { return sequence_nr_; }
  std::uint32_t num_inputs() const noexcept { return num_inputs_; }
  const std::vector<Edge>& next_edges() const noexcept { return next_edges_; }
  void set_next_edges(std::vector<Edge> edges) { next_edges_ = std::move(edges); }
  void add_next_edge(Edge e) { next_edges_.push_back(std::move(e)); }
  // Whether gradient `i` (of the forward call's input with next edge i) is needed.
  bool should_compute_output(std::size_t i) const noexcept {
    return i < next_edges_.size() && next_edges_[i].is_valid();
  }
  void add_pre_hook(std::uint32_t input_nr, TensorHook hook) { pre_hooks_.emplace_back(input_nr, std::move(hook)); }

  // Held while the node runs (apply + release): two threads that reach one
  // node (graphs sharing a part) take turns.
  std::mutex& mutex() noexcept { return mutex_; }

 protected:
  // A call whose result is a Tensor[] knows its number of outputs only after it ran.
  void set_num_inputs(std::uint32_t n) noexcept { num_inputs_ = n; }

 private:
  std::uint64_t sequence_nr_;
  std::uint32_t num_inputs_;
  std::vector<Edge> next_edges_;
  std::vector<std::pair<std::uint32_t, TensorHook>> pre_hooks_;
  std::mutex mutex_;
};

// The sink of a leaf that requires grad: adds the incoming gradient into the
// leaf's .grad. Holds the leaf; the leaf holds it weakly (autograd_meta.hpp).
class OPD_API AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(Tensor variable);
  std::string name() const override { return "torch::autograd::AccumulateGrad"; }
  variable_list apply(variable_list&& grads) override;
  Tensor call_pre_hooks(std::uint32_t input_nr, Tensor grad) override;
  const Tensor& variable() const noexcept { return variable_; }

 private:
  Tensor variable_;
};

}  // namespace opd::autograd

#ifdef OPD_HEADER_ONLY
// (node-inl.hpp needs AutogradMeta: autograd_meta.hpp includes it, last.)
#include "autograd/autograd_meta.hpp"
#endif
