// The elementwise engine's non-template entry points: what the kernels and
// their users need without the loops (those are in loops-inl.hpp, for
// kernel sources).
//
//   OperandRef          a non-owning (data, dtype, sizes, strides) view of
//                       a tensor, or of a Scalar held by a ScalarOperand.
//   copy_elements       the converting, broadcasting copy loop.
//   contiguous_clone    a contiguous copy, read instead of an aliased input.
//   elementwise_memory_format  the layout an elementwise op's output takes.
#pragma once

#include <cstddef>
#include <initializer_list>

#include "dispatch/config.hpp"
#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"

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

// out[...] = convert(in[...]) with `in` broadcast to out's shape. Overlap
// between the two is the caller's concern.
OPD_API void copy_elements(const OperandRef& out, const OperandRef& in);

// The layout an input of the output's full shape (ndim dimensions) gives it.
OPD_API MemoryFormat elementwise_layout_of(const Tensor& t, std::size_t ndim);

// The memory format of an elementwise op's output, as meta() reports it:
// the layout of the first input that has the output's full shape
// (ChannelsLast or ChannelsLast3d when that input is laid out so and not
// plainly contiguous), Contiguous otherwise. (TensorIterator derives a full
// stride permutation; the structured machinery takes a memory format.)
OPD_API MemoryFormat elementwise_memory_format(IntArrayRef shape, std::initializer_list<const Tensor*> inputs);

// A contiguous copy of t (same dtype): what a kernel reads instead of an
// input that aliases its output in a way elementwise loops cannot handle.
OPD_API Tensor contiguous_clone(const Tensor& t);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/elementwise-inl.hpp"
#endif
