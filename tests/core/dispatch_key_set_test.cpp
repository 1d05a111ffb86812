// DispatchKeySet: set algebra, priority, iteration, printing, alias
// expansion. Ports of c10/test/core/DispatchKeySet_test.cpp are marked
// "peer: DispatchKeySet.X" (adapted to this flat bitset: a key is exactly one
// bit, so there is no functionality x backend cross product).
#include <gtest/gtest.h>

#include <iterator>
#include <sstream>
#include <unordered_set>
#include <vector>

#include "dispatch/keys/dispatch_key_set.hpp"

using opd::DispatchKey;
using opd::DispatchKeySet;

namespace {
std::vector<DispatchKey> all_runtime_keys() {
  std::vector<DispatchKey> keys;
  for (uint8_t i = opd::kFirstRuntimeKey; i < static_cast<uint8_t>(DispatchKey::EndOfRuntimeKeys); ++i) {
    keys.push_back(static_cast<DispatchKey>(i));
  }
  return keys;
}
std::vector<DispatchKey> collect(DispatchKeySet ks) { return std::vector<DispatchKey>(ks.begin(), ks.end()); }
}  // namespace

// Everything here is usable at compile time.
static_assert(DispatchKeySet().empty());
static_assert(DispatchKeySet(DispatchKey::CPU).has(DispatchKey::CPU));
static_assert(DispatchKeySet{DispatchKey::CPU, DispatchKey::AutogradCPU}.highest_priority_key() ==
              DispatchKey::AutogradCPU);
static_assert((DispatchKeySet::full() - DispatchKeySet::full()).empty());
static_assert(DispatchKeySet::full_after(DispatchKey::AutogradCPU).has(DispatchKey::CPU));
static_assert(!DispatchKeySet::full_after(DispatchKey::AutogradCPU).has(DispatchKey::AutogradCPU));
static_assert(opd::runtime_keys_for_alias(DispatchKey::Autograd).has(DispatchKey::AutogradMeta));
static_assert(*DispatchKeySet(DispatchKey::Meta).begin() == DispatchKey::Meta);

// peer: DispatchKeySet.Empty
TEST(DispatchKeySet, Empty) {
  DispatchKeySet empty_set;
  for (DispatchKey k : all_runtime_keys()) EXPECT_FALSE(empty_set.has(k));
  EXPECT_TRUE(empty_set.empty());
  EXPECT_EQ(empty_set.size(), 0u);
  EXPECT_EQ(empty_set, DispatchKeySet());
  EXPECT_EQ(empty_set.highest_priority_key(), DispatchKey::Undefined);
  EXPECT_EQ(empty_set.lowest_priority_key(), DispatchKey::Undefined);
  EXPECT_EQ(DispatchKeySet(DispatchKey::Undefined), empty_set);
  EXPECT_FALSE(empty_set.has(DispatchKey::Undefined));
}

// peer: DispatchKeySet.Singleton / SingletonFunctionalityKeys / SingletonBackendComponent
TEST(DispatchKeySet, Singleton) {
  for (DispatchKey tid : all_runtime_keys()) {
    DispatchKeySet sing(tid);
    EXPECT_EQ(sing, sing);
    EXPECT_EQ(sing, DispatchKeySet().add(tid));
    EXPECT_EQ(sing, sing.add(tid));
    EXPECT_EQ(sing, sing | sing);
    EXPECT_FALSE(sing.empty());
    EXPECT_EQ(sing.size(), 1u);
    EXPECT_TRUE(sing.has(tid));
    EXPECT_EQ(sing.highest_priority_key(), tid);
    EXPECT_EQ(sing.lowest_priority_key(), tid);
    EXPECT_EQ(sing.remove(tid), DispatchKeySet());
    EXPECT_EQ(collect(sing), std::vector<DispatchKey>{tid});
  }
}

// peer: DispatchKeySet.Doubleton — a later enum value is a higher priority.
TEST(DispatchKeySet, Doubleton) {
  const auto keys = all_runtime_keys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    for (std::size_t j = i + 1; j < keys.size(); ++j) {
      auto doub = DispatchKeySet(keys[i]).add(keys[j]);
      EXPECT_EQ(doub, DispatchKeySet(keys[i]) | DispatchKeySet(keys[j]));
      EXPECT_TRUE(doub.has(keys[i]));
      EXPECT_TRUE(doub.has(keys[j]));
      EXPECT_EQ(doub.highest_priority_key(), keys[j]);
      EXPECT_EQ(doub.lowest_priority_key(), keys[i]);
    }
  }
}

// peer: DispatchKeySet.DoubletonPerBackend — combining a backend key and an
// autograd key yields exactly those two runtime keys (a flat bitset has no
// cross product), iterated highest first.
TEST(DispatchKeySet, DoubletonPerBackend) {
  const DispatchKey backends[] = {DispatchKey::CPU,         DispatchKey::CUDA,        DispatchKey::Meta,
                                  DispatchKey::Lazy,        DispatchKey::PrivateUse1, DispatchKey::PrivateUse2,
                                  DispatchKey::PrivateUse3};
  for (DispatchKey b1 : backends) {
    for (DispatchKey b2 : backends) {
      const DispatchKey ag = opd::autograd_key_for_backend(b2);
      const DispatchKeySet combined{b1, ag};
      EXPECT_TRUE(combined.has(b1));
      EXPECT_TRUE(combined.has(ag));
      EXPECT_EQ(combined.size(), 2u);
      std::unordered_set<DispatchKey> visited(combined.begin(), combined.end());
      EXPECT_EQ(visited, (std::unordered_set<DispatchKey>{b1, ag}));
      EXPECT_EQ(collect(combined), (std::vector<DispatchKey>{ag, b1}));
      // The cross-product key is NOT implied, unlike c10's factored sets.
      if (b1 != b2) {
        EXPECT_FALSE(combined.has(opd::autograd_key_for_backend(b1)));
        EXPECT_FALSE(combined.has(b2));
      }
    }
  }
}

// peer: DispatchKeySet.Full
TEST(DispatchKeySet, Full) {
  DispatchKeySet full = DispatchKeySet::full();
  for (DispatchKey k : all_runtime_keys()) EXPECT_TRUE(full.has(k));
  EXPECT_FALSE(full.has(DispatchKey::EndOfRuntimeKeys));
  EXPECT_FALSE(full.has(DispatchKey::Autograd));
  EXPECT_EQ(full.size(), opd::kNumRuntimeKeys);
  EXPECT_EQ(full.raw_bits(), DispatchKeySet::kRuntimeMask);
}

TEST(DispatchKeySet, SetAlgebra) {
  const DispatchKeySet a{DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::Tracer};
  const DispatchKeySet b{DispatchKey::CPU, DispatchKey::Functionalize};
  EXPECT_EQ(a | b, (DispatchKeySet{DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::Tracer,
                                   DispatchKey::Functionalize}));
  EXPECT_EQ(a & b, DispatchKeySet(DispatchKey::CPU));
  EXPECT_EQ(a - b, (DispatchKeySet{DispatchKey::AutogradCPU, DispatchKey::Tracer}));
  EXPECT_EQ(a ^ b, (DispatchKeySet{DispatchKey::AutogradCPU, DispatchKey::Tracer, DispatchKey::Functionalize}));
  EXPECT_TRUE(a.has_any(b));
  EXPECT_FALSE(a.has_all(b));
  EXPECT_TRUE(a.has_all(DispatchKeySet{DispatchKey::CPU, DispatchKey::Tracer}));
  DispatchKeySet c = a;
  c -= DispatchKeySet(DispatchKey::Tracer);
  c |= DispatchKeySet(DispatchKey::Meta);
  c &= DispatchKeySet{DispatchKey::Meta, DispatchKey::CPU};
  EXPECT_EQ(c, (DispatchKeySet{DispatchKey::Meta, DispatchKey::CPU}));
  EXPECT_EQ(a.remove(DispatchKey::Autograd), a);  // non-runtime keys are never members
}

TEST(DispatchKeySet, AliasAndSentinelKeysCannotBeMembers) {
  EXPECT_THROW((void)DispatchKeySet(DispatchKey::Autograd), opd::Error);
  EXPECT_THROW((void)DispatchKeySet(DispatchKey::EndOfRuntimeKeys), opd::Error);
  EXPECT_THROW((void)DispatchKeySet().add(DispatchKey::CompositeImplicitAutograd), opd::Error);
  EXPECT_THROW((void)DispatchKeySet::full_after(DispatchKey::CompositeExplicitAutograd), opd::Error);
}

TEST(DispatchKeySet, FullAfterIsEverythingStrictlyBelow) {
  for (DispatchKey k : all_runtime_keys()) {
    const DispatchKeySet below = DispatchKeySet::full_after(k);
    EXPECT_FALSE(below.has(k));
    for (DispatchKey other : all_runtime_keys()) {
      EXPECT_EQ(below.has(other), static_cast<uint8_t>(other) < static_cast<uint8_t>(k)) << k << " " << other;
    }
    EXPECT_EQ(below | DispatchKeySet::full_from(k), DispatchKeySet::full());
    EXPECT_TRUE(DispatchKeySet::full_from(k).has(k));
  }
  EXPECT_TRUE(DispatchKeySet::full_after(DispatchKey::CPU).empty());
  EXPECT_TRUE(DispatchKeySet::full_after(DispatchKey::Undefined).empty());
  // Redispatch: after AutogradCPU handles a call, masking leaves CPU next.
  const DispatchKeySet tensor_keys{DispatchKey::CPU, DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView};
  EXPECT_EQ((tensor_keys & DispatchKeySet::full_after(DispatchKey::AutogradCPU)).highest_priority_key(),
            DispatchKey::ADInplaceOrView);
}

// peer: DispatchKeySet.IteratorBasicOps
TEST(DispatchKeySet, IteratorBasicOps) {
  DispatchKeySet empty_set;
  DispatchKeySet full_set = DispatchKeySet::full();
  DispatchKeySet mutated_set = empty_set.add(DispatchKey::CPU);

  EXPECT_EQ(*empty_set.begin(), DispatchKey::Undefined);
  EXPECT_EQ(*empty_set.end(), DispatchKey::Undefined);
  EXPECT_EQ(*mutated_set.begin(), DispatchKey::CPU);
  EXPECT_EQ(*full_set.begin(), DispatchKey::Tracer);  // highest first

  EXPECT_TRUE(empty_set.begin() == empty_set.end());
  EXPECT_TRUE(full_set.begin() != full_set.end());

  auto it = full_set.begin();
  EXPECT_TRUE(full_set.begin() == it++);
  EXPECT_TRUE(full_set.begin() != it);
  EXPECT_TRUE(full_set.begin() != ++full_set.begin());
}

// peer: DispatchKeySet.IteratorEmpty
TEST(DispatchKeySet, IteratorEmpty) {
  DispatchKeySet empty_set;
  int i = 0;
  for (auto it = empty_set.begin(); it != empty_set.end(); ++it) ++i;
  EXPECT_EQ(i, 0);
}

// peer: DispatchKeySet.IteratorFull / IteratorRangeFull — every runtime key,
// from highest to lowest priority.
TEST(DispatchKeySet, IteratorFull) {
  DispatchKeySet full_set = DispatchKeySet::full();
  EXPECT_EQ(std::distance(full_set.begin(), full_set.end()), opd::kNumRuntimeKeys);
  uint8_t expected = static_cast<uint8_t>(DispatchKey::EndOfRuntimeKeys);
  for (DispatchKey k : full_set) {
    --expected;
    EXPECT_EQ(k, static_cast<DispatchKey>(expected));
  }
  EXPECT_EQ(expected, opd::kFirstRuntimeKey);
}

// peer: RuntimeDispatchKeySet.SpecificKeys
TEST(DispatchKeySet, SpecificKeys) {
  DispatchKeySet keyset{DispatchKey::CPU, DispatchKey::Meta, DispatchKey::AutogradCUDA, DispatchKey::Tracer};
  std::unordered_set<DispatchKey> visited(keyset.begin(), keyset.end());
  EXPECT_EQ(visited.size(), 4u);
  EXPECT_EQ(collect(keyset),
            (std::vector<DispatchKey>{DispatchKey::Tracer, DispatchKey::AutogradCUDA, DispatchKey::Meta,
                                      DispatchKey::CPU}));
}

// peer: DispatchKeySet.FailAtEndIterator — stepping past the end and raw bits
// outside the runtime range are errors, not UB.
TEST(DispatchKeySet, FailAtEndIterator) {
  DispatchKeySet full_set = DispatchKeySet::full();
  auto it = full_set.begin();
  for (std::size_t i = 0; i < full_set.size(); ++i) ++it;
  EXPECT_TRUE(it == full_set.end());
  EXPECT_THROW(++it, opd::Error);
  EXPECT_THROW(++full_set.end(), opd::Error);
  EXPECT_NO_THROW((void)DispatchKeySet::from_raw_bits(full_set.raw_bits()));
  EXPECT_THROW((void)DispatchKeySet::from_raw_bits(full_set.raw_bits() + 1), opd::Error);
  EXPECT_EQ(DispatchKeySet::from_raw_bits(0b101), (DispatchKeySet{DispatchKey::CPU, DispatchKey::Meta}));
}

TEST(DispatchKeySet, Printing) {
  EXPECT_EQ(DispatchKeySet().str(), "DispatchKeySet()");
  EXPECT_EQ((DispatchKeySet{DispatchKey::AutogradCPU, DispatchKey::CPU}).str(), "DispatchKeySet(CPU, AutogradCPU)");
  std::ostringstream os;
  os << DispatchKeySet{DispatchKey::Tracer, DispatchKey::Meta, DispatchKey::BackendSelect};
  EXPECT_EQ(os.str(), "DispatchKeySet(Meta, BackendSelect, Tracer)");
}

TEST(DispatchKeySet, AliasExpansion) {
  const DispatchKeySet autograd = opd::runtime_keys_for_alias(DispatchKey::Autograd);
  const DispatchKeySet explicit_ = opd::runtime_keys_for_alias(DispatchKey::CompositeExplicitAutograd);
  const DispatchKeySet implicit = opd::runtime_keys_for_alias(DispatchKey::CompositeImplicitAutograd);
  EXPECT_EQ(autograd.str(),
            "DispatchKeySet(AutogradOther, AutogradCPU, AutogradCUDA, AutogradMeta, AutogradPrivateUse1, "
            "AutogradPrivateUse2, AutogradPrivateUse3)");
  EXPECT_EQ(explicit_.str(), "DispatchKeySet(CPU, CUDA, Meta, Lazy, PrivateUse1, PrivateUse2, PrivateUse3)");
  EXPECT_EQ(implicit, autograd | explicit_);
  for (DispatchKey k : all_runtime_keys()) {
    EXPECT_EQ(autograd.has(k), opd::is_autograd_key(k)) << k;
    EXPECT_EQ(explicit_.has(k), opd::is_backend_key(k)) << k;
  }
  // Mode and bookkeeping keys are never covered by an alias.
  for (DispatchKey k : {DispatchKey::Tracer, DispatchKey::Functionalize, DispatchKey::ADInplaceOrView,
                        DispatchKey::BackendSelect}) {
    EXPECT_FALSE(implicit.has(k)) << k;
  }
  // Non-alias keys expand to themselves.
  EXPECT_EQ(opd::runtime_keys_for_alias(DispatchKey::CPU), DispatchKeySet(DispatchKey::CPU));
  EXPECT_TRUE(opd::runtime_keys_for_alias(DispatchKey::Undefined).empty());
  EXPECT_THROW((void)opd::runtime_keys_for_alias(DispatchKey::EndOfAliasKeys), opd::Error);
}

// peer: DispatchKeySet.TestGetRuntimeDispatchKeySet — alias_covers agrees
// with the expanded set for every (key, runtime key) pair.
TEST(DispatchKeySet, TestGetRuntimeDispatchKeySet) {
  std::vector<DispatchKey> sources = all_runtime_keys();
  sources.push_back(DispatchKey::Autograd);
  sources.push_back(DispatchKey::CompositeImplicitAutograd);
  sources.push_back(DispatchKey::CompositeExplicitAutograd);
  for (DispatchKey dk1 : sources) {
    const DispatchKeySet dks = opd::runtime_keys_for_alias(dk1);
    for (DispatchKey dk2 : DispatchKeySet::full()) {
      EXPECT_EQ(dks.has(dk2), opd::alias_covers(dk1, dk2));
    }
  }
}
