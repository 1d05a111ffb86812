#pragma once
// Out-of-line part of views/geometry.hpp (compiled in src/kernels/views.cpp).
// Each function follows the ATen 1.13 function of the same name
// (aten/src/ATen/native/TensorShape.cpp, TensorUtils.cpp computeStride,
// InferSize.h, ExpandUtils.cpp inferExpandGeometry), rewritten here.
#include <limits>

#include "kernels/views/geometry.hpp"

namespace opd::kernels::views {

namespace detail {

// Sizes and strides with dimension `d` left out / a dimension put at `d`.
inline Geometry without_dim(const Geometry& in, std::size_t d) {
  Geometry out;
  out.offset = in.offset;
  for (std::size_t i = 0; i < in.sizes.size(); ++i) {
    if (i == d) continue;
    out.sizes.push_back(in.sizes[i]);
    out.strides.push_back(in.strides[i]);
  }
  return out;
}

inline int64_t ndim_of(const Geometry& in) { return static_cast<int64_t>(in.sizes.size()); }

}  // namespace detail

OPD_FUNC int64_t wrap_dim(std::string_view op, int64_t dim, int64_t ndim) {
  const int64_t range = ndim > 0 ? ndim : 1;
  OPD_CHECK_INDEX(dim >= -range && dim < range, op, ": Dimension out of range (expected to be in range of [", -range,
                  ", ", range - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + range : dim;
}

OPD_FUNC SizesVector infer_size(std::string_view op, IntArrayRef shape, int64_t numel) {
  SizesVector res(shape);
  int64_t product = 1;
  std::optional<std::size_t> infer;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      OPD_CHECK(!infer, op, ": only one dimension can be inferred");
      infer = i;
    } else {
      OPD_CHECK(shape[i] >= 0, op, ": invalid shape dimension ", shape[i]);
      product = opd::detail::checked_mul(product, shape[i], "view shape");
    }
  }
  const bool ok = numel == product || (infer && product > 0 && numel % product == 0);
  OPD_CHECK(ok, op, ": shape '", shape, "' is invalid for input of size ", numel);
  if (infer) {
    // 0 elements viewed with a -1 next to a 0 has no unique answer.
    OPD_CHECK(product != 0, op, ": cannot reshape tensor of 0 elements into shape ", shape,
              " because the unspecified dimension size -1 can be any value and is ambiguous");
    res[*infer] = numel / product;
  }
  return res;
}

OPD_FUNC std::optional<SizesVector> compute_stride(const Geometry& in, IntArrayRef shape) {
  const IntArrayRef oldshape = in.sizes, oldstride = in.strides;
  if (oldshape.empty()) return SizesVector(shape.size(), 1);
  int64_t numel = 1;
  for (int64_t s : oldshape) numel *= s;
  if (numel == 0 && oldshape == shape) return SizesVector(oldstride);
  SizesVector newstride(shape.size(), 0);
  if (numel == 0) {
    for (std::size_t v = shape.size(); v-- > 0;) {
      newstride[v] = v + 1 == shape.size() ? 1 : std::max<int64_t>(shape[v + 1], 1) * newstride[v + 1];
    }
    return newstride;
  }
  // Walk the old dims from the last, grouping the ones that are contiguous
  // with each other into chunks; each chunk must hold a whole run of new dims.
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[tensor_d];
    const bool chunk_ends =
        tensor_d == 0 || (oldshape[tensor_d - 1] != 1 && oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (chunk_ends) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

OPD_FUNC Geometry view(std::string_view op, const Geometry& in, IntArrayRef shape) {
  int64_t numel = 1;
  for (int64_t s : in.sizes) numel *= s;
  Geometry out;
  out.sizes = infer_size(op, shape, numel);
  std::optional<SizesVector> strides = compute_stride(in, out.sizes);
  OPD_CHECK(strides.has_value(), op,
            ": view size is not compatible with input tensor's size and stride (at least one dimension spans across "
            "two contiguous subspaces). Use .reshape(...) instead.");
  out.strides = std::move(*strides);
  out.offset = in.offset;
  return out;
}

OPD_FUNC Geometry transpose(std::string_view op, const Geometry& in, int64_t dim0, int64_t dim1) {
  const int64_t nd = detail::ndim_of(in);
  Geometry out = in;
  if (nd == 0) {  // wrap_dim still checks the dims
    wrap_dim(op, dim0, nd);
    wrap_dim(op, dim1, nd);
    return out;
  }
  const auto d0 = static_cast<std::size_t>(wrap_dim(op, dim0, nd));
  const auto d1 = static_cast<std::size_t>(wrap_dim(op, dim1, nd));
  std::swap(out.sizes[d0], out.sizes[d1]);
  std::swap(out.strides[d0], out.strides[d1]);
  return out;
}

OPD_FUNC Geometry t(std::string_view op, const Geometry& in) {
  const int64_t nd = detail::ndim_of(in);
  OPD_CHECK(nd <= 2, op, ": t() expects a tensor with <= 2 dimensions, but self is ", nd, "D");
  return nd < 2 ? in : transpose(op, in, 0, 1);
}

OPD_FUNC Geometry permute(std::string_view op, const Geometry& in, IntArrayRef dims) {
  const int64_t nd = detail::ndim_of(in);
  // PyTorch 1.13 says "permute(sparse_coo): ..." here for dense tensors too.
  OPD_CHECK(static_cast<int64_t>(dims.size()) == nd, op,
            ": permute(): number of dimensions in the tensor input does not match the length of the desired ordering "
            "of dimensions i.e. input.dim() = ",
            nd, " is not equal to len(dims) = ", dims.size());
  Geometry out;
  out.offset = in.offset;
  std::vector<bool> seen(static_cast<std::size_t>(nd), false);
  for (int64_t d : dims) {
    const auto w = static_cast<std::size_t>(wrap_dim(op, d, nd));
    OPD_CHECK(!seen[w], op, ": permute(): duplicate dims are not allowed.");
    seen[w] = true;
    out.sizes.push_back(in.sizes[w]);
    out.strides.push_back(in.strides[w]);
  }
  return out;
}

OPD_FUNC Geometry slice(std::string_view op, const Geometry& in, int64_t dim, std::optional<int64_t> start,
                        std::optional<int64_t> end, int64_t step) {
  const int64_t nd = detail::ndim_of(in);
  OPD_CHECK(nd > 0, op, ": slice() cannot be applied to a 0-dim tensor.");
  const auto d = static_cast<std::size_t>(wrap_dim(op, dim, nd));
  OPD_CHECK(step > 0, op, ": slice step must be positive");
  const int64_t size = in.sizes[d];
  int64_t s = start.value_or(0), e = end.value_or(std::numeric_limits<int64_t>::max());
  if (s < 0) s += size;
  if (e < 0) e += size;
  if (s < 0) s = 0;
  if (s > size) s = size;
  if (e < s) e = s;
  if (e > size) e = size;
  Geometry out = in;
  out.offset = in.offset + s * in.strides[d];
  out.sizes[d] = (e - s + step - 1) / step;
  out.strides[d] = in.strides[d] * step;
  return out;
}

OPD_FUNC Geometry select(std::string_view op, const Geometry& in, int64_t dim, int64_t index) {
  const int64_t nd = detail::ndim_of(in);
  OPD_CHECK_INDEX(nd > 0, op, ": select() cannot be applied to a 0-dim tensor.");
  const auto d = static_cast<std::size_t>(wrap_dim(op, dim, nd));
  const int64_t size = in.sizes[d];
  OPD_CHECK_INDEX(index >= -size && index < size, op, ": select(): index ", index, " out of range for tensor of size ",
                  in.sizes.ref(), " at dimension ", d);
  if (index < 0) index += size;
  Geometry out = detail::without_dim(in, d);
  out.offset = in.offset + index * in.strides[d];
  return out;
}

OPD_FUNC Geometry narrow(std::string_view op, const Geometry& in, int64_t dim, int64_t start, int64_t length) {
  const int64_t nd = detail::ndim_of(in);
  OPD_CHECK(nd > 0, op, ": narrow() cannot be applied to a 0-dim tensor.");
  OPD_CHECK(length >= 0, op, ": narrow(): length must be non-negative.");
  const auto d = static_cast<std::size_t>(wrap_dim(op, dim, nd));
  const int64_t size = in.sizes[d];
  OPD_CHECK_INDEX(start >= -size && start <= size, op, ": start out of range (expected to be in range of [", -size,
                  ", ", size, "], but got ", start, ")");
  if (start < 0) start += size;
  OPD_CHECK(start <= size - length, op, ": start (", start, ") + length (", length, ") exceeds dimension size (",
            size, ").");
  return slice(op, in, static_cast<int64_t>(d), start, start + length, 1);
}

OPD_FUNC Geometry diagonal(std::string_view op, const Geometry& in, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t nd = detail::ndim_of(in);
  const auto d1 = static_cast<std::size_t>(wrap_dim(op, dim1, nd));
  const auto d2 = static_cast<std::size_t>(wrap_dim(op, dim2, nd));
  OPD_CHECK(d1 != d2, op, ": diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  int64_t diag_size = 0;
  int64_t start = in.offset;
  if (offset >= 0) {
    diag_size = std::max<int64_t>(std::min(in.sizes[d1], in.sizes[d2] - offset), 0);
  } else {
    diag_size = std::max<int64_t>(std::min(in.sizes[d1] + offset, in.sizes[d2]), 0);
  }
  if (diag_size > 0) start += offset >= 0 ? offset * in.strides[d2] : -offset * in.strides[d1];
  Geometry out;
  out.offset = start;
  for (std::size_t i = 0; i < in.sizes.size(); ++i) {
    if (i == d1 || i == d2) continue;
    out.sizes.push_back(in.sizes[i]);
    out.strides.push_back(in.strides[i]);
  }
  out.sizes.push_back(diag_size);
  out.strides.push_back(in.strides[d1] + in.strides[d2]);
  return out;
}

OPD_FUNC Geometry unsqueeze(std::string_view op, const Geometry& in, int64_t dim) {
  const int64_t nd = detail::ndim_of(in);
  const auto d = static_cast<std::size_t>(wrap_dim(op, dim, nd + 1));
  Geometry out;
  out.offset = in.offset;
  for (std::size_t i = 0; i <= in.sizes.size(); ++i) {
    if (i == d) {
      out.sizes.push_back(1);
      out.strides.push_back(d >= in.sizes.size() ? 1 : in.sizes[d] * in.strides[d]);
    }
    if (i < in.sizes.size()) {
      out.sizes.push_back(in.sizes[i]);
      out.strides.push_back(in.strides[i]);
    }
  }
  return out;
}

OPD_FUNC Geometry squeeze(const Geometry& in) {
  Geometry out;
  out.offset = in.offset;
  for (std::size_t i = 0; i < in.sizes.size(); ++i) {
    if (in.sizes[i] == 1) continue;
    out.sizes.push_back(in.sizes[i]);
    out.strides.push_back(in.strides[i]);
  }
  return out;
}

OPD_FUNC Geometry squeeze_dim(std::string_view op, const Geometry& in, int64_t dim) {
  const int64_t nd = detail::ndim_of(in);
  const int64_t d = wrap_dim(op, dim, nd);
  if (nd == 0 || in.sizes[static_cast<std::size_t>(d)] != 1) return in;
  return detail::without_dim(in, static_cast<std::size_t>(d));
}

OPD_FUNC Geometry expand(std::string_view op, const Geometry& in, IntArrayRef size) {
  const auto nd = in.sizes.size();
  OPD_CHECK(size.size() >= nd, op, ": the number of sizes provided (", size.size(),
            ") must be greater or equal to the number of dimensions in the tensor (", nd, ")");
  Geometry out;
  out.offset = in.offset;
  const std::size_t n = size.size();
  out.sizes.resize(n);
  out.strides.resize(n);
  for (std::size_t i = n; i-- > 0;) {
    const std::size_t from_end = n - 1 - i;
    const bool exists = from_end < nd;  // a dimension of the input, else a new leading one
    const std::size_t dim = exists ? nd - 1 - from_end : 0;
    int64_t in_size = exists ? in.sizes[dim] : 1;
    int64_t stride = exists ? in.strides[dim] : (i + 1 < n ? out.sizes[i + 1] * out.strides[i + 1] : 1);
    int64_t target = size[i];
    if (target == -1) {
      OPD_CHECK(exists, op, ": The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ",
                i);
      target = in_size;
    }
    OPD_CHECK(target >= 0, op, ": The expanded size of the tensor (", target, ") isn't allowed (negative size)");
    if (in_size != target) {
      OPD_CHECK(in_size == 1, op, ": The expanded size of the tensor (", target, ") must match the existing size (",
                in_size, ") at non-singleton dimension ", i, ".  Target sizes: ", size, ".  Tensor sizes: ",
                in.sizes.ref());
      in_size = target;
      stride = 0;
    }
    out.sizes[i] = in_size;
    out.strides[i] = stride;
  }
  return out;
}

OPD_FUNC Geometry as_strided(std::string_view op, IntArrayRef size, IntArrayRef stride, int64_t offset) {
  OPD_CHECK(size.size() == stride.size(), op, ": mismatch in length of strides and shape");
  for (int64_t s : size)
    OPD_CHECK(s >= 0, op, ": Trying to create tensor with negative dimension ", s, ": ", size);
  for (int64_t s : stride)
    OPD_CHECK(s >= 0, op, ": Negative strides are not supported at the moment, got strides: ", stride);
  OPD_CHECK(offset >= 0, op, ": Tensor: invalid storage offset ", offset);
  return Geometry{SizesVector(size), SizesVector(stride), offset};
}

OPD_FUNC Geometry unfold(std::string_view op, const Geometry& in, int64_t dimension, int64_t size, int64_t step) {
  const int64_t nd = detail::ndim_of(in);
  const auto d = static_cast<std::size_t>(wrap_dim(op, dimension, nd));
  const int64_t max_size = nd == 0 ? 1 : in.sizes[d];
  OPD_CHECK(size <= max_size, op, ": maximum size for tensor at dimension ", d, " is ", max_size, " but size is ",
            size);
  OPD_CHECK(size >= 0, op, ": size is ", size, " but must be >= 0");
  OPD_CHECK(step > 0, op, ": step is ", step, " but must be > 0");
  Geometry out = in;
  out.sizes.push_back(size);
  out.strides.push_back(nd == 0 ? 1 : in.strides[d]);
  if (nd > 0) {
    out.sizes[d] = (in.sizes[d] - size) / step + 1;
    out.strides[d] = in.strides[d] * step;
  }
  return out;
}

OPD_FUNC Geometry view_as_real(const Geometry& in) {
  Geometry out;
  for (std::size_t i = 0; i < in.sizes.size(); ++i) {
    out.sizes.push_back(in.sizes[i]);
    out.strides.push_back(in.strides[i] * 2);
  }
  out.sizes.push_back(2);
  out.strides.push_back(1);
  out.offset = in.offset * 2;
  return out;
}

OPD_FUNC Geometry view_as_complex(std::string_view op, const Geometry& in) {
  const std::size_t nd = in.sizes.size();
  OPD_CHECK(nd != 0, op, ": Input tensor must have one or more dimensions");
  OPD_CHECK(in.sizes[nd - 1] == 2, op, ": Tensor must have a last dimension of size 2");
  OPD_CHECK(in.strides[nd - 1] == 1, op, ": Tensor must have a last dimension with stride 1");
  Geometry out;
  for (std::size_t i = 0; i + 1 < nd; ++i) {
    OPD_CHECK(in.strides[i] % 2 == 0, op, ": Tensor must have a stride divisible by 2 for all but last dimension");
    out.sizes.push_back(in.sizes[i]);
    out.strides.push_back(in.strides[i] / 2);
  }
  OPD_CHECK(in.offset % 2 == 0, op, ": Tensor must have a storage_offset divisible by 2");
  out.offset = in.offset / 2;
  return out;
}

OPD_FUNC std::vector<Geometry> split(std::string_view op, const Geometry& in, int64_t split_size, int64_t dim) {
  const int64_t nd = detail::ndim_of(in);
  OPD_CHECK(nd > 0, op, ": split expects at least a 1-dimensional tensor");
  OPD_CHECK(split_size >= 0, op, ": split expects split_size be non-negative, but got split_size=", split_size);
  const auto d = wrap_dim(op, dim, nd);
  const int64_t dim_size = in.sizes[static_cast<std::size_t>(d)];
  OPD_CHECK(split_size > 0 || dim_size == 0, op,
            ": split_size can only be 0 if dimension size is 0, but got dimension size of ", dim_size);
  int64_t num_splits = 1;
  if (split_size != 0) num_splits = std::max<int64_t>((dim_size + split_size - 1) / split_size, 1);
  const int64_t last_split_size = split_size - (split_size * num_splits - dim_size);
  std::vector<Geometry> out;
  out.reserve(static_cast<std::size_t>(num_splits));
  for (int64_t i = 0; i < num_splits; ++i) {
    const int64_t length = i < num_splits - 1 ? split_size : last_split_size;
    out.push_back(narrow(op, in, d, i * split_size, length));
  }
  return out;
}

OPD_FUNC std::vector<Geometry> split_with_sizes(std::string_view op, const Geometry& in, IntArrayRef split_sizes,
                                                int64_t dim) {
  const int64_t nd = detail::ndim_of(in);
  OPD_CHECK(nd > 0, op, ": split expects at least a 1-dimensional tensor");
  const auto d = wrap_dim(op, dim, nd);
  const int64_t dim_size = in.sizes[static_cast<std::size_t>(d)];
  int64_t sum = 0;
  for (int64_t s : split_sizes) {
    OPD_CHECK(s >= 0, op, ": split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
              split_sizes);
    sum += s;
  }
  OPD_CHECK(sum == dim_size, op, ": split_with_sizes expects split_sizes to sum exactly to ", dim_size,
            " (input tensor's size at dimension ", d, "), but got split_sizes=", split_sizes);
  std::vector<Geometry> out;
  out.reserve(split_sizes.size());
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    out.push_back(narrow(op, in, d, start, s));
    start += s;
  }
  return out;
}

OPD_FUNC std::vector<Geometry> chunk(std::string_view op, const Geometry& in, int64_t chunks, int64_t dim) {
  OPD_CHECK(detail::ndim_of(in) > 0, op, ": chunk expects at least a 1-dimensional tensor");
  OPD_CHECK(chunks > 0, op, ": chunk expects `chunks` to be greater than 0, got: ", chunks);
  const auto d = wrap_dim(op, dim, detail::ndim_of(in));
  const int64_t dim_size = in.sizes[static_cast<std::size_t>(d)];
  const int64_t split_size = (dim_size + chunks - 1) / chunks;
  // 0 elements in `chunks` chunks: split would return one piece.
  if (split_size == 0 && dim_size == 0) {
    const SizesVector sizes(static_cast<std::size_t>(chunks), 0);
    return split_with_sizes(op, in, sizes, d);
  }
  return split(op, in, split_size, d);
}

OPD_FUNC std::vector<Geometry> unbind(std::string_view op, const Geometry& in, int64_t dim) {
  const int64_t nd = detail::ndim_of(in);
  OPD_CHECK_INDEX(nd > 0, op, ": Dimension specified as ", dim, " but tensor has no dimensions");
  const auto d = wrap_dim(op, dim, nd);
  const int64_t size = in.sizes[static_cast<std::size_t>(d)];
  std::vector<Geometry> out;
  out.reserve(static_cast<std::size_t>(size));
  for (int64_t i = 0; i < size; ++i) out.push_back(select(op, in, d, i));
  return out;
}

OPD_FUNC SizesVector flatten_shape(std::string_view op, IntArrayRef sizes, int64_t start_dim, int64_t end_dim) {
  const auto nd = static_cast<int64_t>(sizes.size());
  const int64_t s = wrap_dim(op, start_dim, nd), e = wrap_dim(op, end_dim, nd);
  OPD_CHECK(s <= e, op, ": flatten() has invalid args: start_dim cannot come after end_dim");
  if (nd == 0) return SizesVector{1};
  SizesVector shape;
  int64_t product = 1;
  for (int64_t i = 0; i < nd; ++i) {
    if (i < s || i > e) {
      shape.push_back(sizes[static_cast<std::size_t>(i)]);
      continue;
    }
    product *= sizes[static_cast<std::size_t>(i)];
    if (i == e) shape.push_back(product);
  }
  return shape;
}

}  // namespace opd::kernels::views
