#pragma once
// The state behind a Generator, for kernels that draw random numbers:
//
//   opd::GeneratorEngine& g = generator.engine();
//   std::lock_guard lock(g.mutex);
//   std::uniform_real_distribution<float> u; ... u(g.engine) ...
#include <mutex>
#include <random>

#include "dispatch/core/generator.hpp"

namespace opd {

struct GeneratorEngine {
  explicit GeneratorEngine(uint64_t seed) : engine(seed) {}
  std::mutex mutex;
  std::mt19937_64 engine;
};

}  // namespace opd
