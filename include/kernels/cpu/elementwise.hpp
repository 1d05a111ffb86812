// The elementwise engine's non-template entry points: what the kernels and
// their users need without the loops (those are in loops-inl.hpp, for
// kernel sources).
//
//   OperandRef          a non-owning (data, dtype, sizes, strides) view of
//                       a tensor, or of a Scalar held by a ScalarOperand.
//   ElementwiseLayout   the iteration layout of an output and its inputs
//                       (loops-inl.hpp's ElementwiseIter<N> is its typed face).
//   copy_elements       the converting, broadcasting copy loop.
//   contiguous_clone    a contiguous copy, read instead of an aliased input.
//   elementwise_output_layout  the layout an elementwise op's output takes
//                       (TensorIterator's: it follows the inputs' strides).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "dispatch/config.hpp"
#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/small_vector.hpp"
#include "dispatch/core/tensor.hpp"
#include "structured/tensor_meta.hpp"

namespace opd::kernels {

struct OperandRef {
  char* data = nullptr;
  ScalarType dtype = ScalarType::Undefined;
  IntArrayRef sizes;    // empty for a 0-dim operand
  IntArrayRef strides;  // in elements
  // True when known row-major contiguous (a tensor's cached flag), so that
  // the engine's per-call layout test is one load; false: test the strides.
  bool contiguous = false;

  static OperandRef of(const Tensor& t) {
    return OperandRef{static_cast<char*>(t.data_ptr()), t.dtype(), t.sizes(), t.strides(), t.is_contiguous()};
  }
};

// One output and `num_inputs` inputs broadcast to the output's shape (at
// most kMaxOperands operands in all): drops size-1 dimensions, orders the
// rest by the output's strides (fastest first) and merges dimensions that
// are contiguous in every operand, so an all-contiguous call is a single
// row. Not a template: the layout code is compiled once, not once per
// arity in every file that runs elementwise loops (ElementwiseIter<N> in
// loops-inl.hpp adds the typed row callbacks). Inputs that do not
// broadcast to the output: opd::Error.
class ElementwiseLayout {
 public:
  // An output and up to three inputs (where, clamp, addcmul).
  static constexpr std::size_t kMaxOperands = 4;

  OPD_API ElementwiseLayout(const OperandRef& out, const OperandRef* inputs, std::size_t num_inputs);

  int64_t numel() const noexcept { return numel_; }
  // Dimensions left after dropping size-1 ones and merging (at least 1).
  std::size_t ndim() const noexcept { return shape_.size(); }
  IntArrayRef shape() const noexcept { return shape_; }
  // Operand 0 is the output; strides in bytes.
  IntArrayRef strides(std::size_t operand) const noexcept { return strides_[operand]; }
  ScalarType dtype(std::size_t operand) const noexcept { return dtypes_[operand]; }
  char* data(std::size_t operand) const noexcept { return base_[operand]; }

  // row(fn, ptrs, byte_strides, n) for every row of the innermost
  // dimension (ptrs and byte_strides: one per operand), in the order of the
  // output's memory; with `parallel`, from several threads at once on
  // disjoint parts of the output when there are more than grain_size
  // elements (never for an output with a stride 0).
  using RowFn = void (*)(void* fn, char* const* ptrs, const int64_t* strides, int64_t n);
  OPD_API void walk_rows(void* fn, RowFn row, bool parallel) const;

 private:
  void walk_range(void* fn, RowFn row, int64_t begin, int64_t end) const;

  std::size_t num_operands_;
  int64_t numel_ = 0;
  SmallVector<int64_t, 6> shape_;
  std::array<SmallVector<int64_t, 6>, kMaxOperands> strides_;
  std::array<ScalarType, kMaxOperands> dtypes_{};
  std::array<char*, kMaxOperands> base_{};
};

// out[...] = convert(in[...]) with `in` broadcast to out's shape. Overlap
// between the two is the caller's concern.
OPD_API void copy_elements(const OperandRef& out, const OperandRef& in);

// The layout of an elementwise op's output as TensorIterator allocates it,
// written into m (whose sizes are the output's, memory_format and strides
// as a fresh TensorMeta has them): contiguous when every input is; else,
// when every input has the output's shape, channels-last if they all are,
// or the first input's strides if all are dense with the same strides;
// otherwise the dimensions sorted by the inputs' strides (the first input
// that orders two dimensions decides; broadcast dimensions do not count)
// and the output dense in that order. A layout that a memory format names
// becomes that memory format; any other, m.strides. An output with a
// permuted input keeps the permutation (a later view with explicit strides,
// as a captured graph's _reshape_alias, reads it as ATen's output).
inline void elementwise_output_layout(TensorMeta& m, std::initializer_list<const Tensor*> inputs);
namespace detail {
OPD_API void elementwise_permuted_layout(TensorMeta& m, std::initializer_list<const Tensor*> inputs);
}  // namespace detail
inline void elementwise_output_layout(TensorMeta& m, std::initializer_list<const Tensor*> inputs) {
  for (const Tensor* t : inputs) {
    if (t != nullptr && t->defined() && !t->is_contiguous()) [[unlikely]] {
      detail::elementwise_permuted_layout(m, inputs);
      return;
    }
  }
}

// A contiguous copy of t (same dtype): what a kernel reads instead of an
// input that aliases its output in a way elementwise loops cannot handle.
OPD_API Tensor contiguous_clone(const Tensor& t);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/elementwise-inl.hpp"
#endif
