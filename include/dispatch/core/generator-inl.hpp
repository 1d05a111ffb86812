#pragma once
// Out-of-line part of generator.hpp: the engine's life and the process-wide
// default generator.
#include "dispatch/core/generator.hpp"
#include "dispatch/core/generator_engine.hpp"

namespace opd {

OPD_FUNC GeneratorImpl::GeneratorImpl(uint64_t seed, Device device)
    : engine_(new GeneratorEngine(seed)), seed_(seed), device_(device) {}
OPD_FUNC GeneratorImpl::~GeneratorImpl() { delete engine_; }

OPD_FUNC void GeneratorImpl::set_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(engine_->mutex);
  engine_->engine.seed(seed);
  seed_ = seed;
}

OPD_FUNC uint64_t GeneratorImpl::random64() {
  std::lock_guard<std::mutex> lock(engine_->mutex);
  return engine_->engine();
}

OPD_FUNC const Generator& default_cpu_generator() {
  static const Generator* const gen = new Generator(kDefaultRngSeed, Device::cpu());  // never destroyed
  return *gen;
}

}  // namespace opd
