// Generator: a shared handle to a seeded random engine for one device.
//
// Why a handle: random ops take `Generator? generator` arguments; callers
// pass the same generator to several calls and expect them to advance one
// shared stream, exactly as with torch.Generator. Kernels lock the mutex
// while drawing, since one generator may be used from several threads.
#pragma once

#include <cstdint>
#include <ostream>
#include <utility>

#include "dispatch/config.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/intrusive_ptr.hpp"

namespace opd {

// PyTorch's default_rng_seed_val.
inline constexpr uint64_t kDefaultRngSeed = 67280421310721ULL;

// The engine and its lock live behind a pointer (generator_engine.hpp, for
// the kernels that draw numbers), so that this header needs neither <random>
// nor <mutex>: every operator's schema can name a Generator.
struct GeneratorEngine;

class OPD_API GeneratorImpl final : public intrusive_target {
 public:
  GeneratorImpl(uint64_t seed, Device device);
  ~GeneratorImpl() override;

  uint64_t seed() const noexcept { return seed_; }
  Device device() const noexcept { return device_; }
  // Re-seeds (takes the lock).
  void set_seed(uint64_t seed);
  // Next 64 random bits (takes the lock).
  uint64_t random64();
  // The engine and its lock, for kernels that draw many numbers.
  GeneratorEngine& engine() noexcept { return *engine_; }

 private:
  GeneratorEngine* engine_;
  uint64_t seed_;
  Device device_;
};

class Generator {
 public:
  Generator() noexcept = default;  // undefined
  explicit Generator(intrusive_ptr<GeneratorImpl> impl) noexcept : impl_(std::move(impl)) {}
  explicit Generator(uint64_t seed, Device device = Device::cpu())
      : impl_(make_intrusive<GeneratorImpl>(seed, device)) {}

  bool defined() const noexcept { return impl_.defined(); }
  uint64_t seed() const { return impl().seed(); }
  // Re-seeds the shared state (takes the lock).
  void set_seed(uint64_t seed) const { impl().set_seed(seed); }
  Device device() const { return impl().device(); }
  // Next 64 random bits (takes the lock).
  uint64_t random64() const { return impl().random64(); }
  // Raw access for kernels that draw many numbers (generator_engine.hpp):
  // lock engine().mutex around the use of engine().engine.
  GeneratorEngine& engine() const { return impl().engine(); }

  std::size_t use_count() const noexcept { return impl_.use_count(); }
  GeneratorImpl* unsafe_get_impl() const noexcept { return impl_.get(); }
  const intrusive_ptr<GeneratorImpl>& impl_ptr() const noexcept { return impl_; }

  // Identity: two handles are equal if they share the same state.
  friend bool operator==(const Generator& a, const Generator& b) noexcept { return a.impl_ == b.impl_; }
  friend std::ostream& operator<<(std::ostream& os, const Generator& g) {
    if (!g.defined()) return os << "Generator(undefined)";
    return os << "Generator(seed=" << g.seed() << ", device=" << g.device() << ")";
  }

 private:
  GeneratorImpl& impl() const {
    OPD_CHECK(impl_.defined(), "operation on an undefined Generator");
    return *impl_;
  }

  intrusive_ptr<GeneratorImpl> impl_;
};

// The process-wide CPU generator used when an op gets `generator=None`
// (one per process: defined in libopdispatch).
OPD_API const Generator& default_cpu_generator();

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/generator-inl.hpp"
#endif
