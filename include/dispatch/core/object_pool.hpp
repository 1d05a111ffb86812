#pragma once
// ObjectPool<Size>: a per-thread free list of memory blocks of one size, for
// small objects made and destroyed by the hundred in every step: storages and
// version counters, the lazy backend's IR nodes and tensors, functional
// wrappers and their storages, autograd's graph nodes and AutogradMeta.
//
//   struct Thing { OPD_POOLED_NEW(Thing) ... };         // class-specific new/delete
//   std::allocate_shared<Node>(PoolAllocator<Node>{})   // shared_ptr with its control block
//
// Why: glibc's tcache keeps 7 free blocks per size class. A lazy step drops a
// graph of 50 nodes with their tensors at once and makes as many again, so
// past the 7th block malloc and free take their slow paths (bins,
// consolidation): 200-400 instructions a call, where a pooled block costs a
// few dozen. Eager mode's tensors (a StorageImpl and a VersionCounter each)
// take the same path. A thread keeps at most kMaxFree blocks per size and gives them
// back to ::operator delete when it exits; a block freed on another thread
// joins that thread's list (blocks are plain ::operator new memory). Under
// AddressSanitizer the pool is bypassed, so that a use after free is still
// reported.
#include <cstddef>
#include <memory>
#include <new>

namespace opd {

#if defined(__SANITIZE_ADDRESS__)
#define OPD_OBJECT_POOL_BYPASS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPD_OBJECT_POOL_BYPASS 1
#endif
#endif

namespace pool_detail {

// Trivially destructible, so still readable while the thread exits (blocks
// freed by later thread-exit destructors go straight to ::operator delete).
struct FreeList {
  void* head = nullptr;
  std::size_t count = 0;
  enum : unsigned char { unregistered, open, closed } state = unregistered;
};

struct ReleaseAtExit {
  FreeList& list;
  explicit ReleaseAtExit(FreeList& l) noexcept : list(l) { list.state = FreeList::open; }
  ~ReleaseAtExit() {
    list.state = FreeList::closed;
    while (void* p = list.head) {
      list.head = *static_cast<void**>(p);
      ::operator delete(p);
    }
    list.count = 0;
  }
};

}  // namespace pool_detail

template <std::size_t Size>
class ObjectPool {
  static_assert(Size >= sizeof(void*), "a free block holds the next pointer");

 public:
  static constexpr std::size_t kMaxFree = 4096;

  static void* allocate() {
#ifndef OPD_OBJECT_POOL_BYPASS
    pool_detail::FreeList& l = local();
    if (void* p = l.head) {
      l.head = *static_cast<void**>(p);
      --l.count;
      return p;
    }
#endif
    return ::operator new(Size);
  }

  static void deallocate(void* p) noexcept {
#ifndef OPD_OBJECT_POOL_BYPASS
    pool_detail::FreeList& l = local();
    if (l.state == pool_detail::FreeList::unregistered) [[unlikely]]
      register_release();
    if (l.state == pool_detail::FreeList::open && l.count < kMaxFree) {
      *static_cast<void**>(p) = l.head;
      l.head = p;
      ++l.count;
      return;
    }
#endif
    ::operator delete(p);
  }

 private:
  // One trivially destructible thread_local on the fast paths; the one with
  // a destructor is touched once per thread, when it first frees a block.
  static inline thread_local pool_detail::FreeList list;
  // This thread's list, its address computed once per call: GCC otherwise
  // computes a thread_local's address again at each use, and in a shared
  // library each is a call of __tls_get_addr (about 15 instructions).
  static pool_detail::FreeList& local() noexcept {
    pool_detail::FreeList* l = &list;
#if defined(__GNUC__)
    asm("" : "+r"(l));  // opaque: the compiler keeps it in a register
#endif
    return *l;
  }
  [[gnu::noinline]] static void register_release() noexcept {
    thread_local pool_detail::ReleaseAtExit release{list};
    (void)release;
  }
};

// An allocator over ObjectPool for single objects (allocate_shared's node and
// control block); arrays go to std::allocator.
template <class T>
struct PoolAllocator {
  static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "ObjectPool blocks have new's default alignment");
  using value_type = T;
  PoolAllocator() noexcept = default;
  template <class U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    return n == 1 ? static_cast<T*>(ObjectPool<sizeof(T)>::allocate()) : std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n == 1) ObjectPool<sizeof(T)>::deallocate(p);
    else std::allocator<T>().deallocate(p, n);
  }
  template <class U>
  bool operator==(const PoolAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace opd

// Class-specific operator new / delete from ObjectPool, for a final class
// (its objects all have its size; a derived class would not).
#define OPD_POOLED_NEW(Class)                                                                    \
  static void* operator new(std::size_t n) {                                                     \
    return n == sizeof(Class) ? ::opd::ObjectPool<sizeof(Class)>::allocate() : ::operator new(n); \
  }                                                                                              \
  static void operator delete(void* p, std::size_t n) noexcept {                                 \
    if (n == sizeof(Class)) ::opd::ObjectPool<sizeof(Class)>::deallocate(p);                     \
    else ::operator delete(p);                                                                   \
  }
