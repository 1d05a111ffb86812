#pragma once
// The engine: runs a backward graph from some roots, on the calling thread.
//
//   opd::autograd::backward({loss});                          .grad of every leaf reached
//   auto g = opd::autograd::grad({y}, {x}, {}, false, true);  dy/dx, differentiable (create_graph)
//
// One call, in steps (engine-inl.hpp, run_backward):
//   1. the root edges and their gradients (ones for a one-element root without one);
//   2. dependencies: for every node reachable from the roots, how many edges point at it;
//   3. for grad(): which nodes lead to a requested input (only those run), and
//      where each requested input's gradient is taken;
//   4. a ready queue ordered by sequence number (the latest-created node first);
//      each node's incoming gradients are summed in its input buffer and it runs
//      when its last producer has run: pre-hooks, apply (grad mode = create_graph),
//      release of its saved values unless retain_graph, gradients to its edges;
//   5. the captured gradients, in the order of the inputs.
// All state of a call is local to it: independent backward calls may run on
// several threads at once (a node reached by two calls runs under its mutex).
#include <optional>
#include <vector>

#include "autograd/node.hpp"
#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::autograd {

// PyTorch's torch.autograd.backward: accumulates into the .grad of the leaves
// (of `inputs` only, when given). grad_tensors may be empty (ones for
// one-element outputs) or hold an undefined tensor per such output.
OPD_API void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
                      std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                      const variable_list& inputs = {});

// PyTorch's torch.autograd.grad: the gradients of `outputs` with respect to
// `inputs`, without touching any .grad. An input that the outputs do not
// depend on is an error unless allow_unused (then its gradient is undefined).
OPD_API variable_list grad(const variable_list& outputs, const variable_list& inputs,
                           const variable_list& grad_outputs = {}, std::optional<bool> retain_graph = std::nullopt,
                           bool create_graph = false, bool allow_unused = false);

}  // namespace opd::autograd

#ifdef OPD_HEADER_ONLY
#include "autograd/engine-inl.hpp"
#endif
