// The elementwise engine's loops: written once, instantiated by every CPU
// pointwise kernel (binary ops, copy_, fill_, ...). Templates only, so any
// kernel source may include it; user code reaches it only in header-only
// mode (compiled-mode users call the kernels declared in the public headers).
//
//   ScalarOperand       a Scalar converted to a dtype, usable as a 0-dim
//                       input (OperandRef, in elementwise.hpp, views it).
//   ElementwiseIter<N>  one output and N inputs broadcast to the output's
//                       shape: drops size-1 dimensions, orders the rest by
//                       the output's strides (fastest first) and merges
//                       dimensions that are contiguous in every operand, so
//                       an all-contiguous call is a single row. Calls a row
//                       function with per-operand pointers and byte strides.
//   cpu_kernel<T>(iter, op)  runs `op` (N arguments of opmath_t<T>) over the
//                       iterator. T is the op's common dtype. When every
//                       operand has dtype T (and T is not Half/BFloat16):
//                       typed loops, contiguous/broadcast-scalar rows in
//                       fixed-size blocks the compiler vectorizes at -O2;
//                       otherwise rows go through small stack buffers:
//                       inputs converted to T (then opmath), op applied,
//                       results converted to the output's dtype. The dtype
//                       switches happen per row chunk, never per element.
//   fill_elements<T>, detail::convert_row<D, S>  the fill and converting
//                       copy loops (copy_elements, elementwise.hpp, runs the
//                       latter).
//
// Threads: cpu_kernel, fill_elements and copy_elements split work of more
// than grain_size elements across threads (parallel.hpp) by ranges of the
// iterator's outermost dimension, so each thread writes its own part of the
// output; smaller work runs on the calling thread.
//
// Overlap between the output and inputs is the caller's business (see
// overlap.hpp): the loops read each input element before writing the
// corresponding output element, so an input that is exactly the output
// (in-place) is fine, in any order and on any thread; anything else
// aliasing the output is not. An output whose elements overlap (a stride 0
// over a size > 1) is walked on one thread.
#pragma once

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>

#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/small_vector.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/parallel.hpp"

// Tells the compiler a loop has no loop-carried memory dependence.
#if defined(__clang__)
#define OPD_KERNEL_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define OPD_KERNEL_IVDEP _Pragma("GCC ivdep")
#else
#define OPD_KERNEL_IVDEP
#endif

// contiguous_row's AVX2 clone: GCC and clang on x86-64, not under nvcc.
#if !defined(OPD_KERNEL_AVX2_ROWS)
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define OPD_KERNEL_AVX2_ROWS 1
#else
#define OPD_KERNEL_AVX2_ROWS 0
#endif
#endif

namespace opd::kernels {

// ---------------------------------------------------------------- operands ---

// A Scalar converted (scalar_cast, unchecked) to `dtype` and kept in a small
// buffer, for use as a 0-dim input: the "wrapped number" of a Scalar overload.
class ScalarOperand {
 public:
  ScalarOperand(const Scalar& value, ScalarType dtype) : dtype_(dtype) {
    dispatch_dtype_with_complex(dtype, "ScalarOperand", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v = scalar_cast<T>(value);
      static_assert(sizeof(T) <= sizeof(buf_));
      std::memcpy(buf_, &v, sizeof(T));
    });
  }
  ScalarOperand(const ScalarOperand&) = delete;
  ScalarOperand& operator=(const ScalarOperand&) = delete;

  OperandRef ref() const noexcept { return OperandRef{const_cast<char*>(buf_), dtype_, {}, {}, true}; }
  ScalarType dtype() const noexcept { return dtype_; }

  template <class T>
  T value() const noexcept {
    T v;
    std::memcpy(&v, buf_, sizeof(T));
    return v;
  }

 private:
  alignas(16) char buf_[16] = {};
  ScalarType dtype_;
};

// ---------------------------------------------------------------- iterator ---

// Row-major contiguous (size-1 dimensions' strides ignored).
inline bool is_plain_contiguous(IntArrayRef sizes, IntArrayRef strides) noexcept {
  int64_t expected = 1;
  for (std::size_t d = sizes.size(); d-- > 0;) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}
inline bool is_plain_contiguous(const OperandRef& r) noexcept {
  return r.contiguous || is_plain_contiguous(r.sizes, r.strides);
}

template <std::size_t NIn>
class ElementwiseIter : public ElementwiseLayout {
  static_assert(NIn + 1 <= kMaxOperands, "ElementwiseIter: too many inputs");

 public:
  static constexpr std::size_t kNumOperands = NIn + 1;
  using Ptrs = std::array<char*, kNumOperands>;
  using Strides = std::array<int64_t, kNumOperands>;  // bytes

  // Operand 0 is the output; its sizes are the iteration shape. Inputs must
  // broadcast to it (opd::Error otherwise).
  ElementwiseIter(const OperandRef& out, const std::array<OperandRef, NIn>& inputs)
      : ElementwiseLayout(out, inputs.data(), NIn) {}

  // f(const Ptrs& ptrs, const Strides& byte_strides, int64_t n) for every
  // row of the innermost dimension, in the order of the output's memory.
  // f is called through a pointer, so that the walk over the outer
  // dimensions is compiled once (ElementwiseLayout::walk_rows), not once
  // per row function (every op and dtype has its own): one indirect call
  // per row.
  template <class F>
  void for_each_row(F&& f) const {
    walk_rows(erase(f), &call_row<std::remove_reference_t<F>>, /*parallel=*/false);
  }
  // for_each_row, with f called from several threads at once on disjoint
  // parts of the output when there are more than grain_size elements (f
  // must then not share mutable state between calls).
  template <class F>
  void for_each_row_parallel(F&& f) const {
    walk_rows(erase(f), &call_row<std::remove_reference_t<F>>, /*parallel=*/true);
  }

 private:
  template <class F>
  static void* erase(F& f) noexcept {
    return const_cast<void*>(static_cast<const void*>(std::addressof(f)));
  }
  template <class Fn>
  static void call_row(void* fn, char* const* p, const int64_t* s, int64_t n) {
    Ptrs ptrs;
    Strides strides;
    for (std::size_t k = 0; k < kNumOperands; ++k) {
      ptrs[k] = p[k];
      strides[k] = s[k];
    }
    (*static_cast<Fn*>(fn))(ptrs, strides, n);
  }
};

// ------------------------------------------------------------------- loops ---

namespace detail {

// Elements per block of the vectorizable loops: 128 bytes, at least 16.
template <class T>
inline constexpr int64_t kBlock = sizeof(T) >= 8 ? 16 : static_cast<int64_t>(128 / sizeof(T));
// Elements per chunk of the converting loops.
inline constexpr int64_t kChunk = 256;

template <class T>
inline T load(const char* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
inline void store(char* p, T v) noexcept {
  std::memcpy(p, &v, sizeof(T));
}

#if OPD_KERNEL_AVX2_ROWS
// Asked once per process (the CPU and the OS's AVX state both).
inline bool cpu_has_avx2() noexcept {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif

// Output contiguous, input k contiguous unless bit k of Mask says it is a
// broadcast scalar (stride 0). Full blocks of kBlock elements: a fixed trip
// count that GCC's -O2 vectorizer accepts, and no loop-carried dependence
// (inputs are either disjoint from the output or exactly it), which the
// pragma tells the compiler so that it needs no runtime alias checks.
template <class T, unsigned Mask, class Op, std::size_t... I>
[[gnu::always_inline]] inline void contiguous_row_body(const std::array<char*, sizeof...(I) + 1>& ptrs, int64_t n,
                                                       const Op& op_ref, std::index_sequence<I...>) {
  // A local copy: the op's members (nan_to_num's replacements, a Scalar
  // weight) are then registers, not loads the output's stores might alias,
  // and a select on them vectorizes (nan_to_num was a branchy scalar loop).
  const Op op = op_ref;
  constexpr std::size_t N = sizeof...(I);
  constexpr int64_t B = kBlock<T>;
  T* out = reinterpret_cast<T*>(ptrs[0]);
  [[maybe_unused]] const T* in[N > 0 ? N : 1] = {reinterpret_cast<const T*>(ptrs[I + 1])...};
  [[maybe_unused]] const T scalar[N > 0 ? N : 1] = {(((Mask >> I) & 1u) ? in[I][0] : T{})...};
  int64_t i = 0;
  for (; i + B <= n; i += B) {
    T* o = out + i;
    [[maybe_unused]] const T* p[N > 0 ? N : 1] = {(in[I] + i)...};
    OPD_KERNEL_IVDEP
    for (int64_t j = 0; j < B; ++j) {
      o[j] = op((((Mask >> I) & 1u) ? scalar[I] : p[I][j])...);
    }
  }
  for (; i < n; ++i) {
    out[i] = op((((Mask >> I) & 1u) ? scalar[I] : in[I][i])...);
  }
}

#if OPD_KERNEL_AVX2_ROWS
// The same loop compiled for AVX2 (the op's call inlined into it), picked at
// run time: the default build targets SSE2, whose 16-byte vectors left the
// cache-resident elementwise rows 10-25% behind ATen's AVX2/AVX-512 kernels.
// No "fma" in the target: results stay those of the SSE2 loop to the bit.
template <class T, unsigned Mask, class Op, std::size_t... I>
[[gnu::target("avx2"), gnu::noinline]] void contiguous_row_avx2(const std::array<char*, sizeof...(I) + 1>& ptrs,
                                                               int64_t n, const Op& op, std::index_sequence<I...> seq) {
  contiguous_row_body<T, Mask>(ptrs, n, op, seq);
}
#endif

template <class T, unsigned Mask, class Op, std::size_t... I>
void contiguous_row(const std::array<char*, sizeof...(I) + 1>& ptrs, int64_t n, const Op& op,
                    std::index_sequence<I...> seq) {
#if OPD_KERNEL_AVX2_ROWS
  if (cpu_has_avx2()) {
    contiguous_row_avx2<T, Mask>(ptrs, n, op, seq);
    return;
  }
#endif
  contiguous_row_body<T, Mask>(ptrs, n, op, seq);
}

template <class T, class Op, std::size_t... I>
void strided_row(const std::array<char*, sizeof...(I) + 1>& ptrs, const std::array<int64_t, sizeof...(I) + 1>& s,
                 int64_t n, const Op& op, std::index_sequence<I...>) {
  char* out = ptrs[0];
  for (int64_t j = 0; j < n; ++j) {
    store<T>(out + j * s[0], op(load<T>(ptrs[I + 1] + j * s[I + 1])...));
  }
}

// Pairs converted through float: a Half or BFloat16 on one side, and on
// the other neither float nor the same type. c10::convert takes Half and
// BFloat16 through float both ways (convert<To>(Half h) is
// convert<To>(float(h)); convert<Half>(x) is Half(float(x))), so the two
// steps give the same values; the software Half/BFloat16 conversions are
// then compiled once per dtype instead of once per pair (30 of the 100).
template <class D, class S>
inline constexpr bool converts_via_float_v = (is_reduced_float_v<D> || is_reduced_float_v<S>) &&
                                             !std::is_same_v<D, S> && !std::is_same_v<D, float> &&
                                             !std::is_same_v<S, float>;

// Pairs with ComplexHalf on one side and neither std::complex<float> nor
// ComplexHalf on the other: converted through std::complex<float>, which
// is what convert<> does to them (exactly: a ComplexHalf value is exact in
// complex<float>), so the Half parts' conversions are compiled for one pair.
template <class D, class S>
inline constexpr bool converts_via_complex_float_v =
    (is_complex_half_v<D> || is_complex_half_v<S>) && !std::is_same_v<D, S> &&
    !std::is_same_v<D, std::complex<float>> && !std::is_same_v<S, std::complex<float>>;

// A dense row converted element by element, and its AVX2 clone (as
// contiguous_row's): float to double at the SSE2 baseline took 1.2x ATen's
// time on a cache-resident tensor.
// A Bool source is read as its bytes (0 or 1, which convert the same way):
// GCC 12 vectorizes no loop that loads `bool` ("no vectype"), and Bool to
// float stayed a scalar loop, 38% of native_dropout_backward's time.
template <class D, class S>
[[gnu::always_inline]] inline void convert_dense_body(D* d, const S* s, int64_t n) {
  if constexpr (std::is_same_v<S, bool> && !std::is_same_v<D, bool>) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(s);
    for (int64_t j = 0; j < n; ++j) d[j] = convert<D>(bytes[j]);
  } else {
    for (int64_t j = 0; j < n; ++j) d[j] = convert<D>(s[j]);
  }
}
#if OPD_KERNEL_AVX2_ROWS
template <class D, class S>
[[gnu::target("avx2"), gnu::noinline]] void convert_dense_avx2(D* d, const S* s, int64_t n) {
  convert_dense_body(d, s, n);
}
#endif
template <class D, class S>
void convert_dense(D* d, const S* s, int64_t n) {
#if OPD_KERNEL_AVX2_ROWS
  if (cpu_has_avx2()) {
    convert_dense_avx2(d, s, n);
    return;
  }
#endif
  convert_dense_body(d, s, n);
}

// One row converted element by element (c10::convert), any strides in
// bytes (0: a broadcast scalar): the copy loop of one dtype pair, and the
// converting path's loads and stores. (noinline: converts_via_float_v's
// pairs call two of them; inlined there, they would be compiled again.)
template <class D, class S>
[[gnu::noinline]] void convert_row(char* dst, int64_t ds, const char* src, int64_t ss, int64_t n) {
  constexpr auto dsize = static_cast<int64_t>(sizeof(D));
  constexpr auto ssize = static_cast<int64_t>(sizeof(S));
  if constexpr (converts_via_complex_float_v<D, S>) {
    std::complex<float> buf[kChunk];
    constexpr auto bsize = static_cast<int64_t>(sizeof(std::complex<float>));
    for (int64_t base = 0; base < n; base += kChunk) {
      const int64_t m = std::min(kChunk, n - base);
      convert_row<std::complex<float>, S>(reinterpret_cast<char*>(buf), bsize, src + base * ss, ss, m);
      convert_row<D, std::complex<float>>(dst + base * ds, ds, reinterpret_cast<const char*>(buf), bsize, m);
    }
  } else if constexpr (converts_via_float_v<D, S>) {
    float buf[kChunk];
    for (int64_t base = 0; base < n; base += kChunk) {
      const int64_t m = std::min(kChunk, n - base);
      convert_row<float, S>(reinterpret_cast<char*>(buf), sizeof(float), src + base * ss, ss, m);
      convert_row<D, float>(dst + base * ds, ds, reinterpret_cast<const char*>(buf), sizeof(float), m);
    }
  } else if (ds == dsize && ss == 0) {  // a broadcast scalar, converted once
    const D v = convert<D>(load<S>(src));
    D* d = reinterpret_cast<D*>(dst);
    for (int64_t j = 0; j < n; ++j) d[j] = v;
  } else if (ds == dsize && ss == ssize) {
    if constexpr (std::is_same_v<D, S>) {
      std::memmove(dst, src, static_cast<std::size_t>(n) * sizeof(D));
    } else {
      convert_dense(reinterpret_cast<D*>(dst), reinterpret_cast<const S*>(src), n);
    }
  } else {
    for (int64_t j = 0; j < n; ++j) store<D>(dst + j * ds, convert<D>(load<S>(src + j * ss)));
  }
}

using ConvertRow = void (*)(char* dst, int64_t dst_stride, const char* src, int64_t src_stride, int64_t n);

// convert_row<D, S> for a pair of dtypes, picked once per call: the 169 row
// loops (the thirteen dtypes with element types, complex32 included) are all the
// per-pair code of the engine, compiled once, in src/kernels/elementwise.cpp
// (elementwise-inl.hpp). name: for the error when a dtype has no loops.
OPD_API ConvertRow convert_row_for(ScalarType out, ScalarType in, const char* name);

// The converting path's only per-op part: result[j] = op(in[0][j], ...,
// in[N-1][j]) for j < m. The rest of that path is instantiated once per
// common dtype and arity (its loads and stores once per dtype pair, shared
// with copy_), not once per op.
// `in[k]` and `result` point at m contiguous elements: a chunk buffer, or
// the operand itself where it already is a dense row of C.
template <class C>
using ApplyChunk = void (*)(const void* op, C* result, const C* const* in, int64_t m);

template <bool SameAsT, class Op, class C, std::size_t... I>
void apply_chunk_to(const Op& op, C* result, [[maybe_unused]] const C* const* in, int64_t m,
                    std::index_sequence<I...> seq) {
  if constexpr (SameAsT) {
    // the same-dtype path's row loop (and its AVX2 clone), already compiled for this op
    const std::array<char*, sizeof...(I) + 1> ptrs{reinterpret_cast<char*>(result),
                                                   const_cast<char*>(reinterpret_cast<const char*>(in[I]))...};
    contiguous_row<C, 0u>(ptrs, m, op, seq);
  } else {
    for (int64_t j = 0; j < m; ++j) result[j] = op(in[I][j]...);
  }
}
// SameAsT: C is the common dtype itself (not Half/BFloat16's float).
template <class Op, class C, std::size_t N, bool SameAsT>
void apply_chunk(const void* op, C* result, const C* const* in, int64_t m) {
  apply_chunk_to<SameAsT>(*static_cast<const Op*>(op), result, in, m, std::make_index_sequence<N>{});
}

// Every row of iter through buffers: inputs converted to T (then opmath),
// apply(op, ...) on each chunk, results converted (through T) to the
// output's dtype. Loads and stores are convert_row's loops; an operand that
// is already a dense row of T (not Half/BFloat16) is read or written in
// place instead of through a buffer (overlap was settled before: an input
// is disjoint from the output or is exactly it).
template <class T, std::size_t NIn>
void converting_rows(const ElementwiseIter<NIn>& iter, const void* op, ApplyChunk<opmath_t<T>> apply) {
  using C = opmath_t<T>;
  constexpr ScalarType common = scalar_type_of_v<T>;
  constexpr auto item = static_cast<int64_t>(sizeof(T));
  std::array<ConvertRow, NIn + 1> convert_rows{};  // [0]: T -> output, [k + 1]: input k -> T
  for (std::size_t k = 0; k != NIn; ++k) convert_rows[k + 1] = convert_row_for(common, iter.dtype(k + 1), "elementwise load");
  convert_rows[0] = convert_row_for(iter.dtype(0), common, "elementwise store");
  std::array<bool, NIn + 1> in_place{};  // operand k is of dtype T: a dense row of it needs no buffer
  for (std::size_t k = 0; k != NIn + 1; ++k) in_place[k] = iter.dtype(k) == common;
  iter.for_each_row_parallel([&](const auto& ptrs, const auto& s, int64_t n) {
    for (int64_t base = 0; base < n; base += kChunk) {
      const int64_t m = std::min(kChunk, n - base);
      C in[NIn > 0 ? NIn : 1][kChunk];
      const C* in_ptrs[NIn > 0 ? NIn : 1];
      C result[kChunk];
      if constexpr (std::is_same_v<C, T>) {
        for (std::size_t k = 0; k != NIn; ++k) {
          const char* src = ptrs[k + 1] + base * s[k + 1];
          if (in_place[k + 1] && s[k + 1] == item) {
            in_ptrs[k] = reinterpret_cast<const C*>(src);
          } else {
            convert_rows[k + 1](reinterpret_cast<char*>(in[k]), item, src, s[k + 1], m);
            in_ptrs[k] = in[k];
          }
        }
        char* dst = ptrs[0] + base * s[0];
        if (in_place[0] && s[0] == item) {
          apply(op, reinterpret_cast<C*>(dst), in_ptrs, m);
        } else {
          apply(op, result, in_ptrs, m);
          convert_rows[0](dst, s[0], reinterpret_cast<const char*>(result), item, m);
        }
      } else {  // Half, BFloat16: rounded to T, computed in float
        T narrow[kChunk];
        for (std::size_t k = 0; k != NIn; ++k) {
          convert_rows[k + 1](reinterpret_cast<char*>(narrow), item, ptrs[k + 1] + base * s[k + 1], s[k + 1], m);
          for (int64_t j = 0; j < m; ++j) in[k][j] = convert<C>(narrow[j]);
          in_ptrs[k] = in[k];
        }
        apply(op, result, in_ptrs, m);
        for (int64_t j = 0; j < m; ++j) narrow[j] = convert<T>(result[j]);
        convert_rows[0](ptrs[0] + base * s[0], s[0], reinterpret_cast<const char*>(narrow), item, m);
      }
    }
  });
}

}  // namespace detail

namespace detail {

// op(a, b) == op(b, a) bit for bit: an op says so with a constexpr member
// `commutes`; the engine may then swap its two inputs.
template <class Op>
constexpr bool commutes_of() {
  if constexpr (requires { Op::commutes; }) return Op::commutes;
  else return false;
}
template <class Op>
inline constexpr bool operands_commute_v = commutes_of<Op>();

// One row with every operand of dtype T (not Half/BFloat16): the
// vectorizable loop when the output and the inputs are contiguous or
// broadcast scalars (stride 0), the strided one otherwise. Both cpu_kernel
// overloads end here, so each op's loops are compiled once.
template <class T, std::size_t NIn, class Op>
[[gnu::noinline]] void typed_row(const std::array<char*, NIn + 1>& ptrs, const std::array<int64_t, NIn + 1>& strides, int64_t n,
               const Op& op) {
  constexpr auto seq = std::make_index_sequence<NIn>{};
  constexpr auto item = static_cast<int64_t>(sizeof(T));
  bool fast = strides[0] == item;
  unsigned mask = 0;  // bit k: input k is a broadcast scalar
  for (std::size_t k = 0; k < NIn; ++k) {
    if (strides[k + 1] == 0) {
      mask |= 1u << k;
    } else if (strides[k + 1] != item) {
      fast = false;
    }
  }
  // Vectorized loops for all-contiguous operands and for a broadcast last
  // input (tensor op Scalar); rarer layouts (a broadcast first input, say)
  // take the strided loop, which costs every op a loop less to compile.
  if (fast && mask == 0) {
    contiguous_row<T, 0u>(ptrs, n, op, seq);
    return;
  }
  if constexpr (NIn >= 1) {
    if (fast && mask == 1u << (NIn - 1)) {
      contiguous_row<T, 1u << (NIn - 1)>(ptrs, n, op, seq);
      return;
    }
    // Scalar op tensor for an op whose operands commute bit for bit
    // (Op::commutes): tensor op Scalar's loop, the scalar in a register. The
    // repeat buffer below took the int32 bitwise rows to 78 us per 10^6
    // elements against 67 for tensor op Scalar; a loop of its own for this
    // layout cost every binary op's file 35-45% more compile time.
    if constexpr (NIn == 2 && operands_commute_v<Op>) {
      if (fast && mask == 1u) {
        std::array<char*, NIn + 1> swapped{ptrs[0], ptrs[2], ptrs[1]};
        contiguous_row<T, 2u>(swapped, n, op, seq);
        return;
      }
    }
    // Other broadcast inputs (clamp's two bounds, a ternary op's scalars): each
    // one repeated in a stack buffer, then the all-contiguous loop chunk
    // by chunk, so these layouts vectorize without a loop of their own.
    if (fast && n >= kChunk) {
      T rep[NIn][kChunk];
      std::array<char*, NIn + 1> p = ptrs;
      for (std::size_t k = 0; k < NIn; ++k) {
        if ((mask >> k) & 1u) {
          std::fill_n(rep[k], kChunk, load<T>(ptrs[k + 1]));
          p[k + 1] = reinterpret_cast<char*>(rep[k]);
        }
      }
      for (int64_t base = 0; base < n; base += kChunk) {
        p[0] = ptrs[0] + base * item;
        for (std::size_t k = 0; k < NIn; ++k) {
          if (!((mask >> k) & 1u)) p[k + 1] = ptrs[k + 1] + base * item;
        }
        contiguous_row<T, 0u>(p, std::min(kChunk, n - base), op, seq);
      }
      return;
    }
  }
  strided_row<T>(ptrs, strides, n, op, seq);
}

}  // namespace detail

// Runs op over every element: out = op(in_0, ..., in_{N-1}), computed as
// opmath_t<T> where T is the common dtype (see the file comment).
template <class T, std::size_t NIn, class Op>
void cpu_kernel(const ElementwiseIter<NIn>& iter, const Op& op) {
  using C = opmath_t<T>;
  constexpr ScalarType common = scalar_type_of_v<T>;
  bool same_dtype = std::is_same_v<C, T>;
  for (std::size_t k = 0; k < NIn + 1; ++k) same_dtype = same_dtype && iter.dtype(k) == common;

  if (!same_dtype) {
    detail::converting_rows<T>(iter, &op, &detail::apply_chunk<Op, C, NIn, std::is_same_v<C, T>>);
    return;
  }
  if constexpr (std::is_same_v<C, T>) {
    iter.for_each_row_parallel([&](const auto& ptrs, const auto& strides, int64_t n) {
      detail::typed_row<T, NIn>(ptrs, strides, n, op);
    });
  }
}

namespace detail {

// The commonest call as one row: out and every tensor input contiguous
// with out's sizes, every operand of dtype `common` (0-dim inputs
// broadcast). Fills ptrs, byte strides and n and returns true then.
// (Independent of the op, so compiled once per arity and item size.)
template <std::size_t NIn>
bool as_one_row(const OperandRef& out, const std::array<OperandRef, NIn>& inputs, ScalarType common, int64_t item,
                std::array<char*, NIn + 1>& ptrs, std::array<int64_t, NIn + 1>& strides, int64_t& n) {
  if (out.dtype != common || !is_plain_contiguous(out)) return false;
  ptrs[0] = out.data;
  strides[0] = item;
  for (std::size_t k = 0; k != NIn; ++k) {
    const OperandRef& in = inputs[k];
    if (in.dtype != common) return false;
    if (in.sizes.empty()) {
      strides[k + 1] = 0;  // a broadcast scalar
    } else if (in.sizes == out.sizes && is_plain_contiguous(in)) {
      strides[k + 1] = item;
    } else {
      return false;
    }
    ptrs[k + 1] = in.data;
  }
  n = 1;
  for (int64_t s : out.sizes) n *= s;
  return true;
}

}  // namespace detail

// cpu_kernel on operands instead of an iterator: the commonest call (see
// as_one_row; T not Half/BFloat16) of at most grain_size elements goes
// straight to the row loop, without building an ElementwiseIter; anything
// else (larger work too, which the iterator splits across threads) goes
// through one.
template <class T, std::size_t NIn, class Op>
void cpu_kernel(const OperandRef& out, const std::array<OperandRef, NIn>& inputs, const Op& op) {
  if constexpr (std::is_same_v<opmath_t<T>, T>) {
    std::array<char*, NIn + 1> ptrs{};
    std::array<int64_t, NIn + 1> strides{};
    int64_t n = 0;
    if (detail::as_one_row(out, inputs, scalar_type_of_v<T>, static_cast<int64_t>(sizeof(T)), ptrs, strides, n) &&
        n <= grain_size) {
      detail::typed_row<T, NIn>(ptrs, strides, n, op);
      return;
    }
  }
  cpu_kernel<T>(ElementwiseIter<NIn>(out, inputs), op);
}

// -------------------------------------------------------------------- fill ---

// Every element of `out` (which must have dtype T) set to value, split
// across threads above grain_size when `parallel` (pass false for an out
// whose elements may overlap).
template <class T>
void fill_elements(const OperandRef& out, T value, bool parallel = true) {
  OPD_CHECK(out.dtype == scalar_type_of_v<T>, "fill_elements: dtype mismatch");
  ElementwiseIter<0> iter(out, {});
  auto row = [&](const auto& ptrs, const auto& strides, int64_t n) {
    if (strides[0] == static_cast<int64_t>(sizeof(T))) {
      T* d = reinterpret_cast<T*>(ptrs[0]);
      std::fill_n(d, n, value);
    } else {
      for (int64_t j = 0; j < n; ++j) detail::store<T>(ptrs[0] + j * strides[0], value);
    }
  };
  if (parallel) {
    iter.for_each_row_parallel(row);
  } else {
    iter.for_each_row(row);
  }
}

}  // namespace opd::kernels
