// DispatchKeySet: a 64-bit set of runtime DispatchKeys; bit (key - 1), so a
// higher bit is a higher priority and the key to dispatch to is the highest
// set bit (one count-leading-zeros).
//
// Why a flat bitset (c10 before its functionality x backend split): with a
// handful of backends every (functionality, backend) key fits in 64 bits,
// membership is exact (no cross-product surprises), and every operation is a
// constexpr bit trick.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <string>

#include "dispatch/core/error.hpp"
#include "dispatch/keys/dispatch_key.hpp"

namespace opd {

class DispatchKeySet {
 public:
  static constexpr uint64_t kRuntimeMask =
      kNumRuntimeKeys == 64 ? ~uint64_t{0} : (uint64_t{1} << kNumRuntimeKeys) - 1;

  constexpr DispatchKeySet() noexcept = default;

  // {k}; Undefined gives the empty set. Alias keys and sentinels throw: use
  // runtime_keys_for_alias() to expand an alias.
  constexpr explicit DispatchKeySet(DispatchKey k) : bits_(bit_of(k)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> keys) {
    for (DispatchKey k : keys) bits_ |= bit_of(k);
  }

  // Every runtime key.
  static constexpr DispatchKeySet full() noexcept { return DispatchKeySet(RawBits{}, kRuntimeMask); }
  // Every runtime key of strictly lower priority than k: what a kernel for k
  // masks the tensors' keys with to redispatch "below itself". Undefined
  // gives the empty set.
  static constexpr DispatchKeySet full_after(DispatchKey k) {
    const uint64_t b = bit_of(k);
    return DispatchKeySet(RawBits{}, b == 0 ? 0 : b - 1);
  }
  // Every runtime key of priority >= k (the complement of full_after(k)).
  static constexpr DispatchKeySet full_from(DispatchKey k) { return full() - full_after(k); }
  // Throws opd::Error if a bit names no runtime key.
  static constexpr DispatchKeySet from_raw_bits(uint64_t bits) {
    OPD_CHECK((bits & ~kRuntimeMask) == 0, "DispatchKeySet::from_raw_bits: bits outside the ",
              static_cast<int>(kNumRuntimeKeys), " runtime keys are set");
    return DispatchKeySet(RawBits{}, bits);
  }

  constexpr uint64_t raw_bits() const noexcept { return bits_; }

  // False for Undefined, alias keys and sentinels.
  constexpr bool has(DispatchKey k) const noexcept { return is_runtime_key(k) && (bits_ & unchecked_bit(k)) != 0; }
  constexpr bool has_any(DispatchKeySet ks) const noexcept { return (bits_ & ks.bits_) != 0; }
  constexpr bool has_all(DispatchKeySet ks) const noexcept { return (bits_ & ks.bits_) == ks.bits_; }
  constexpr bool is_superset_of(DispatchKeySet ks) const noexcept { return has_all(ks); }

  constexpr DispatchKeySet add(DispatchKey k) const { return DispatchKeySet(RawBits{}, bits_ | bit_of(k)); }
  constexpr DispatchKeySet add(DispatchKeySet ks) const noexcept { return *this | ks; }
  constexpr DispatchKeySet remove(DispatchKey k) const noexcept {
    return is_runtime_key(k) ? DispatchKeySet(RawBits{}, bits_ & ~unchecked_bit(k)) : *this;
  }
  constexpr DispatchKeySet remove(DispatchKeySet ks) const noexcept { return *this - ks; }

  constexpr bool empty() const noexcept { return bits_ == 0; }
  constexpr std::size_t size() const noexcept { return static_cast<std::size_t>(std::popcount(bits_)); }

  // The key a call dispatches to; Undefined for the empty set.
  constexpr DispatchKey highest_priority_key() const noexcept {
    if (bits_ == 0) return DispatchKey::Undefined;
    return static_cast<DispatchKey>(64 - std::countl_zero(bits_));
  }
  // The lowest-priority key; Undefined for the empty set.
  constexpr DispatchKey lowest_priority_key() const noexcept {
    if (bits_ == 0) return DispatchKey::Undefined;
    return static_cast<DispatchKey>(std::countr_zero(bits_) + 1);
  }

  friend constexpr DispatchKeySet operator|(DispatchKeySet a, DispatchKeySet b) noexcept {
    return DispatchKeySet(RawBits{}, a.bits_ | b.bits_);
  }
  friend constexpr DispatchKeySet operator&(DispatchKeySet a, DispatchKeySet b) noexcept {
    return DispatchKeySet(RawBits{}, a.bits_ & b.bits_);
  }
  // Set difference.
  friend constexpr DispatchKeySet operator-(DispatchKeySet a, DispatchKeySet b) noexcept {
    return DispatchKeySet(RawBits{}, a.bits_ & ~b.bits_);
  }
  friend constexpr DispatchKeySet operator^(DispatchKeySet a, DispatchKeySet b) noexcept {
    return DispatchKeySet(RawBits{}, a.bits_ ^ b.bits_);
  }
  constexpr DispatchKeySet& operator|=(DispatchKeySet o) noexcept { return *this = *this | o; }
  constexpr DispatchKeySet& operator&=(DispatchKeySet o) noexcept { return *this = *this & o; }
  constexpr DispatchKeySet& operator-=(DispatchKeySet o) noexcept { return *this = *this - o; }
  friend constexpr bool operator==(DispatchKeySet, DispatchKeySet) noexcept = default;

  // Visits keys from highest to lowest priority (the order dispatch would
  // try them). Holds the not-yet-visited bits by value, so it never dangles.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = DispatchKey;
    using difference_type = std::ptrdiff_t;
    using reference = DispatchKey;
    using pointer = void;

    constexpr iterator() noexcept = default;
    constexpr explicit iterator(uint64_t remaining) noexcept : remaining_(remaining) {}

    // Undefined at the end.
    constexpr DispatchKey operator*() const noexcept { return DispatchKeySet(RawBits{}, remaining_).highest_priority_key(); }
    // Incrementing past the end is a bug in the caller: throws opd::Error.
    constexpr iterator& operator++() {
      OPD_CHECK(remaining_ != 0, "DispatchKeySet::iterator incremented past the end");
      remaining_ &= ~(uint64_t{1} << (63 - std::countl_zero(remaining_)));
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend constexpr bool operator==(iterator, iterator) noexcept = default;

   private:
    uint64_t remaining_ = 0;
  };
  using const_iterator = iterator;

  constexpr iterator begin() const noexcept { return iterator(bits_); }
  constexpr iterator end() const noexcept { return iterator(0); }

  // "DispatchKeySet(CPU, AutogradCPU)": lowest priority first, like c10.
  std::string str() const {
    std::string s = "DispatchKeySet(";
    bool first = true;
    for (uint8_t i = 0; i < kNumRuntimeKeys; ++i) {
      if (bits_ & (uint64_t{1} << i)) {
        if (!first) s += ", ";
        s += to_string(static_cast<DispatchKey>(i + 1));
        first = false;
      }
    }
    return s + ")";
  }
  friend std::ostream& operator<<(std::ostream& os, DispatchKeySet ks) { return os << ks.str(); }

 private:
  struct RawBits {};
  constexpr DispatchKeySet(RawBits, uint64_t bits) noexcept : bits_(bits) {}

  static constexpr uint64_t unchecked_bit(DispatchKey k) noexcept {
    return uint64_t{1} << (static_cast<uint8_t>(k) - 1);
  }
  [[noreturn]] OPD_API static void throw_not_runtime_key(DispatchKey k);
  static constexpr uint64_t bit_of(DispatchKey k) {
    if (k == DispatchKey::Undefined) return 0;
    if (!is_runtime_key(k)) throw_not_runtime_key(k);
    return unchecked_bit(k);
  }

  uint64_t bits_ = 0;
};

static_assert(sizeof(DispatchKeySet) == 8);

// ---- well-known sets -------------------------------------------------------

inline constexpr DispatchKeySet kBackendKeys{DispatchKey::CPU,         DispatchKey::CUDA,        DispatchKey::Meta,
                                             DispatchKey::Lazy,        DispatchKey::PrivateUse1, DispatchKey::PrivateUse2,
                                             DispatchKey::PrivateUse3};

// AutogradOther and every per-backend Autograd* key.
inline constexpr DispatchKeySet kAutogradKeys{DispatchKey::AutogradOther,       DispatchKey::AutogradCPU,
                                              DispatchKey::AutogradCUDA,        DispatchKey::AutogradMeta,
                                              DispatchKey::AutogradPrivateUse1, DispatchKey::AutogradPrivateUse2,
                                              DispatchKey::AutogradPrivateUse3};

// The runtime keys a kernel registered under `k` serves:
//   Autograd                   -> every Autograd* key (incl. AutogradOther)
//   CompositeExplicitAutograd  -> every backend key
//   CompositeImplicitAutograd  -> every backend key + every Autograd* key
//   a runtime key              -> {k};   Undefined -> {}
// Sentinels throw.
constexpr DispatchKeySet runtime_keys_for_alias(DispatchKey k) {
  switch (k) {
    case DispatchKey::Autograd: return kAutogradKeys;
    case DispatchKey::CompositeExplicitAutograd: return kBackendKeys;
    case DispatchKey::CompositeImplicitAutograd: return kBackendKeys | kAutogradKeys;
    default: return DispatchKeySet(k);
  }
}

// runtime_keys_for_alias(alias).has(k), without building the set.
constexpr bool alias_covers(DispatchKey alias, DispatchKey k) { return runtime_keys_for_alias(alias).has(k); }

// The key set a tensor on `type` carries: its backend key.
constexpr DispatchKeySet key_set_for_device_type(DeviceType type) { return DispatchKeySet(backend_key_for(type)); }

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/keys/dispatch_key_set-inl.hpp"
#endif
