#pragma once
// Out-of-line part of ops_fft.hpp (compiled in src/kernels/fft.cpp).
#include <span>

#include "kernels/ops_fft.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace fft_ops_detail {

using ints = std::span<const int64_t>;

inline IntArrayRef ref(ints dim) { return IntArrayRef(dim.data(), dim.size()); }
inline Tensor r2c(const Tensor& self, ints dim, int64_t normalization, bool onesided) {
  return kernels::fft_r2c(self, ref(dim), normalization, onesided);
}
inline Tensor c2r(const Tensor& self, ints dim, int64_t normalization, int64_t last_dim_size) {
  return kernels::fft_c2r(self, ref(dim), normalization, last_dim_size);
}
inline Tensor c2c(const Tensor& self, ints dim, int64_t normalization, bool forward) {
  return kernels::fft_c2c(self, ref(dim), normalization, forward);
}

}  // namespace fft_ops_detail

OPD_FUNC RegistrationSet register_fft() {
  namespace f = fft_ops_detail;
  RegistrationSet set;
  // Meta: the same kernels, which stop after their checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::fft_r2c, &f::r2c>(key));
    set.add(register_kernel<ops::fft_c2r, &f::c2r>(key));
    set.add(register_kernel<ops::fft_c2c, &f::c2c>(key));
    set.add(derive_missing_variants<ops::fft_r2c, void, ops::fft_r2c_out>(key));
    set.add(derive_missing_variants<ops::fft_c2r, void, ops::fft_c2r_out>(key));
    set.add(derive_missing_variants<ops::fft_c2c, void, ops::fft_c2c_out>(key));
  }
  return set;
}

}  // namespace opd::kernels
