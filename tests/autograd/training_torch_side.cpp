// libtorch 1.13: the MLP and CNN of examples/autograd_training.hpp, trained
// with torch::autograd::grad and SGD, the loss of each step returned.
#include "training_torch_side.hpp"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>

namespace opd_training_torch {
namespace {

using opd_training::Problem;

std::vector<at::Tensor> leaves(const Problem& p) {
  std::vector<at::Tensor> out;
  for (const opd_training::Param& q : p.params) {
    at::Tensor t = at::from_blob(const_cast<float*>(q.values.data()), q.shape, at::kFloat).clone();
    out.push_back(t.set_requires_grad(true));
  }
  return out;
}

template <class Model>
std::vector<float> train(Model model, const Problem& p) {
  std::vector<at::Tensor> params = leaves(p);
  std::vector<float> losses;
  for (const opd_training::Batch& b : p.batches) {
    const at::Tensor x = at::from_blob(const_cast<float*>(b.x.data()), p.input_shape, at::kFloat).clone();
    const at::Tensor y =
        at::from_blob(const_cast<std::int64_t*>(b.target.data()), {static_cast<std::int64_t>(b.target.size())}, at::kLong).clone();
    const at::Tensor loss = at::nll_loss(at::log_softmax(model(params, x), 1), y);
    const std::vector<at::Tensor> grads = torch::autograd::grad({loss}, params);
    {
      at::NoGradGuard no_grad;
      for (std::size_t i = 0; i < params.size(); ++i) params[i].sub_(grads[i], p.lr);
    }
    losses.push_back(loss.item<float>());
  }
  return losses;
}

}  // namespace

std::vector<float> train_mlp(const Problem& p) {
  return train([](const std::vector<at::Tensor>& w,
                  const at::Tensor& x) { return at::linear(at::relu(at::linear(x, w[0], w[1])), w[2], w[3]); },
               p);
}

std::vector<float> train_cnn(const Problem& p) {
  return train(
      [](const std::vector<at::Tensor>& w, const at::Tensor& x) {
        at::Tensor h = at::conv2d(x, w[0], w[1], 1, 1, 1, 1);
        h = at::max_pool2d(at::relu(h), {2, 2}, {2, 2}, {0, 0}, {1, 1}, false);
        h = at::layer_norm(h, {4, 5, 5}, w[2], w[3], 1e-5);
        return at::linear(h.flatten(1), w[4], w[5]);
      },
      p);
}

}  // namespace opd_training_torch
