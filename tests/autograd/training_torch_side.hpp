#pragma once
// The libtorch side of training_test.cpp (compiled as C++17 against libtorch
// 1.13, which does not compile as C++20 with clang): the same models and SGD
// steps as examples/autograd_training.hpp, on the same numbers.
#include <vector>

#include "../../examples/autograd_training_data.hpp"

namespace opd_training_torch {

std::vector<float> train_mlp(const opd_training::Problem& p);
std::vector<float> train_cnn(const opd_training::Problem& p);

}  // namespace opd_training_torch
