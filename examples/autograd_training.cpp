// Trains a small MLP and a small CNN (conv2d, max pooling, layer norm,
// log_softmax and the nll loss, SGD) on synthetic data with the library's
// operators and its autograd, and prints the loss of each step.
// tests/autograd/training_test.cpp runs the same steps through libtorch.
#include <cstdio>
#include <vector>

#include <autograd/formulas.hpp>

#include "autograd_training.hpp"

int main() {
  auto kernels = opd::kernels::register_cpu();
  auto autograd = opd::autograd::register_autograd();
  const auto mlp = opd_training::train(&opd_training::mlp, opd_training::mlp_problem());
  const auto cnn = opd_training::train(&opd_training::cnn, opd_training::cnn_problem());
  for (std::size_t i = 0; i < mlp.size(); ++i) std::printf("step %2zu  mlp loss %.6f  cnn loss %.6f\n", i, mlp[i], cnn[i]);
  // the models learn: the last five steps' mean loss is below the first five's
  auto learned = [](const std::vector<float>& l) {
    float first = 0, last = 0;
    for (std::size_t i = 0; i < 5; ++i) {
      first += l[i];
      last += l[l.size() - 1 - i];
    }
    return last < first;
  };
  return learned(mlp) && learned(cnn) ? 0 : 1;
}
