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
//
// Every recorded call makes a node and every dropped graph frees them, so a
// node costs no allocation beyond its own block: make_node takes it (with its
// shared_ptr control block) from the per-thread ObjectPool, and its next edges
// live inside it up to EdgeList::kInline (a malloc + free pair of a small block
// costs about 230 instructions with glibc, a pooled block a few dozen).
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/object_pool.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::autograd {

class Node;
using variable_list = std::vector<Tensor>;

struct Edge {
  std::shared_ptr<Node> function;
  std::uint32_t input_nr = 0;
  bool is_valid() const noexcept { return function != nullptr; }
};

// A node's next edges: inside the node up to kInline (most operators have at
// most three Tensor inputs), on the heap beyond that. Only the edges in use
// are constructed and destroyed.
class EdgeList {
 public:
  static constexpr std::size_t kInline = 3;
  EdgeList() noexcept = default;
  EdgeList(const EdgeList&) = delete;
  EdgeList& operator=(const EdgeList&) = delete;
  ~EdgeList() { clear(); }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const Edge* begin() const noexcept { return data_; }
  const Edge* end() const noexcept { return data_ + size_; }
  const Edge& operator[](std::size_t i) const noexcept { return data_[i]; }

  void push_back(Edge e) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    ::new (data_ + size_) Edge(std::move(e));
    ++size_;
  }
  void assign(std::vector<Edge>&& edges) {
    clear();
    for (Edge& e : edges) push_back(std::move(e));
  }
  void clear() noexcept {
    std::destroy_n(data_, size_);
    size_ = 0;
    if (data_ != inline_edges()) {
      std::allocator<Edge>().deallocate(data_, capacity_);
      data_ = inline_edges();
      capacity_ = kInline;
    }
  }

 private:
  Edge* inline_edges() noexcept { return reinterpret_cast<Edge*>(inline_); }
  [[gnu::noinline]] void grow() {  // rare: kept out of every kernel that adds edges
    const std::size_t capacity = 2 * capacity_;
    Edge* data = std::allocator<Edge>().allocate(capacity);
    for (std::size_t i = 0; i < size_; ++i) {
      ::new (data + i) Edge(std::move(data_[i]));
      data_[i].~Edge();
    }
    if (data_ != inline_edges()) std::allocator<Edge>().deallocate(data_, capacity_);
    data_ = data;
    capacity_ = capacity;
  }

  Edge* data_ = inline_edges();
  std::size_t size_ = 0;
  std::size_t capacity_ = kInline;
  alignas(Edge) unsigned char inline_[kInline * sizeof(Edge)];
};

// A tensor hook: sees the gradient of its tensor; returns a replacement, or an
// undefined tensor to keep the gradient as it is.
using TensorHook = std::function<Tensor(const Tensor&)>;

namespace detail {
OPD_API std::uint64_t next_sequence_nr() noexcept;
}  // namespace detail

class OPD_API Node {
 public:
  explicit Node(std::uint32_t num_inputs = 1, std::uint64_t sequence_nr = detail::next_sequence_nr())
      : sequence_nr_(sequence_nr), num_inputs_(num_inputs) {}
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  // Out of line: every derived node's destructor calls it instead of inlining
  // the edges' and hooks' destruction (one copy, not one per operator).
  virtual ~Node();

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
  const EdgeList& next_edges() const noexcept { return next_edges_; }
  void set_next_edges(std::vector<Edge> edges) { next_edges_.assign(std::move(edges)); }
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
  EdgeList next_edges_;
  std::vector<std::pair<std::uint32_t, TensorHook>> pre_hooks_;
  std::mutex mutex_;
};

// A node of type T from the per-thread pool (see above).
template <class T, class... Args>
std::shared_ptr<T> make_node(Args&&... args) {
  return std::allocate_shared<T>(PoolAllocator<T>{}, std::forward<Args>(args)...);
}

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
