#pragma once
// Out-of-line part of cpu_block_cache.hpp.
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "dispatch/core/cpu_block_cache.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OPD_BLOCK_CACHE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define OPD_BLOCK_CACHE_ASAN 1
#endif
#ifdef OPD_BLOCK_CACHE_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace opd::cpu_block_cache {
namespace detail {

// Written just below the aligned block: what malloc returned and how many
// bytes the block can hold.
struct Header {
  void* raw;
  std::size_t capacity;
};
inline constexpr std::size_t kPage = 4096;

inline Header& header_of(void* block) noexcept {
  return *reinterpret_cast<Header*>(static_cast<char*>(block) - sizeof(Header));
}

inline void poison(void* block, std::size_t n) noexcept {
#ifdef OPD_BLOCK_CACHE_ASAN
  ASAN_POISON_MEMORY_REGION(block, n);
#else
  (void)block, (void)n;
#endif
}
inline void unpoison(void* block, std::size_t n) noexcept {
#ifdef OPD_BLOCK_CACHE_ASAN
  ASAN_UNPOISON_MEMORY_REGION(block, n);
#else
  (void)block, (void)n;
#endif
}

inline std::size_t limit_from_environment() noexcept {
  const char* text = std::getenv("OPD_CPU_CACHE_MB");
  if (text == nullptr || *text == '\0') return std::size_t{256} << 20;
  char* end = nullptr;
  const unsigned long long mb = std::strtoull(text, &end, 10);
  if (*end != '\0' || mb > (std::numeric_limits<std::size_t>::max() >> 20)) return std::size_t{256} << 20;
  return static_cast<std::size_t>(mb) << 20;
}

struct Cache {
  std::mutex mutex;
  std::vector<void*> blocks;  // oldest first
  std::size_t bytes = 0;
  std::size_t limit = limit_from_environment();
  std::size_t hits = 0, misses = 0;

  // Frees the oldest blocks until `bytes` <= `target`. Mutex held.
  void shrink_to(std::size_t target) noexcept {
    std::size_t n = 0;
    while (bytes > target && n < blocks.size()) {
      Header& h = header_of(blocks[n]);
      bytes -= h.capacity;
      unpoison(blocks[n], h.capacity);
      std::free(h.raw);
      ++n;
    }
    blocks.erase(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(n));
  }
};

// Never destroyed: tensors that outlive static destruction still release
// into it. Its blocks stay reachable from here, so LeakSanitizer is quiet.
inline Cache& cache() noexcept {
  static Cache* c = new Cache;
  return *c;
}

}  // namespace detail

OPD_FUNC void* allocate(std::size_t nbytes, std::size_t alignment) {
  using namespace detail;
  // A hit may hand out up to a quarter more than asked: enough slack for
  // the sizes of one model's layers to share blocks, little enough waste.
  // The smallest block that fits, and among equal ones the block freed last:
  // it is the one still in the CPU's caches. (Taking the oldest made a loop
  // that frees and allocates one size cycle through every cached block of
  // that size, each cold: ones over 10^6 floats took 64 us instead of 44.)
  const std::size_t most = nbytes + nbytes / 4;
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    std::size_t best = c.blocks.size();
    for (std::size_t i = c.blocks.size(); i-- > 0;) {
      const std::size_t cap = header_of(c.blocks[i]).capacity;
      if (cap >= nbytes && cap <= most && (best == c.blocks.size() || cap < header_of(c.blocks[best]).capacity))
        best = i;
    }
    if (best != c.blocks.size()) {
      void* block = c.blocks[best];
      c.blocks.erase(c.blocks.begin() + static_cast<std::ptrdiff_t>(best));
      const std::size_t cap = header_of(block).capacity;
      c.bytes -= cap;
      ++c.hits;
      unpoison(block, nbytes);  // the tail past nbytes stays poisoned: overflows are still caught
      return block;
    }
    ++c.misses;
  }
  // Whole pages: a block freed by one tensor then fits the next of about
  // the same size.
  if (nbytes > std::numeric_limits<std::size_t>::max() - 2 * kPage) throw std::bad_alloc();
  const std::size_t capacity = (nbytes + kPage - 1) / kPage * kPage;
  const std::size_t padding = sizeof(Header) + alignment - 1;
  void* raw = std::malloc(capacity + padding);
  if (raw == nullptr) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw) + sizeof(Header);
  void* block = reinterpret_cast<void*>((start + alignment - 1) & ~std::uintptr_t{alignment - 1});
  header_of(block) = Header{raw, capacity};
  poison(static_cast<char*>(block) + nbytes, capacity - nbytes);
  return block;
}

OPD_FUNC void release(void* block) noexcept {
  using namespace detail;
  if (block == nullptr) return;
  Header& h = header_of(block);
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (h.capacity <= c.limit) {
      c.shrink_to(c.limit - h.capacity);
      // push_back may need memory; without it the block is simply freed.
      try {
        c.blocks.push_back(block);
        c.bytes += h.capacity;
        poison(block, h.capacity);
        return;
      } catch (...) {
      }
    }
  }
  unpoison(block, h.capacity);
  std::free(h.raw);
}

OPD_FUNC Stats stats() noexcept {
  detail::Cache& c = detail::cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return Stats{c.bytes, c.blocks.size(), c.limit, c.hits, c.misses};
}

OPD_FUNC std::size_t set_limit(std::size_t bytes) noexcept {
  detail::Cache& c = detail::cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  const std::size_t old = c.limit;
  c.limit = bytes;
  c.shrink_to(bytes);
  return old;
}

OPD_FUNC void empty() noexcept {
  detail::Cache& c = detail::cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.shrink_to(0);
}

}  // namespace opd::cpu_block_cache
