// libopdispatch: the floating unary ops on contiguous Float/Double rows with
// Sleef's vectorized math (the u10 functions ATen uses: 1 ULP), 8 floats or
// 4 doubles per step. Compiled with -mavx2 -mfma (CMakeLists.txt) and only
// called after a run-time CPU check (pointwise_functors-inl.hpp). So that no
// AVX code can stand in for another source's copy of an inline function,
// this file includes nothing with inline code (pointwise_ops.hpp holds only
// the op ids) and keeps its own code in an anonymous namespace.
#include <cstdint>
#include <cstring>

#include "kernels/cpu/pointwise_ops.hpp"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#include <sleef.h>

namespace {

using opd::kernels::UnaryOp;
using F8 = __m256 (*)(__m256);
using D4 = __m256d (*)(__m256d);

__m256 sqrt_f8(__m256 x) { return _mm256_sqrt_ps(x); }
__m256d sqrt_d4(__m256d x) { return _mm256_sqrt_pd(x); }
__m256 rsqrt_f8(__m256 x) { return _mm256_div_ps(_mm256_set1_ps(1.f), _mm256_sqrt_ps(x)); }
__m256d rsqrt_d4(__m256d x) { return _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_sqrt_pd(x)); }
__m256 recip_f8(__m256 x) { return _mm256_div_ps(_mm256_set1_ps(1.f), x); }
__m256d recip_d4(__m256d x) { return _mm256_div_pd(_mm256_set1_pd(1.0), x); }
__m256 neg_f8(__m256 x) { return _mm256_sub_ps(_mm256_setzero_ps(), x); }
__m256d neg_d4(__m256d x) { return _mm256_sub_pd(_mm256_setzero_pd(), x); }
// 1 / (1 + exp(-x)) and x / (1 + exp(-x)), as the scalar functors.
__m256 sigmoid_f8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.f);
  return _mm256_div_ps(one, _mm256_add_ps(one, Sleef_expf8_u10(neg_f8(x))));
}
__m256d sigmoid_d4(__m256d x) {
  const __m256d one = _mm256_set1_pd(1.0);
  return _mm256_div_pd(one, _mm256_add_pd(one, Sleef_expd4_u10(neg_d4(x))));
}
__m256 silu_f8(__m256 x) {
  return _mm256_div_ps(x, _mm256_add_ps(_mm256_set1_ps(1.f), Sleef_expf8_u10(neg_f8(x))));
}
__m256d silu_d4(__m256d x) {
  return _mm256_div_pd(x, _mm256_add_pd(_mm256_set1_pd(1.0), Sleef_expd4_u10(neg_d4(x))));
}

// A Sleef function as a plain function pointer (the vector types' attributes
// keep Sleef's own declarations from converting).
#define OPD_VEC(fn, V) [](V x) -> V { return fn(x); }

struct Fns {
  F8 f = nullptr;
  D4 d = nullptr;
};

Fns fns_of(UnaryOp op) {
  switch (op) {
    case UnaryOp::Exp: return {OPD_VEC(Sleef_expf8_u10, __m256), OPD_VEC(Sleef_expd4_u10, __m256d)};
    case UnaryOp::Exp2: return {OPD_VEC(Sleef_exp2f8_u10, __m256), OPD_VEC(Sleef_exp2d4_u10, __m256d)};
    case UnaryOp::Expm1: return {OPD_VEC(Sleef_expm1f8_u10, __m256), OPD_VEC(Sleef_expm1d4_u10, __m256d)};
    case UnaryOp::Log: return {OPD_VEC(Sleef_logf8_u10, __m256), OPD_VEC(Sleef_logd4_u10, __m256d)};
    case UnaryOp::Log2: return {OPD_VEC(Sleef_log2f8_u10, __m256), OPD_VEC(Sleef_log2d4_u10, __m256d)};
    case UnaryOp::Log10: return {OPD_VEC(Sleef_log10f8_u10, __m256), OPD_VEC(Sleef_log10d4_u10, __m256d)};
    case UnaryOp::Log1p: return {OPD_VEC(Sleef_log1pf8_u10, __m256), OPD_VEC(Sleef_log1pd4_u10, __m256d)};
    case UnaryOp::Sqrt: return {sqrt_f8, sqrt_d4};
    case UnaryOp::Rsqrt: return {rsqrt_f8, rsqrt_d4};
    case UnaryOp::Reciprocal: return {recip_f8, recip_d4};
    case UnaryOp::Sin: return {OPD_VEC(Sleef_sinf8_u10, __m256), OPD_VEC(Sleef_sind4_u10, __m256d)};
    case UnaryOp::Cos: return {OPD_VEC(Sleef_cosf8_u10, __m256), OPD_VEC(Sleef_cosd4_u10, __m256d)};
    case UnaryOp::Tan: return {OPD_VEC(Sleef_tanf8_u10, __m256), OPD_VEC(Sleef_tand4_u10, __m256d)};
    case UnaryOp::Asin: return {OPD_VEC(Sleef_asinf8_u10, __m256), OPD_VEC(Sleef_asind4_u10, __m256d)};
    case UnaryOp::Acos: return {OPD_VEC(Sleef_acosf8_u10, __m256), OPD_VEC(Sleef_acosd4_u10, __m256d)};
    case UnaryOp::Atan: return {OPD_VEC(Sleef_atanf8_u10, __m256), OPD_VEC(Sleef_atand4_u10, __m256d)};
    case UnaryOp::Sinh: return {OPD_VEC(Sleef_sinhf8_u10, __m256), OPD_VEC(Sleef_sinhd4_u10, __m256d)};
    case UnaryOp::Cosh: return {OPD_VEC(Sleef_coshf8_u10, __m256), OPD_VEC(Sleef_coshd4_u10, __m256d)};
    case UnaryOp::Tanh: return {OPD_VEC(Sleef_tanhf8_u10, __m256), OPD_VEC(Sleef_tanhd4_u10, __m256d)};
    case UnaryOp::Sigmoid: return {sigmoid_f8, sigmoid_d4};
    case UnaryOp::Erf: return {OPD_VEC(Sleef_erff8_u10, __m256), OPD_VEC(Sleef_erfd4_u10, __m256d)};
    case UnaryOp::Erfc: return {OPD_VEC(Sleef_erfcf8_u15, __m256), OPD_VEC(Sleef_erfcd4_u15, __m256d)};
    case UnaryOp::Silu: return {silu_f8, silu_d4};
    default: return {};
  }
}

// Full vectors, then the tail through a padded vector (so that every
// element goes through the same function).
void run_f8(F8 f, const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, f(_mm256_loadu_ps(in + i)));
  if (i < n) {
    float buf[8] = {};
    std::memcpy(buf, in + i, static_cast<std::size_t>(n - i) * sizeof(float));
    _mm256_storeu_ps(buf, f(_mm256_loadu_ps(buf)));
    std::memcpy(out + i, buf, static_cast<std::size_t>(n - i) * sizeof(float));
  }
}
void run_d4(D4 f, const double* in, double* out, int64_t n) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(out + i, f(_mm256_loadu_pd(in + i)));
  if (i < n) {
    double buf[4] = {};
    std::memcpy(buf, in + i, static_cast<std::size_t>(n - i) * sizeof(double));
    _mm256_storeu_pd(buf, f(_mm256_loadu_pd(buf)));
    std::memcpy(out + i, buf, static_cast<std::size_t>(n - i) * sizeof(double));
  }
}

}  // namespace

namespace opd::kernels::detail {
bool unary_avx2_row(UnaryOp op, bool is_double, const void* in, void* out, int64_t n) {
  const Fns fns = fns_of(op);
  if (is_double) {
    if (!fns.d) return false;
    run_d4(fns.d, static_cast<const double*>(in), static_cast<double*>(out), n);
  } else {
    if (!fns.f) return false;
    run_f8(fns.f, static_cast<const float*>(in), static_cast<float*>(out), n);
  }
  return true;
}
}  // namespace opd::kernels::detail

#else  // not an AVX2 build (another architecture): the scalar loops serve

namespace opd::kernels::detail {
bool unary_avx2_row(UnaryOp, bool, const void*, void*, int64_t) { return false; }
}  // namespace opd::kernels::detail

#endif
