#pragma once
// Out-of-line part of elementwise.hpp (compiled in src/kernels/elementwise.cpp).
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/small_vector.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/parallel.hpp"

#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/loops-inl.hpp"

namespace opd::kernels {

// ------------------------------------------------------------------ layout ---

OPD_FUNC ElementwiseLayout::ElementwiseLayout(const OperandRef& out, const OperandRef* inputs, std::size_t num_inputs)
    : num_operands_(num_inputs + 1) {
  OPD_CHECK(num_operands_ <= kMaxOperands, "elementwise: at most ", kMaxOperands - 1, " inputs, got ", num_inputs);
  const std::size_t nops = num_operands_;
  const std::size_t nd = out.sizes.size();
  dtypes_[0] = out.dtype;
  base_[0] = out.data;
  for (std::size_t k = 0; k != num_inputs; ++k) {
    dtypes_[k + 1] = inputs[k].dtype;
    base_[k + 1] = inputs[k].data;
  }

  numel_ = 1;
  for (int64_t s : out.sizes) numel_ *= s;

  // Fast path: every operand contiguous with the output's sizes (or a
  // 0-dim input): one row.
  if (is_plain_contiguous(out)) {
    bool all = true;
    for (std::size_t k = 0; k != num_inputs && all; ++k) {
      all = inputs[k].sizes.empty() || (inputs[k].sizes == out.sizes && is_plain_contiguous(inputs[k]));
    }
    if (all) {
      shape_.push_back(numel_);
      strides_[0].push_back(static_cast<int64_t>(element_size(out.dtype)));
      for (std::size_t k = 0; k != num_inputs; ++k) {
        strides_[k + 1].push_back(inputs[k].sizes.empty() ? 0 : static_cast<int64_t>(element_size(inputs[k].dtype)));
      }
      return;
    }
  }

  // Byte strides of every operand in the output's dimensions.
  std::array<SmallVector<int64_t, 6>, kMaxOperands> st;
  st[0].resize(nd);
  const auto out_item = static_cast<int64_t>(element_size(out.dtype));
  for (std::size_t d = 0; d < nd; ++d) st[0][d] = out.strides[d] * out_item;
  for (std::size_t k = 0; k != num_inputs; ++k) {
    const OperandRef& in = inputs[k];
    const std::size_t in_nd = in.sizes.size();
    OPD_CHECK(in_nd <= nd && is_expandable_to(in.sizes, out.sizes), "elementwise: input ", k, " of shape ", in.sizes,
              " cannot be broadcast to the output shape ", out.sizes);
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
    for (std::size_t k = 0; k < nops; ++k) {
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
      for (std::size_t k = 0; k < nops; ++k) {
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
      for (std::size_t k = 0; k < nops; ++k) strides_[k].push_back(st[k][d]);
    }
  }
  if (shape_.empty()) {  // a single element
    shape_.push_back(1);
    for (std::size_t k = 0; k < nops; ++k) strides_[k].push_back(0);
  }
}

// Splits the outermost dimension into ranges of about grain_size elements
// each (ATen's TensorIterator splits likewise).
OPD_FUNC void ElementwiseLayout::walk_rows(void* fn, RowFn row, bool parallel) const {
  if (numel_ == 0) return;
  const std::size_t last = shape_.size() - 1;
  const int64_t outer = shape_[last];
  bool split = parallel && numel_ > grain_size && outer > 1;
  for (std::size_t d = 0; d < shape_.size() && split; ++d) split = strides_[0][d] != 0;
  if (!split) {
    walk_range(fn, row, 0, outer);
    return;
  }
  const int64_t inner = numel_ / outer;
  parallel_for(0, outer, std::max<int64_t>(1, grain_size / inner),
               [&](int64_t b, int64_t e) { walk_range(fn, row, b, e); });
}

// The rows whose index in the outermost dimension is in [begin, end).
OPD_FUNC void ElementwiseLayout::walk_range(void* fn, RowFn row, int64_t begin, int64_t end) const {
  const std::size_t nd = shape_.size();
  const std::size_t nops = num_operands_;
  std::array<int64_t, kMaxOperands> inner{};
  for (std::size_t k = 0; k < nops; ++k) inner[k] = strides_[k][0];
  std::array<char*, kMaxOperands> ptrs = base_;
  for (std::size_t k = 0; k < nops; ++k) ptrs[k] += begin * strides_[k][nd - 1];
  if (nd == 1) {
    row(fn, ptrs.data(), inner.data(), end - begin);
    return;
  }
  const int64_t n = shape_[0];
  auto size = [&](std::size_t d) { return d == nd - 1 ? end - begin : shape_[d]; };
  SmallVector<int64_t, 6> index(nd, 0);
  while (true) {
    row(fn, ptrs.data(), inner.data(), n);
    std::size_t d = 1;
    for (; d < nd; ++d) {
      if (++index[d] < size(d)) {
        for (std::size_t k = 0; k < nops; ++k) ptrs[k] += strides_[k][d];
        break;
      }
      for (std::size_t k = 0; k < nops; ++k) ptrs[k] -= strides_[k][d] * (size(d) - 1);
      index[d] = 0;
    }
    if (d == nd) return;
  }
}

// ---------------------------------------------------------------- entry points ---

namespace detail {
OPD_FUNC ConvertRow convert_row_for(ScalarType out, ScalarType in, const char* name) {
  return dispatch_dtype_with_complex_half(out, name, [&](auto out_tag) -> ConvertRow {
    using D = typename decltype(out_tag)::type;
    return dispatch_dtype_with_complex_half(in, name, [](auto in_tag) -> ConvertRow {
      using S = typename decltype(in_tag)::type;
      return &convert_row<D, S>;
    });
  });
}
}  // namespace detail

OPD_FUNC void copy_elements(const OperandRef& out, const OperandRef& in) {
  ElementwiseIter<1> iter(out, {in});
  if (iter.numel() == 0) return;
  const detail::ConvertRow row = detail::convert_row_for(out.dtype, in.dtype, "copy_");
  iter.for_each_row_parallel([&](const auto& ptrs, const auto& strides, int64_t n) {
    row(ptrs[0], strides[0], ptrs[1], strides[1], n);
  });
}

namespace detail {

// m's layout from `strides` (dense, one per dimension): a memory format when
// one describes them (dimensions of size 1 aside), else the strides.
inline void set_output_strides(TensorMeta& m, IntArrayRef strides) {
  const IntArrayRef sizes = m.sizes;
  const std::size_t nd = sizes.size();
  const auto laid_out_as = [&](std::initializer_list<std::size_t> order) {  // order: slowest dimension first
    int64_t expected = 1;
    for (std::size_t k = order.size(); k-- > 0;) {
      const std::size_t d = order.begin()[k];
      if (sizes[d] != 1 && strides[d] != expected) return false;
      expected *= sizes[d];
    }
    return true;
  };
  bool contiguous = true;
  int64_t expected = 1;
  for (std::size_t d = nd; d-- > 0;) {
    if (sizes[d] != 1 && strides[d] != expected) contiguous = false;
    expected *= sizes[d];
  }
  if (contiguous) return;
  if (nd == 4 && laid_out_as({0, 2, 3, 1})) {
    m.memory_format = MemoryFormat::ChannelsLast;
  } else if (nd == 5 && laid_out_as({0, 2, 3, 4, 1})) {
    m.memory_format = MemoryFormat::ChannelsLast3d;
  } else {
    m.strides.assign(strides);
  }
}

}  // namespace detail

// TensorIterator's fast set-up (every input of the output's shape), then its
// reorder_dimensions and the output's strides from that order.
OPD_FUNC void detail::elementwise_permuted_layout(TensorMeta& m, std::initializer_list<const Tensor*> inputs) {
  const IntArrayRef shape = m.sizes;
  const std::size_t nd = shape.size();
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  if (nd <= 1 || numel == 0) return;  // contiguous
  bool same_shape = true, channels_last = nd == 4, dense = true, same_strides = true;
  const Tensor* first = nullptr;
  for (const Tensor* t : inputs) {
    if (t == nullptr || !t->defined()) continue;
    same_shape = same_shape && t->sizes() == shape;
    if (!same_shape) break;
    channels_last = channels_last && t->is_contiguous(MemoryFormat::ChannelsLast);
    dense = dense && is_non_overlapping_and_dense(*t);
    if (first == nullptr) first = t;
    same_strides = same_strides && t->strides() == first->strides();
  }
  if (same_shape && first != nullptr) {
    if (channels_last) {
      m.memory_format = MemoryFormat::ChannelsLast;
      return;
    }
    if (dense && same_strides) {
      set_output_strides(m, first->strides());
      return;
    }
  }
  // An input's stride along output dimension d: 0 where it is broadcast.
  const auto stride_of = [&](const Tensor& t, std::size_t d) -> int64_t {
    const std::size_t offset = nd - t.sizes().size();
    if (d < offset) return 0;
    const std::size_t i = d - offset;
    if (t.sizes()[i] == 1 && shape[d] != 1) return 0;
    return t.strides()[i];
  };
  // 1 when d0 should come after d1 (d0 moves slower), -1 before, 0 undecided.
  const auto should_swap = [&](std::size_t d0, std::size_t d1) {
    for (const Tensor* t : inputs) {
      if (t == nullptr || !t->defined()) continue;
      const int64_t s0 = stride_of(*t, d0), s1 = stride_of(*t, d1);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  SmallVector<std::size_t, 6> perm(nd);  // fastest-moving dimension first
  for (std::size_t i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  for (std::size_t i = 1; i < nd; ++i) {  // insertion sort with undecided comparisons, as ATen's
    std::size_t d1 = i;
    for (std::size_t d0 = i; d0-- > 0;) {
      const int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  SmallVector<int64_t, 6> strides(nd);
  int64_t next = 1;
  for (std::size_t i = 0; i < nd; ++i) {
    strides[perm[i]] = next;
    next *= shape[perm[i]];
  }
  set_output_strides(m, IntArrayRef(strides.data(), strides.size()));
}

OPD_FUNC Tensor contiguous_clone(const Tensor& t) {
  std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
  Tensor copy = opd::empty(IntArrayRef(sizes), t.dtype(), t.device());
  if (!copy.is_meta()) copy_elements(OperandRef::of(copy), OperandRef::of(t));  // Meta: the shape only
  return copy;
}

}  // namespace opd::kernels
