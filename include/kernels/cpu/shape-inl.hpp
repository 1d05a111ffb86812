#pragma once
// Out-of-line part of shape.hpp (compiled in src/kernels/shape.cpp): the
// shape and indexing kernels but sort and topk (shape_sort-inl.hpp).
//
// Most of them are one loop: gather_tables, which fills a contiguous output
// from a source through one table of element offsets per output dimension
// (out[i0, ..., ik] = src[t0[i0] + ... + tk[ik]]). index_select, flip, roll,
// repeat and index.Tensor differ only in their tables; the loop is chosen by
// element size, so every dtype shares five instantiations.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <string>

#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/complex_arith-inl.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/copy_memory.hpp"
#include "kernels/cpu/count_true.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_simd.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/reduce_simd.hpp"
#include "kernels/cpu/scatter_walk-inl.hpp"
#include "kernels/cpu/shape.hpp"
#include "kernels/cpu/type_promotion.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace shape_detail {

using Table = std::vector<int64_t>;
using Tables = std::vector<Table>;

struct Bytes16 {
  uint64_t lo, hi;
};

// The element-moving kernels that ATen 1.13 has no ComplexHalf loop for
// (its dispatch lists leave complex32 out), refused with its message and
// kernel name, on CPU tensors (ATen's Meta kernels do not look at dtypes).
inline void refuse_complex_half(const Tensor& t, const char* aten_kernel) {
  if (t.dtype() == ScalarType::ComplexHalf && !t.is_meta()) throw_not_implemented_for(aten_kernel, t.dtype());
}

// Calls f(type_tag<U>{}) with an unsigned type of the element's size: the
// loops that only move elements need nothing else.
template <class F>
void dispatch_size(std::size_t itemsize, std::string_view op, F&& f) {
  switch (itemsize) {
    case 1: return f(type_tag<uint8_t>{});
    case 2: return f(type_tag<uint16_t>{});
    case 4: return f(type_tag<uint32_t>{});
    case 8: return f(type_tag<uint64_t>{});
    case 16: return f(type_tag<Bytes16>{});
    default: break;
  }
  throw TypeError(opd::detail::str_cat(op, ": no element loop for elements of ", itemsize, " bytes"));
}

inline IntArrayRef as_ref(const SizesVector& v) { return IntArrayRef(v.data(), v.size()); }
inline IntArrayRef as_ref(const std::vector<int64_t>& v) { return IntArrayRef(v.data(), v.size()); }

inline Tensor new_like_sizes(IntArrayRef sizes, ScalarType dtype) { return opd::empty(sizes, dtype, Device::cpu()); }

// The kernels of this file are their Meta kernels too: every check runs on
// Meta tensors as on CPU ones, and a call with a Meta tensor returns its Meta
// result once the result's sizes are known, before a value is read (values
// themselves, such as indices, are checked on the CPU only, as in ATen).
inline Tensor meta_like_sizes(IntArrayRef sizes, ScalarType dtype) { return opd::empty(sizes, dtype, Device::meta()); }
inline bool any_meta(std::initializer_list<const Tensor*> ts) {
  for (const Tensor* t : ts)
    if (t && t->defined() && t->is_meta()) return true;
  return false;
}

inline void check_cpu(std::string_view op, const Tensor& t, const char* what) {
  OPD_CHECK(t.defined(), op, ": expected a defined tensor for ", what);
  OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": expected ", what, " on the CPU, got device ",
            t.device());
}

// The tensor's elements as a contiguous Long tensor (copy converts Int etc.).
inline Tensor as_long(const Tensor& t) {
  if (t.dtype() == ScalarType::Long && t.is_contiguous()) return t;
  Tensor out = new_like_sizes(t.sizes(), ScalarType::Long);
  copy_elements(OperandRef::of(out), OperandRef::of(t));
  return out;
}

// `t` broadcast to `sizes`, contiguous, of dtype `dtype` (a fresh tensor).
inline Tensor materialize(const Tensor& t, IntArrayRef sizes, ScalarType dtype) {
  Tensor out = new_like_sizes(sizes, dtype);
  if (out.numel() > 0) copy_elements(OperandRef::of(out), OperandRef::of(t));
  return out;
}

inline Table iota_table(int64_t n, int64_t stride) {
  Table t(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = i * stride;
  return t;
}

// d[k] = last[-k] for k in [0, n): a run read downwards (flip's last dim).
template <class U>
void reversed_copy(U* __restrict d, const U* __restrict last, int64_t n) {
  for (int64_t k = 0; k < n; ++k) d[k] = last[-k];
}

// out (contiguous, sizes = the tables' lengths) from src through the tables.
OPD_FUNC void gather_tables(std::string_view op, const Tensor& out, const char* src, const Tables& tables) {
  const int64_t numel = out.numel();
  if (numel == 0) return;
  char* dst = static_cast<char*>(out.data_ptr());
  dispatch_size(out.itemsize(), op, [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* s = reinterpret_cast<const U*>(src);
    U* o = reinterpret_cast<U*>(dst);
    if (tables.empty()) {
      o[0] = s[0];
      return;
    }
    const std::size_t nd = tables.size();
    const Table& inner = tables.back();
    const int64_t n_inner = static_cast<int64_t>(inner.size());
    // The innermost table as contiguous runs (starts[r] .. starts[r + 1]
    // read consecutive elements, upwards, or downwards for flip's last dim):
    // one run when it is plain, a few long ones for repeat and roll. Long
    // runs are copied with memcpy (downwards: a reversed loop the compiler
    // vectorizes), short ones (an index table) element by element.
    // (Counted first, listed only when long: an index table has ~n_inner.
    // The count stops once the runs cannot average 16 elements, so that a
    // table of random indices costs a sixteenth of a serial pass, not one.)
    const int64_t max_runs = n_inner / 16;  // 16 elements or more on average
    const auto long_runs = [&](int64_t step) {
      int64_t n = 1;
      for (int64_t j = 1; j < n_inner && n <= max_runs; ++j) n += inner[j] != inner[j - 1] + step ? 1 : 0;
      return n <= max_runs;
    };
    int64_t step = 1;
    bool by_runs = long_runs(1);
    if (!by_runs && n_inner >= 16 && inner[1] == inner[0] - 1 && long_runs(-1)) {
      step = -1;
      by_runs = true;
    }
    SizesVector starts;
    if (by_runs) {
      starts.push_back(0);
      for (int64_t j = 1; j < n_inner; ++j) {
        if (inner[j] != inner[j - 1] + step) starts.push_back(j);
      }
      starts.push_back(n_inner);
    }
    const int64_t* in = inner.data();
    auto row = [&](int64_t base, U* d, int64_t jb, int64_t je) {
      if (by_runs) {
        // the run holding jb, then run by run up to je
        int64_t r = static_cast<int64_t>(std::upper_bound(starts.begin(), starts.end(), jb) - starts.begin()) - 1;
        for (int64_t j = jb; j < je; ++r) {
          const int64_t end = std::min(je, starts[static_cast<std::size_t>(r + 1)]);
          if (step == 1) {
            copy_memory(d + j, s + base + in[j], static_cast<std::size_t>(end - j) * sizeof(U));
          } else {
            reversed_copy(d + j, s + base + in[j], end - j);
          }
          j = end;
        }
      } else {
        for (int64_t j = jb; j < je; ++j) d[j] = s[base + in[j]];
      }
    };
    const int64_t rows = numel / n_inner;
    if (rows == 1) {
      int64_t base = 0;
      for (std::size_t d = 0; d + 1 < nd; ++d) base += tables[d][0];
      parallel_for(0, n_inner, grain_size, [&](int64_t b, int64_t e) { row(base, o, b, e); });
      return;
    }
    parallel_for(0, rows, std::max<int64_t>(1, grain_size / n_inner), [&](int64_t rb, int64_t re) {
      // odometer over the outer dimensions, started at row rb
      SizesVector coord(nd - 1, 0);
      int64_t rem = rb;
      for (std::size_t d = nd - 1; d-- > 0;) {
        const int64_t n = static_cast<int64_t>(tables[d].size());
        coord[d] = rem % n;
        rem /= n;
      }
      int64_t base = 0;
      for (std::size_t d = 0; d + 1 < nd; ++d) base += tables[d][static_cast<std::size_t>(coord[d])];
      for (int64_t r = rb; r < re; ++r) {
        row(base, o + r * n_inner, 0, n_inner);
        for (std::size_t d = nd - 1; d-- > 0;) {
          const Table& t = tables[d];
          base -= t[static_cast<std::size_t>(coord[d])];
          if (++coord[d] < static_cast<int64_t>(t.size())) {
            base += t[static_cast<std::size_t>(coord[d])];
            break;
          }
          coord[d] = 0;
          base += t[0];
        }
      }
    });
  });
}

// f(position, offset) for every element of the product of the `outer`
// tables and an innermost table of n_inner entries read by inner_at(j)
// (a vector, or offsets computed from an index tensor as they are read),
// row-major: the innermost in a plain loop (the whole walk when there are no
// outer tables, as a 1-d index_put's), an odometer over the others.
template <class InnerAt, class F>
void for_each_table_offset(std::span<const Table> outer, int64_t n_inner, InnerAt&& inner_at, F&& f) {
  int64_t numel = n_inner;
  for (const Table& t : outer) numel *= static_cast<int64_t>(t.size());
  if (numel == 0) return;
  const std::size_t no = outer.size();
  SizesVector coord(no, 0);
  int64_t base = 0;
  for (std::size_t d = 0; d < no; ++d) base += outer[d][0];
  for (int64_t pos = 0; pos < numel; pos += n_inner) {
    for (int64_t j = 0; j < n_inner; ++j) f(pos + j, base + inner_at(j));
    for (std::size_t d = no; d-- > 0;) {
      const Table& t = outer[d];
      base -= t[static_cast<std::size_t>(coord[d])];
      if (++coord[d] < static_cast<int64_t>(t.size())) {
        base += t[static_cast<std::size_t>(coord[d])];
        break;
      }
      coord[d] = 0;
      base += t[0];
    }
  }
}

// The same over a product of tables, the last one innermost.
template <class F>
void for_each_table_offset(const Tables& tables, F&& f) {
  if (tables.empty()) {  // a 0-dim result: its one element
    f(0, 0);
    return;
  }
  const Table& inner = tables.back();
  const int64_t* in = inner.data();
  for_each_table_offset(std::span<const Table>(tables.data(), tables.size() - 1), static_cast<int64_t>(inner.size()),
                        [in](int64_t j) { return in[j]; }, f);
}

// Offsets (in elements, with `strides`) of every position of `sizes`, row-major.
inline Table strided_offsets(IntArrayRef sizes, IntArrayRef strides) {
  Tables tables;
  for (std::size_t d = 0; d < sizes.size(); ++d) tables.push_back(iota_table(sizes[d], strides[d]));
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  Table out(static_cast<std::size_t>(numel));
  for_each_table_offset(tables, [&](int64_t pos, int64_t off) { out[static_cast<std::size_t>(pos)] = off; });
  return out;
}

inline int64_t nonempty_dim(const Tensor& t) { return t.dim() == 0 ? 1 : t.dim(); }
inline int64_t nonempty_size(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }
inline int64_t nonempty_stride(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.stride(d); }
inline SizesVector nonempty_sizes(const Tensor& t) {
  return t.dim() == 0 ? SizesVector(1, 1) : SizesVector(t.sizes());
}

// The parallel copy of cat's contiguous rows.
inline void copy_bytes(char* dst, const char* src, int64_t bytes) {
  constexpr int64_t grain = int64_t{1} << 20;
  parallel_for(0, bytes, grain, [&](int64_t b, int64_t e) {
    copy_memory(dst + b, src + b, static_cast<std::size_t>(e - b));
  });
}

}  // namespace shape_detail

// ---- cat, stack ----------------------------------------------------------------

OPD_FUNC Tensor cat(std::span<const Tensor> tensors, int64_t dim) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::cat";
  OPD_CHECK(!tensors.empty(), op, ": torch.cat(): expected a non-empty list of Tensors");
  ResultTypeState state;
  std::size_t valid = tensors.size();
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    check_cpu(op, t, "every tensor");
    OPD_CHECK(t.dim() > 0, op, ": zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    state = update_result_type_state(t, state);
    const bool skip = t.dim() == 1 && t.size(0) == 0;  // legacy: 1-d empty tensors are ignored
    if (!skip && valid == tensors.size()) valid = i;
  }
  const ScalarType dtype = result_type(state);
  bool meta = false;
  for (const Tensor& t : tensors) meta = meta || t.is_meta();
  if (valid == tensors.size()) return meta ? meta_like_sizes(tensors[0].sizes(), dtype) : new_like_sizes(tensors[0].sizes(), dtype);
  const Tensor& first = tensors[valid];
  dim = views::wrap_dim(op, dim, first.dim());
  SizesVector sizes(first.sizes());
  int64_t cat_size = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (t.dim() == 1 && t.size(0) == 0) continue;
    OPD_CHECK(t.dim() == first.dim(), op, ": Tensors must have same number of dimensions: got ", first.dim(), " and ",
              t.dim());
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (d == dim) continue;
      OPD_CHECK(t.size(d) == first.size(d), op, ": Sizes of tensors must match except in dimension ", dim,
                ". Expected size ", first.size(d), " but got size ", t.size(d), " for tensor number ", i,
                " in the list.");
    }
    cat_size += t.size(dim);
  }
  sizes[static_cast<std::size_t>(dim)] = cat_size;
  if (meta) return meta_like_sizes(as_ref(sizes), dtype);
  Tensor out = new_like_sizes(as_ref(sizes), dtype);
  if (out.numel() == 0) return out;
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= sizes[static_cast<std::size_t>(d)];
  const int64_t inner_rest = out.numel() / outer / cat_size;  // elements per unit of dim
  const int64_t item = static_cast<int64_t>(out.itemsize());
  const int64_t out_row = cat_size * inner_rest * item;
  char* base = static_cast<char*>(out.data_ptr());
  // All inputs contiguous and of out's dtype: row by row, each row of out
  // written in order from every input (the common case; sequential writes).
  struct Piece {
    const char* src;
    int64_t row;  // bytes per outer index
  };
  SmallVector<Piece, 4> pieces;  // no allocation for a few inputs
  for (const Tensor& t : tensors) {
    if ((t.dim() == 1 && t.size(0) == 0) || t.numel() == 0) continue;
    if (t.dtype() != dtype || !t.is_contiguous()) {
      pieces.clear();
      break;
    }
    pieces.push_back({static_cast<const char*>(t.data_ptr()), t.size(dim) * inner_rest * item});
  }
  if (!pieces.empty() && outer > 1) {
    parallel_for(0, outer, std::max<int64_t>(1, grain_size * 4 / std::max<int64_t>(out_row, 1)), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        char* dst = base + o * out_row;
        for (const Piece& p : pieces) {
          copy_memory(dst, p.src + o * p.row, static_cast<std::size_t>(p.row));
          dst += p.row;
        }
      }
    });
    return out;
  }
  int64_t offset = 0;  // along dim
  for (const Tensor& t : tensors) {
    if (t.dim() == 1 && t.size(0) == 0) continue;
    const int64_t n = t.size(dim);
    if (n == 0 || t.numel() == 0) continue;
    char* dst = base + offset * inner_rest * item;
    if (t.dtype() == dtype && t.is_contiguous()) {
      const int64_t row = n * inner_rest * item;
      const char* src = static_cast<const char*>(t.data_ptr());
      if (outer == 1) {
        copy_bytes(dst, src, row);
      } else {
        parallel_for(0, outer, std::max<int64_t>(1, grain_size * 4 / std::max<int64_t>(row, 1)),
                     [&](int64_t b, int64_t e) {
                       for (int64_t o = b; o < e; ++o) copy_memory(dst + o * out_row, src + o * row, static_cast<std::size_t>(row));
                     });
      }
    } else {
      // A strided window of out (converting copy).
      OperandRef window = OperandRef::of(out);
      window.data = dst;
      window.sizes = t.sizes();
      window.contiguous = false;  // out's strides over t's sizes
      copy_elements(window, OperandRef::of(t));
    }
    offset += n;
  }
  return out;
}

OPD_FUNC Tensor stack(std::span<const Tensor> tensors, int64_t dim) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::stack";
  OPD_CHECK(!tensors.empty(), op, ": stack expects a non-empty TensorList");
  const Tensor& first = tensors[0];
  check_cpu(op, first, "every tensor");
  dim = views::wrap_dim(op, dim, first.dim() + 1);
  std::vector<Tensor> pieces;
  pieces.reserve(tensors.size());
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    check_cpu(op, t, "every tensor");
    OPD_CHECK(t.sizes() == first.sizes(), op, ": stack expects each tensor to be equal size, but got ", first.sizes(),
              " at entry 0 and ", t.sizes(), " at entry ", i);
    std::vector<int64_t> sizes = t.sizes().vec();
    std::vector<int64_t> strides = t.strides().vec();
    const auto d = static_cast<std::size_t>(dim);
    const int64_t stride = d < sizes.size() ? sizes[d] * strides[d] : 1;
    sizes.insert(sizes.begin() + static_cast<std::ptrdiff_t>(d), 1);
    strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(d), stride);
    pieces.push_back(t.as_strided(as_ref(sizes), as_ref(strides), t.storage_offset()));
  }
  return cat(pieces, dim);
}

// ---- index_select, gather, scatter ------------------------------------------------

namespace shape_detail {

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_index_select_range() {
  throw IndexError("aten::index_select: index out of range in self");
}

// dst[o, i, :] = src[o, iv[i], :] for i in [b, e), every o; src and dst
// contiguous, `inner` elements per row; each index checked as it is read.
template <class U>
void index_select_rows(const U* src, U* dst, const int64_t* iv, int64_t b, int64_t e, int64_t outer, int64_t numel,
                       int64_t size, int64_t inner) {
  for (int64_t o = 0; o < outer; ++o) {
    const U* s = src + o * size * inner;
    U* d = dst + o * numel * inner;
    if (inner == 1) {
      for (int64_t i = b; i < e; ++i) {
        const int64_t v = iv[i];
        if (static_cast<uint64_t>(v) >= static_cast<uint64_t>(size)) throw_index_select_range();
        d[i] = s[v];
      }
    } else {
      for (int64_t i = b; i < e; ++i) {
        const int64_t v = iv[i];
        if (static_cast<uint64_t>(v) >= static_cast<uint64_t>(size)) throw_index_select_range();
        copy_memory(d + i * inner, s + v * inner, static_cast<std::size_t>(inner) * sizeof(U));
      }
    }
  }
}

}  // namespace shape_detail

OPD_FUNC Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::index_select";
  check_cpu(op, self, "self");
  check_cpu(op, index, "index");
  dim = views::wrap_dim(op, dim, self.dim());
  const int64_t numel = index.numel();
  OPD_CHECK_INDEX(index.dim() <= 1, op, ": index_select(): Index is supposed to be a vector");
  OPD_CHECK(!(self.dim() == 0 && numel != 1), op, ": index_select(): Index to scalar can have only 1 value, got ",
            numel, " value(s)");
  OPD_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int, op,
            ": index_select(): Expected dtype int32 or int64 for index");
  if (any_meta({&self, &index})) {
    if (self.dim() == 0) return meta_like_sizes(self.sizes(), self.dtype());
    SizesVector sizes(self.sizes());
    sizes[static_cast<std::size_t>(dim)] = numel;
    return meta_like_sizes(as_ref(sizes), self.dtype());
  }
  const Tensor idx = as_long(index);
  const int64_t* iv = idx.data_ptr<int64_t>();
  const int64_t size = nonempty_size(self, dim);
  const int64_t stride = nonempty_stride(self, dim);
  if (self.dim() > 0 && self.is_contiguous()) {
    // One pass, checking each index as it is read (out is fresh: a failure
    // discards it): blocks of `inner` elements, element loops for inner == 1.
    SizesVector sizes(self.sizes());
    sizes[static_cast<std::size_t>(dim)] = numel;
    Tensor out = new_like_sizes(as_ref(sizes), self.dtype());
    int64_t outer = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= self.size(d);
    int64_t inner = 1;
    for (int64_t d = dim + 1; d < self.dim(); ++d) inner *= self.size(d);
    if (out.numel() == 0) {
      for (int64_t i = 0; i < numel; ++i) OPD_CHECK_INDEX(iv[i] >= 0 && iv[i] < size, op, ": index out of range in self");
      return out;
    }
    dispatch_size(self.itemsize(), op, [&](auto tag) {
      using U = typename decltype(tag)::type;
      const U* src = static_cast<const U*>(self.data_ptr());
      U* dst = static_cast<U*>(out.data_ptr());
      parallel_for(0, numel, std::max<int64_t>(1, grain_size / (outer * inner)), [&](int64_t b, int64_t e) {
        index_select_rows<U>(src, dst, iv, b, e, outer, numel, size, inner);
      });
    });
    return out;
  }
  Table picked(static_cast<std::size_t>(numel));
  for (int64_t i = 0; i < numel; ++i) {
    OPD_CHECK_INDEX(iv[i] >= 0 && iv[i] < size, op, ": index out of range in self");
    picked[static_cast<std::size_t>(i)] = iv[i] * stride;
  }
  if (self.dim() == 0) {
    Tensor out = new_like_sizes(self.sizes(), self.dtype());
    gather_tables(op, out, static_cast<const char*>(self.data_ptr()), {});
    return out;
  }
  SizesVector sizes(self.sizes());
  sizes[static_cast<std::size_t>(dim)] = numel;
  Tensor out = new_like_sizes(as_ref(sizes), self.dtype());
  Tables tables;
  for (int64_t d = 0; d < self.dim(); ++d) {
    tables.push_back(d == dim ? picked : iota_table(self.size(d), self.stride(d)));
  }
  gather_tables(op, out, static_cast<const char*>(self.data_ptr()), tables);
  return out;
}

namespace shape_detail {

// The checks gather and scatter share; returns the wrapped dim.
OPD_FUNC int64_t check_scatter_gather(std::string_view op, std::string_view method, const Tensor& self, int64_t dim,
                                      const Tensor& index, const Tensor* src) {
  check_cpu(op, self, "self");
  check_cpu(op, index, "index");
  dim = views::wrap_dim(op, dim, self.dim());
  if (index.numel() == 0) return dim;
  OPD_CHECK(index.dtype() == ScalarType::Long, op, ": ", method, "(): Expected dtype int64 for index");
  const int64_t nd = nonempty_dim(self);
  if (method == "gather") {
    OPD_CHECK(nd == nonempty_dim(index), op, ": Index tensor must have the same number of dimensions as input tensor");
    for (int64_t d = 0; d < nd; ++d) {
      if (d == dim) continue;
      OPD_CHECK(nonempty_size(index, d) <= nonempty_size(self, d), op, ": Size does not match at dimension ", d,
                " expected index ", index.sizes(), " to be smaller than self ", self.sizes(), " apart from dimension ",
                dim);
    }
    return dim;
  }
  OPD_CHECK(nd == nonempty_dim(index), op, ": Index tensor must have the same number of dimensions as self tensor");
  if (src) {
    OPD_CHECK(nonempty_dim(*src) == nonempty_dim(index), op,
              ": Index tensor must have the same number of dimensions as src tensor");
  }
  bool wrong = false;
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t n = nonempty_size(index, d);
    if (d != dim && n > nonempty_size(self, d)) wrong = true;
    if (src && n > nonempty_size(*src, d)) wrong = true;
  }
  if (wrong) {
    std::string more;
    if (src) more = opd::detail::str_cat(" and to be smaller size than src ", src->sizes());
    throw Error(opd::detail::str_cat(op, ": Expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
                                     " apart from dimension ", dim, more));
  }
  return dim;
}

}  // namespace shape_detail

OPD_FUNC Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  using namespace shape_detail;
  using scatter_walk::for_each_position;
  constexpr std::string_view op = "aten::gather";
  dim = check_scatter_gather(op, "gather", self, dim, index, nullptr);
  if (any_meta({&self, &index})) return meta_like_sizes(index.sizes(), self.dtype());
  refuse_complex_half(self, "scatter_gather_tensor_cpu");
  Tensor out = new_like_sizes(index.sizes(), self.dtype());
  if (index.numel() == 0) return out;
  // out[.., j] = self[.., index[.., j] along dim, ..]: the scatter walk with
  // self as its target and out (contiguous) as its source, rows in parallel
  // (each row writes its own out; out is this call's own, so an index error
  // leaves nothing behind)
  const Tensor idx = as_long(index);
  SizesVector ostrides;
  for (int64_t d = 0; d < nonempty_dim(out); ++d) ostrides.push_back(nonempty_stride(out, d));
  dispatch_size(self.itemsize(), op, [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = static_cast<const U*>(self.data_ptr());
    U* dst = static_cast<U*>(out.data_ptr());
    for_each_position(op, self, dim, idx, ostrides, true, [&](int64_t si, int64_t oi) { dst[oi] = src[si]; });
  });
  return out;
}

OPD_FUNC ScatterReduce scatter_reduce_of(std::string_view op, std::string_view reduce) {
  if (reduce == "add") return ScatterReduce::Add;
  if (reduce == "multiply") return ScatterReduce::Multiply;
  throw Error(opd::detail::str_cat(op, ": reduce argument must be either add or multiply."));
}

namespace shape_detail {

// out[.., idx[.., j] along dim, ..] (op)= value_at(tag, offset in src of
// (.., j)) over the scatter walk (`for_each_position`); rows in parallel
// when dim is index's last dimension (each row then writes its own elements
// of out), else in order (of duplicate indices the last write wins, as in
// ATen's serial loop). src_strides: empty when the value does not depend on
// the position (scatter.value). The reduction is chosen once per call.
template <class ValueAt>
void scatter_rows(std::string_view op, Tensor& out, int64_t dim, const Tensor& index, const SizesVector& src_strides,
                  ScatterReduce reduce, ValueAt value_at) {
  const Tensor idx = as_long(index);
  const bool parallel = dim == nonempty_dim(index) - 1;
  const auto walk = [&](auto&& store) {
    scatter_walk::for_each_position(op, out, dim, idx, src_strides, parallel, store);
  };
  if (reduce == ScatterReduce::None) {
    dispatch_size(out.itemsize(), op, [&](auto tag) {
      using U = typename decltype(tag)::type;
      U* o = static_cast<U*>(out.data_ptr());
      walk([&](int64_t oi, int64_t si) { o[oi] = value_at(tag, si); });
    });
    return;
  }
  dispatch_dtype_with_complex(out.dtype(), "scatter", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    T* o = static_cast<T*>(out.data_ptr());
    const auto run = [&](auto add) {
      walk([&](int64_t oi, int64_t si) {
        const M a = static_cast<M>(o[oi]);
        const M b = static_cast<M>(value_at(tag, si));
        if constexpr (std::is_same_v<T, bool>) {
          o[oi] = add ? (a || b) : (a && b);
        } else if constexpr (is_complex_v<T>) {  // c10::complex's textbook product
          o[oi] = add ? a + b : complex_mul(a, b);
        } else {
          o[oi] = convert<T>(add ? a + b : a * b);
        }
      });
    };
    if (reduce == ScatterReduce::Add) {
      run(std::true_type{});
    } else {
      run(std::false_type{});
    }
  });
}

}  // namespace shape_detail

OPD_FUNC Tensor scatter(std::string_view op, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                        ScatterReduce reduce) {
  using namespace shape_detail;
  check_cpu(op, src, "src");
  dim = check_scatter_gather(op, "scatter", self, dim, index, &src);
  OPD_CHECK(self.dtype() == src.dtype(), op, ": scatter(): Expected self.dtype to be equal to src.dtype");
  if (any_meta({&self, &index, &src})) return meta_like_sizes(self.sizes(), self.dtype());
  refuse_complex_half(self, "scatter_gather_tensor_cpu");
  Tensor out = contiguous_clone(self);
  if (index.numel() == 0) return out;
  SizesVector sstrides;
  for (int64_t d = 0; d < nonempty_dim(src); ++d) sstrides.push_back(nonempty_stride(src, d));
  const char* s = static_cast<const char*>(src.data_ptr());
  scatter_rows(op, out, dim, index, sstrides, reduce, [&](auto tag, int64_t si) {
    using U = typename decltype(tag)::type;
    return reinterpret_cast<const U*>(s)[si];
  });
  return out;
}

OPD_FUNC Tensor scatter_value(std::string_view op, const Tensor& self, int64_t dim, const Tensor& index,
                              const Scalar& value, ScatterReduce reduce) {
  using namespace shape_detail;
  dim = check_scatter_gather(op, "scatter", self, dim, index, nullptr);
  // the value in self's dtype, as bytes (checked as c10's Scalar::to)
  Bytes16 bytes{0, 0};
  dispatch_dtype_with_complex(self.dtype(), "scatter", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = checked_scalar_to<T>(value);
    std::memcpy(&bytes, static_cast<const void*>(&v), sizeof(T));
  });
  if (any_meta({&self, &index})) return meta_like_sizes(self.sizes(), self.dtype());
  Tensor out = contiguous_clone(self);
  if (index.numel() == 0) return out;
  scatter_rows(op, out, dim, index, {}, reduce, [&](auto tag, int64_t) {
    using U = typename decltype(tag)::type;
    U v;
    std::memcpy(static_cast<void*>(&v), &bytes, sizeof(U));
    return v;
  });
  return out;
}

// ---- flip, roll, repeat, tril, triu -------------------------------------------------

OPD_FUNC Tensor flip(const Tensor& self, IntArrayRef dims) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::flip";
  check_cpu(op, self, "self");
  std::vector<bool> flipped(static_cast<std::size_t>(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t d : dims) {
    const int64_t w = views::wrap_dim(op, d, self.dim());
    OPD_CHECK(!flipped[static_cast<std::size_t>(w)], op, ": dim ", w, " appears multiple times in the list of dims");
    flipped[static_cast<std::size_t>(w)] = true;
  }
  if (self.is_meta()) return meta_like_sizes(self.sizes(), self.dtype());
  refuse_complex_half(self, "flip_cpu");
  Tensor out = new_like_sizes(self.sizes(), self.dtype());
  Tables tables;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const int64_t n = self.size(d);
    const int64_t st = self.stride(d);
    Table t = iota_table(n, st);
    if (flipped[static_cast<std::size_t>(d)]) std::reverse(t.begin(), t.end());
    tables.push_back(std::move(t));
  }
  gather_tables(op, out, static_cast<const char*>(self.data_ptr()), tables);
  return out;
}

OPD_FUNC Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::roll";
  check_cpu(op, self, "self");
  OPD_CHECK(!shifts.empty(), op, ": `shifts` required");
  if (dims.empty() && shifts.size() == 1) {  // over the flattened tensor
    if (self.is_meta()) return meta_like_sizes(self.sizes(), self.dtype());
    const Tensor flat = contiguous_clone(self);
    const int64_t n = self.numel();
    Tensor out = new_like_sizes(self.sizes(), self.dtype());
    if (n == 0) return out;
    const int64_t start = ((-shifts[0]) % n + n) % n;
    Table t(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = (start + i) % n;
    gather_tables(op, out, static_cast<const char*>(flat.data_ptr()), Tables{t});
    return out;
  }
  OPD_CHECK(shifts.size() == dims.size(), op, ": shifts and dimensions must align. shifts: ", shifts.size(),
            ", dims:", dims.size());
  std::vector<int64_t> shift(static_cast<std::size_t>(std::max<int64_t>(self.dim(), 1)), 0);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = views::wrap_dim(op, dims[i], self.dim());
    shift[static_cast<std::size_t>(d)] += shifts[i];
  }
  if (self.is_meta()) return meta_like_sizes(self.sizes(), self.dtype());
  Tensor out = new_like_sizes(self.sizes(), self.dtype());
  if (out.numel() == 0) return out;
  Tables tables;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const int64_t n = self.size(d);
    const int64_t start = ((-shift[static_cast<std::size_t>(d)]) % n + n) % n;
    Table t(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = ((start + i) % n) * self.stride(d);
    tables.push_back(std::move(t));
  }
  gather_tables(op, out, static_cast<const char*>(self.data_ptr()), tables);
  return out;
}

namespace shape_detail {

// copy_memory of a large block in pieces across threads (as ATen's copy_
// splits it), at least grain_size floats' worth of bytes each.
inline void copy_memory_split(char* dst, const char* src, int64_t bytes) {
  constexpr int64_t kGrainBytes = grain_size * int64_t{sizeof(float)};
  parallel_for(0, bytes, kGrainBytes, [&](int64_t b, int64_t e) {
    copy_memory(dst + b, src + b, static_cast<std::size_t>(e - b));
  });
}

// repeat of a contiguous input into a contiguous out, dimension by
// dimension from d: the s[d] sub-blocks are written (recursively), then the
// first block of s[d] rows is copied r[d] - 1 times by doubling memcpy. No
// index table; each input byte is read once.
inline void repeat_contiguous(char* dst, const char* src, const int64_t* s, const int64_t* r, const int64_t* src_inner,
                              const int64_t* out_inner, std::size_t d, std::size_t nd) {
  const int64_t block = s[d] * out_inner[d];  // bytes of one copy of the input along d
  bool plain = true;  // no repeat below d: the s[d] rows are one run of src
  for (std::size_t e = d + 1; e < nd && plain; ++e) plain = r[e] == 1;
  if (plain) {
    copy_memory_split(dst, src, block);
  } else {
    for (int64_t i = 0; i < s[d]; ++i) {
      repeat_contiguous(dst + i * out_inner[d], src + i * src_inner[d], s, r, src_inner, out_inner, d + 1, nd);
    }
  }
  const int64_t total = block * r[d];
  for (int64_t filled = block; filled < total;) {
    const int64_t n = std::min(filled, total - filled);
    copy_memory_split(dst + filled, dst, n);
    filled += n;
  }
}

}  // namespace shape_detail

OPD_FUNC Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::repeat";
  check_cpu(op, self, "self");
  OPD_CHECK(static_cast<int64_t>(repeats.size()) >= self.dim(), op,
            ": Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const std::size_t nd = repeats.size();
  const std::size_t lead = nd - static_cast<std::size_t>(self.dim());
  SizesVector sizes(nd);
  for (std::size_t d = 0; d < nd; ++d) {
    const int64_t s = d < lead ? 1 : self.size(static_cast<int64_t>(d - lead));
    sizes[d] = s * repeats[d];
  }
  for (int64_t s : sizes) {
    OPD_CHECK(s >= 0, op, ": Trying to create tensor with negative dimension ", s, ": ", as_ref(sizes));
  }
  if (self.is_meta()) return meta_like_sizes(as_ref(sizes), self.dtype());
  Tensor out = new_like_sizes(as_ref(sizes), self.dtype());
  if (out.numel() == 0) return out;
  if (self.is_contiguous() && nd > 0) {
    SizesVector s(nd), src_inner(nd), out_inner(nd);  // src_inner / out_inner: bytes of one step along d
    int64_t src_step = static_cast<int64_t>(self.itemsize()), out_step = src_step;
    for (std::size_t d = nd; d-- > 0;) {
      s[d] = d < lead ? 1 : self.size(static_cast<int64_t>(d - lead));
      src_inner[d] = src_step;
      out_inner[d] = out_step;
      src_step *= s[d];
      out_step *= sizes[d];
    }
    repeat_contiguous(static_cast<char*>(out.data_ptr()), static_cast<const char*>(self.data_ptr()), s.data(),
                      repeats.data(), src_inner.data(), out_inner.data(), 0, nd);
    return out;
  }
  Tables tables;
  for (std::size_t d = 0; d < nd; ++d) {
    const int64_t n = d < lead ? 1 : self.size(static_cast<int64_t>(d - lead));
    const int64_t st = d < lead ? 0 : self.stride(static_cast<int64_t>(d - lead));
    Table t(static_cast<std::size_t>(sizes[d]));
    for (int64_t r = 0, i = 0; r < repeats[d]; ++r) {  // repeats[d] copies of 0, st, ..., (n - 1) st: no modulo
      for (int64_t k = 0; k < n; ++k, ++i) t[static_cast<std::size_t>(i)] = k * st;
    }
    tables.push_back(std::move(t));
  }
  gather_tables(op, out, static_cast<const char*>(self.data_ptr()), tables);
  return out;
}

namespace shape_detail {

// A contiguous copy of self with the elements outside the band zeroed:
// lower keeps j <= i + k (tril), else j >= i + k (triu).
OPD_FUNC Tensor triangle(std::string_view op, const Tensor& self, int64_t k, bool lower) {
  check_cpu(op, self, "self");
  refuse_complex_half(self, lower ? "tril" : "triu");
  if (self.numel() == 0) return contiguous_clone(self);  // ATen returns before looking at the dimensions
  (void)views::wrap_dim(op, -2, self.dim());  // ATen reads size(-2) first: a 1-d input is a dimension error
  Tensor out = contiguous_clone(self);
  if (out.is_meta()) return out;
  const int64_t rows = self.size(-2);
  const int64_t cols = self.size(-1);
  if (out.numel() == 0) return out;
  const int64_t batches = out.numel() / (rows * cols);
  const auto item = static_cast<int64_t>(out.itemsize());
  char* base = static_cast<char*>(out.data_ptr());
  parallel_for(0, batches * rows, std::max<int64_t>(1, grain_size / std::max<int64_t>(cols, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t r = b; r < e; ++r) {
                   const int64_t i = r % rows;
                   char* row = base + r * cols * item;
                   // zero [lo, hi) of the row
                   int64_t lo, hi;
                   if (lower) {
                     lo = std::clamp<int64_t>(i + k + 1, 0, cols);
                     hi = cols;
                   } else {
                     lo = 0;
                     hi = std::clamp<int64_t>(i + k, 0, cols);
                   }
                   if (hi > lo) std::memset(row + lo * item, 0, static_cast<std::size_t>((hi - lo) * item));
                 }
               });
  return out;
}

}  // namespace shape_detail

namespace shape_detail {

OPD_FUNC Tensor& triangle_(std::string_view op, Tensor& self, int64_t k, bool lower) {
  check_cpu(op, self, "self");
  refuse_complex_half(self, lower ? "tril" : "triu");
  if (self.numel() == 0) return self;
  (void)views::wrap_dim(op, -2, self.dim());
  if (self.is_meta()) return self;
  const int64_t rows = self.size(-2), cols = self.size(-1);
  const int64_t rs = self.stride(-2), cs = self.stride(-1);
  const IntArrayRef bsizes(self.sizes().data(), self.sizes().size() - 2);
  const IntArrayRef bstrides(self.strides().data(), self.strides().size() - 2);
  const Table batches = strided_offsets(bsizes, bstrides);
  const auto item = static_cast<int64_t>(self.itemsize());
  char* base = static_cast<char*>(self.data_ptr());
  for (const int64_t b : batches) {
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t lo = lower ? std::clamp<int64_t>(i + k + 1, 0, cols) : 0;
      const int64_t hi = lower ? cols : std::clamp<int64_t>(i + k, 0, cols);
      for (int64_t j = lo; j < hi; ++j) {
        std::memset(base + (b + i * rs + j * cs) * item, 0, static_cast<std::size_t>(item));
      }
    }
  }
  self.bump_version();
  return self;
}

}  // namespace shape_detail

OPD_FUNC Tensor& tril_(Tensor& self, int64_t diagonal) {
  return shape_detail::triangle_("aten::tril_", self, diagonal, true);
}
OPD_FUNC Tensor& triu_(Tensor& self, int64_t diagonal) {
  return shape_detail::triangle_("aten::triu_", self, diagonal, false);
}

OPD_FUNC Tensor tril(const Tensor& self, int64_t diagonal) {
  return shape_detail::triangle("aten::tril", self, diagonal, true);
}
OPD_FUNC Tensor triu(const Tensor& self, int64_t diagonal) {
  return shape_detail::triangle("aten::triu", self, diagonal, false);
}

// ---- nonzero, where, masked_select ---------------------------------------------------

namespace shape_detail {

// The flat (row-major) positions of the nonzero elements of t, written to
// dest(count), which returns where `count` positions go.
template <class Dest>
void nonzero_positions(const Tensor& t, const Dest& dest) {
  if (t.is_contiguous()) {
    // Contiguous: each thread's range counted (detail::count_true), the
    // counts' prefix sums give each range its first slot, then each range
    // writes every position and advances by the element's truth, without a
    // branch; it stops at its last true element, so that it never writes
    // into the next range's slots.
    dispatch_dtype_with_complex_half(t.dtype(), "nonzero_cpu", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* p = static_cast<const T*>(t.data_ptr());
      const int64_t n = t.numel();
      const int64_t tasks = std::clamp<int64_t>(n / (grain_size * grain_scale()), 1, get_num_threads());
      const int64_t step = (n + tasks - 1) / tasks;
      const auto begin_of = [&](int64_t c) { return std::min(n, c * step); };
      std::vector<int64_t> first(static_cast<std::size_t>(tasks) + 1, 0);
      parallel_tasks(tasks, [&](int64_t c) {
        first[static_cast<std::size_t>(c) + 1] = detail::count_true(p + begin_of(c), begin_of(c + 1) - begin_of(c));
      });
      for (std::size_t c = 1; c < first.size(); ++c) first[c] += first[c - 1];
      int64_t* pos = dest(first.back());
      parallel_tasks(tasks, [&](int64_t c) {
        const int64_t b = begin_of(c);
        int64_t last = begin_of(c + 1) - 1;
        while (last >= b && !truth(p[last])) --last;
        int64_t k = first[static_cast<std::size_t>(c)];
        for (int64_t i = b; i <= last; ++i) {
          pos[k] = i;
          k += truth(p[i]) ? 1 : 0;
        }
      });
    });
    return;
  }
  std::vector<int64_t> pos;
  const Table offs = strided_offsets(t.sizes(), t.strides());
  dispatch_dtype_with_complex_half(t.dtype(), "nonzero_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = static_cast<const T*>(t.data_ptr());
    for (std::size_t i = 0; i < offs.size(); ++i) {
      if (truth(p[offs[i]])) pos.push_back(static_cast<int64_t>(i));
    }
  });
  std::copy(pos.begin(), pos.end(), dest(static_cast<int64_t>(pos.size())));
}

}  // namespace shape_detail

OPD_FUNC Tensor nonzero(const Tensor& self) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::nonzero";
  check_cpu(op, self, "self");
  OPD_CHECK(self.numel() < std::numeric_limits<int>::max(), op,
            ": nonzero is not supported for tensors with more than INT_MAX elements");
  const int64_t nd = self.dim();
  Tensor out;
  std::vector<int64_t> flat;  // for nd != 1: the positions, turned into coordinates below
  nonzero_positions(self, [&](int64_t count) {
    const int64_t sizes[2] = {count, nd};
    out = new_like_sizes(IntArrayRef(sizes, 2), ScalarType::Long);
    if (nd == 1) return out.data_ptr<int64_t>();  // a position is the coordinate: written in place
    flat.resize(static_cast<std::size_t>(count));
    return flat.data();
  });
  if (nd == 1) return out;
  int64_t* o = out.data_ptr<int64_t>();
  for (std::size_t i = 0; i < flat.size(); ++i) {
    int64_t rem = flat[i];
    const auto row = static_cast<int64_t>(i) * nd;
    for (int64_t d = nd; d-- > 1;) {
      o[row + d] = rem % self.size(d);
      rem /= self.size(d);
    }
    if (nd > 0) o[row] = rem;  // the outermost coordinate needs no division
  }
  return out;
}

OPD_FUNC std::vector<Tensor> nonzero_numpy(const Tensor& condition) {
  using namespace shape_detail;
  check_cpu("aten::where", condition, "condition");
  const Tensor nz = condition.dim() == 0 ? nonzero(condition.as_strided(IntArrayRef({1}), IntArrayRef({1}), condition.storage_offset()))
                                         : nonzero(condition);
  // nonzero(condition).unbind(1), as ATen: column d is a view of the
  // coordinates (one copy fewer; for a 1-d condition it is contiguous)
  std::vector<Tensor> out;
  const int64_t nd = nz.size(1);
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t size = nz.size(0);
    const int64_t stride = nd;
    out.push_back(nz.as_strided(IntArrayRef(&size, 1), IntArrayRef(&stride, 1), nz.storage_offset() + d));
  }
  return out;
}

OPD_FUNC Tensor masked_select(const Tensor& self, const Tensor& mask) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::masked_select";
  check_cpu(op, self, "self");
  check_cpu(op, mask, "mask");
  OPD_CHECK(mask.dtype() == ScalarType::Bool || mask.dtype() == ScalarType::Byte, op,
            ": masked_select: expected BoolTensor or ByteTensor for mask");
  refuse_complex_half(self, "masked_select");
  const std::vector<int64_t> shape = infer_size(mask.sizes(), self.sizes());
  if (self.is_meta() || mask.is_meta())
    throw NotImplementedError(opd::detail::str_cat(
        op, ": the result's shape depends on the mask's values, which a Meta tensor does not have"));
  // the operands as they are when they already have the broadcast shape
  const auto ready = [&](const Tensor& t, ScalarType dt) {
    return t.dtype() == dt && t.is_contiguous() && t.sizes() == as_ref(shape);
  };
  const Tensor m = ready(mask, ScalarType::Bool) ? mask : materialize(mask, as_ref(shape), ScalarType::Bool);
  const Tensor s = ready(self, self.dtype()) ? self : materialize(self, as_ref(shape), self.dtype());
  const auto* mp = static_cast<const uint8_t*>(m.data_ptr());
  const int64_t total = m.numel();
  const int64_t n = detail::count_true(mp, total);
  Tensor out = new_like_sizes(IntArrayRef(&n, 1), self.dtype());
  if (n == 0) return out;
  // Compaction without a branch per element (a random mask mispredicts half
  // of them): every element is stored at the next free slot, which advances
  // only past a selected one. Up to the last selected element, the slot is
  // always inside out.
  int64_t last = total - 1;
  while (mp[last] == 0) --last;
  dispatch_size(self.itemsize(), op, [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = static_cast<const U*>(s.data_ptr());
    U* o = static_cast<U*>(out.data_ptr());
    int64_t k = 0;
    for (int64_t i = 0; i <= last; ++i) {
      o[k] = src[i];
      k += mp[i] != 0;
    }
  });
  return out;
}

// ---- index.Tensor, index_put_ ----------------------------------------------------------

namespace shape_detail {

// Advanced indexing, resolved: the result's sizes and one offset table per
// result dimension group (None dims before, the broadcast index block as one
// table, None dims after), bounds-checked.
struct IndexPlan {
  SizesVector result_sizes;
  Tables tables;
  // With one index tensor of the broadcast shape, Long and contiguous, and a
  // caller that allows it (index_put_): tables[block] is left empty and its
  // offsets are read from the index itself (checked; negatives wrapped, times
  // the stride) as they are used: no table built, written and read again.
  Tensor direct;
  int64_t direct_size = 0, direct_stride = 0;
  std::size_t block = 0;
};

OPD_FUNC IndexPlan plan_index(std::string_view op, const Tensor& self, std::span<const std::optional<Tensor>> indices,
                              bool allow_direct = false) {
  check_cpu(op, self, "self");
  OPD_CHECK_INDEX(static_cast<int64_t>(indices.size()) <= self.dim(), op, ": too many indices for tensor of dimension ",
                  self.dim(), " (got ", indices.size(), ")");
  for (const std::optional<Tensor>& i : indices) {
    if (!i || !i->defined()) continue;
    check_cpu(op, *i, "indices");
    const ScalarType t = i->dtype();
    OPD_CHECK_INDEX(t == ScalarType::Long || t == ScalarType::Byte || t == ScalarType::Bool, op,
                    ": tensors used as indices must be long, byte or bool tensors");
  }
  // masks become their nonzero() columns
  std::vector<Tensor> expanded;  // undefined = None
  for (const std::optional<Tensor>& i : indices) {
    if (!i || !i->defined()) {
      expanded.emplace_back();
      continue;
    }
    if (i->dtype() == ScalarType::Long) {
      expanded.push_back(*i);
      continue;
    }
    // Python turns x[True] into an unsqueeze before it reaches index.Tensor
    OPD_CHECK_INDEX(i->dim() > 0, op, ": a zero-dimensional mask index is not supported");
    // A mask's nonzero() count is data: no Meta result (ATen's Meta refuses it too).
    if (self.is_meta() || i->is_meta())
      throw NotImplementedError(opd::detail::str_cat(
          op, ": a boolean or byte mask index on the Meta device: the result's shape depends on the mask's values, "
              "which a Meta tensor does not have"));
    for (int64_t j = 0; j < i->dim(); ++j) {
      const int64_t src = static_cast<int64_t>(expanded.size()) + j;
      OPD_CHECK_INDEX(src < self.dim(), op, ": too many indices for tensor of dimension ", self.dim());
      OPD_CHECK_INDEX(i->size(j) == self.size(src), op, ": The shape of the mask ", i->sizes(), " at index ", j,
                      " does not match the shape of the indexed tensor ", self.sizes(), " at index ", src);
    }
    const Tensor nz = nonzero(*i);
    for (int64_t j = 0; j < i->dim(); ++j) {
      const int64_t size = nz.size(0);
      const int64_t stride = nz.size(1);
      expanded.push_back(nz.as_strided(IntArrayRef(&size, 1), IntArrayRef(&stride, 1), nz.storage_offset() + j));
    }
  }
  // broadcast the index tensors
  std::vector<int64_t> bshape;
  bool any = false;
  std::string shapes;
  for (const Tensor& t : expanded) {
    if (!t.defined()) continue;
    shapes += (shapes.empty() ? "" : ", ") + opd::detail::str_cat(t.sizes());
  }
  for (const Tensor& t : expanded) {
    if (!t.defined()) continue;
    if (!any) {
      bshape = t.sizes().vec();
      any = true;
      continue;
    }
    try {
      bshape = infer_size(as_ref(bshape), t.sizes());
    } catch (const Error&) {
      throw IndexError(opd::detail::str_cat(op, ": shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes));
    }
  }
  while (static_cast<int64_t>(expanded.size()) < self.dim()) expanded.emplace_back();
  // ATen 1.13 fails an internal assert here (its index kernel needs a tensor)
  OPD_CHECK_INDEX(any, op, ": at least one index must be a tensor (all indices are None)");
  // adjacent indexed dims keep their place; otherwise the block goes first
  int64_t first = -1, last = -1;
  for (std::size_t d = 0; d < expanded.size(); ++d) {
    if (!expanded[d].defined()) continue;
    if (first < 0) first = static_cast<int64_t>(d);
    last = static_cast<int64_t>(d);
  }
  bool adjacent = true;
  for (int64_t d = first; d <= last; ++d) adjacent = adjacent && expanded[static_cast<std::size_t>(d)].defined();
  int64_t bnumel = 1;
  for (int64_t s : bshape) bnumel *= s;
  // an indexed dimension of size 0 can only take an empty index
  for (std::size_t d = 0; d < expanded.size(); ++d) {
    if (expanded[d].defined() && self.size(static_cast<int64_t>(d)) == 0) {
      OPD_CHECK_INDEX(bnumel == 0, op, ": index is out of bounds for dimension with size 0");
    }
  }
  // ATen checks the indices as its kernel reads them: not at all when the
  // result has no element (a None dimension of size 0)
  bool any_element = bnumel > 0;
  for (std::size_t d = 0; d < expanded.size(); ++d) {
    if (!expanded[d].defined() && self.size(static_cast<int64_t>(d)) == 0) any_element = false;
  }
  const bool meta = self.is_meta() || std::any_of(expanded.begin(), expanded.end(), [](const Tensor& t) {
    return t.defined() && t.is_meta();
  });
  IndexPlan plan;
  const auto is_ready = [&](const Tensor& e) {
    return e.dtype() == ScalarType::Long && e.is_contiguous() && e.sizes() == as_ref(bshape);
  };
  // (an index that shares memory with self is copied: index_put_ writes self while it reads the index)
  const bool direct = allow_direct && !meta && first == last && is_ready(expanded[static_cast<std::size_t>(first)]) &&
                      !may_share_memory(expanded[static_cast<std::size_t>(first)], self);
  Table block(static_cast<std::size_t>(meta || direct ? 0 : bnumel), 0);
  int64_t j = 0;  // position among the indexed dims (ATen's messages count so)
  for (std::size_t d = 0; d < expanded.size(); ++d) {
    if (!expanded[d].defined() || meta) continue;  // Meta: no index values to check
    const Tensor& e = expanded[d];
    const bool ready = is_ready(e);
    const Tensor idx = ready ? e : materialize(e, as_ref(bshape), ScalarType::Long);
    const int64_t* iv = idx.data_ptr<int64_t>();
    const int64_t size = self.size(static_cast<int64_t>(d));
    const int64_t stride = self.stride(static_cast<int64_t>(d));
    // One pass that wraps, checks and adds, split across threads and without
    // a branch per index (the wrapped index read as unsigned: below size or
    // bad); a bad one is looked for again in order for ATen's message.
    // (A direct plan only checks.)
    std::atomic<bool> bad{false};
    int64_t* bp = block.data();
    const auto pass = [&](auto write) {
      parallel_for(0, bnumel, grain_size, [&](int64_t b0, int64_t b1) {
        uint64_t over = 0;
        for (int64_t b = b0; b < b1; ++b) {
          const int64_t v = iv[b] + (iv[b] < 0 ? size : 0);
          over |= static_cast<uint64_t>(static_cast<uint64_t>(v) >= static_cast<uint64_t>(size));
          // unsigned: a bad index's product wraps instead of overflowing (it is never used)
          if constexpr (decltype(write)::value) {
            bp[b] = static_cast<int64_t>(static_cast<uint64_t>(bp[b]) +
                                         static_cast<uint64_t>(v) * static_cast<uint64_t>(stride));
          }
        }
        if (over != 0) bad.store(true, std::memory_order_relaxed);
      });
    };
    if (direct) {
      pass(std::false_type{});
      plan.direct = idx;
      plan.direct_size = size;
      plan.direct_stride = stride;
    } else {
      pass(std::true_type{});
    }
    if (any_element && bad.load(std::memory_order_relaxed)) {
      for (int64_t b = 0; b < bnumel; ++b) {
        const int64_t v = iv[b];
        OPD_CHECK_INDEX(v >= -size && v < size, op, ": index ", v, " is out of bounds for dimension ", j,
                        " with size ", size);
      }
    }
    ++j;
  }
  auto add_none = [&](int64_t d) {
    plan.result_sizes.push_back(self.size(d));
    plan.tables.push_back(iota_table(self.size(d), self.stride(d)));
  };
  if (adjacent) {
    for (int64_t d = 0; d < first; ++d) add_none(d);
  }
  for (int64_t s : bshape) plan.result_sizes.push_back(s);
  plan.block = plan.tables.size();
  plan.tables.push_back(std::move(block));
  for (int64_t d = adjacent ? last + 1 : 0; d < self.dim(); ++d) {
    if (!expanded[static_cast<std::size_t>(d)].defined()) add_none(d);
  }
  return plan;
}

// f(position, offset in self) for every element of the indexing result,
// row-major (index_put_'s walk): a direct plan's index read in place when
// it is the innermost table, its table built otherwise.
template <class F>
void for_each_index_offset(const IndexPlan& plan, F&& f) {
  if (!plan.direct.defined()) {
    for_each_table_offset(plan.tables, f);
    return;
  }
  const int64_t* iv = plan.direct.data_ptr<int64_t>();
  const int64_t size = plan.direct_size, stride = plan.direct_stride;
  const auto at = [=](int64_t b) { return (iv[b] + (iv[b] < 0 ? size : 0)) * stride; };  // checked by plan_index
  const int64_t n = plan.direct.numel();
  if (plan.block + 1 == plan.tables.size()) {
    for_each_table_offset(std::span<const Table>(plan.tables.data(), plan.block), n, at, f);
    return;
  }
  Tables tables = plan.tables;
  Table& block = tables[plan.block];
  block.resize(static_cast<std::size_t>(n));
  for (int64_t b = 0; b < n; ++b) block[static_cast<std::size_t>(b)] = at(b);
  for_each_table_offset(tables, f);
}

}  // namespace shape_detail

OPD_FUNC Tensor index(const Tensor& self, std::span<const std::optional<Tensor>> indices) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::index.Tensor";
  const IndexPlan plan = plan_index(op, self, indices);
  bool meta = self.is_meta();
  for (const std::optional<Tensor>& i : indices) meta = meta || (i && i->defined() && i->is_meta());
  if (meta) return meta_like_sizes(as_ref(plan.result_sizes), self.dtype());
  Tensor out = new_like_sizes(as_ref(plan.result_sizes), self.dtype());
  gather_tables(op, out, static_cast<const char*>(self.data_ptr()), plan.tables);
  return out;
}

OPD_FUNC Tensor& index_put_(Tensor& self, std::span<const std::optional<Tensor>> indices, const Tensor& values,
                            bool accumulate) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::index_put_";
  check_cpu(op, self, "self");
  check_cpu(op, values, "values");
  OPD_CHECK_INDEX(static_cast<int64_t>(indices.size()) <= self.dim(), op,
                  ": too many indices for tensor of dimension ", self.dim(), " (got ", indices.size(), ")");
  // ATen sends one mask with a one-element value to masked_fill_, which
  // converts the value to self's dtype.
  bool one_mask = false;
  if (!accumulate && values.numel() == 1) {
    int masks = 0, others = 0;
    for (const std::optional<Tensor>& i : indices) {
      if (!i || !i->defined()) continue;
      if (i->dtype() == ScalarType::Bool || i->dtype() == ScalarType::Byte) ++masks; else ++others;
    }
    one_mask = masks == 1 && others == 0;
  }
  const IndexPlan plan = plan_index(op, self, indices, /*allow_direct=*/true);
  const IntArrayRef shape = as_ref(plan.result_sizes);
  OPD_CHECK(is_expandable_to(values.sizes(), shape), op, ": shape mismatch: value tensor of shape ", values.sizes(),
            " cannot be broadcast to indexing result of shape ", shape);
  OPD_CHECK(one_mask || values.dtype() == self.dtype(), op,
            ": Index put requires the source and destination dtypes match, got ", self.dtype(),
            " for the destination and ", values.dtype(), " for the source.");
  if (self.is_meta()) return self;
  bool meta_operand = values.is_meta();
  for (const std::optional<Tensor>& i : indices) meta_operand = meta_operand || (i && i->defined() && i->is_meta());
  OPD_CHECK(!meta_operand, op, ": expected all tensors to be on the same device, but self is on ", self.device(),
            " and the indices or values on meta");
  // values as they are when they already have the result's layout; a copy
  // otherwise, and when they share memory with self
  const bool ready = values.dtype() == self.dtype() && values.is_contiguous() && values.sizes() == shape &&
                     !may_share_memory(values, self);
  const Tensor v = ready ? values : materialize(values, shape, self.dtype());
  const char* vp = static_cast<const char*>(v.data_ptr());
  char* sp = static_cast<char*>(self.data_ptr());
  if (!accumulate) {
    dispatch_size(self.itemsize(), op, [&](auto tag) {
      using U = typename decltype(tag)::type;
      for_each_index_offset(plan, [&](int64_t pos, int64_t off) {
        reinterpret_cast<U*>(sp)[off] = reinterpret_cast<const U*>(vp)[pos];
      });
    });
  } else {
    dispatch_dtype_with_complex(self.dtype(), "index_put", [&](auto tag) {
      using T = typename decltype(tag)::type;
      using M = opmath_t<T>;
      for_each_index_offset(plan, [&](int64_t pos, int64_t off) {
        T& d = reinterpret_cast<T*>(sp)[off];
        const T s = reinterpret_cast<const T*>(vp)[pos];
        if constexpr (std::is_same_v<T, bool>) {
          d = d || s;
        } else {
          d = convert<T>(static_cast<M>(d) + static_cast<M>(s));
        }
      });
    });
  }
  self.bump_version();
  return self;
}

// ---- factories --------------------------------------------------------------------

namespace shape_detail {
inline void check_factory_device(std::string_view op, std::optional<Device> device) {
  OPD_CHECK(!device || device->is_cpu() || device->is_meta(), op, ": the CPU kernel cannot create a tensor on device ",
            *device);
}

// The loop skeleton of linspace_fill and arange's floating-point fill (ATen's
// cpu_serial_kernel_vec): per thread range [b, e) (at::parallel_for's split,
// which parallel_for shares), pairs of vectors of `lanes` values
// (lane(base, j) for lane j of a vector whose first index is i0, base =
// value(i0)), then single values (linspace_blocks_range). The ranges run in
// parallel.
template <class T, class Value, class Lane>
void linspace_blocks_range(T* o, int64_t b, int64_t e, int64_t lanes, const Value& value, const Lane& lane) {
  int64_t i = b;
  for (; i + 2 * lanes <= e; i += 2 * lanes) {
    for (const int64_t i0 : {i, i + lanes}) {
      const T base = static_cast<T>(value(i0));
      for (int64_t j = 0; j < lanes; ++j) o[i0 + j] = lane(base, j);
    }
  }
  for (; i < e; ++i) o[i] = static_cast<T>(value(i));
}
template <class T, class Value, class Lane>
void linspace_blocks(T* o, int64_t steps, int64_t lanes, const Value& value, const Lane& lane) {
  constexpr int64_t aten_grain = 32768;
  parallel_for(0, steps, aten_grain, [&](int64_t b, int64_t e) { linspace_blocks_range(o, b, e, lanes, value, lane); });
}

}  // namespace shape_detail

OPD_FUNC Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<ScalarType> dtype,
                       std::optional<Device> device) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::arange";
  check_factory_device(op, device);
  const bool integral = start.is_integral(true) && end.is_integral(true) && step.is_integral(true);
  const ScalarType dt = dtype ? *dtype : (integral ? ScalarType::Long : default_dtype());
  OPD_CHECK_TYPE(dt != ScalarType::Bool, "\"arange_cpu\" not implemented for 'Bool'");
  return dispatch_dtype(dt, "arange_cpu", [&](auto tag) -> Tensor {
    using T = typename decltype(tag)::type;
    // ATen's accumulate type on the CPU: int64 for integers, double for float/double, float for Half/BFloat16
    using A = std::conditional_t<std::is_integral_v<T>, int64_t, std::conditional_t<is_reduced_float_v<T>, float, double>>;
    const A xstart = checked_scalar_to<A>(start);
    const A xend = checked_scalar_to<A>(end);
    const A xstep = checked_scalar_to<A>(step);
    double size_d;
    if constexpr (std::is_same_v<T, int64_t>) {
      size_d = std::ceil(static_cast<double>(xend - xstart) / static_cast<double>(xstep));
    } else {
      size_d = std::ceil((end.to_double() - start.to_double()) / step.to_double());
    }
    OPD_CHECK(xstep > 0 || xstep < 0, op, ": step must be nonzero");
    OPD_CHECK(std::isfinite(static_cast<double>(xstart)) && std::isfinite(static_cast<double>(xend)), op,
              ": unsupported range: ", xstart, " -> ", xend);
    OPD_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart), op,
              ": upper bound and larger bound inconsistent with step sign");
    OPD_CHECK(size_d >= 0 && size_d <= static_cast<double>(std::numeric_limits<int64_t>::max()), op,
              ": invalid size, possible overflow?");
    const auto n = static_cast<int64_t>(size_d);
    if (device && device->is_meta()) return meta_like_sizes(IntArrayRef(&n, 1), dt);
    Tensor out = new_like_sizes(IntArrayRef(&n, 1), dt);
    T* o = out.data_ptr<T>();
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      // As ATen's vectorized arange (Vectorized<T>::arange(base, step), in
      // libtorch's AVX2 build, which fuses each multiply-add): ATen's values
      // to the bit (simd::arange_range; the libtorch differential test). The
      // same values with std::fma where the CPU has no FMA (slowly).
      parallel_for(0, n, 32768, [&](int64_t b, int64_t e) {  // at::parallel_for's split: ATen's blocks start at b
        if (simd::arange_range(o, std::is_same_v<T, double>, b, e, xstart, xstep)) return;
        linspace_blocks_range<T>(
            o, b, e, 32 / static_cast<int64_t>(sizeof(T)),
            [xstart, xstep](int64_t i) { return static_cast<T>(std::fma(xstep, static_cast<double>(i), xstart)); },
            [xstep](T base, int64_t j) { return static_cast<T>(std::fma(static_cast<double>(j), xstep, static_cast<double>(base))); });
      });
      return out;
    }
    // Captured by value: through references the stores to o (int64 for
    // Long) could alias start and step, which kept the loop scalar.
    parallel_for(0, n, grain_size, [o, xstart, xstep](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) o[i] = convert<T>(static_cast<A>(xstart + xstep * static_cast<A>(i)));
    });
    return out;
  });
}




namespace shape_detail {

// ATen 1.13's CPU linspace to the bit (RangeFactoriesKernel.cpp as built in
// libtorch for AVX2, the capability it picks on x86-64 machines). Each value
// is start + step * i below steps / 2 and end - step * (steps - 1 - i) from
// there on, with step = (end - start) / (steps - 1) in double for integral
// types and in T otherwise; the compiler fuses those into one FMA (one
// rounding). The vectorized loop fills blocks of two vectors of V = 32 bytes
// / sizeof(T) lanes: lane j of a vector starting at i0 holds
// T(value(i0)) + j * step (Vectorized<T>::arange: the base rounded to T
// first, then j * step added, fused for uint8 and rounded twice otherwise);
// the tail after the last whole pair is scalar. at::parallel_for splits
// steps > 32768 into one range per thread, and each range starts its own
// blocks: the same split is done here with this library's thread count.
// (Measured against libtorch over a sweep: tests/kernels/shape_torch_diff_test.cpp.)
template <class T>
void linspace_fill(T* o, int64_t steps, T start, T end) {
  constexpr int64_t lanes = 32 / static_cast<int64_t>(sizeof(T));
  const int64_t halfway = steps / 2;
  if constexpr (std::is_integral_v<T>) {
    const double s = static_cast<double>(start), e = static_cast<double>(end);
    const double step = (e - s) / static_cast<double>(steps - 1);
    const auto value = [&](int64_t i) {
      return i < halfway ? std::fma(step, static_cast<double>(i), s)
                         : std::fma(-step, static_cast<double>(steps - i - 1), e);
    };
    const auto lane = [&](T base, int64_t j) {
      if constexpr (std::is_same_v<T, uint8_t>) return convert<T>(std::fma(static_cast<double>(j), step, static_cast<double>(base)));
      else return convert<T>(static_cast<double>(base) + static_cast<double>(j) * step);
    };
    linspace_blocks<T>(o, steps, lanes, [&](int64_t i) { return convert<T>(value(i)); }, lane);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    const T step = (end - start) / static_cast<T>(steps - 1);
    const auto value = [&](int64_t i) {
      return i < halfway ? std::fma(step, static_cast<T>(i), start) : std::fma(-step, static_cast<T>(steps - i - 1), end);
    };
    // Each range through simd::linspace_range (the same values, with the CPU's
    // FMA instruction rather than std::fma's call) where the CPU has FMA.
    parallel_for(0, steps, 32768, [&](int64_t b, int64_t e) {
      if (simd::linspace_range(o, std::is_same_v<T, double>, b, e, steps, start, end)) return;
      linspace_blocks_range<T>(o, b, e, lanes, value, [&](T base, int64_t j) { return base + static_cast<T>(j) * step; });
    });
  } else if constexpr (is_complex_v<T>) {
    // Complex: c10::complex's operators with a real step count and index,
    // which act on each part alone: the float formulas above, per part.
    using R = typename T::value_type;
    const T step((end.real() - start.real()) / static_cast<R>(steps - 1),
                 (end.imag() - start.imag()) / static_cast<R>(steps - 1));
    const auto fma_parts = [](T a, R x, T b) {
      return T(std::fma(a.real(), x, b.real()), std::fma(a.imag(), x, b.imag()));
    };
    const auto value = [&](int64_t i) {
      return i < halfway ? fma_parts(step, static_cast<R>(i), start) : fma_parts(-step, static_cast<R>(steps - i - 1), end);
    };
    linspace_blocks<T>(o, steps, lanes, value, [&](T base, int64_t j) {
      return T(base.real() + static_cast<R>(j) * step.real(), base.imag() + static_cast<R>(j) * step.imag());
    });
  } else {
    // Half / BFloat16: c10's operators, each computed in float and rounded to
    // T (an index is converted to T first: T * int64_t is T * T(int64_t)).
    const auto r = [](float x) { return static_cast<float>(convert<T>(x)); };
    const float s = static_cast<float>(start), e = static_cast<float>(end);
    const float step = r(r(e - s) / r(static_cast<float>(steps - 1)));
    const auto value = [&](int64_t i) {
      return i < halfway ? convert<T>(s + r(step * r(static_cast<float>(i))))
                         : convert<T>(e - r(step * r(static_cast<float>(steps - i - 1))));
    };
    linspace_blocks<T>(o, steps, lanes, value, [&](T base, int64_t j) {
      return convert<T>(static_cast<float>(base) + r(r(static_cast<float>(j)) * step));
    });
  }
}

}  // namespace shape_detail

OPD_FUNC Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<ScalarType> dtype,
                         std::optional<Device> device) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::linspace";
  check_factory_device(op, device);
  OPD_CHECK(steps >= 0, op, ": number of steps must be non-negative");
  // ATen's linspace_logspace_infer_options: a complex end point makes the
  // default dtype complex, and a real dtype= an error.
  const bool complex_ends = start.is_complex() || end.is_complex();
  OPD_CHECK(!complex_ends || !dtype || is_complex_type(*dtype),
            "torch.linspace(): inferred dtype c10::complex<float> can't be safely cast to passed dtype ",
            dtype.value_or(default_dtype()));
  const ScalarType dt = dtype.value_or(complex_ends ? default_complex_dtype() : default_dtype());
  if (device && device->is_meta()) {  // the dtype checks of the CPU path, then the shape
    OPD_CHECK_TYPE(steps <= 1 || dt != ScalarType::Bool, "\"linspace_cpu\" not implemented for 'Bool'");
    if (steps > 1 && !is_kernel_dtype(dt) && !is_complex_kernel_dtype(dt)) throw_not_implemented_for("linspace_cpu", dt);
    return meta_like_sizes(IntArrayRef(&steps, 1), dt);
  }
  Tensor out = new_like_sizes(IntArrayRef(&steps, 1), dt);
  if (steps == 0) return out;
  if (steps == 1) return kernels::full(IntArrayRef(&steps, 1), start, dt);
  OPD_CHECK_TYPE(dt != ScalarType::Bool, "\"linspace_cpu\" not implemented for 'Bool'");
  dispatch_dtype_with_complex(dt, "linspace_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      shape_detail::linspace_fill<T>(out.data_ptr<T>(), steps, checked_scalar_to<T>(start), checked_scalar_to<T>(end));
    }
  });
  return out;
}

OPD_FUNC Tensor eye(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Device> device) {
  using namespace shape_detail;
  constexpr std::string_view op = "aten::eye";
  check_factory_device(op, device);
  OPD_CHECK(n >= 0, op, ": n must be greater or equal to 0, got ", n);
  OPD_CHECK(m >= 0, op, ": m must be greater or equal to 0, got ", m);
  const int64_t sizes[2] = {n, m};
  const ScalarType dt = dtype.value_or(default_dtype());
  OPD_CHECK_TYPE(dt != ScalarType::BFloat16, "\"eye\" not implemented for 'BFloat16'");  // as ATen 1.13's CPU kernel
  if (!is_kernel_dtype(dt) && !is_complex_kernel_dtype(dt)) throw_not_implemented_for("eye", dt);
  if (device && device->is_meta()) return meta_like_sizes(IntArrayRef(sizes, 2), dt);
  Tensor out = kernels::zeros(IntArrayRef(sizes, 2), dt);
  dispatch_dtype_with_complex(out.dtype(), "eye", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data_ptr<T>();
    for (int64_t i = 0; i < std::min(n, m); ++i) o[i * m + i] = convert<T>(1);
  });
  return out;
}

}  // namespace opd::kernels
