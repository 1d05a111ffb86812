#pragma once
// Node and AccumulateGrad, out of line (node.hpp).
#include <atomic>
#include <limits>

#include "autograd/autograd_meta.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/node.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_views.hpp"

namespace opd::autograd {

namespace detail {
OPD_FUNC std::uint64_t next_sequence_nr() noexcept {
  static thread_local std::uint64_t counter = 0;
  return counter++;
}
}  // namespace detail

OPD_FUNC Node::~Node() = default;

OPD_FUNC Tensor Node::call_pre_hooks(std::uint32_t input_nr, Tensor grad) {
  for (auto& [nr, hook] : pre_hooks_) {
    if (nr != input_nr) continue;
    Tensor replaced = hook(grad);
    if (replaced.defined()) grad = std::move(replaced);
  }
  return grad;
}

OPD_FUNC AccumulateGrad::AccumulateGrad(Tensor variable)
    : Node(1, std::numeric_limits<std::uint64_t>::max()), variable_(std::move(variable)) {}

OPD_FUNC Tensor AccumulateGrad::call_pre_hooks(std::uint32_t, Tensor grad) {
  AutogradMeta* m = autograd_meta(variable_);
  if (m == nullptr) return grad;
  for (auto& hook : m->hooks) {
    Tensor replaced = hook(grad);
    if (replaced.defined()) grad = std::move(replaced);
  }
  return grad;
}

// .grad = .grad + new (a new tensor: a .grad handed out earlier is not modified).
// Without create_graph the stored gradient is detached, and copied when someone
// else holds it (the caller's grad_tensors), so that .grad never aliases it.
OPD_FUNC variable_list AccumulateGrad::apply(variable_list&& grads) {
  Tensor g = std::move(grads.at(0));
  if (!g.defined()) return {};
  AutogradMeta& m = materialize_autograd_meta(variable_);
  const bool create_graph = GradMode::is_enabled();
  std::lock_guard<std::mutex> lock(m.mutex);
  if (!m.grad.defined()) {
    if (create_graph) {
      m.grad = std::move(g);
    } else {
      NoGradGuard no_grad;
      m.grad = g.use_count() > 1 ? call<kernels::ops::clone>(detach(g)) : detach(g);
    }
  } else {
    Tensor sum = call<kernels::ops::add::functional>(m.grad, g);
    m.grad = create_graph ? std::move(sum) : detach(sum);
  }
  return {};
}

}  // namespace opd::autograd
