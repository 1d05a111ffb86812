#pragma once
// _embedding_bag and its backward kernels with ATen 1.13's schemas, CPU and
// Meta kernels (no out= variants):
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
//   _embedding_bag_backward(Tensor grad, Tensor indices, Tensor offsets, Tensor offset2bag, Tensor bag_size,
//                           Tensor maximum_indices, int num_weights, bool scale_grad_by_freq, int mode,
//                           bool sparse, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor
//       CompositeImplicitAutograd, as ATen's: offset2bag made from offsets when
//       the forward left it empty (its sum fast path), then the dense backward
//       (sparse=True is refused: the library has no sparse tensors).
//   _embedding_bag_dense_backward(Tensor grad, Tensor indices, Tensor offset2bag, Tensor bag_size,
//                                 Tensor maximum_indices, int num_weights, bool scale_grad_by_freq, int mode,
//                                 Tensor? per_sample_weights, int padding_idx=-1) -> Tensor
//       weight's gradient (num_weights, D): sum and mean add each index's bag
//       gradient to its row (scaled by 1 / bag size for mean, by its
//       per_sample_weights value, and with scale_grad_by_freq by ATen 1.13's
//       count: that of the index at the row's rank among the distinct indices,
//       in the sorted indices); max adds each bag's gradient at its
//       maximum_indices. Rows of padding_idx get none.
//   _embedding_bag_per_sample_weights_backward(Tensor grad, Tensor weight, Tensor indices, Tensor offsets,
//                                              Tensor offset2bag, int mode, int padding_idx=-1) -> Tensor
//       per_sample_weights' gradient (mode sum only): for each index, its
//       bag's gradient dotted with its weight row; 0 at padding_idx.
//
//   auto kernels = opd::kernels::register_embedding_bag();   // also part of register_cpu()
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct embedding_bag_ : op<"aten::_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)"> {};
struct embedding_bag_backward : op<"aten::_embedding_bag_backward(Tensor grad, Tensor indices, Tensor offsets, Tensor offset2bag, Tensor bag_size, Tensor maximum_indices, int num_weights, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor"> {};
struct embedding_bag_dense_backward : op<"aten::_embedding_bag_dense_backward(Tensor grad, Tensor indices, Tensor offset2bag, Tensor bag_size, Tensor maximum_indices, int num_weights, bool scale_grad_by_freq, int mode, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor"> {};
struct embedding_bag_per_sample_weights_backward : op<"aten::_embedding_bag_per_sample_weights_backward(Tensor grad, Tensor weight, Tensor indices, Tensor offsets, Tensor offset2bag, int mode, int padding_idx=-1) -> Tensor"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/embedding_bag.cpp).
OPD_API RegistrationSet register_embedding_bag();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_embedding_bag-inl.hpp"
#endif
