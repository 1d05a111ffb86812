// A bounded cache of large host blocks, behind CPUAllocator.
//
// Why: glibc serves blocks of 128 KiB and more with mmap, or trims them off
// the top of the heap when freed, so a loop that allocates and frees a
// 4 MB tensor per call faults in ~1,000 fresh pages per call: a large
// tensor's first touch costs more than the kernel that fills it (an add
// over 10^6 floats through the CPU fallback faulted 1,900 pages per call).
// Blocks at or above kMinBytes are kept here when freed and handed back to
// the next request that fits them, up to a byte limit (oldest evicted
// first). Small blocks stay with malloc, whose fast path is cheaper than a
// lock.
//
// The limit is 256 MiB by default, OPD_CPU_CACHE_MB in the environment at
// the first large allocation overrides it, and set_limit() at any time (0
// turns caching off and frees what is held). Thread-safe: one mutex, taken
// only on large allocations and frees. Under AddressSanitizer a cached
// block, and the tail of a block past the bytes asked for, are poisoned, so
// a use after free or an overflow is still reported.
#pragma once

#include <cstddef>

#include "dispatch/config.hpp"

namespace opd::cpu_block_cache {

// Requests below this size never touch the cache.
inline constexpr std::size_t kMinBytes = std::size_t{128} << 10;

struct Stats {
  std::size_t cached_bytes = 0;   // held by the cache, free for reuse
  std::size_t cached_blocks = 0;
  std::size_t limit_bytes = 0;
  std::size_t hits = 0;           // large requests served from the cache
  std::size_t misses = 0;         // large requests that went to malloc
};

// A block of at least `nbytes` (>= kMinBytes), aligned to `alignment` (a
// power of two, at most 4096). Throws std::bad_alloc.
OPD_API void* allocate(std::size_t nbytes, std::size_t alignment);
// Returns a block from allocate() to the cache (or to malloc when it does
// not fit the limit). Never throws.
OPD_API void release(void* block) noexcept;

OPD_API Stats stats() noexcept;
// Sets the byte limit, evicting the oldest blocks above it; returns the old one.
OPD_API std::size_t set_limit(std::size_t bytes) noexcept;
// Frees every cached block (the limit stays).
OPD_API void empty() noexcept;

}  // namespace opd::cpu_block_cache

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/cpu_block_cache-inl.hpp"
#endif
