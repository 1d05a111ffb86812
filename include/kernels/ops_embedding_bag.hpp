#pragma once
// _embedding_bag with ATen 1.13's schema, CPU and Meta kernels (ATen 1.13
// has no out= for it):
//
//   _embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0,
//                  bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False,
//                  int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)
//       Bags of rows of weight (num_weights, D): bag b holds indices[offsets[b]
//       : offsets[b + 1]] (the last bag to the end, or to the last offset with
//       include_last_offset); mode 0 sums them (each scaled by its
//       per_sample_weights value when given), 1 averages them, 2 takes the
//       largest per column. Rows equal to padding_idx (when >= 0) are left
//       out. Returns (output (bags, D), offset2bag, bag_size, max_indices) as
//       ATen's CPU kernel does. weight Float or Double; indices and offsets
//       Long or Int, promoted to one type. scale_grad_by_freq and sparse only
//       concern the backward.
//
//   auto kernels = opd::kernels::register_embedding_bag();   // also part of register_cpu()
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct embedding_bag_ : op<"aten::_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)"> {};

}  // namespace ops

// Registers the operator above. Compiled once, in libopdispatch
// (src/kernels/embedding_bag.cpp).
OPD_API RegistrationSet register_embedding_bag();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_embedding_bag-inl.hpp"
#endif
