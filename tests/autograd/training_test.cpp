// Training end to end: the MLP and the CNN of examples/autograd_training.hpp
// (conv2d, max pooling, layer norm, log_softmax and the nll loss, SGD) run 20
// steps with the library's operators and autograd, and the same steps, from
// the same weights and batches, run through libtorch 1.13: the losses agree
// within 1e-5 relative (float32), and they fall.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "../../examples/autograd_training.hpp"
#include "all_formulas.hpp"
#include "all_kernels.hpp"
#ifdef OPD_HAVE_LIBTORCH
#include "training_torch_side.hpp"
#endif

namespace {

class Training : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    kernels_ = new opd::RegistrationSet(opd_test::register_all_kernels());
    autograd_ = new opd::RegistrationSet(opd_test::register_all_formulas());
  }
  static void TearDownTestSuite() {
    delete autograd_;
    delete kernels_;
  }
  static inline opd::RegistrationSet* kernels_ = nullptr;
  static inline opd::RegistrationSet* autograd_ = nullptr;
};

float mean(const std::vector<float>& v, std::size_t from, std::size_t n) {
  float s = 0;
  for (std::size_t i = from; i < from + n; ++i) s += v[i];
  return s / static_cast<float>(n);
}

#ifdef OPD_HAVE_LIBTORCH
void expect_same_losses(const std::vector<float>& opd_losses, const std::vector<float>& torch_losses) {
  ASSERT_EQ(opd_losses.size(), torch_losses.size());
  double worst = 0, exact = 0;
  for (std::size_t i = 0; i < opd_losses.size(); ++i) {
    const double rel = std::abs(static_cast<double>(opd_losses[i]) - torch_losses[i]) / std::abs(torch_losses[i]);
    EXPECT_LE(rel, 1e-5) << "step " << i << ": opd " << opd_losses[i] << ", libtorch " << torch_losses[i];
    worst = std::max(worst, rel);
    exact += rel == 0 ? 1 : 0;
  }
  std::cout << "losses against libtorch: largest relative difference " << worst << ", " << exact << " of "
            << opd_losses.size() << " steps equal\n";
}
#endif

TEST_F(Training, MlpLearns) {
  const auto p = opd_training::mlp_problem();
  const std::vector<float> losses = opd_training::train(&opd_training::mlp, p);
  ASSERT_EQ(losses.size(), 20u);
  EXPECT_LT(mean(losses, 15, 5), mean(losses, 0, 5));
#ifdef OPD_HAVE_LIBTORCH
  expect_same_losses(losses, opd_training_torch::train_mlp(p));
#endif
}

TEST_F(Training, CnnLearns) {
  const auto p = opd_training::cnn_problem();
  const std::vector<float> losses = opd_training::train(&opd_training::cnn, p);
  ASSERT_EQ(losses.size(), 20u);
  EXPECT_LT(mean(losses, 15, 5), mean(losses, 0, 5));
#ifdef OPD_HAVE_LIBTORCH
  expect_same_losses(losses, opd_training_torch::train_cnn(p));
#endif
}

#ifndef OPD_HAVE_LIBTORCH
TEST(TrainingAgainstLibtorch, Skipped) { GTEST_SKIP() << "libtorch 1.13 not found: the losses are not compared"; }
#endif

}  // namespace
