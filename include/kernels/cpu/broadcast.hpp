// Broadcasting of shapes (PyTorch's infer_size / torch.broadcast_shapes).
//
// Shapes are aligned at their last dimension; in each position the sizes
// must be equal or one of them 1 (a missing leading dimension counts as 1).
// A 1 broadcasts to the other size, including 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/error.hpp"

namespace opd::kernels {

// The broadcast of two shapes. Throws opd::Error with PyTorch's message,
// "The size of tensor a (3) must match the size of tensor b (4) at
// non-singleton dimension 1", the dimension counted in the result's rank.
// infer_size into `out`, any vector-like type with resize() and operator[]
// (a TensorMeta's sizes: no heap for up to 5 dimensions). out must not alias
// a or b.
template <class Sizes>
void infer_size_into(IntArrayRef a, IntArrayRef b, Sizes& out) {
  const std::size_t na = a.size();
  const std::size_t nb = b.size();
  const std::size_t ndim = na > nb ? na : nb;
  out.resize(ndim);
  for (std::size_t i = ndim; i-- > 0;) {
    const std::size_t offset = ndim - 1 - i;
    const int64_t size_a = offset < na ? a[na - 1 - offset] : 1;
    const int64_t size_b = offset < nb ? b[nb - 1 - offset] : 1;
    OPD_CHECK(size_a == size_b || size_a == 1 || size_b == 1, "The size of tensor a (", size_a,
              ") must match the size of tensor b (", size_b, ") at non-singleton dimension ", i);
    out[i] = size_a == 1 ? size_b : size_a;
  }
}
OPD_API std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b);

// The broadcast of any number of shapes, folded left to right as
// TensorIterator does (so "tensor a" in an error is the shape so far).
OPD_API std::vector<int64_t> broadcast_shapes(std::span<const IntArrayRef> shapes);
inline std::vector<int64_t> broadcast_shapes(std::initializer_list<IntArrayRef> shapes) {
  return broadcast_shapes(std::span<const IntArrayRef>(shapes.begin(), shapes.size()));
}

// True if `from` broadcasts to exactly `to` (what expand() accepts).
OPD_API bool is_expandable_to(IntArrayRef from, IntArrayRef to);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/broadcast-inl.hpp"
#endif
