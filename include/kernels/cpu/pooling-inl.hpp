#pragma once
// Out-of-line part of pooling.hpp (compiled in src/kernels/pooling.cpp).
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <tuple>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/pool_shape-inl.hpp"
#include "kernels/cpu/pooling.hpp"
#include "structured/out_semantics.hpp"

namespace opd::kernels {

namespace pooling_detail {

inline std::vector<int64_t> pool_sizes(const Tensor& self, const detail::Pool2dShape& s) {
  if (self.dim() == 3) return {s.planes, s.oh, s.ow};
  return {s.batch, s.planes, s.oh, s.ow};
}

inline void check_floating(const char* name, ScalarType dt) {
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for(name, dt);
}

// A contiguous tensor to compute into: `t` itself, or scratch copied into t after.
inline Tensor writable(const Tensor& t) { return t.is_contiguous() ? t : opd::empty(t.sizes(), t.dtype(), Device::cpu()); }
inline void write_back(const Tensor& t, const Tensor& computed) {
  if (!computed.is_same(t)) copy_elements(OperandRef::of(t), OperandRef::of(computed));
}

}  // namespace pooling_detail

OPD_FUNC void max_pool2d_with_indices_out(const Tensor& self, std::span<const int64_t> kernel_size,
                                          std::span<const int64_t> stride, std::span<const int64_t> padding,
                                          std::span<const int64_t> dilation, bool ceil_mode, const Tensor& out,
                                          const Tensor& indices) {
  using namespace pooling_detail;
  constexpr std::string_view op = "aten::max_pool2d_with_indices";
  const detail::Pool2dShape s =
      detail::max_pool2d_shape("max_pool2d_with_indices", self, kernel_size, stride, padding, dilation, ceil_mode);
  // ATen 1.13's CPU kernel: Float, Double and BFloat16
  if (self.dtype() != ScalarType::BFloat16) check_floating("max_pool2d", self.dtype());
  structured_detail::check_out_device(op, self.device(), out);
  structured_detail::check_out_device(op, self.device(), indices);
  OPD_CHECK(out.dtype() == self.dtype(), "max_pool2d_with_indices: expected out to have dtype ", self.dtype(),
            ", but got ", out.dtype());
  OPD_CHECK(indices.dtype() == ScalarType::Long, "max_pool2d_with_indices: expected indices to have dtype Long, but got ",
            indices.dtype());
  const std::vector<int64_t> sizes = pool_sizes(self, s);
  structured_detail::resize_out(op, out, sizes, MemoryFormat::Contiguous);
  structured_detail::resize_out(op, indices, sizes, MemoryFormat::Contiguous);
  if (out.is_meta() || out.numel() == 0) return;
  const Tensor x = self.is_contiguous() ? self : contiguous_clone(self);
  const Tensor o_t = writable(out), i_t = writable(indices);
  int64_t* idx = i_t.data_ptr<int64_t>();
  if (self.dtype() == ScalarType::Float) detail::max_pool_planes<float>(s, x.data_ptr<float>(), o_t.data_ptr<float>(), idx);
  else if (self.dtype() == ScalarType::Double) detail::max_pool_planes<double>(s, x.data_ptr<double>(), o_t.data_ptr<double>(), idx);
  else detail::max_pool_planes<BFloat16>(s, x.data_ptr<BFloat16>(), o_t.data_ptr<BFloat16>(), idx);
  write_back(out, o_t);
  write_back(indices, i_t);
}

OPD_FUNC std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, std::span<const int64_t> kernel_size,
                                                            std::span<const int64_t> stride,
                                                            std::span<const int64_t> padding,
                                                            std::span<const int64_t> dilation, bool ceil_mode) {
  OPD_CHECK(self.defined(), "max_pool2d_with_indices: argument 'self' is an undefined tensor");
  const Device device = self.is_meta() ? Device::meta() : Device::cpu();
  const int64_t zero = 0;
  Tensor out = opd::empty(IntArrayRef(&zero, 1), self.dtype(), device);
  Tensor indices = opd::empty(IntArrayRef(&zero, 1), ScalarType::Long, device);
  max_pool2d_with_indices_out(self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  return {out, indices};
}

OPD_FUNC void max_pool2d_with_indices_backward_out(const Tensor& grad_output, const Tensor& self,
                                                   std::span<const int64_t> kernel_size,
                                                   std::span<const int64_t> stride, std::span<const int64_t> padding,
                                                   std::span<const int64_t> dilation, bool ceil_mode,
                                                   const Tensor& indices, const Tensor& grad_input) {
  using namespace pooling_detail;
  constexpr std::string_view op = "aten::max_pool2d_with_indices_backward";
  const detail::Pool2dShape s = detail::max_pool2d_shape("max_pool2d_with_indices_backward", self, kernel_size,
                                                         stride, padding, dilation, ceil_mode);
  detail::nn_check_cpu("max_pool2d_with_indices_backward", grad_output, "grad_output");
  detail::nn_check_cpu("max_pool2d_with_indices_backward", indices, "indices");
  check_floating("max_pool2d_with_indices_backward", self.dtype());
  const std::vector<int64_t> sizes = pool_sizes(self, s);
  OPD_CHECK(grad_output.sizes() == IntArrayRef(sizes), "max_pool2d_with_indices_backward: expected grad_output of size ",
            IntArrayRef(sizes), ", but got ", grad_output.sizes());
  OPD_CHECK(indices.sizes() == IntArrayRef(sizes), "max_pool2d_with_indices_backward: expected indices of size ",
            IntArrayRef(sizes), ", but got ", indices.sizes());
  OPD_CHECK(indices.dtype() == ScalarType::Long, "max_pool2d_with_indices_backward: expected indices of dtype Long, "
            "but got ", indices.dtype());
  OPD_CHECK(grad_output.dtype() == self.dtype(), "expected scalar type ", self.dtype(), " but found ", grad_output.dtype());
  structured_detail::check_out_device(op, self.device(), grad_input);
  OPD_CHECK(grad_input.dtype() == self.dtype(), "max_pool2d_with_indices_backward: expected grad_input of dtype ",
            self.dtype(), ", but got ", grad_input.dtype());
  structured_detail::resize_out(op, grad_input, self.sizes(), MemoryFormat::Contiguous);
  if (grad_input.is_meta() || grad_input.numel() == 0) return;
  const Tensor g = grad_output.is_contiguous() ? grad_output : contiguous_clone(grad_output);
  const Tensor ix = indices.is_contiguous() ? indices : contiguous_clone(indices);
  const Tensor gi = writable(grad_input);
  const int64_t* idx = ix.data_ptr<int64_t>();
  const int64_t plane_size = s.ih * s.iw;
  detail::check_pool_indices("max_pool2d_with_indices_backward", idx, ix.numel(), plane_size, "plane");
  const auto run = [&](auto* dst, const auto* go) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(go)>>;
    // Each plane zeroed by the thread that adds into it, just before: zeroing
    // the whole gradient first on the calling thread (3.2 MB for resnet18's
    // pool) made all threads slower than one (2.5x ATen's time).
    detail::for_each_plane(s, s.oh * s.ow + plane_size, [&](int64_t p) {
      T* plane = dst + p * plane_size;
      std::fill(plane, plane + plane_size, T(0));
      for (int64_t k = p * s.oh * s.ow; k < (p + 1) * s.oh * s.ow; ++k) {
        plane[idx[k]] += go[k];
      }
    });
  };
  if (self.dtype() == ScalarType::Float) run(gi.data_ptr<float>(), g.data_ptr<float>());
  else run(gi.data_ptr<double>(), g.data_ptr<double>());
  write_back(grad_input, gi);
}

OPD_FUNC Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                                 std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                                                 std::span<const int64_t> padding, std::span<const int64_t> dilation,
                                                 bool ceil_mode, const Tensor& indices) {
  OPD_CHECK(self.defined(), "max_pool2d_with_indices_backward: argument 'self' is an undefined tensor");
  const int64_t zero = 0;
  Tensor grad_input = opd::empty(IntArrayRef(&zero, 1), self.dtype(), self.is_meta() ? Device::meta() : Device::cpu());
  max_pool2d_with_indices_backward_out(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices,
                                       grad_input);
  return grad_input;
}

}  // namespace opd::kernels
