// ObjectPool: per-thread reuse of small blocks (storages, version counters,
// the lazy backend's nodes and tensors).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "dispatch/core/object_pool.hpp"
#include "dispatch/core/storage.hpp"
#include "dispatch/core/tensor_impl.hpp"

namespace {

#ifdef OPD_OBJECT_POOL_BYPASS
#define SKIP_WITHOUT_POOL() GTEST_SKIP() << "AddressSanitizer: the pool is bypassed"
#else
#define SKIP_WITHOUT_POOL() (void)0
#endif

using Pool = opd::ObjectPool<96>;

TEST(ObjectPool, TheBlockFreedLastIsReusedFirst) {
  SKIP_WITHOUT_POOL();
  void* a = Pool::allocate();
  void* b = Pool::allocate();
  Pool::deallocate(a);
  Pool::deallocate(b);
  // The pool holds them: malloc (whose own cache is last-in first-out too)
  // does not hand them out.
  void* heap = ::operator new(96);
  EXPECT_NE(heap, a);
  EXPECT_NE(heap, b);
  ::operator delete(heap);
  EXPECT_EQ(Pool::allocate(), b);
  EXPECT_EQ(Pool::allocate(), a);
  Pool::deallocate(a);
  Pool::deallocate(b);
}

TEST(ObjectPool, AThreadKeepsAtMostKMaxFreeBlocks) {
  SKIP_WITHOUT_POOL();
  std::thread([] {  // a fresh thread: its list starts empty
    constexpr std::size_t n = opd::ObjectPool<200>::kMaxFree + 16;
    std::vector<void*> blocks;
    for (std::size_t i = 0; i < n; ++i) blocks.push_back(opd::ObjectPool<200>::allocate());
    for (void* p : blocks) opd::ObjectPool<200>::deallocate(p);
    // The first kMaxFree freed are kept, the last 16 went back to the heap:
    // the pool hands back the kept ones, last kept first.
    for (std::size_t i = opd::ObjectPool<200>::kMaxFree; i-- > 0;) {
      void* p = opd::ObjectPool<200>::allocate();
      ASSERT_EQ(p, blocks[i]) << i;
    }
    for (std::size_t i = 0; i < opd::ObjectPool<200>::kMaxFree; ++i) opd::ObjectPool<200>::deallocate(blocks[i]);
  }).join();
}

TEST(ObjectPool, BlocksFreedOnAnotherThreadJoinThatThreadsList) {
  SKIP_WITHOUT_POOL();
  void* mine = opd::ObjectPool<136>::allocate();
  void* reused = nullptr;
  std::thread([&] {
    opd::ObjectPool<136>::deallocate(mine);         // joins this thread's list
    reused = opd::ObjectPool<136>::allocate();      // and serves it
    opd::ObjectPool<136>::deallocate(reused);       // freed at thread exit
  }).join();
  EXPECT_EQ(reused, mine);
}

struct Payload {
  int value = 0;
  char pad[40] = {};
};

TEST(ObjectPool, AllocateSharedReusesTheNodeAndControlBlock) {
  SKIP_WITHOUT_POOL();
  auto first = std::allocate_shared<Payload>(opd::PoolAllocator<Payload>{});
  first->value = 7;
  const void* where = first.get();
  first.reset();
  auto second = std::allocate_shared<Payload>(opd::PoolAllocator<Payload>{});
  EXPECT_EQ(second.get(), where);
  EXPECT_EQ(second->value, 0) << "constructed again";
}

// Core's per-tensor objects come from the pool: a storage made after one is
// dropped takes its block.
TEST(ObjectPool, StorageImplsAndVersionCountersAreReused) {
  SKIP_WITHOUT_POOL();
  const void* impl = nullptr;
  {
    opd::Storage s = opd::Storage::from_blob(nullptr, 16, opd::Device::cpu());
    impl = s.unsafe_get_impl();
  }
  void* heap = ::operator new(sizeof(opd::StorageImpl));  // malloc's last freed block of that size, were it freed to malloc
  EXPECT_NE(heap, impl);
  ::operator delete(heap);
  opd::Storage again = opd::Storage::from_blob(nullptr, 32, opd::Device::cpu());
  EXPECT_EQ(again.unsafe_get_impl(), impl);
  EXPECT_EQ(again.nbytes(), 32u);

  const void* counter = nullptr;
  {
    auto v = opd::make_intrusive<opd::VersionCounter>();
    v->bump();
    counter = v.get();
  }
  heap = ::operator new(sizeof(opd::VersionCounter));
  EXPECT_NE(heap, counter);
  ::operator delete(heap);
  auto fresh = opd::make_intrusive<opd::VersionCounter>();
  EXPECT_EQ(fresh.get(), counter);
  EXPECT_EQ(fresh->current(), 0u) << "a new counter, not the old one's state";
}

}  // namespace
