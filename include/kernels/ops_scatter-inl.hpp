#pragma once
// Out-of-line part of ops_scatter.hpp (compiled in src/kernels/scatter.cpp):
// the scatter composites and unfold_backward's kernels,
// and register_scatter().
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "dispatch/core/small_vector.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_scatter.hpp"
#include "kernels/ops_views.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace scatter_detail {

using ints = std::span<const int64_t>;

// ATen's scatter composites: clone self, take the view of the clone, copy src
// into it. The sizes are checked before anything is written.
inline Tensor scatter_into_clone(std::string_view op, const Tensor& self, const Tensor& src,
                                 Tensor (*view_of)(const Tensor&, const void*), const void* args) {
  Tensor output = call<ops::clone>(self);
  Tensor slice = view_of(output, args);
  OPD_CHECK(slice.sizes() == src.sizes(), op, ": expected src to have a size equal to the slice of self. src size = ",
            src.sizes(), ", slice size = ", slice.sizes());
  call<ops::copy_>(slice, src, false);
  return output;
}

OPD_FUNC Tensor slice_scatter(const Tensor& self, const Tensor& src, int64_t dim, std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step) {
  struct A { int64_t dim; std::optional<int64_t> start, end; int64_t step; } a{dim, start, end, step};
  return scatter_into_clone("aten::slice_scatter", self, src, [](const Tensor& t, const void* p) {
    const A& x = *static_cast<const A*>(p);
    return call<ops::slice>(t, x.dim, x.start, x.end, x.step);
  }, &a);
}
OPD_FUNC Tensor select_scatter(const Tensor& self, const Tensor& src, int64_t dim, int64_t index) {
  const int64_t a[2] = {dim, index};
  return scatter_into_clone("aten::select_scatter", self, src, [](const Tensor& t, const void* p) {
    const int64_t* x = static_cast<const int64_t*>(p);
    return call<ops::select>(t, x[0], x[1]);
  }, a);
}
OPD_FUNC Tensor diagonal_scatter(const Tensor& self, const Tensor& src, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t a[3] = {offset, dim1, dim2};
  return scatter_into_clone("aten::diagonal_scatter", self, src, [](const Tensor& t, const void* p) {
    const int64_t* x = static_cast<const int64_t*>(p);
    return call<ops::diagonal>(t, x[0], x[1], x[2]);
  }, a);
}
OPD_FUNC Tensor as_strided_scatter(const Tensor& self, const Tensor& src, ints size, ints stride,
                                   std::optional<int64_t> storage_offset) {
  struct A { ints size, stride; std::optional<int64_t> offset; } a{size, stride, storage_offset};
  return scatter_into_clone("aten::as_strided_scatter", self, src, [](const Tensor& t, const void* p) {
    const A& x = *static_cast<const A*>(p);
    return call<ops::as_strided>(t, x.size, x.stride, x.offset);
  }, &a);
}

// dst[i] += src[i] for every index i of dst's sizes, in row-major order, on
// CPU tensors of one dtype; dst may overlap itself (an unfold or expand of
// a fresh tensor), which is what makes the sums.
OPD_FUNC void accumulate_into(const Tensor& dst, const Tensor& src, const char* name) {
  const int64_t n = dst.numel();
  if (n == 0) return;
  // Size-1 dimensions dropped and neighbours that step as one merged, so
  // that the innermost loop is as long as it can be; the element order
  // (row-major over dst's sizes) is unchanged, which keeps the sums of an
  // overlapping dst in the same order.
  SmallVector<int64_t, 6> sizes, ds, ss;
  for (int64_t i = 0; i < dst.dim(); ++i) {
    const auto u = static_cast<std::size_t>(i);
    const int64_t sz = dst.sizes()[u];
    if (sz == 1) continue;
    const int64_t a = dst.strides()[u], b = src.strides()[u];
    if (!sizes.empty() && ds.back() == a * sz && ss.back() == b * sz) {
      sizes.back() *= sz;
      ds.back() = a;
      ss.back() = b;
    } else {
      sizes.push_back(sz);
      ds.push_back(a);
      ss.push_back(b);
    }
  }
  if (sizes.empty()) {  // a single element
    sizes.push_back(1);
    ds.push_back(0);
    ss.push_back(0);
  }
  const std::size_t nd = sizes.size();
  const int64_t inner = sizes[nd - 1], di = ds[nd - 1], si = ss[nd - 1];
  dispatch_dtype_with_complex(dst.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = dst.data_ptr<T>();
    const T* s = src.data_ptr<T>();
    SmallVector<int64_t, 6> index(nd, 0);
    int64_t od = 0, os = 0;
    for (int64_t done = 0; done < n; done += inner) {
      T* dr = d + od;
      const T* sr = s + os;
      for (int64_t j = 0; j < inner; ++j) {
        if constexpr (std::is_same_v<T, bool>) {
          dr[j * di] = dr[j * di] || sr[j * si];
        } else {
          dr[j * di] = static_cast<T>(static_cast<opmath_t<T>>(dr[j * di]) + static_cast<opmath_t<T>>(sr[j * si]));
        }
      }
      for (std::size_t u = nd - 1; u-- > 0;) {  // next row, row-major
        od += ds[u];
        os += ss[u];
        if (++index[u] < sizes[u]) break;
        od -= ds[u] * index[u];
        os -= ss[u] * index[u];
        index[u] = 0;
      }
    }
  });
}

inline views::Geometry contiguous_geometry(IntArrayRef sizes) {
  const SizesVector s(sizes);
  return views::Geometry{s, opd::detail::contiguous_strides(s), 0};
}

// unfold_backward: the windows of grad_in summed into zeros of input_sizes.
OPD_FUNC Tensor unfold_backward(const Tensor& grad_in, ints input_sizes, int64_t dim, int64_t size, int64_t step) {
  constexpr std::string_view op = "aten::unfold_backward";
  const IntArrayRef in(input_sizes.data(), input_sizes.size());
  const views::Geometry g = views::unfold(op, contiguous_geometry(in), dim, size, step);
  OPD_CHECK(grad_in.sizes() == g.sizes.ref(), op, ": grad_in has sizes ", grad_in.sizes(),
            " but the unfold of input_sizes ", in, " has sizes ", g.sizes.ref());
  if (grad_in.device().is_meta()) return opd::empty(in, grad_in.dtype(), grad_in.device());
  Tensor out = kernels::zeros(in, grad_in.dtype(), grad_in.device());
  accumulate_into(out.as_strided(g.sizes, g.strides, 0), grad_in, "unfold_backward");
  return out;
}

}  // namespace scatter_detail

OPD_FUNC RegistrationSet register_scatter() {
  namespace s = scatter_detail;
  constexpr DispatchKey explicit_ = DispatchKey::CompositeExplicitAutograd;
  RegistrationSet set;
  set.add(register_kernel<ops::slice_scatter, &s::slice_scatter>(explicit_));
  set.add(register_kernel<ops::select_scatter, &s::select_scatter>(explicit_));
  set.add(register_kernel<ops::diagonal_scatter, &s::diagonal_scatter>(explicit_));
  set.add(register_kernel<ops::as_strided_scatter, &s::as_strided_scatter>(explicit_));
  set.add(register_kernel<ops::unfold_backward, &s::unfold_backward>(DispatchKey::CPU));
  set.add(register_kernel<ops::unfold_backward, &s::unfold_backward>(DispatchKey::Meta));
  return set;
}

}  // namespace opd::kernels
