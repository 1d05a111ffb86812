// The elementwise engine: one loop, written once, that every CPU pointwise
// kernel (binary ops, copy_, fill_, ...) runs on.
//
//   OperandRef          a non-owning (data, dtype, sizes, strides) view of
//                       a tensor, or of a Scalar held by ScalarOperand.
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
//   copy_elements / fill_elements  the converting copy and fill loops.
//
// Overlap between the output and inputs is the caller's business (see
// overlap.hpp): the loops read each input block before writing the
// corresponding output block, so an input that is exactly the output
// (in-place) is fine; anything else aliasing the output is not.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/small_vector.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert.hpp"

// Tells the compiler a loop has no loop-carried memory dependence.
#if defined(__clang__)
#define OPD_KERNEL_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define OPD_KERNEL_IVDEP _Pragma("GCC ivdep")
#else
#define OPD_KERNEL_IVDEP
#endif

namespace opd::kernels {

// ---------------------------------------------------------------- operands ---

struct OperandRef {
  char* data = nullptr;
  ScalarType dtype = ScalarType::Undefined;
  IntArrayRef sizes;    // empty for a 0-dim operand
  IntArrayRef strides;  // in elements

  static OperandRef of(const Tensor& t) {
    return OperandRef{static_cast<char*>(t.data_ptr()), t.dtype(), t.sizes(), t.strides()};
  }
};

// A Scalar converted (scalar_cast, unchecked) to `dtype` and kept in a small
// buffer, for use as a 0-dim input: the "wrapped number" of a Scalar overload.
class ScalarOperand {
 public:
  ScalarOperand(const Scalar& value, ScalarType dtype) : dtype_(dtype) {
    dispatch_dtype(dtype, "ScalarOperand", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v = scalar_cast<T>(value);
      static_assert(sizeof(T) <= sizeof(buf_));
      std::memcpy(buf_, &v, sizeof(T));
    });
  }
  ScalarOperand(const ScalarOperand&) = delete;
  ScalarOperand& operator=(const ScalarOperand&) = delete;

  OperandRef ref() const noexcept { return OperandRef{const_cast<char*>(buf_), dtype_, {}, {}}; }
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

template <std::size_t NIn>
class ElementwiseIter {
 public:
  static constexpr std::size_t kNumOperands = NIn + 1;
  using Ptrs = std::array<char*, kNumOperands>;
  using Strides = std::array<int64_t, kNumOperands>;  // bytes

  // Operand 0 is the output; its sizes are the iteration shape. Inputs must
  // broadcast to it (opd::Error otherwise).
  // (Loops over the inputs test k != NIn: with NIn == 0 (fill), k < NIn
  // draws nvcc's "pointless comparison of unsigned integer with zero".)
  ElementwiseIter(const OperandRef& out, const std::array<OperandRef, NIn>& inputs) {
    const std::size_t nd = out.sizes.size();
    dtypes_[0] = out.dtype;
    base_[0] = out.data;
    for (std::size_t k = 0; k != NIn; ++k) {
      dtypes_[k + 1] = inputs[k].dtype;
      base_[k + 1] = inputs[k].data;
    }

    numel_ = 1;
    for (int64_t s : out.sizes) numel_ *= s;

    // Fast path: every operand contiguous with the output's sizes (or a
    // 0-dim input): one row.
    if (is_plain_contiguous(out.sizes, out.strides)) {
      bool all = true;
      for (std::size_t k = 0; k != NIn && all; ++k) {
        all = inputs[k].sizes.empty() ||
              (inputs[k].sizes == out.sizes && is_plain_contiguous(inputs[k].sizes, inputs[k].strides));
      }
      if (all) {
        shape_.push_back(numel_);
        strides_[0].push_back(static_cast<int64_t>(element_size(out.dtype)));
        for (std::size_t k = 0; k != NIn; ++k) {
          strides_[k + 1].push_back(inputs[k].sizes.empty() ? 0 : static_cast<int64_t>(element_size(inputs[k].dtype)));
        }
        return;
      }
    }

    // Byte strides of every operand in the output's dimensions.
    std::array<SmallVector<int64_t, 6>, kNumOperands> st;
    st[0].resize(nd);
    const auto out_item = static_cast<int64_t>(element_size(out.dtype));
    for (std::size_t d = 0; d < nd; ++d) st[0][d] = out.strides[d] * out_item;
    for (std::size_t k = 0; k != NIn; ++k) {
      const OperandRef& in = inputs[k];
      const std::size_t in_nd = in.sizes.size();
      OPD_CHECK(in_nd <= nd && is_expandable_to(in.sizes, out.sizes), "elementwise: input ", k, " of shape ",
                in.sizes, " cannot be broadcast to the output shape ", out.sizes);
      const auto item = static_cast<int64_t>(element_size(in.dtype));
      st[k + 1].assign(nd, 0);
      for (std::size_t j = 0; j < in_nd; ++j) {
        const std::size_t d = nd - in_nd + j;
        st[k + 1][d] = in.sizes[j] == 1 ? 0 : in.strides[j] * item;
      }
    }

    // Keep the dimensions of size > 1, then order them fastest first.
    SmallVector<std::size_t, 6> dims;
    for (std::size_t d = nd; d-- > 0;) {
      if (out.sizes[d] != 1) dims.push_back(d);
    }
    // Insertion sort as TensorIterator::reorder_dimensions: operands in
    // order, the first with two non-zero strides that differ decides.
    auto should_swap = [&](std::size_t d0, std::size_t d1) -> int {
      for (std::size_t k = 0; k < kNumOperands; ++k) {
        const int64_t s0 = st[k][d0];
        const int64_t s1 = st[k][d1];
        if (s0 == 0 || s1 == 0) continue;
        if (s0 < s1) return -1;
        if (s0 > s1) return 1;
        if (out.sizes[d0] > out.sizes[d1]) return 1;
      }
      return 0;
    };
    for (std::size_t i = 1; i < dims.size(); ++i) {
      std::size_t cur = i;
      for (std::size_t j = i; j-- > 0;) {
        const int c = should_swap(dims[j], dims[cur]);
        if (c > 0) {
          std::swap(dims[j], dims[cur]);
          cur = j;
        } else if (c < 0) {
          break;
        }
      }
    }

    // Merge dimension d into the previous one when every operand steps
    // through it exactly as if the two were one longer dimension.
    for (std::size_t d : dims) {
      const std::size_t last = shape_.size();
      bool merge = last > 0;
      if (merge) {
        for (std::size_t k = 0; k < kNumOperands; ++k) {
          if (strides_[k][last - 1] * shape_[last - 1] != st[k][d]) {
            merge = false;
            break;
          }
        }
      }
      if (merge) {
        shape_[last - 1] *= out.sizes[d];
      } else {
        shape_.push_back(out.sizes[d]);
        for (std::size_t k = 0; k < kNumOperands; ++k) strides_[k].push_back(st[k][d]);
      }
    }
    if (shape_.empty()) {  // a single element
      shape_.push_back(1);
      for (std::size_t k = 0; k < kNumOperands; ++k) strides_[k].push_back(0);
    }
  }

  int64_t numel() const noexcept { return numel_; }
  // Dimensions left after dropping size-1 ones and merging (at least 1).
  std::size_t ndim() const noexcept { return shape_.size(); }
  IntArrayRef shape() const noexcept { return shape_; }
  IntArrayRef strides(std::size_t operand) const noexcept { return strides_[operand]; }
  ScalarType dtype(std::size_t operand) const noexcept { return dtypes_[operand]; }
  char* data(std::size_t operand) const noexcept { return base_[operand]; }

  // f(const Ptrs& ptrs, const Strides& byte_strides, int64_t n) for every
  // row of the innermost dimension, in the order of the output's memory.
  template <class F>
  void for_each_row(F&& f) const {
    if (numel_ == 0) return;
    const std::size_t nd = shape_.size();
    Strides inner{};
    for (std::size_t k = 0; k < kNumOperands; ++k) inner[k] = strides_[k][0];
    Ptrs ptrs = base_;
    const int64_t n = shape_[0];
    if (nd == 1) {
      f(static_cast<const Ptrs&>(ptrs), static_cast<const Strides&>(inner), n);
      return;
    }
    SmallVector<int64_t, 6> index(nd, 0);
    while (true) {
      f(static_cast<const Ptrs&>(ptrs), static_cast<const Strides&>(inner), n);
      std::size_t d = 1;
      for (; d < nd; ++d) {
        if (++index[d] < shape_[d]) {
          for (std::size_t k = 0; k < kNumOperands; ++k) ptrs[k] += strides_[k][d];
          break;
        }
        for (std::size_t k = 0; k < kNumOperands; ++k) ptrs[k] -= strides_[k][d] * (shape_[d] - 1);
        index[d] = 0;
      }
      if (d == nd) return;
    }
  }

 private:
  int64_t numel_ = 0;
  SmallVector<int64_t, 6> shape_;
  std::array<SmallVector<int64_t, 6>, kNumOperands> strides_;
  std::array<ScalarType, kNumOperands> dtypes_{};
  Ptrs base_{};
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

// Output contiguous, input k contiguous unless bit k of Mask says it is a
// broadcast scalar (stride 0). Full blocks of kBlock elements: a fixed trip
// count that GCC's -O2 vectorizer accepts, and no loop-carried dependence
// (inputs are either disjoint from the output or exactly it), which the
// pragma tells the compiler so that it needs no runtime alias checks.
template <class T, unsigned Mask, class Op, std::size_t... I>
void contiguous_row(const std::array<char*, sizeof...(I) + 1>& ptrs, int64_t n, const Op& op,
                    std::index_sequence<I...>) {
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

template <class T, class Op, std::size_t... I>
void strided_row(const std::array<char*, sizeof...(I) + 1>& ptrs, const std::array<int64_t, sizeof...(I) + 1>& s,
                 int64_t n, const Op& op, std::index_sequence<I...>) {
  char* out = ptrs[0];
  for (int64_t j = 0; j < n; ++j) {
    store<T>(out + j * s[0], op(load<T>(ptrs[I + 1] + j * s[I + 1])...));
  }
}

// dst[0..n) = opmath(convert<T>(element j of a `src_dtype` row)).
template <class T>
void load_row_as(ScalarType src_dtype, const char* p, int64_t stride, int64_t n, opmath_t<T>* dst) {
  using C = opmath_t<T>;
  dispatch_dtype(src_dtype, "elementwise load", [&](auto tag) {
    using S = typename decltype(tag)::type;
    if (stride == 0) {
      const C v = static_cast<C>(convert<T>(load<S>(p)));
      for (int64_t j = 0; j < n; ++j) dst[j] = v;
    } else if (stride == static_cast<int64_t>(sizeof(S))) {
      const S* s = reinterpret_cast<const S*>(p);
      for (int64_t j = 0; j < n; ++j) dst[j] = static_cast<C>(convert<T>(s[j]));
    } else {
      for (int64_t j = 0; j < n; ++j) dst[j] = static_cast<C>(convert<T>(load<S>(p + j * stride)));
    }
  });
}

// Element j of a `dst_dtype` row = convert(convert<T>(src[j])).
template <class T>
void store_row_from(ScalarType dst_dtype, char* p, int64_t stride, int64_t n, const opmath_t<T>* src) {
  dispatch_dtype(dst_dtype, "elementwise store", [&](auto tag) {
    using D = typename decltype(tag)::type;
    if (stride == static_cast<int64_t>(sizeof(D))) {
      D* d = reinterpret_cast<D*>(p);
      for (int64_t j = 0; j < n; ++j) d[j] = convert<D>(convert<T>(src[j]));
    } else {
      for (int64_t j = 0; j < n; ++j) store<D>(p + j * stride, convert<D>(convert<T>(src[j])));
    }
  });
}

template <class T, class Op, std::size_t... I>
void converting_row(const std::array<char*, sizeof...(I) + 1>& ptrs, const std::array<int64_t, sizeof...(I) + 1>& s,
                    const std::array<ScalarType, sizeof...(I) + 1>& dtypes, int64_t n, const Op& op,
                    std::index_sequence<I...>) {
  using C = opmath_t<T>;
  constexpr std::size_t N = sizeof...(I);
  for (int64_t base = 0; base < n; base += kChunk) {
    const int64_t m = std::min(kChunk, n - base);
    C in[N > 0 ? N : 1][kChunk];
    (load_row_as<T>(dtypes[I + 1], ptrs[I + 1] + base * s[I + 1], s[I + 1], m, in[I]), ...);
    C result[kChunk];
    for (int64_t j = 0; j < m; ++j) result[j] = op(in[I][j]...);
    store_row_from<T>(dtypes[0], ptrs[0] + base * s[0], s[0], m, result);
  }
}

}  // namespace detail

// Runs op over every element: out = op(in_0, ..., in_{N-1}), computed as
// opmath_t<T> where T is the common dtype (see the file comment).
template <class T, std::size_t NIn, class Op>
void cpu_kernel(const ElementwiseIter<NIn>& iter, const Op& op) {
  using C = opmath_t<T>;
  constexpr ScalarType common = scalar_type_of_v<T>;
  constexpr auto seq = std::make_index_sequence<NIn>{};
  bool same_dtype = std::is_same_v<C, T>;
  for (std::size_t k = 0; k < NIn + 1; ++k) same_dtype = same_dtype && iter.dtype(k) == common;

  if (!same_dtype) {
    std::array<ScalarType, NIn + 1> dtypes{};
    for (std::size_t k = 0; k < NIn + 1; ++k) dtypes[k] = iter.dtype(k);
    iter.for_each_row([&](const auto& ptrs, const auto& strides, int64_t n) {
      detail::converting_row<T>(ptrs, strides, dtypes, n, op, seq);
    });
    return;
  }
  if constexpr (std::is_same_v<C, T>) {
    constexpr auto item = static_cast<int64_t>(sizeof(T));
    iter.for_each_row([&](const auto& ptrs, const auto& strides, int64_t n) {
      bool fast = strides[0] == item;
      unsigned mask = 0;
      for (std::size_t k = 0; k < NIn; ++k) {
        if (strides[k + 1] == 0) {
          mask |= 1u << k;
        } else if (strides[k + 1] != item) {
          fast = false;
        }
      }
      if constexpr (NIn <= 3) {
        if (fast) {
          boost::mp11::mp_with_index<(std::size_t{1} << NIn)>(mask, [&](auto m) {
            detail::contiguous_row<T, static_cast<unsigned>(decltype(m)::value)>(ptrs, n, op, seq);
          });
          return;
        }
      } else {
        if (fast && mask == 0) {
          detail::contiguous_row<T, 0u>(ptrs, n, op, seq);
          return;
        }
      }
      detail::strided_row<T>(ptrs, strides, n, op, seq);
    });
  }
}

// cpu_kernel on operands instead of an iterator: the commonest call (out
// and every tensor input contiguous with out's sizes, every operand of dtype
// T, which is not Half/BFloat16; 0-dim inputs broadcast) goes straight to the
// vectorizable loop, without building an ElementwiseIter; anything else
// goes through one.
template <class T, std::size_t NIn, class Op>
void cpu_kernel(const OperandRef& out, const std::array<OperandRef, NIn>& inputs, const Op& op) {
  if constexpr (std::is_same_v<opmath_t<T>, T> && NIn <= 3) {
    constexpr ScalarType common = scalar_type_of_v<T>;
    bool fast = out.dtype == common && is_plain_contiguous(out.sizes, out.strides);
    unsigned mask = 0;  // bit k: input k is 0-dim (a broadcast scalar)
    for (std::size_t k = 0; k < NIn && fast; ++k) {
      const OperandRef& in = inputs[k];
      if (in.dtype != common) fast = false;
      else if (in.sizes.empty()) mask |= 1u << k;
      else fast = in.sizes == out.sizes && is_plain_contiguous(in.sizes, in.strides);
    }
    if (fast) {
      int64_t n = 1;
      for (int64_t s : out.sizes) n *= s;
      std::array<char*, NIn + 1> ptrs{out.data};
      for (std::size_t k = 0; k < NIn; ++k) ptrs[k + 1] = inputs[k].data;
      boost::mp11::mp_with_index<(std::size_t{1} << NIn)>(mask, [&](auto m) {
        detail::contiguous_row<T, static_cast<unsigned>(decltype(m)::value)>(ptrs, n, op,
                                                                             std::make_index_sequence<NIn>{});
      });
      return;
    }
  }
  cpu_kernel<T>(ElementwiseIter<NIn>(out, inputs), op);
}

// ------------------------------------------------------------- copy / fill ---

namespace detail {

template <class D, class S>
void convert_row(char* dst, int64_t ds, const char* src, int64_t ss, int64_t n) {
  constexpr auto dsize = static_cast<int64_t>(sizeof(D));
  constexpr auto ssize = static_cast<int64_t>(sizeof(S));
  if (ss == 0) {
    const D v = convert<D>(load<S>(src));
    if (ds == dsize) {
      D* d = reinterpret_cast<D*>(dst);
      for (int64_t j = 0; j < n; ++j) d[j] = v;
    } else {
      for (int64_t j = 0; j < n; ++j) store<D>(dst + j * ds, v);
    }
  } else if (ds == dsize && ss == ssize) {
    if constexpr (std::is_same_v<D, S>) {
      std::memmove(dst, src, static_cast<std::size_t>(n) * sizeof(D));
    } else {
      D* d = reinterpret_cast<D*>(dst);
      const S* s = reinterpret_cast<const S*>(src);
      for (int64_t j = 0; j < n; ++j) d[j] = convert<D>(s[j]);
    }
  } else {
    for (int64_t j = 0; j < n; ++j) store<D>(dst + j * ds, convert<D>(load<S>(src + j * ss)));
  }
}

}  // namespace detail

// out[...] = convert(in[...]) with `in` broadcast to out's shape. Overlap
// between the two is the caller's concern.
inline void copy_elements(const OperandRef& out, const OperandRef& in) {
  ElementwiseIter<1> iter(out, {in});
  if (iter.numel() == 0) return;
  dispatch_dtype(out.dtype, "copy_", [&](auto out_tag) {
    using D = typename decltype(out_tag)::type;
    dispatch_dtype(in.dtype, "copy_", [&](auto in_tag) {
      using S = typename decltype(in_tag)::type;
      iter.for_each_row([&](const auto& ptrs, const auto& strides, int64_t n) {
        detail::convert_row<D, S>(ptrs[0], strides[0], ptrs[1], strides[1], n);
      });
    });
  });
}

// Every element of `out` (which must have dtype T) set to value.
template <class T>
void fill_elements(const OperandRef& out, T value) {
  OPD_CHECK(out.dtype == scalar_type_of_v<T>, "fill_elements: dtype mismatch");
  ElementwiseIter<0> iter(out, {});
  iter.for_each_row([&](const auto& ptrs, const auto& strides, int64_t n) {
    if (strides[0] == static_cast<int64_t>(sizeof(T))) {
      T* d = reinterpret_cast<T*>(ptrs[0]);
      std::fill_n(d, n, value);
    } else {
      for (int64_t j = 0; j < n; ++j) detail::store<T>(ptrs[0] + j * strides[0], value);
    }
  });
}

// The layout an input of the output's full shape (ndim dimensions) gives it.
inline MemoryFormat elementwise_layout_of(const Tensor& t, std::size_t ndim) {
  if (t.is_contiguous()) return MemoryFormat::Contiguous;
  if (ndim == 4 && t.is_contiguous(MemoryFormat::ChannelsLast)) return MemoryFormat::ChannelsLast;
  if (ndim == 5 && t.is_contiguous(MemoryFormat::ChannelsLast3d)) return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

// The memory format of an elementwise op's output, as meta() reports it:
// the layout of the first input that has the output's full shape
// (ChannelsLast or ChannelsLast3d when that input is laid out so and not
// plainly contiguous), Contiguous otherwise. (TensorIterator derives a full
// stride permutation; the structured machinery takes a memory format.)
inline MemoryFormat elementwise_memory_format(IntArrayRef shape, std::initializer_list<const Tensor*> inputs) {
  for (const Tensor* t : inputs) {
    if (t == nullptr || !t->defined() || !(t->sizes() == shape)) continue;
    return elementwise_layout_of(*t, shape.size());
  }
  return MemoryFormat::Contiguous;
}

// A contiguous copy of t (same dtype): what a kernel reads instead of an
// input that aliases its output in a way elementwise loops cannot handle.
inline Tensor contiguous_clone(const Tensor& t) {
  std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
  Tensor copy = opd::empty(IntArrayRef(sizes), t.dtype(), t.device());
  copy_elements(OperandRef::of(copy), OperandRef::of(t));
  return copy;
}

}  // namespace opd::kernels
