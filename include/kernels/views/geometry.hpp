#pragma once
// The geometry of ATen's view operators: one pure, checked function per view
// that maps (sizes, strides, storage offset) to the view's, without touching
// data or storage. The view operators (kernels/ops_views.hpp) feed their
// result to as_strided; functionalization can replay a view from it alone.
//
// Errors read like PyTorch's, prefixed with the operator's name (`op`):
//   "aten::transpose.int: Dimension out of range (expected to be in range of [-2, 1], but got 5)"
// A dimension out of range or an index out of range is an opd::IndexError,
// any other bad argument an opd::Error (RuntimeError in PyTorch).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/tensor_impl.hpp"

namespace opd::kernels::views {

struct Geometry {
  SizesVector sizes;
  SizesVector strides;
  int64_t offset = 0;
};

// dim wrapped into [0, ndim) (a 0-d tensor accepts -1 and 0, as PyTorch).
OPD_API int64_t wrap_dim(std::string_view op, int64_t dim, int64_t ndim);

// The shape `shape` with its one -1 inferred from numel.
OPD_API SizesVector infer_size(std::string_view op, IntArrayRef shape, int64_t numel);
// PyTorch's computeStride: strides that view `in` as `shape` without copying,
// or nothing when some dimension spans two contiguous subspaces.
OPD_API std::optional<SizesVector> compute_stride(const Geometry& in, IntArrayRef shape);

OPD_API Geometry view(std::string_view op, const Geometry& in, IntArrayRef shape);
OPD_API Geometry transpose(std::string_view op, const Geometry& in, int64_t dim0, int64_t dim1);
OPD_API Geometry t(std::string_view op, const Geometry& in);
OPD_API Geometry permute(std::string_view op, const Geometry& in, IntArrayRef dims);
OPD_API Geometry slice(std::string_view op, const Geometry& in, int64_t dim, std::optional<int64_t> start,
                       std::optional<int64_t> end, int64_t step);
OPD_API Geometry select(std::string_view op, const Geometry& in, int64_t dim, int64_t index);
OPD_API Geometry narrow(std::string_view op, const Geometry& in, int64_t dim, int64_t start, int64_t length);
OPD_API Geometry diagonal(std::string_view op, const Geometry& in, int64_t offset, int64_t dim1, int64_t dim2);
OPD_API Geometry unsqueeze(std::string_view op, const Geometry& in, int64_t dim);
OPD_API Geometry squeeze(const Geometry& in);
OPD_API Geometry squeeze_dim(std::string_view op, const Geometry& in, int64_t dim);
OPD_API Geometry expand(std::string_view op, const Geometry& in, IntArrayRef size);
// Checks what as_strided checks before the storage bound (which needs the
// storage: the kernel checks it).
OPD_API Geometry as_strided(std::string_view op, IntArrayRef size, IntArrayRef stride, int64_t offset);
OPD_API Geometry unfold(std::string_view op, const Geometry& in, int64_t dimension, int64_t size, int64_t step);
// A complex tensor seen as its (real, imaginary) pairs, counted in elements
// of the real type: sizes S + [2], strides 2T + [1], offset 2o.
OPD_API Geometry view_as_real(const Geometry& in);
// The inverse, with ATen's checks: a last dim of size 2 and stride 1, the
// other strides and the offset even.
OPD_API Geometry view_as_complex(std::string_view op, const Geometry& in);

// The pieces of split / split_with_sizes / chunk / unbind, each a narrow (or
// a select, for unbind) of `in`.
OPD_API std::vector<Geometry> split(std::string_view op, const Geometry& in, int64_t split_size, int64_t dim);
OPD_API std::vector<Geometry> split_with_sizes(std::string_view op, const Geometry& in, IntArrayRef split_sizes,
                                               int64_t dim);
OPD_API std::vector<Geometry> chunk(std::string_view op, const Geometry& in, int64_t chunks, int64_t dim);
OPD_API std::vector<Geometry> unbind(std::string_view op, const Geometry& in, int64_t dim);

// flatten.using_ints's target shape (start_dim..end_dim multiplied into one).
OPD_API SizesVector flatten_shape(std::string_view op, IntArrayRef sizes, int64_t start_dim, int64_t end_dim);

}  // namespace opd::kernels::views

#ifdef OPD_HEADER_ONLY
#include "kernels/views/geometry-inl.hpp"
#endif
