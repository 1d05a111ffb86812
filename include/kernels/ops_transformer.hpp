#pragma once
// The fused transformer operators that PyTorch 1.13 calls in eval mode:
// _native_multi_head_attention (nn.MultiheadAttention's fast path, which
// torchvision's ViT reaches) and _transformer_encoder_layer_fwd (one
// nn.TransformerEncoderLayer, batch first, in eval). Here each is a
// composition of the library's operators, step by step as ATen's CPU kernel
// computes: the q/k/v projection (linear), the bias added and q scaled by
// 1/sqrt(head dim), per-head scores (bmm), softmax (a mask fills -inf: a
// key padding mask (B, T) or one of the scores' shape, as 1.13's), the context
// (bmm), the output projection (linear); the encoder layer adds layer_norm,
// the residual additions and the feed-forward block (linear, relu or gelu,
// linear). Registered at CompositeExplicitAutograd: they serve every backend
// whose kernels serve those operators (CPU and Meta).
//
//   auto kernels = opd::kernels::register_transformer();   // also part of register_cpu()
//   auto [out, weights] = opd::call<opd::kernels::ops::native_multi_head_attention>(q, q, q, 64, 4, w, b, pw, pb,
//                                                                                 std::nullopt, false, true, std::nullopt);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct native_multi_head_attention
    : op<"aten::_native_multi_head_attention(Tensor query, Tensor key, Tensor value, int embed_dim, int num_head, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, Tensor? mask=None, bool need_weights=True, bool average_attn_weights=True, int? mask_type=None) -> (Tensor, Tensor)"> {};
struct transformer_encoder_layer_fwd
    : op<"aten::_transformer_encoder_layer_fwd(Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps, Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None) -> Tensor"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/transformer.cpp).
OPD_API RegistrationSet register_transformer();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_transformer-inl.hpp"
#endif
