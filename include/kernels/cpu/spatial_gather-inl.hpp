#pragma once
// One loop for the kernels that read each output element of the last k
// (1 to 3) dimensions from one input element, chosen per dimension by an
// index map: padding (kernels/cpu/padding.hpp) and nearest upsampling
// (upsample.hpp); and its adjoint for their backward kernels, which adds each
// gradient element into the input element it was read from. Inline only:
// included by the translation units that compile those kernels.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dispatch/core/bfloat16.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/half.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels::detail {

// out[p, z, y, x] = in[p, zi[z], yi[y], xi[x]] with p over the leading
// dimensions (batch and channel) and missing spatial dimensions of size 1;
// E is a trivially copied type of the element's size.
template <class E>
void gather_spatial_as(const Tensor& self, const Tensor& out, int k, const std::vector<int64_t> (&src)[3]) {
  const int64_t nd = self.dim();
  const int64_t lead = nd - k;  // 1 or 2 leading dimensions
  const int64_t n0 = lead == 2 ? self.size(0) : 1, n1 = self.size(lead - 1);
  const int64_t s0 = lead == 2 ? self.stride(0) : 0, s1 = self.stride(lead - 1);
  // spatial strides, outermost first, padded to three dimensions
  int64_t st[3] = {0, 0, 0};
  for (int d = 0; d < k; ++d) st[3 - k + d] = self.stride(lead + d);
  const std::vector<int64_t>& zi = src[0];
  const std::vector<int64_t>& yi = src[1];
  const std::vector<int64_t>& xi = src[2];
  const int64_t oz = static_cast<int64_t>(zi.size()), oy = static_cast<int64_t>(yi.size()),
                ox = static_cast<int64_t>(xi.size());
  const E* in = static_cast<const E*>(self.data_ptr());
  E* o = static_cast<E*>(out.data_ptr());
  const int64_t plane = oz * oy * ox;
  parallel_for(0, n0 * n1, std::max<int64_t>(1, grain_size / std::max<int64_t>(plane, 1)), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const E* ip = in + (p / n1) * s0 + (p % n1) * s1;
      E* op = o + p * plane;
      for (int64_t z = 0; z < oz; ++z) {
        for (int64_t y = 0; y < oy; ++y) {
          const E* row = ip + zi[static_cast<std::size_t>(z)] * st[0] + yi[static_cast<std::size_t>(y)] * st[1];
          E* dst = op + (z * oy + y) * ox;
          for (int64_t x = 0; x < ox; ++x) dst[x] = row[xi[static_cast<std::size_t>(x)] * st[2]];
        }
      }
    }
  });
}

// out (contiguous, of self's dtype) from self (any strides) through the
// maps src[3 - k] .. src[2], one per spatial dimension (src[0] depth, src[1]
// height, src[2] width; the unused ones {0}); elements copied as bytes.
inline void gather_spatial(std::string_view op, const Tensor& self, const Tensor& out, int k,
                           const std::vector<int64_t> (&src)[3]) {
  switch (self.element_size()) {
    case 1: gather_spatial_as<uint8_t>(self, out, k, src); break;
    case 2: gather_spatial_as<uint16_t>(self, out, k, src); break;
    case 4: gather_spatial_as<uint32_t>(self, out, k, src); break;
    case 8: gather_spatial_as<uint64_t>(self, out, k, src); break;
    case 16: gather_spatial_as<std::complex<double>>(self, out, k, src); break;  // any 16-byte element
    default: OPD_CHECK(false, op, ": elements of ", self.element_size(), " bytes are not supported");
  }
}

// The adjoint of gather_spatial_as: grad_in[p, zi[z], yi[y], xi[x]] +=
// grad_out[p, z, y, x], grad_in contiguous (overwritten: each plane zeroed
// by the thread that then adds into it, as zeroing all of grad_in first on
// the calling thread left the threads waiting), grad_out of any strides.
// Each plane p is one task, its elements added in the output's
// row-major order, as ATen's pad and nearest backward loops add them (several
// outputs read one input: the order fixes the rounding). Sums in T, each
// rounded as ATen's `scalar_t +=` does.
template <class T>
void scatter_add_spatial(const Tensor& grad_out, const Tensor& grad_in, int k, const std::vector<int64_t> (&src)[3]) {
  using C = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;
  const int64_t nd = grad_out.dim(), lead = nd - k;
  const int64_t n1 = grad_out.size(lead - 1), planes = lead == 2 ? grad_out.size(0) * n1 : n1;
  const int64_t s0 = lead == 2 ? grad_out.stride(0) : 0, s1 = grad_out.stride(lead - 1);
  int64_t st[3] = {0, 0, 0}, ist[3] = {0, 0, 0};  // grad_out's and grad_in's spatial strides
  for (int d = 0; d < k; ++d) {
    st[3 - k + d] = grad_out.stride(lead + d);
    ist[3 - k + d] = grad_in.stride(lead + d);
  }
  const int64_t in_plane = lead == 2 ? grad_in.stride(1) : grad_in.stride(0);
  const std::vector<int64_t>& zi = src[0];
  const std::vector<int64_t>& yi = src[1];
  const std::vector<int64_t>& xi = src[2];
  const int64_t oz = static_cast<int64_t>(zi.size()), oy = static_cast<int64_t>(yi.size()),
                ox = static_cast<int64_t>(xi.size());
  const T* go = static_cast<const T*>(grad_out.data_ptr());
  T* gi = static_cast<T*>(grad_in.data_ptr());
  parallel_for(0, planes, std::max<int64_t>(1, grain_size / std::max<int64_t>(oz * oy * ox, 1)), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const T* src_plane = go + (p / n1) * s0 + (p % n1) * s1;
      T* dst_plane = gi + p * in_plane;
      std::memset(static_cast<void*>(dst_plane), 0, static_cast<std::size_t>(in_plane) * sizeof(T));
      for (int64_t z = 0; z < oz; ++z) {
        for (int64_t y = 0; y < oy; ++y) {
          const T* row = src_plane + z * st[0] + y * st[1];
          T* dst = dst_plane + zi[static_cast<std::size_t>(z)] * ist[0] + yi[static_cast<std::size_t>(y)] * ist[1];
          for (int64_t x = 0; x < ox; ++x) {
            T& d = dst[xi[static_cast<std::size_t>(x)]];
            d = static_cast<T>(static_cast<C>(d) + static_cast<C>(row[x * st[2]]));
          }
        }
      }
    }
  });
}

}  // namespace opd::kernels::detail
