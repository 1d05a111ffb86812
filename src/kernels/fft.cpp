// libopdispatch: _fft_r2c, _fft_c2r, _fft_c2c (kernels/cpu/fft.hpp) and
// opd::kernels::register_fft() (kernels/ops_fft.hpp), in one source.
#include "kernels/cpu/fft-inl.hpp"
#include "kernels/ops_fft-inl.hpp"
