#pragma once
// The data of examples/autograd_training.cpp, in plain C++ (no opdispatch, no
// libtorch), so that tests/autograd/training_test.cpp hands the very same
// numbers to libtorch: initial weights, input batches and their labels, drawn
// from one seed.
//
//   MLP: x[64, 32] -> linear(64) -> relu -> linear(4) -> log_softmax -> nll loss
//   CNN: x[16, 1, 10, 10] -> conv2d(4, 3x3, padding 1) -> relu -> max_pool2d(2)
//        -> layer_norm([4, 5, 5]) -> flatten -> linear(4) -> log_softmax -> nll loss
//
// The labels are a fixed random linear map of the input, arg-maxed: a task
// the models can learn, so that the loss falls over the steps.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace opd_training {

struct Param {
  std::vector<std::int64_t> shape;
  std::vector<float> values;
};
struct Batch {
  std::vector<float> x;             // input_shape
  std::vector<std::int64_t> target;  // one class per sample
};
struct Problem {
  std::vector<Param> params;  // MLP: w1, b1, w2, b2; CNN: conv w, conv b, ln w, ln b, fc w, fc b
  std::vector<std::int64_t> input_shape;
  std::vector<Batch> batches;  // one per step
  float lr = 0.1f;
};

inline std::int64_t numel(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

namespace detail {
inline Param uniform(std::mt19937& gen, std::vector<std::int64_t> shape, float bound) {
  std::uniform_real_distribution<float> d(-bound, bound);
  Param p{std::move(shape), {}};
  p.values.resize(static_cast<std::size_t>(numel(p.shape)));
  for (float& v : p.values) v = d(gen);
  return p;
}
inline Param constant(std::vector<std::int64_t> shape, float value) {
  Param p{std::move(shape), {}};
  p.values.assign(static_cast<std::size_t>(numel(p.shape)), value);
  return p;
}
// Batches whose labels are argmax(x . teacher) over `classes`.
inline std::vector<Batch> batches(std::mt19937& gen, const std::vector<std::int64_t>& input_shape, std::int64_t classes,
                                  int steps) {
  const std::int64_t n = input_shape[0], features = numel(input_shape) / n;
  const Param teacher = uniform(gen, {classes, features}, 1.f);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<Batch> out(static_cast<std::size_t>(steps));
  for (Batch& b : out) {
    b.x.resize(static_cast<std::size_t>(n * features));
    for (float& v : b.x) v = d(gen);
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t best = 0;
      float best_score = -INFINITY;
      for (std::int64_t c = 0; c < classes; ++c) {
        float score = 0;
        for (std::int64_t f = 0; f < features; ++f)
          score += b.x[static_cast<std::size_t>(i * features + f)] * teacher.values[static_cast<std::size_t>(c * features + f)];
        if (score > best_score) {
          best_score = score;
          best = c;
        }
      }
      b.target.push_back(best);
    }
  }
  return out;
}
}  // namespace detail

inline Problem mlp_problem(std::int64_t batch = 64, int steps = 20, unsigned seed = 1) {
  std::mt19937 gen(seed);
  Problem p;
  const float b1 = 1.f / std::sqrt(32.f), b2 = 1.f / std::sqrt(64.f);
  p.params = {detail::uniform(gen, {64, 32}, b1), detail::uniform(gen, {64}, b1), detail::uniform(gen, {4, 64}, b2),
              detail::uniform(gen, {4}, b2)};
  p.input_shape = {batch, 32};
  p.batches = detail::batches(gen, p.input_shape, 4, steps);
  p.lr = 0.5f;
  return p;
}

inline Problem cnn_problem(std::int64_t batch = 16, int steps = 20, unsigned seed = 2) {
  std::mt19937 gen(seed);
  Problem p;
  const float bc = 1.f / 3.f, bf = 1.f / 10.f;
  p.params = {detail::uniform(gen, {4, 1, 3, 3}, bc), detail::uniform(gen, {4}, bc), detail::constant({4, 5, 5}, 1.f),
              detail::constant({4, 5, 5}, 0.f), detail::uniform(gen, {4, 100}, bf), detail::uniform(gen, {4}, bf)};
  p.input_shape = {batch, 1, 10, 10};
  p.batches = detail::batches(gen, p.input_shape, 4, steps);
  p.lr = 0.2f;
  return p;
}

}  // namespace opd_training
