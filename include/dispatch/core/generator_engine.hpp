#pragma once
// The state behind a Generator, for kernels that draw random numbers:
//
//   opd::GeneratorEngine& g = generator.engine();
//   std::lock_guard lock(g.mutex);
//   std::uniform_real_distribution<float> u; ... u(g.engine) ...
#include <cstdint>
#include <mutex>
#include <random>

namespace opd {

struct GeneratorEngine {
  explicit GeneratorEngine(std::uint64_t seed) : engine(seed) {}
  std::mutex mutex;
  std::mt19937_64 engine;
};

}  // namespace opd

// After the definition: under OPD_HEADER_ONLY, generator.hpp includes
// generator-inl.hpp, which needs GeneratorEngine complete.
#include "dispatch/core/generator.hpp"
