// DispatchKey: the "layers" an operator call passes through, in priority
// order, plus the alias keys kernels may be registered under.
//
// Runtime keys are numbered from lowest to highest priority, so a key's
// value minus one is its bit in a DispatchKeySet and "highest priority" is
// simply "highest set bit". Order, from highest to lowest:
//
//   Tracer            a mode: sees every call first, even ones autograd makes,
//                     so a tracer/logger records the op the user wrote.
//   Functionalize     rewrites mutations/views into functional ops before
//                     autograd sees them, so autograd only has to differentiate
//                     functional programs (AOTAutograd's order; note c10 puts
//                     Functionalize below ADInplaceOrView instead).
//   Autograd*         records the graph, then redispatches below itself with
//                     an ExcludeDispatchKeyGuard; per-backend so a backend can
//                     override autograd (c10's AutogradCPU, AutogradCUDA, ...).
//   AutogradOther     autograd for backends without their own Autograd key.
//   ADInplaceOrView   bumps version counters / sets up view metadata after
//                     autograd, before the real kernel.
//   BackendSelect     for factory ops with no tensor inputs: picks the backend
//                     from the device argument.
//   backends          PrivateUse3..1, Lazy, Meta, CUDA, CPU: the kernels that
//                     compute (Lazy records them, include/lazy/).
//                     Extension backends rank above built-in ones so a tensor
//                     that carries both keys (a wrapper) reaches its own kernel.
//
// Alias keys (Autograd, CompositeImplicitAutograd, CompositeExplicitAutograd)
// are never in a runtime set: registering a kernel to one registers it for
// every runtime key in runtime_keys_for_alias() (dispatch_key_set.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"

namespace opd {

enum class DispatchKey : uint8_t {
  Undefined = 0,  // no key: empty set's highest key, end of iteration

  // ---- runtime keys, lowest priority first (bit = value - 1) ----
  CPU,
  CUDA,
  Meta,
  Lazy,
  PrivateUse1,
  PrivateUse2,
  PrivateUse3,
  BackendSelect,
  ADInplaceOrView,
  AutogradOther,
  AutogradCPU,
  AutogradCUDA,
  AutogradMeta,
  AutogradPrivateUse1,
  AutogradPrivateUse2,
  AutogradPrivateUse3,
  Functionalize,
  Tracer,
  EndOfRuntimeKeys,  // sentinel, not a key

  // ---- alias keys: registration only, never in a DispatchKeySet ----
  Autograd,
  CompositeImplicitAutograd,
  CompositeExplicitAutograd,
  EndOfAliasKeys,  // sentinel, not a key
};

inline constexpr uint8_t kFirstRuntimeKey = static_cast<uint8_t>(DispatchKey::CPU);
inline constexpr uint8_t kNumRuntimeKeys =
    static_cast<uint8_t>(DispatchKey::EndOfRuntimeKeys) - static_cast<uint8_t>(DispatchKey::CPU);
inline constexpr uint8_t kFirstAliasKey = static_cast<uint8_t>(DispatchKey::Autograd);
inline constexpr uint8_t kNumDispatchKeys = static_cast<uint8_t>(DispatchKey::EndOfAliasKeys);  // incl. sentinels
static_assert(kNumRuntimeKeys <= 64, "runtime keys must fit in a 64-bit DispatchKeySet");

constexpr bool is_runtime_key(DispatchKey k) noexcept {
  return static_cast<uint8_t>(k) >= kFirstRuntimeKey && k < DispatchKey::EndOfRuntimeKeys;
}
constexpr bool is_alias_key(DispatchKey k) noexcept {
  return static_cast<uint8_t>(k) >= kFirstAliasKey && k < DispatchKey::EndOfAliasKeys;
}
constexpr bool is_backend_key(DispatchKey k) noexcept { return k >= DispatchKey::CPU && k <= DispatchKey::PrivateUse3; }
// AutogradOther and the per-backend Autograd* keys (not the Autograd alias).
constexpr bool is_autograd_key(DispatchKey k) noexcept {
  return k >= DispatchKey::AutogradOther && k <= DispatchKey::AutogradPrivateUse3;
}

constexpr std::string_view to_string(DispatchKey k) noexcept {
  switch (k) {
    case DispatchKey::Undefined: return "Undefined";
    case DispatchKey::CPU: return "CPU";
    case DispatchKey::CUDA: return "CUDA";
    case DispatchKey::Meta: return "Meta";
    case DispatchKey::Lazy: return "Lazy";
    case DispatchKey::PrivateUse1: return "PrivateUse1";
    case DispatchKey::PrivateUse2: return "PrivateUse2";
    case DispatchKey::PrivateUse3: return "PrivateUse3";
    case DispatchKey::BackendSelect: return "BackendSelect";
    case DispatchKey::ADInplaceOrView: return "ADInplaceOrView";
    case DispatchKey::AutogradOther: return "AutogradOther";
    case DispatchKey::AutogradCPU: return "AutogradCPU";
    case DispatchKey::AutogradCUDA: return "AutogradCUDA";
    case DispatchKey::AutogradMeta: return "AutogradMeta";
    case DispatchKey::AutogradPrivateUse1: return "AutogradPrivateUse1";
    case DispatchKey::AutogradPrivateUse2: return "AutogradPrivateUse2";
    case DispatchKey::AutogradPrivateUse3: return "AutogradPrivateUse3";
    case DispatchKey::Functionalize: return "Functionalize";
    case DispatchKey::Tracer: return "Tracer";
    case DispatchKey::EndOfRuntimeKeys: return "EndOfRuntimeKeys";
    case DispatchKey::Autograd: return "Autograd";
    case DispatchKey::CompositeImplicitAutograd: return "CompositeImplicitAutograd";
    case DispatchKey::CompositeExplicitAutograd: return "CompositeExplicitAutograd";
    case DispatchKey::EndOfAliasKeys: return "EndOfAliasKeys";
  }
  return "UnknownDispatchKey";
}

inline std::ostream& operator<<(std::ostream& os, DispatchKey k) { return os << to_string(k); }

// Parses the names printed by to_string; sentinels are not accepted.
constexpr std::optional<DispatchKey> try_parse_dispatch_key(std::string_view name) noexcept {
  for (uint8_t i = 0; i < kNumDispatchKeys; ++i) {
    const auto k = static_cast<DispatchKey>(i);
    if (k == DispatchKey::EndOfRuntimeKeys) continue;
    if (to_string(k) == name) return k;
  }
  return std::nullopt;
}
inline DispatchKey parse_dispatch_key(std::string_view name) {
  const auto k = try_parse_dispatch_key(name);
  OPD_CHECK_VALUE(k.has_value(), "unknown dispatch key '", name, "'");
  return *k;
}

// Backend key of a device type: CPU -> CPU, CUDA -> CUDA, ...
constexpr DispatchKey backend_key_for(DeviceType t) noexcept {
  switch (t) {
    case DeviceType::CPU: return DispatchKey::CPU;
    case DeviceType::CUDA: return DispatchKey::CUDA;
    case DeviceType::Meta: return DispatchKey::Meta;
    case DeviceType::Lazy: return DispatchKey::Lazy;
    case DeviceType::PrivateUse1: return DispatchKey::PrivateUse1;
    case DeviceType::PrivateUse2: return DispatchKey::PrivateUse2;
    case DeviceType::PrivateUse3: return DispatchKey::PrivateUse3;
  }
  return DispatchKey::Undefined;
}

// Inverse of backend_key_for; throws for non-backend keys.
constexpr DeviceType device_type_for(DispatchKey backend) {
  switch (backend) {
    case DispatchKey::CPU: return DeviceType::CPU;
    case DispatchKey::CUDA: return DeviceType::CUDA;
    case DispatchKey::Meta: return DeviceType::Meta;
    case DispatchKey::Lazy: return DeviceType::Lazy;
    case DispatchKey::PrivateUse1: return DeviceType::PrivateUse1;
    case DispatchKey::PrivateUse2: return DeviceType::PrivateUse2;
    case DispatchKey::PrivateUse3: return DeviceType::PrivateUse3;
    default: break;
  }
  throw ValueError(std::string("device_type_for: ") + std::string(to_string(backend)) + " is not a backend key");
}

// AutogradCPU for CPU, ...; like c10, AutogradOther for anything that has no
// dedicated autograd key (including non-backend keys).
constexpr DispatchKey autograd_key_for_backend(DispatchKey backend) noexcept {
  switch (backend) {
    case DispatchKey::CPU: return DispatchKey::AutogradCPU;
    case DispatchKey::CUDA: return DispatchKey::AutogradCUDA;
    case DispatchKey::Meta: return DispatchKey::AutogradMeta;
    case DispatchKey::PrivateUse1: return DispatchKey::AutogradPrivateUse1;
    case DispatchKey::PrivateUse2: return DispatchKey::AutogradPrivateUse2;
    case DispatchKey::PrivateUse3: return DispatchKey::AutogradPrivateUse3;
    default: return DispatchKey::AutogradOther;
  }
}

// CPU for AutogradCPU, ...; Undefined for AutogradOther and non-autograd keys.
constexpr DispatchKey backend_key_for_autograd(DispatchKey autograd) noexcept {
  switch (autograd) {
    case DispatchKey::AutogradCPU: return DispatchKey::CPU;
    case DispatchKey::AutogradCUDA: return DispatchKey::CUDA;
    case DispatchKey::AutogradMeta: return DispatchKey::Meta;
    case DispatchKey::AutogradPrivateUse1: return DispatchKey::PrivateUse1;
    case DispatchKey::AutogradPrivateUse2: return DispatchKey::PrivateUse2;
    case DispatchKey::AutogradPrivateUse3: return DispatchKey::PrivateUse3;
    default: return DispatchKey::Undefined;
  }
}

}  // namespace opd
