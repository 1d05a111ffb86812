// Generator: a shared handle to a seeded random engine for one device.
//
// Why a handle: random ops take `Generator? generator` arguments; callers
// pass the same generator to several calls and expect them to advance one
// shared stream, exactly as with torch.Generator. Kernels lock mutex()
// while drawing, since one generator may be used from several threads.
#pragma once

#include <cstdint>
#include <mutex>
#include <ostream>
#include <random>
#include <utility>

#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/intrusive_ptr.hpp"

namespace opd {

// PyTorch's default_rng_seed_val.
inline constexpr uint64_t kDefaultRngSeed = 67280421310721ULL;

class GeneratorImpl final : public intrusive_target {
 public:
  explicit GeneratorImpl(uint64_t seed, Device device) : engine_(seed), seed_(seed), device_(device) {}

  uint64_t seed() const noexcept { return seed_; }
  void set_seed(uint64_t seed) {
    engine_.seed(seed);
    seed_ = seed;
  }
  Device device() const noexcept { return device_; }
  std::mt19937_64& engine() noexcept { return engine_; }
  std::mutex& mutex() noexcept { return mutex_; }

 private:
  std::mutex mutex_;
  std::mt19937_64 engine_;
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
  void set_seed(uint64_t seed) const {
    std::lock_guard<std::mutex> lock(impl().mutex());
    impl().set_seed(seed);
  }
  Device device() const { return impl().device(); }
  // Next 64 random bits (takes the lock).
  uint64_t random64() const {
    std::lock_guard<std::mutex> lock(impl().mutex());
    return impl().engine()();
  }
  // Raw access for kernels that draw many numbers: lock mutex() around use.
  std::mt19937_64& engine() const { return impl().engine(); }
  std::mutex& mutex() const { return impl().mutex(); }

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

// The process-wide CPU generator used when an op gets `generator=None`.
inline const Generator& default_cpu_generator() {
  static const Generator gen(kDefaultRngSeed, Device::cpu());
  return gen;
}

}  // namespace opd
