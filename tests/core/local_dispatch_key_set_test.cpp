// Thread-local included/excluded keys and their RAII guards.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

#include "dispatch/keys/local_dispatch_key_set.hpp"

using opd::DispatchKey;
using opd::DispatchKeySet;

namespace {
// c10's default_included_set: BackendSelect and ADInplaceOrView.
constexpr DispatchKeySet kDefault = opd::kDefaultIncludedKeys;
DispatchKeySet included() { return opd::tls_local_dispatch_key_set().included; }
DispatchKeySet excluded() { return opd::tls_local_dispatch_key_set().excluded; }
}  // namespace

// c10 (LocalDispatchKeySet.h): every thread starts with BackendSelect and
// ADInplaceOrView included and nothing excluded.
TEST(LocalDispatchKeySet, StartsWithBackendSelectAndADInplaceOrViewIncluded) {
  EXPECT_EQ(included(), (DispatchKeySet{DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView}));
  EXPECT_TRUE(excluded().empty());
  EXPECT_EQ(opd::LocalDispatchKeySet{}.included, kDefault);  // a default-constructed state is a fresh thread's
  const DispatchKeySet tensor_keys{DispatchKey::CPU, DispatchKey::AutogradCPU};
  EXPECT_EQ(opd::compute_dispatch_key_set(tensor_keys), tensor_keys | kDefault);
  std::thread([] { EXPECT_EQ(included(), kDefault); }).join();
}

TEST(LocalDispatchKeySet, ComputeIsTensorKeysPlusIncludedMinusExcluded) {
  opd::IncludeDispatchKeyGuard tracing(DispatchKey::Tracer);
  opd::ExcludeDispatchKeyGuard below_autograd(opd::runtime_keys_for_alias(DispatchKey::Autograd));
  const DispatchKeySet tensor_keys{DispatchKey::CPU, DispatchKey::AutogradCPU};
  EXPECT_EQ(opd::compute_dispatch_key_set(tensor_keys), kDefault | DispatchKeySet({DispatchKey::CPU, DispatchKey::Tracer}));
  // Exclusion wins over inclusion.
  opd::ExcludeDispatchKeyGuard no_tracer(DispatchKeySet{DispatchKey::Tracer, DispatchKey::BackendSelect});
  EXPECT_EQ(opd::compute_dispatch_key_set(tensor_keys), (DispatchKeySet{DispatchKey::CPU, DispatchKey::ADInplaceOrView}));
}

TEST(LocalDispatchKeySet, IncludeGuardsNestAndRestore) {
  {
    opd::IncludeDispatchKeyGuard outer(DispatchKey::Tracer);
    EXPECT_EQ(included(), kDefault.add(DispatchKey::Tracer));
    {
      // Re-including a key already present must not remove it on exit.
      opd::IncludeDispatchKeyGuard inner(DispatchKeySet{DispatchKey::Tracer, DispatchKey::Functionalize});
      EXPECT_EQ(included(), kDefault | DispatchKeySet({DispatchKey::Tracer, DispatchKey::Functionalize}));
    }
    EXPECT_EQ(included(), kDefault.add(DispatchKey::Tracer));
  }
  EXPECT_EQ(included(), kDefault);
}

TEST(LocalDispatchKeySet, ExcludeGuardsNestAndRestore) {
  {
    opd::ExcludeDispatchKeyGuard outer(DispatchKey::AutogradCPU);
    {
      opd::ExcludeDispatchKeyGuard inner(DispatchKeySet{DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView});
      EXPECT_EQ(excluded(), (DispatchKeySet{DispatchKey::AutogradCPU, DispatchKey::ADInplaceOrView}));
      EXPECT_EQ(included(), kDefault);
    }
    EXPECT_EQ(excluded(), DispatchKeySet(DispatchKey::AutogradCPU));
  }
  EXPECT_TRUE(excluded().empty());
}

TEST(LocalDispatchKeySet, GuardsRestoreWhenUnwinding) {
  try {
    opd::IncludeDispatchKeyGuard inc(DispatchKey::Tracer);
    opd::ExcludeDispatchKeyGuard exc(DispatchKey::CPU);
    throw std::runtime_error("boom");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(included(), kDefault);
  EXPECT_TRUE(excluded().empty());
}

TEST(ConcurrencyLocalDispatchKeySet, StateIsPerThread) {
  opd::IncludeDispatchKeyGuard tracing(DispatchKey::Tracer);
  std::atomic<bool> other_saw_empty{false};
  std::atomic<bool> other_guard_worked{false};
  std::thread worker([&] {
    other_saw_empty = included() == kDefault && excluded().empty();
    opd::ExcludeDispatchKeyGuard exc(DispatchKey::CPU);
    other_guard_worked = opd::compute_dispatch_key_set(DispatchKeySet(DispatchKey::CPU)) == kDefault;
  });
  worker.join();
  EXPECT_TRUE(other_saw_empty);
  EXPECT_TRUE(other_guard_worked);
  // The worker's guard did not leak into this thread.
  EXPECT_TRUE(excluded().empty());
  EXPECT_EQ(included(), kDefault.add(DispatchKey::Tracer));
}

TEST(ConcurrencyLocalDispatchKeySet, ForceGuardCarriesStateIntoAWorker) {
  opd::IncludeDispatchKeyGuard tracing(DispatchKey::Tracer);
  const opd::LocalDispatchKeySet parent = opd::tls_local_dispatch_key_set();
  DispatchKeySet seen;
  std::thread worker([&] {
    opd::ForceDispatchKeyGuard inherit(parent);
    seen = opd::compute_dispatch_key_set(DispatchKeySet(DispatchKey::CPU));
  });
  worker.join();
  EXPECT_EQ(seen, kDefault | DispatchKeySet({DispatchKey::CPU, DispatchKey::Tracer}));
  {
    opd::ForceDispatchKeyGuard reset(opd::LocalDispatchKeySet{DispatchKeySet(), DispatchKeySet()});
    EXPECT_TRUE(included().empty());
  }
  EXPECT_EQ(included(), kDefault.add(DispatchKey::Tracer));
}
