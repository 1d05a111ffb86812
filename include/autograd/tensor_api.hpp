#pragma once
// The autograd members of opd::Tensor (tensor.hpp declares them as templates
// over detail::autograd_api, defined here).
#include <memory>
#include <optional>
#include <utility>

#include "autograd/autograd_meta.hpp"
#include "autograd/engine.hpp"
#include "autograd/node.hpp"

namespace opd::detail {

template <class Deferred>
struct autograd_api {
  static bool requires_grad(const Tensor& t) { return autograd::requires_grad(t); }
  static const Tensor& set_requires_grad(const Tensor& t, bool r) {
    autograd::set_requires_grad(t, r);
    return t;
  }
  static Tensor grad(const Tensor& t) {
    autograd::AutogradMeta* m = autograd::autograd_meta(t);
    if (m == nullptr) return Tensor();
    std::lock_guard<std::mutex> lock(m->mutex);
    return m->grad;
  }
  static std::shared_ptr<autograd::Node> grad_fn(const Tensor& t) { return autograd::grad_fn(t); }
  static bool is_leaf(const Tensor& t) { return autograd::grad_fn(t) == nullptr; }
  static uint32_t output_nr(const Tensor& t) {
    const autograd::AutogradMeta* m = autograd::autograd_meta(t);
    return m != nullptr ? m->output_nr : 0;
  }
  static Tensor detach(const Tensor& t) { return autograd::detach(t); }
  static void backward(const Tensor& t, const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph) {
    autograd::backward({t}, {gradient}, retain_graph, create_graph);
  }
  template <class F>
  static void register_hook(const Tensor& t, F&& hook) {
    OPD_CHECK(autograd::requires_grad(t), "cannot register a hook on a tensor that doesn't require gradient");
    autograd::TensorHook h = [f = std::forward<F>(hook)](const Tensor& g) -> Tensor {
      if constexpr (std::is_void_v<decltype(f(g))>) {
        f(g);
        return Tensor();
      } else {
        return f(g);
      }
    };
    autograd::AutogradMeta& m = autograd::materialize_autograd_meta(t);
    if (const std::shared_ptr<autograd::Node>& fn = autograd::grad_fn(t))
      fn->add_pre_hook(m.output_nr, std::move(h));
    else
      m.hooks.push_back(std::move(h));
  }
};

}  // namespace opd::detail
