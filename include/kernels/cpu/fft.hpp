// ATen 1.13's three FFT primitives on CPU (the torch.fft.* frontends call
// them with wrapped, unique dims). Multi-dimensional transforms over `dim`,
// one 1-D transform per dimension; normalization is ATen's fft_norm_mode:
// 0 none, 1 by 1/sqrt(n), 2 by 1/n, n the product of the signal sizes.
//
//   _fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor
//       Float/Double -> ComplexFloat/ComplexDouble forward transform; onesided
//       keeps the last transformed dim's first n/2 + 1 entries.
//   _fft_c2r(Tensor self, int[] dim, int normalization, int last_dim_size) -> Tensor
//       ComplexFloat/ComplexDouble -> Float/Double inverse transform of a
//       Hermitian half spectrum; the last transformed dim becomes
//       last_dim_size and reads its first last_dim_size/2 + 1 entries.
//   _fft_c2c(Tensor self, int[] dim, int normalization, bool forward) -> Tensor
//       complex -> complex, forward (exp(-i...)) or backward (exp(+i...)).
// The 1-D transforms are KISS FFT's C++ template (kissfft<T>, Debian's
// libkissfft-dev), which serves float and double. Meta inputs get Meta
// outputs after the checks. Outputs are contiguous and never alias the input.
#pragma once

#include <cstdint>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor fft_r2c(const Tensor& self, IntArrayRef dim, int64_t normalization, bool onesided);
OPD_API Tensor fft_c2r(const Tensor& self, IntArrayRef dim, int64_t normalization, int64_t last_dim_size);
OPD_API Tensor fft_c2c(const Tensor& self, IntArrayRef dim, int64_t normalization, bool forward);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/fft-inl.hpp"
#endif
