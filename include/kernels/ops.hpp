#pragma once
// Every operator of the library's CPU kernel library, and register_cpu(),
// which registers them all. One header per family:
//
//   kernels/ops_arithmetic.hpp     add, sub, mul, div, copy_, fill_, empty, zeros, ones
//   kernels/ops_views.hpp          views and the copies that go with them
//   kernels/ops_view_copies.hpp    each view's *_copy operator (transpose_copy.int, ...)
//   kernels/ops_scatter.hpp        slice_scatter, select_scatter, diagonal_scatter, as_strided_scatter, unfold_backward
//   kernels/ops_reductions.hpp     sum, mean, amax, var, norm, softmax, layer_norm, group_norm, ... (reductions and normalization)
//   kernels/ops_linalg.hpp         mm, bmm, addmm, baddbmm, dot, mv, outer, matmul, linear (through OpenBLAS)
//   kernels/ops_nn.hpp             embedding (and its backward), dropout, conv2d, max_pool2d, the average pools (1-D,
//                                  2-D, adaptive) and their backward
//   kernels/ops_conv.hpp           convolution, and conv1d/2d/3d, conv_transpose1d/2d/3d over it
//   kernels/ops_batch_norm.hpp     native_batch_norm, _native_batch_norm_legit*
//   kernels/ops_pooling.hpp        max_pool2d_with_indices and its backward
//   kernels/ops_shape.hpp          cat, stack, gather/scatter, index, sort/topk, arange/full/linspace/eye, ...
//   kernels/ops_pointwise.hpp      unary math, comparisons, logical, where, clamp, pow, remainder, bitwise, lerp, addcmul, ...
//   kernels/ops_padding.hpp        reflection_pad1d/2d/3d, replication_pad1d/2d/3d, constant_pad_nd
//   kernels/ops_upsample.hpp       upsample_nearest2d, upsample_bilinear2d (and their .vec overloads)
//   kernels/ops_random.hpp         rand, randn, randperm, native_dropout (the library's seeded generator)
//   kernels/ops_scalars.hpp        scalar_tensor, _local_scalar_dense, the sym_* queries
//   kernels/ops_composites.hpp     clamp_min, new_zeros, fill_.Tensor, unsafe_split, as_strided_, transpose_
//   kernels/ops_transformer.hpp    _native_multi_head_attention, _transformer_encoder_layer_fwd (composed)
//
// Operators are declared in namespace aten with ATen 1.13's schemas verbatim
// (tests/data/native_functions_1.13.jsonl), so programs written against
// ATen's names run unchanged.
//
//   auto kernels = opd::kernels::register_cpu();   // a RegistrationSet
//   opd::Tensor c = opd::call<opd::kernels::ops::add::functional>(a, b);
//
// Compiled mode: register_cpu() is in libopdispatch, and a file including
// this header compiles declarations only. Header-only (OPD_HEADER_ONLY): this
// header brings every family's kernels into the file, as {fmt}'s format.h
// does; a file that needs one family includes that family's header and calls
// its register_<family>() (docs/building.md).
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_views.hpp"
#include "kernels/ops_view_copies.hpp"
#include "kernels/ops_scatter.hpp"
#include "kernels/ops_reductions.hpp"
#include "kernels/ops_linalg.hpp"
#include "kernels/ops_nn.hpp"
#include "kernels/ops_conv.hpp"
#include "kernels/ops_batch_norm.hpp"
#include "kernels/ops_pooling.hpp"
#include "kernels/ops_shape.hpp"
#include "kernels/ops_pointwise.hpp"
#include "kernels/ops_padding.hpp"
#include "kernels/ops_random.hpp"
#include "kernels/ops_scalars.hpp"
#include "kernels/ops_upsample.hpp"
#include "kernels/ops_composites.hpp"
#include "kernels/ops_transformer.hpp"

namespace opd::kernels {

// Registers every family above (each family's register_<family>()).
// Compiled once, in libopdispatch (src/kernels/register_cpu.cpp).
OPD_API RegistrationSet register_cpu();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops-inl.hpp"
#endif
