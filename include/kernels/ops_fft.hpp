#pragma once
// _fft_r2c, _fft_c2r, _fft_c2c (kernels/cpu/fft.hpp) with ATen 1.13's
// schemas and their out= variants, CPU and Meta kernels.
//
//   auto kernels = opd::kernels::register_fft();   // also part of register_cpu()
//   opd::Tensor s = opd::call<opd::kernels::ops::fft_r2c>(x, std::vector<int64_t>{0}, int64_t{0}, true);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/fft.hpp"

namespace opd::kernels {

namespace ops {

struct fft_r2c : op<"aten::_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor"> {};
struct fft_r2c_out : op<"aten::_fft_r2c.out(Tensor self, int[] dim, int normalization, bool onesided, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct fft_c2r : op<"aten::_fft_c2r(Tensor self, int[] dim, int normalization, int last_dim_size) -> Tensor"> {};
struct fft_c2r_out : op<"aten::_fft_c2r.out(Tensor self, int[] dim, int normalization, int last_dim_size, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct fft_c2c : op<"aten::_fft_c2c(Tensor self, int[] dim, int normalization, bool forward) -> Tensor"> {};
struct fft_c2c_out : op<"aten::_fft_c2c.out(Tensor self, int[] dim, int normalization, bool forward, *, Tensor(a!) out) -> Tensor(a!)"> {};

}  // namespace ops

// Registers the operators above (out= derived from the functional kernels:
// computed into a fresh tensor, then resized into and copied, so that a
// failed call leaves `out` unchanged). Compiled once, in libopdispatch
// (src/kernels/fft.cpp, with the kernels).
OPD_API RegistrationSet register_fft();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_fft-inl.hpp"
#endif
