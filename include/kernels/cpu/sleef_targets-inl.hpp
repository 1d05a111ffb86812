// Sleef's vector functions for the instruction set Highway compiles now
// (HWY_TARGET), shared by the per-target SIMD files (arith_simd_targets-inl.hpp,
// unary_simd_targets-inl.hpp). Each includes this once per target, inside its
// `namespace HWY_NAMESPACE` after `namespace hn`, so no #pragma once.
//
// Defines OPD_SLEEF_F(fn, acc) / OPD_SLEEF_D(fn, acc), Sleef's name of `fn`
// at accuracy `acc` (u10 = 1.0 ULP; empty for the exact ones) and this
// target's lanes, only where Sleef has the target (AVX-512, AVX2, SSE4): the
// includer tests `#ifdef OPD_SLEEF_F` and #undefs both at its end. There,
// also the float/double vector types and Highway's raw types Sleef's
// functions take: Sleef's own header declares the AVX and AVX-512 functions
// only when the whole file is compiled for them, so OPD_SLEEF_UNARY and
// OPD_SLEEF_BINARY declare them with the raw types and wrap them in functors
// (not lambdas: clang does not give lambdas the target attributes).
#undef OPD_SLEEF_F
#undef OPD_SLEEF_D
#if HWY_TARGET == HWY_AVX3
#define OPD_SLEEF_F(fn, acc) Sleef_##fn##f16_##acc##avx512f
#define OPD_SLEEF_D(fn, acc) Sleef_##fn##d8_##acc##avx512f
#elif HWY_TARGET == HWY_AVX2
#define OPD_SLEEF_F(fn, acc) Sleef_##fn##f8_##acc##avx2
#define OPD_SLEEF_D(fn, acc) Sleef_##fn##d4_##acc##avx2
#elif HWY_TARGET == HWY_SSE4
#define OPD_SLEEF_F(fn, acc) Sleef_##fn##f4_##acc##sse4
#define OPD_SLEEF_D(fn, acc) Sleef_##fn##d2_##acc##sse4
#endif

#ifdef OPD_SLEEF_F
using DF = hn::ScalableTag<float>;
using DD = hn::ScalableTag<double>;
using VF = hn::Vec<DF>;
using VD = hn::Vec<DD>;
using RawF = decltype(VF().raw);
using RawD = decltype(VD().raw);

#ifndef OPD_SLEEF_UNARY
// A functor `Name` applying Sleef's one-argument `fn` to a float or a double vector.
#define OPD_SLEEF_UNARY(Name, fn, acc)                                                     \
  extern "C" RawF OPD_SLEEF_F(fn, acc)(RawF);                                              \
  extern "C" RawD OPD_SLEEF_D(fn, acc)(RawD);                                              \
  struct Name {                                                                            \
    HWY_INLINE VF operator()(VF v) const { return VF{OPD_SLEEF_F(fn, acc)(v.raw)}; }       \
    HWY_INLINE VD operator()(VD v) const { return VD{OPD_SLEEF_D(fn, acc)(v.raw)}; }       \
  };
// The same for a two-argument `fn`.
#define OPD_SLEEF_BINARY(Name, fn, acc)                                                                 \
  extern "C" RawF OPD_SLEEF_F(fn, acc)(RawF, RawF);                                                     \
  extern "C" RawD OPD_SLEEF_D(fn, acc)(RawD, RawD);                                                     \
  struct Name {                                                                                         \
    HWY_INLINE VF operator()(VF a, VF b) const { return VF{OPD_SLEEF_F(fn, acc)(a.raw, b.raw)}; }       \
    HWY_INLINE VD operator()(VD a, VD b) const { return VD{OPD_SLEEF_D(fn, acc)(a.raw, b.raw)}; }       \
  };
#endif
#endif
