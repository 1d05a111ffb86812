// Highway's foreach_target.h pass for one SIMD family: include this file after
// defining OPD_SIMD_FAMILY_TARGETS as the family's per-target header (a quoted
// path). No #pragma once: each family's -inl header includes it.
//
// foreach_target.h compiles the per-target bodies once per target but has an
// include guard: one pass per translation unit. Compiled, each family's
// source makes its own pass over its own targets header; header-only, the
// first family a file includes makes the pass over every family
// (simd_targets-inl.hpp).
#ifndef OPD_SIMD_FAMILY_TARGETS
#error "define OPD_SIMD_FAMILY_TARGETS before including simd_pass-inl.hpp"
#endif

// Fewer targets, less compile time: no SSSE3 (SSE4 covers every x86-64 CPU
// that matters here) and no AVX3_DL (AVX3 has every op the families use).
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_AVX3_DL)
#endif

#if defined(OPD_HEADER_ONLY)
#ifndef OPD_SIMD_TARGETS_COMPILED
#define OPD_SIMD_TARGETS_COMPILED
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_targets-inl.hpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include "kernels/cpu/simd_targets-inl.hpp"  // the static target's pass
#endif
#else
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE OPD_SIMD_FAMILY_TARGETS
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include OPD_SIMD_FAMILY_TARGETS  // the static target's pass
#endif

#undef OPD_SIMD_FAMILY_TARGETS
