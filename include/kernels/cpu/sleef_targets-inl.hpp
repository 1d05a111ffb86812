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
#undef OPD_SLEEF_BY_BLOCK
#undef OPD_SLEEF_APPLY
// clang (up to LLVM's fix of llvm/llvm-project#64706, after clang 14) passes
// __m256 / __m512 arguments on the stack when AVX or AVX-512 is enabled for a
// function only (Highway's per-target attributes) rather than for the whole
// file, while Sleef's functions read them from ymm / zmm registers: a call
// then works only when the registers happen to hold the arguments (at -O2
// usually, at -O0 not: fmod(-0, y) came out NaN). 128-bit vectors travel in
// xmm registers either way, so such builds call Sleef's 128-bit AVX2 functions
// (`avx2128`: the AVX2 and AVX-512 targets only run where AVX2 and FMA exist)
// on each 128-bit block instead.
#if defined(__clang__) && ((HWY_TARGET == HWY_AVX3 && !defined(__AVX512F__)) || (HWY_TARGET == HWY_AVX2 && !defined(__AVX__)))
#define OPD_SLEEF_BY_BLOCK 1
#define OPD_SLEEF_F(fn, acc) Sleef_##fn##f4_##acc##avx2128
#define OPD_SLEEF_D(fn, acc) Sleef_##fn##d2_##acc##avx2128
#elif HWY_TARGET == HWY_AVX3
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
#ifdef OPD_SLEEF_BY_BLOCK
// Sleef's arguments: one 128-bit block, applied to each block of a vector.
using RawF = decltype(hn::Vec128<float>().raw);
using RawD = decltype(hn::Vec128<double>().raw);
template <class V, class F, class... Vs>
HWY_INLINE V SleefByBlock(F f, V a, Vs... more) {
  using T = hn::TFromV<V>;
  const hn::DFromV<V> d;
  const hn::Full128<T> d128;
  HWY_ALIGN T out[hn::MaxLanes(d)];
  HWY_ALIGN T in[1 + sizeof...(Vs)][hn::MaxLanes(d)];
  hn::Store(a, d, in[0]);
  std::size_t k = 1;
  ((hn::Store(more, d, in[k++])), ...);
  for (std::size_t i = 0; i < hn::Lanes(d); i += hn::Lanes(d128)) {
    if constexpr (sizeof...(Vs) == 0) {
      hn::Store(hn::Vec128<T>{f(hn::Load(d128, in[0] + i).raw)}, d128, out + i);
    } else {
      hn::Store(hn::Vec128<T>{f(hn::Load(d128, in[0] + i).raw, hn::Load(d128, in[1] + i).raw)}, d128, out + i);
    }
  }
  return hn::Load(d, out);
}
#define OPD_SLEEF_APPLY(fn, ...) SleefByBlock(fn, __VA_ARGS__)
#else
// Sleef's arguments: the whole vector.
using RawF = decltype(VF().raw);
using RawD = decltype(VD().raw);
template <class V, class F, class... Vs>
HWY_INLINE V SleefWhole(F f, V a, Vs... more) {
  return V{f(a.raw, more.raw...)};
}
#define OPD_SLEEF_APPLY(fn, ...) SleefWhole(fn, __VA_ARGS__)
#endif

#ifndef OPD_SLEEF_UNARY
// A functor `Name` applying Sleef's one-argument `fn` to a float or a double vector.
#define OPD_SLEEF_UNARY(Name, fn, acc)                                                     \
  extern "C" RawF OPD_SLEEF_F(fn, acc)(RawF);                                              \
  extern "C" RawD OPD_SLEEF_D(fn, acc)(RawD);                                              \
  struct Name {                                                                            \
    HWY_INLINE VF operator()(VF v) const { return OPD_SLEEF_APPLY(OPD_SLEEF_F(fn, acc), v); } \
    HWY_INLINE VD operator()(VD v) const { return OPD_SLEEF_APPLY(OPD_SLEEF_D(fn, acc), v); } \
  };
// The same for a two-argument `fn`.
#define OPD_SLEEF_BINARY(Name, fn, acc)                                                                 \
  extern "C" RawF OPD_SLEEF_F(fn, acc)(RawF, RawF);                                                     \
  extern "C" RawD OPD_SLEEF_D(fn, acc)(RawD, RawD);                                                     \
  struct Name {                                                                                         \
    HWY_INLINE VF operator()(VF a, VF b) const { return OPD_SLEEF_APPLY(OPD_SLEEF_F(fn, acc), a, b); } \
    HWY_INLINE VD operator()(VD a, VD b) const { return OPD_SLEEF_APPLY(OPD_SLEEF_D(fn, acc), a, b); } \
  };
#endif
#endif
