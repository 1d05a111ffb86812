#pragma once
// The MLP and the CNN of autograd_training_data.hpp, written with the
// library's operators, and one SGD step: forward, opd::autograd::grad of the
// loss with respect to the parameters, then p -= lr * grad in place without
// grad mode.
#include <autograd/engine.hpp>
#include <autograd/grad_mode.hpp>
#include <autograd/tensor_api.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_loss.hpp>

#include <array>
#include <optional>
#include <vector>

#include "autograd_training_data.hpp"

namespace opd_training {

namespace k = opd::kernels::ops;
using opd::Tensor;

inline std::vector<Tensor> leaves(const Problem& p) {
  std::vector<Tensor> out;
  for (const Param& q : p.params) {
    Tensor t = opd::from_vector<float>(q.values, opd::IntArrayRef(q.shape.data(), q.shape.size()));
    t.set_requires_grad(true);
    out.push_back(t);
  }
  return out;
}
inline Tensor input(const Problem& p, const Batch& b) {
  return opd::from_vector<float>(b.x, opd::IntArrayRef(p.input_shape.data(), p.input_shape.size()));
}
inline Tensor target(const Batch& b) { return opd::from_vector<std::int64_t>(b.target); }

// The negative log-likelihood of the targets, averaged over the batch
// (aten::nll_loss's defaults: reduction mean, no class weights, ignore_index -100).
inline Tensor nll_loss(const Tensor& log_probs, const Tensor& target) { return opd::call<k::nll_loss>(log_probs, target); }
inline Tensor log_softmax(const Tensor& t) { return opd::call<k::log_softmax>(t, std::int64_t{1}, std::nullopt); }

inline Tensor mlp(const std::vector<Tensor>& w, const Tensor& x) {
  const Tensor h = opd::call<k::relu>(opd::call<k::linear>(x, w[0], std::optional<Tensor>(w[1])));
  return log_softmax(opd::call<k::linear>(h, w[2], std::optional<Tensor>(w[3])));
}

inline Tensor cnn(const std::vector<Tensor>& w, const Tensor& x) {
  using ints = std::array<std::int64_t, 2>;
  const ints one{1, 1}, two{2, 2}, zero{0, 0};
  const std::array<std::int64_t, 3> normalized{4, 5, 5};
  Tensor h = opd::call<k::conv2d>(x, w[0], std::optional<Tensor>(w[1]), one, one, one, std::int64_t{1});
  h = opd::call<k::max_pool2d>(opd::call<k::relu>(h), two, two, zero, one, false);
  h = std::get<0>(opd::call<k::native_layer_norm>(h, normalized, std::optional<Tensor>(w[2]), std::optional<Tensor>(w[3]), 1e-5));
  h = opd::call<k::flatten>(h, std::int64_t{1}, std::int64_t{-1});
  return log_softmax(opd::call<k::linear>(h, w[4], std::optional<Tensor>(w[5])));
}

// One step of SGD; returns the loss before the update.
template <class Model>
float sgd_step(Model model, std::vector<Tensor>& params, const Tensor& x, const Tensor& y, float lr) {
  const Tensor loss = nll_loss(model(params, x), y);
  const std::vector<Tensor> grads = opd::autograd::grad({loss}, params);
  opd::NoGradGuard no_grad;
  for (std::size_t i = 0; i < params.size(); ++i) opd::call<k::sub::inplace>(params[i], grads[i], opd::Scalar(lr));
  return opd::to_vector<float>(loss)[0];
}

// The losses of one run over the problem's batches.
template <class Model>
std::vector<float> train(Model model, const Problem& p) {
  std::vector<Tensor> params = leaves(p);
  std::vector<float> losses;
  for (const Batch& b : p.batches) losses.push_back(sgd_step(model, params, input(p, b), target(b), p.lr));
  return losses;
}

}  // namespace opd_training
