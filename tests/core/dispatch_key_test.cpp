// DispatchKey: names, classification, backend/autograd mappings, priority order.
#include <gtest/gtest.h>

#include <string>
#include <unordered_set>

#include "dispatch/keys/dispatch_key.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"

using opd::DeviceType;
using opd::DispatchKey;
using opd::DispatchKeySet;

// peer: DispatchKeySet.TestFunctionalityDispatchKeyToString — every key
// (runtime and alias) has a distinct, known name, which parses back.
TEST(DispatchKey, TestFunctionalityDispatchKeyToString) {
  std::unordered_set<std::string> seen;
  for (uint8_t i = 0; i < opd::kNumDispatchKeys; ++i) {
    const auto k = static_cast<DispatchKey>(i);
    if (k == DispatchKey::EndOfRuntimeKeys) continue;  // sentinel
    const std::string name(opd::to_string(k));
    EXPECT_EQ(name.find("Unknown"), std::string::npos) << int(i);
    EXPECT_TRUE(seen.insert(name).second) << name;
    EXPECT_EQ(opd::parse_dispatch_key(name), k);
  }
  EXPECT_EQ(opd::to_string(DispatchKey::AutogradCPU), "AutogradCPU");
  EXPECT_FALSE(opd::try_parse_dispatch_key("EndOfRuntimeKeys").has_value());
  EXPECT_FALSE(opd::try_parse_dispatch_key("cpu").has_value());
  EXPECT_THROW(opd::parse_dispatch_key("Nope"), opd::Error);
}

TEST(DispatchKey, Classification) {
  for (uint8_t i = 0; i < opd::kNumDispatchKeys; ++i) {
    const auto k = static_cast<DispatchKey>(i);
    // At most one of the three kinds.
    EXPECT_LE(int(opd::is_runtime_key(k)) + int(opd::is_alias_key(k)), 1) << k;
    if (opd::is_backend_key(k) || opd::is_autograd_key(k)) {
      EXPECT_TRUE(opd::is_runtime_key(k)) << k;
    }
  }
  EXPECT_FALSE(opd::is_runtime_key(DispatchKey::Undefined));
  EXPECT_TRUE(opd::is_alias_key(DispatchKey::Autograd));
  EXPECT_TRUE(opd::is_alias_key(DispatchKey::CompositeImplicitAutograd));
  EXPECT_TRUE(opd::is_alias_key(DispatchKey::CompositeExplicitAutograd));
  EXPECT_FALSE(opd::is_alias_key(DispatchKey::AutogradCPU));
  EXPECT_TRUE(opd::is_backend_key(DispatchKey::PrivateUse3));
  EXPECT_FALSE(opd::is_backend_key(DispatchKey::BackendSelect));
  EXPECT_TRUE(opd::is_autograd_key(DispatchKey::AutogradOther));
  EXPECT_FALSE(opd::is_autograd_key(DispatchKey::Autograd));
  EXPECT_FALSE(opd::is_autograd_key(DispatchKey::ADInplaceOrView));
}

TEST(DispatchKey, BackendAndAutogradMappings) {
  const DeviceType devices[] = {DeviceType::CPU,         DeviceType::CUDA,        DeviceType::Meta,
                                DeviceType::PrivateUse1, DeviceType::PrivateUse2, DeviceType::PrivateUse3};
  const DispatchKey backends[] = {DispatchKey::CPU,         DispatchKey::CUDA,        DispatchKey::Meta,
                                  DispatchKey::PrivateUse1, DispatchKey::PrivateUse2, DispatchKey::PrivateUse3};
  const DispatchKey autograds[] = {DispatchKey::AutogradCPU,         DispatchKey::AutogradCUDA,
                                   DispatchKey::AutogradMeta,        DispatchKey::AutogradPrivateUse1,
                                   DispatchKey::AutogradPrivateUse2, DispatchKey::AutogradPrivateUse3};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(opd::backend_key_for(devices[i]), backends[i]);
    EXPECT_EQ(opd::device_type_for(backends[i]), devices[i]);
    EXPECT_EQ(opd::autograd_key_for_backend(backends[i]), autograds[i]);
    EXPECT_EQ(opd::backend_key_for_autograd(autograds[i]), backends[i]);
    EXPECT_EQ(opd::key_set_for_device_type(devices[i]), DispatchKeySet(backends[i]));
  }
  // Lazy has no autograd key of its own (c10 has AutogradLazy): AutogradOther.
  EXPECT_EQ(opd::backend_key_for(DeviceType::Lazy), DispatchKey::Lazy);
  EXPECT_EQ(opd::device_type_for(DispatchKey::Lazy), DeviceType::Lazy);
  EXPECT_TRUE(opd::is_backend_key(DispatchKey::Lazy));
  EXPECT_EQ(opd::autograd_key_for_backend(DispatchKey::Lazy), DispatchKey::AutogradOther);
  EXPECT_EQ(opd::key_set_for_device_type(DeviceType::Lazy), DispatchKeySet(DispatchKey::Lazy));
  EXPECT_EQ(opd::autograd_key_for_backend(DispatchKey::BackendSelect), DispatchKey::AutogradOther);
  EXPECT_EQ(opd::backend_key_for_autograd(DispatchKey::AutogradOther), DispatchKey::Undefined);
  EXPECT_THROW(opd::device_type_for(DispatchKey::AutogradCPU), opd::Error);
}

// The documented priority order, highest first.
TEST(DispatchKey, PriorityOrder) {
  const DispatchKey order[] = {
      DispatchKey::Tracer,          DispatchKey::Functionalize,       DispatchKey::AutogradPrivateUse3,
      DispatchKey::AutogradPrivateUse2, DispatchKey::AutogradPrivateUse1, DispatchKey::AutogradMeta,
      DispatchKey::AutogradCUDA,    DispatchKey::AutogradCPU,         DispatchKey::AutogradOther,
      DispatchKey::ADInplaceOrView, DispatchKey::BackendSelect,       DispatchKey::PrivateUse3,
      DispatchKey::PrivateUse2,     DispatchKey::PrivateUse1,         DispatchKey::Lazy,
      DispatchKey::Meta,            DispatchKey::CUDA,                DispatchKey::CPU};
  static_assert(sizeof(order) / sizeof(order[0]) == opd::kNumRuntimeKeys);
  DispatchKeySet all = DispatchKeySet::full();
  for (DispatchKey expected : order) {
    EXPECT_EQ(all.highest_priority_key(), expected);
    all = all.remove(expected);
  }
  EXPECT_TRUE(all.empty());
}
