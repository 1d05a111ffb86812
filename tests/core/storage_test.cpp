// Allocator registry, DataPtr, Storage refcounting and resizing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "dispatch/core/allocator.hpp"
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
