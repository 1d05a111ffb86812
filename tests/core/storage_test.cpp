// Allocator registry, DataPtr, Storage refcounting and resizing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "dispatch/core/allocator.hpp"
#include "dispatch/core/cpu_block_cache.hpp"
#include "dispatch/core/storage.hpp"

using opd::Device;
using opd::DeviceType;
using opd::Storage;

namespace {

// Host memory, registered for PrivateUse1, counting what it does.
class CountingAllocator final : public opd::Allocator {
 public:
  opd::DataPtr allocate(std::size_t nbytes, Device device) override {
    ++allocations;
    last_device = device;
    if (nbytes == 0) return opd::DataPtr(nullptr, nullptr, nullptr, device);
    void* p = ::operator new(nbytes);
    return opd::DataPtr(p, p, &release, device);
  }
  void copy_data(void* dst, const void* src, std::size_t n) const override {
    ++copies;
    std::memcpy(dst, src, n);
  }
  static void release(void* p) noexcept {
    ++frees;
    ::operator delete(p);
  }
  int allocations = 0;
  mutable int copies = 0;
  Device last_device = Device::cpu();
  static inline int frees = 0;
};

// Registers an allocator for one test and restores the old one.
struct ScopedAllocator {
  ScopedAllocator(DeviceType t, opd::Allocator* a) : type(t), previous(opd::set_allocator(t, a)) {}
  ~ScopedAllocator() { opd::set_allocator(type, previous); }
  DeviceType type;
  opd::Allocator* previous;
};

}  // namespace

TEST(Allocator, CpuAndMetaArePreRegistered) {
  EXPECT_NE(opd::try_get_allocator(DeviceType::CPU), nullptr);
  EXPECT_NE(opd::try_get_allocator(DeviceType::Meta), nullptr);
  EXPECT_EQ(opd::try_get_allocator(DeviceType::CUDA), nullptr);
  try {
    (void)opd::get_allocator(DeviceType::CUDA);
    FAIL();
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("no allocator registered for device type CUDA"), std::string::npos);
  }
  EXPECT_THROW(Storage::allocate(16, Device::cuda(0)), opd::Error);
}

TEST(Allocator, CpuMemoryIs64ByteAligned) {
  for (std::size_t n : {1u, 3u, 64u, 1000u}) {
    Storage s = Storage::allocate(n, Device::cpu());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(s.data()) % 64, 0u);
    EXPECT_EQ(s.nbytes(), n);
    EXPECT_EQ(s.device(), Device::cpu());
  }
  EXPECT_EQ(Storage::allocate(0, Device::cpu()).data(), nullptr);
}

TEST(Allocator, RegisteredAllocatorIsUsedAndRestored) {
  CountingAllocator counting;
  {
    ScopedAllocator scope(DeviceType::PrivateUse1, &counting);
    const int frees_before = CountingAllocator::frees;
    {
      Storage s = Storage::allocate(32, Device(DeviceType::PrivateUse1, 1));
      EXPECT_EQ(counting.allocations, 1);
      EXPECT_EQ(counting.last_device, Device(DeviceType::PrivateUse1, 1));
      EXPECT_EQ(s.device(), Device(DeviceType::PrivateUse1, 1));
      std::memset(s.data(), 7, 32);
      s.resize(64);  // allocate + copy through the allocator
      EXPECT_EQ(counting.allocations, 2);
      EXPECT_EQ(counting.copies, 1);
      EXPECT_EQ(static_cast<unsigned char*>(s.data())[31], 7);
      EXPECT_EQ(CountingAllocator::frees, frees_before + 1);  // old buffer freed
    }
    EXPECT_EQ(CountingAllocator::frees, frees_before + 2);
  }
  EXPECT_EQ(opd::try_get_allocator(DeviceType::PrivateUse1), nullptr);
}

// ---- the cache of large CPU blocks (cpu_block_cache.hpp) ---------------------
namespace cache = opd::cpu_block_cache;

// Sets a limit for one test and empties the cache on both ends, so that
// tests do not see each other's blocks.
struct ScopedCacheLimit {
  std::size_t old;
  explicit ScopedCacheLimit(std::size_t bytes) : old(cache::set_limit(bytes)) { cache::empty(); }
  ~ScopedCacheLimit() {
    cache::empty();
    cache::set_limit(old);
  }
};

TEST(CpuBlockCache, AFreedLargeBlockServesTheNextRequestThatFitsIt) {
  ScopedCacheLimit limit(std::size_t{64} << 20);
  const std::size_t n = std::size_t{4} << 20;
  void* first = nullptr;
  {
    Storage s = Storage::allocate(n, Device::cpu());
    first = s.data();
    std::memset(first, 1, n);  // the whole block is usable
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 64, 0u);
  }
  const cache::Stats held = cache::stats();
  EXPECT_EQ(held.cached_blocks, 1u);
  EXPECT_GE(held.cached_bytes, n);
  const std::size_t hits = held.hits;
  {
    Storage again = Storage::allocate(n - 100, Device::cpu());  // a little smaller: same block
    EXPECT_EQ(again.data(), first);
    EXPECT_EQ(cache::stats().hits, hits + 1);
    EXPECT_EQ(cache::stats().cached_blocks, 0u);
    // Twice the size does not fit it; half the size would waste too much.
    Storage larger = Storage::allocate(2 * n, Device::cpu());
    EXPECT_NE(larger.data(), first);
  }
  {
    Storage half = Storage::allocate(n / 2, Device::cpu());
    EXPECT_NE(half.data(), first);
    EXPECT_NE(half.data(), nullptr);
  }
}

// Among blocks of one size, the one freed last serves the next request (it
// is still in the CPU's caches); the oldest would cycle through all of them.
TEST(CpuBlockCache, TheBlockFreedLastIsReusedFirst) {
  ScopedCacheLimit limit(std::size_t{64} << 20);
  const std::size_t n = std::size_t{1} << 20;
  void* last = nullptr;
  {
    Storage a = Storage::allocate(n, Device::cpu());
    Storage b = Storage::allocate(n, Device::cpu());
    Storage c = Storage::allocate(n, Device::cpu());
    last = a.data();
  }  // freed c, b, then a: a is the newest
  ASSERT_EQ(cache::stats().cached_blocks, 3u);
  for (int i = 0; i < 4; ++i) {
    Storage s = Storage::allocate(n, Device::cpu());
    EXPECT_EQ(s.data(), last) << "allocation " << i;
  }
  // A better fit still wins over a newer block.
  void* small = nullptr;
  {
    Storage big = Storage::allocate(n + n / 5, Device::cpu());
    Storage fit = Storage::allocate(n, Device::cpu());
    small = fit.data();
  }  // fit freed before big: big is the newest, fit the better fit
  {
    Storage s = Storage::allocate(n, Device::cpu());
    EXPECT_EQ(s.data(), small);
  }
}

TEST(CpuBlockCache, SmallBlocksBypassIt) {
  ScopedCacheLimit limit(std::size_t{64} << 20);
  const cache::Stats before = cache::stats();
  { Storage s = Storage::allocate(cache::kMinBytes - 1, Device::cpu()); }
  const cache::Stats after = cache::stats();
  EXPECT_EQ(after.cached_blocks, 0u);
  EXPECT_EQ(after.hits + after.misses, before.hits + before.misses);
}

TEST(CpuBlockCache, TheLimitEvictsTheOldestAndZeroTurnsItOff) {
  ScopedCacheLimit limit(std::size_t{3} << 20);  // room for one 2 MiB block
  const std::size_t n = std::size_t{2} << 20;
  void* a_data = nullptr;
  {
    Storage a = Storage::allocate(n, Device::cpu());
    Storage b = Storage::allocate(n, Device::cpu());
    a_data = a.data();
  }  // b freed first, then a: a evicts b
  EXPECT_EQ(cache::stats().cached_blocks, 1u);
  {
    Storage c = Storage::allocate(n, Device::cpu());
    EXPECT_EQ(c.data(), a_data);
  }
  // A block over the limit is never kept.
  { Storage big = Storage::allocate(std::size_t{8} << 20, Device::cpu()); }
  EXPECT_LE(cache::stats().cached_bytes, std::size_t{3} << 20);
  cache::set_limit(0);
  EXPECT_EQ(cache::stats().cached_blocks, 0u);
  { Storage d = Storage::allocate(n, Device::cpu()); }
  EXPECT_EQ(cache::stats().cached_blocks, 0u);
}

TEST(CpuBlockCache, ResizeKeepsContentsThroughCachedBlocks) {
  ScopedCacheLimit limit(std::size_t{64} << 20);
  Storage s = Storage::allocate(cache::kMinBytes, Device::cpu());
  std::memset(s.data(), 5, cache::kMinBytes);
  s.resize(4 * cache::kMinBytes);
  EXPECT_EQ(static_cast<unsigned char*>(s.data())[cache::kMinBytes - 1], 5);
  EXPECT_EQ(cache::stats().cached_blocks, 1u);  // the old block, kept
}

// Named for the TSan build: threads allocating and freeing large blocks.
TEST(CpuBlockCacheConcurrency, ThreadsShareTheCacheSafely) {
  ScopedCacheLimit limit(std::size_t{16} << 20);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < 50; ++i) {
        const std::size_t n = (std::size_t{256} << 10) * static_cast<std::size_t>(1 + (i + t) % 3);
        Storage s = Storage::allocate(n, Device::cpu());
        auto* bytes = static_cast<unsigned char*>(s.data());
        bytes[0] = static_cast<unsigned char>(t);
        bytes[n - 1] = static_cast<unsigned char>(i);
        EXPECT_EQ(bytes[0], static_cast<unsigned char>(t));
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(cache::stats().cached_bytes, std::size_t{16} << 20);
}

TEST(DataPtr, MoveTransfersOwnership) {
  int freed = 0;
  {
    opd::DataPtr a = opd::DataPtr::from_function(&freed, [](void* p) { ++*static_cast<int*>(p); }, Device::cpu());
    opd::DataPtr b(std::move(a));
    EXPECT_EQ(a.get(), nullptr);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(b.get(), &freed);
    opd::DataPtr c;
    c = std::move(b);
    EXPECT_EQ(freed, 0);
  }
  EXPECT_EQ(freed, 1);
}

TEST(Storage, CopySharesMoveDoesNotTouchTheCount) {
  Storage a = Storage::allocate(8, Device::cpu());
  EXPECT_EQ(a.use_count(), 1u);
  Storage b = a;
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_TRUE(a.is_same(b));
  Storage c = std::move(b);
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_FALSE(b.defined());  // NOLINT(bugprone-use-after-move)
  c = Storage();
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_THROW((void)c.nbytes(), opd::Error);
}

TEST(Storage, ResizeGrowsPreservingContentsAndShrinksToAPrefix) {
  Storage s = Storage::allocate(4 * sizeof(int), Device::cpu());
  int* p = static_cast<int*>(s.data());
  for (int i = 0; i < 4; ++i) p[i] = i + 10;
  Storage alias = s;
  s.resize(100 * sizeof(int));
  EXPECT_EQ(s.nbytes(), 100 * sizeof(int));
  EXPECT_EQ(alias.data(), s.data());  // every handle sees the new buffer
  const int* q = static_cast<const int*>(s.data());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(q[i], i + 10);
  s.resize(2 * sizeof(int));
  EXPECT_EQ(s.nbytes(), 2 * sizeof(int));
  EXPECT_EQ(static_cast<const int*>(s.data())[1], 11);
}

TEST(Storage, MetaStorageRecordsSizeButAllocatesNothing) {
  Storage s = Storage::allocate(1 << 30, Device::meta());
  EXPECT_EQ(s.data(), nullptr);
  EXPECT_EQ(s.nbytes(), std::size_t{1} << 30);
  s.resize(std::size_t{1} << 40);
  EXPECT_EQ(s.data(), nullptr);
  EXPECT_EQ(s.nbytes(), std::size_t{1} << 40);
}

TEST(Storage, FromBlobRunsDeleterAndIsNotResizable) {
  static float buffer[4] = {1, 2, 3, 4};
  int deleted = 0;
  {
    Storage s = Storage::from_blob(buffer, sizeof buffer, Device::cpu(), [&](void* p) {
      EXPECT_EQ(p, buffer);
      ++deleted;
    });
    EXPECT_EQ(s.data(), buffer);
    EXPECT_FALSE(s.resizable());
    try {
      s.resize(64);
      FAIL();
    } catch (const opd::Error& e) {
      EXPECT_EQ(std::string(e.what()), "Trying to resize storage that is not resizable");
    }
    Storage copy = s;
    EXPECT_EQ(deleted, 0);
  }
  EXPECT_EQ(deleted, 1);
}
