#pragma once
// copy_memory: the memcpy of kernels that move rows of tensor data.
//
// Why not plain memcpy: glibc copies a block above 2 KiB
// (glibc.cpu.x86_rep_movsb_threshold) with `rep movsb`, which on AMD Zen 4
// runs several times slower than glibc's own vector loop when source and
// destination differ in alignment: roll by one element of 10^6 floats took
// 1.30 ms against 0.16 ms with the threshold raised (ATen: 0.11 ms). When they
// differ, the copy goes through Highway's widest unaligned loads and stores
// (simd::copy_bytes; 0.17 ms, ATen 0.10 ms; glibc's vector loop in 2 KiB
// pieces took 0.24-0.50 ms); equally aligned blocks go to memcpy whole.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/cpu/fill_simd.hpp"

namespace opd::kernels {

inline void copy_memory(void* dst, const void* src, std::size_t n) noexcept {
  constexpr std::size_t kPiece = 2048;  // below glibc's default rep movsb threshold (2112)
  const auto skew = (reinterpret_cast<std::uintptr_t>(dst) - reinterpret_cast<std::uintptr_t>(src)) % 64;
  if (n <= kPiece || skew == 0) {
    std::memcpy(dst, src, n);
    return;
  }
  if (simd::copy_bytes(dst, src, static_cast<int64_t>(n))) return;
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (std::size_t off = 0; off < n; off += kPiece) std::memcpy(d + off, s + off, n - off < kPiece ? n - off : kPiece);
}

}  // namespace opd::kernels
