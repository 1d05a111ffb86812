#pragma once
// A tensor saved by a node for its backward formula, with the version it had.
//
// An input is saved as it is (its autograd state stays reachable, so a formula
// run under create_graph differentiates through it). An output of the node
// itself is saved as a plain alias (same storage and version counter, no
// autograd state) plus a weak reference to the node: saving it whole would make
// the node own the tensor that owns the node. unpack() rebuilds it as output
// output_nr of the node, so double backward sees the graph.
//
// unpack() fails, with PyTorch's messages, after release() (a second backward
// without retain_graph) and when the tensor was modified in place since it was
// saved (its version counter moved).
#include <cstdint>
#include <memory>
#include <string_view>

#include "autograd/node.hpp"
#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::autograd {

class OPD_API SavedVariable {
 public:
  SavedVariable() = default;
  SavedVariable(const Tensor& t, bool is_output, const std::shared_ptr<Node>& owner = {});

  // `saved_for`: the node unpacking it, named in the in-place error.
  Tensor unpack(const Node* saved_for = nullptr) const;
  void release() noexcept {
    data_ = Tensor();
    released_ = true;
  }
  bool defined() const noexcept { return was_defined_; }

 private:
  Tensor data_;
  std::weak_ptr<Node> weak_grad_fn_;  // outputs only
  std::uint32_t saved_version_ = 0;
  std::uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool was_defined_ = false;
  bool released_ = false;
};

}  // namespace opd::autograd

#ifdef OPD_HEADER_ONLY
#include "autograd/saved_variable-inl.hpp"
#endif
