#pragma once
// Out-of-line part of ops_transformer.hpp (compiled in src/kernels/transformer.cpp).
#include <cmath>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>

#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_linalg.hpp"
#include "kernels/ops_pointwise.hpp"
#include "kernels/ops_reductions.hpp"
#include "kernels/ops_transformer.hpp"
#include "kernels/ops_views.hpp"

namespace opd::kernels {

namespace transformer_detail {

using ints = std::span<const int64_t>;

inline void check_defined(const Tensor& t, std::string_view op, std::string_view arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
}

// [B, T, H * dh] -> [B * H, T, dh] (contiguous).
inline Tensor split_heads(const Tensor& x, int64_t B, int64_t T, int64_t H, int64_t dh) {
  const int64_t bthd[] = {B, T, H, dh}, perm[] = {0, 2, 1, 3}, flat[] = {B * H, T, dh};
  Tensor t = call<ops::permute>(call<ops::view>(x, ints(bthd)), ints(perm));
  return call<ops::view>(call<ops::contiguous>(t, MemoryFormat::Contiguous), ints(flat));
}

// ATen 1.13's masked softmax over the last dimension of scores [B, H, T, T],
// with its checks in its order: the mask's first dimension is the batch, a
// mask_type is given and is not 0 (1.13's CPU kernel has no src_mask), a
// 2-D mask is a key padding mask (B, T), any other has the scores' shape.
// True masks out; a row masked whole gives NaN, as 1.13's. A mask not of
// dtype Bool is read as Bool.
inline Tensor masked_softmax(const Tensor& scores, const std::optional<Tensor>& mask_arg,
                             std::optional<int64_t> mask_type) {
  if (!mask_arg || !mask_arg->defined()) return call<ops::softmax>(scores, int64_t{-1}, std::nullopt);
  Tensor mask = *mask_arg;
  const int64_t B = scores.size(0);
  OPD_CHECK(mask.dim() > 0 && mask.size(0) == B,
            "Expected attn_mask->sizes()[0] == batch_size to be true, but got false.");
  OPD_CHECK(mask_type.has_value(), "Mask Type should be defined");
  OPD_CHECK(*mask_type != 0, "src_mask not currently supported on CPU");
  if (mask.dtype() != ScalarType::Bool) mask = call<ops::to_copy>(mask, arg<"dtype"> = ScalarType::Bool);
  if (mask.dim() == 2 && mask.size(1) == scores.size(3)) {  // (B, T): the keys each batch masks
    const int64_t s[] = {B, 1, 1, mask.size(1)};
    mask = call<ops::expand>(call<ops::view>(call<ops::contiguous>(mask, MemoryFormat::Contiguous), ints(s)),
                             scores.sizes().vec(), false);
  }
  OPD_CHECK(mask.sizes() == scores.sizes(), "Mask shape should match input shape");
  const Tensor filled = call<ops::masked_fill_scalar>(scores, mask, Scalar(-INFINITY));
  return call<ops::softmax>(filled, int64_t{-1}, std::nullopt);
}

// ATen 1.13's native_multi_head_attention_cpu, composed.
inline std::tuple<Tensor, Tensor> multi_head_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                                       int64_t embed_dim, int64_t num_head, const Tensor& qkv_weight,
                                                       const Tensor& qkv_bias, const Tensor& proj_weight,
                                                       const Tensor& proj_bias, const std::optional<Tensor>& mask,
                                                       bool need_weights, bool average_attn_weights,
                                                       std::optional<int64_t> mask_type) {
  constexpr std::string_view op = "aten::_native_multi_head_attention";
  check_defined(query, op, "query");
  check_defined(key, op, "key");
  check_defined(value, op, "value");
  check_defined(qkv_weight, op, "qkv_weight");
  check_defined(qkv_bias, op, "qkv_bias");
  check_defined(proj_weight, op, "proj_weight");
  check_defined(proj_bias, op, "proj_bias");
  const int64_t D = embed_dim;
  OPD_CHECK(query.dim() == 3, "expected 3-D `query`, got ", query.dim(), "-D tensor");
  OPD_CHECK(query.size(2) == embed_dim, "passed-in embed_dim ", embed_dim, " didn't match last dim of query ",
            query.size(2));
  OPD_CHECK(key.dim() == 3, "expected 3-D `key`, got ", key.dim(), "-D tensor");
  OPD_CHECK(value.dim() == 3, "expected 3-D `value`, got ", value.dim(), "-D tensor");
  OPD_CHECK(query.sizes() == key.sizes() && key.sizes() == value.sizes(),
            "expected `query`/`key`/`value` shapes to match");
  OPD_CHECK(qkv_weight.dim() == 2, "expected 2-D `qkv_weight`, got ", qkv_weight.dim(), "-D tensor");
  OPD_CHECK(D * 3 == qkv_weight.size(0), "expected `qkv_weight` first dim to be 3x embed_dim");
  OPD_CHECK(D == qkv_weight.size(1), "expected `qkv_weight` second dim to be embed_Dim");
  OPD_CHECK(qkv_bias.dim() == 1, "expected 2-D `qkv_bias`, got ", qkv_bias.dim(), "-D tensor");
  OPD_CHECK(qkv_bias.size(0) == 3 * D, "expected `qkv_bias` first dim and first dim of query to be equal");
  OPD_CHECK(num_head > 0 && D % num_head == 0, "`embed_dim` must divide evenly by `num_heads`");
  const int64_t B = query.size(0), T = query.size(1), H = num_head, dh = D / num_head;
  if (B * T * D == 0) {  // ATen: an empty qkv gives (empty_like(query), undefined)
    return {call<ops::empty>(query.sizes().vec(), arg<"dtype"> = query.dtype(), arg<"device"> = query.device()),
            Tensor()};
  }
  // 1. the projections [B, T, D] each, plus their biases; q scaled
  const auto part = [&](const Tensor& t, int64_t i) { return call<ops::narrow>(t, int64_t{0}, i * D, D); };
  const double inv_sqrt = 1.0 / std::sqrt(static_cast<double>(static_cast<float>(dh)));
  Tensor q = call<ops::linear>(query, part(qkv_weight, 0), std::optional<Tensor>(part(qkv_bias, 0)));
  q = call<ops::mul_scalar::functional>(q, Scalar(inv_sqrt));
  Tensor k = call<ops::linear>(key, part(qkv_weight, 1), std::optional<Tensor>(part(qkv_bias, 1)));
  Tensor v = call<ops::linear>(value, part(qkv_weight, 2), std::optional<Tensor>(part(qkv_bias, 2)));
  // 2. per head [B * H, T, dh]; scores q k^T [B, H, T, T]; softmax
  q = split_heads(q, B, T, H, dh);
  k = split_heads(k, B, T, H, dh);
  v = split_heads(v, B, T, H, dh);
  const int64_t bhtt[] = {B, H, T, T}, flat[] = {B * H, T, T};
  Tensor scores = call<ops::view>(call<ops::bmm>(q, call<ops::transpose>(k, int64_t{1}, int64_t{2})), ints(bhtt));
  scores = masked_softmax(scores, mask, mask_type);
  // 3. the context [B * H, T, dh] -> [B, T, D]; the output projection
  const int64_t bhtd[] = {B, H, T, dh}, perm[] = {0, 2, 1, 3}, btd[] = {B, T, D};
  Tensor ctx = call<ops::view>(call<ops::bmm>(call<ops::view>(scores, ints(flat)), v), ints(bhtd));
  ctx = call<ops::contiguous>(call<ops::permute>(ctx, ints(perm)), MemoryFormat::Contiguous);
  Tensor out = call<ops::linear>(call<ops::view>(ctx, ints(btd)), proj_weight, std::optional<Tensor>(proj_bias));
  if (!need_weights) return {std::move(out), Tensor()};
  if (average_attn_weights) {
    const int64_t dim1[] = {1};
    scores = call<ops::sum_dim>(scores, std::optional<ints>(ints(dim1)), false, std::nullopt);
    scores = call<ops::div_scalar::functional>(scores, Scalar(num_head));
  }
  return {std::move(out), std::move(scores)};
}

// ATen 1.13's transformer_encoder_layer_forward, composed.
inline Tensor encoder_layer(const Tensor& src, int64_t embed_dim, int64_t num_heads, const Tensor& qkv_weight,
                            const Tensor& qkv_bias, const Tensor& proj_weight, const Tensor& proj_bias, bool use_gelu,
                            bool norm_first, double eps, const Tensor& norm_weight_1, const Tensor& norm_bias_1,
                            const Tensor& norm_weight_2, const Tensor& norm_bias_2, const Tensor& ffn_weight_1,
                            const Tensor& ffn_bias_1, const Tensor& ffn_weight_2, const Tensor& ffn_bias_2,
                            const std::optional<Tensor>& mask, std::optional<int64_t> mask_type) {
  check_defined(src, "aten::_transformer_encoder_layer_fwd", "src");
  if (src.numel() == 0) return call<ops::clone>(src, std::nullopt);
  const int64_t shape[] = {embed_dim};
  const auto norm = [&](const Tensor& x, const Tensor& w, const Tensor& b) {
    return call<ops::layer_norm>(x, ints(shape), std::optional<Tensor>(w), std::optional<Tensor>(b), eps, true);
  };
  const auto add = [](const Tensor& a, const Tensor& b) { return call<ops::add::functional>(a, b, Scalar(1)); };
  Tensor x = norm_first ? norm(src, norm_weight_1, norm_bias_1) : src;
  x = std::get<0>(multi_head_attention(x, x, x, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias,
                                       mask, false, true, mask_type));
  x = add(x, src);
  if (!norm_first) x = norm(x, norm_weight_1, norm_bias_1);
  const Tensor pre_ffn = x;
  if (norm_first) x = norm(x, norm_weight_2, norm_bias_2);
  x = call<ops::linear>(x, ffn_weight_1, std::optional<Tensor>(ffn_bias_1));
  x = use_gelu ? call<ops::gelu::functional>(x, std::string_view("none")) : call<ops::relu>(x);
  x = call<ops::linear>(x, ffn_weight_2, std::optional<Tensor>(ffn_bias_2));
  x = add(x, pre_ffn);
  if (!norm_first) x = norm(x, norm_weight_2, norm_bias_2);
  return x;
}

}  // namespace transformer_detail

OPD_FUNC RegistrationSet register_transformer() {
  namespace t = transformer_detail;
  RegistrationSet set;
  constexpr DispatchKey composite = DispatchKey::CompositeExplicitAutograd;
  set.add(register_kernel<ops::native_multi_head_attention, &t::multi_head_attention>(composite));
  set.add(register_kernel<ops::transformer_encoder_layer_fwd, &t::encoder_layer>(composite));
  return set;
}

}  // namespace opd::kernels
