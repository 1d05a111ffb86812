// Every family's per-target SIMD bodies (reduce_simd_targets-inl.hpp, arith_simd_targets-inl.hpp,
// unary_simd_targets-inl.hpp, fill_simd_targets-inl.hpp, random_bits_targets-inl.hpp,
// complex_simd_targets-inl.hpp) for one Highway foreach_target.h pass: that
// header has an include guard, so a header-only translation unit gets one
// pass, and it must compile every family's targets (the first family -inl
// header included uses this file then; compiled mode compiles each family
// in its own source). No #pragma once: included once per target.
#include "kernels/cpu/reduce_simd_targets-inl.hpp"
#include "kernels/cpu/unary_simd_targets-inl.hpp"
#include "kernels/cpu/arith_simd_targets-inl.hpp"
#include "kernels/cpu/fill_simd_targets-inl.hpp"
#include "kernels/cpu/random_bits_targets-inl.hpp"
#include "kernels/cpu/complex_simd_targets-inl.hpp"
