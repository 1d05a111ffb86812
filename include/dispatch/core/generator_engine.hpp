#pragma once
// The state behind a Generator, for kernels that draw random numbers:
//
//   opd::GeneratorEngine& g = generator.engine();
//   std::lock_guard lock(g.mutex);
//   uint64_t bits = g.engine();          // one number (std::mt19937_64's)
//   kernels::simd::random_bits(g.engine, buffer, n);   // n numbers at once
#include <cstdint>
#include <mutex>

#include "dispatch/core/mt19937_64.hpp"

namespace opd {

struct GeneratorEngine {
  explicit GeneratorEngine(std::uint64_t seed) : engine(seed) {}
  std::mutex mutex;
  Mt19937_64 engine;
};

}  // namespace opd

// After the definition: under OPD_HEADER_ONLY, generator.hpp includes
// generator-inl.hpp, which needs GeneratorEngine complete.
#include "dispatch/core/generator.hpp"
