#pragma once
// Out-of-line part of onednn_conv.hpp (compiled in src/kernels/onednn_conv.cpp).
// One primitive per shape, created once and kept (a mutex-guarded map), with
// the reorders between the plain layouts of opd's tensors and the blocked
// ones oneDNN picks (tag::any), as ATen's ideep path does per call.
#include <cstdint>
#include <optional>
#include <span>

#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/onednn_conv.hpp"
#include "kernels/cpu/scratch-inl.hpp"

#if defined(OPD_WITH_ONEDNN)
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace opd::kernels::detail {

#if defined(OPD_WITH_ONEDNN)
namespace onednn {

struct Conv2d {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward conv;
  dnnl::memory::desc user_src, user_weights, user_dst;
  std::optional<dnnl::reorder> to_src, to_weights, from_dst;  // when oneDNN's layout differs from the plain one
};

inline dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

inline const Conv2d& primitive(const std::vector<int64_t>& key, bool has_bias) {
  static std::mutex mu;
  static std::map<std::vector<int64_t>, std::unique_ptr<Conv2d>> cache;
  const std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  using dims = dnnl::memory::dims;
  using tag = dnnl::memory::format_tag;
  constexpr auto f32 = dnnl::memory::data_type::f32;
  // key: n, c, h, w, o, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw, groups, has_bias
  const int64_t groups = key[15];
  // Grouped weights are (g, o/g, c/g, kh, kw): the same bytes as opd's (o, c/g, kh, kw).
  const dims src{key[0], key[1], key[2], key[3]},
      weights = groups == 1 ? dims{key[4], key[1], key[5], key[6]}
                            : dims{groups, key[4] / groups, key[1] / groups, key[5], key[6]},
      dst{key[0], key[4], key[7], key[8]}, strides{key[9], key[10]}, pad_l{key[11], key[12]},
      dilates{key[13] - 1, key[14] - 1};  // oneDNN counts the gaps
  // The right padding that gives ATen's output size (floor division drops the rest).
  const dims pad_r{(key[7] - 1) * key[9] + (key[5] - 1) * key[13] + 1 - key[2] - key[11],
                   (key[8] - 1) * key[10] + (key[6] - 1) * key[14] + 1 - key[3] - key[12]};
  const dnnl::memory::desc src_any(src, f32, tag::any), weights_any(weights, f32, tag::any), dst_any(dst, f32, tag::any);
  // forward_training, as ATen's ideep path asks: oneDNN 2.6 then picks its jit:avx512_core
  // kernels on blocked layouts; forward_inference picked brgconv on channels-last layouts,
  // which ran resnet18's 3x3 stride-2 layer ten times slower here (one thread).
  const auto desc = has_bias ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                                               dnnl::algorithm::convolution_direct, src_any,
                                                               weights_any, dnnl::memory::desc({key[4]}, f32, tag::x),
                                                               dst_any, strides, dilates, pad_l, pad_r)
                             : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                                               dnnl::algorithm::convolution_direct, src_any,
                                                               weights_any, dst_any, strides, dilates, pad_l, pad_r);
  auto c = std::make_unique<Conv2d>();
  c->pd = dnnl::convolution_forward::primitive_desc(desc, engine());
  c->conv = dnnl::convolution_forward(c->pd);
  c->user_src = dnnl::memory::desc(src, f32, tag::nchw);
  c->user_weights = dnnl::memory::desc(weights, f32, groups == 1 ? tag::oihw : tag::goihw);
  c->user_dst = dnnl::memory::desc(dst, f32, tag::nchw);
  if (c->pd.src_desc() != c->user_src)
    c->to_src = dnnl::reorder(dnnl::reorder::primitive_desc(engine(), c->user_src, engine(), c->pd.src_desc()));
  if (c->pd.weights_desc() != c->user_weights)
    c->to_weights =
        dnnl::reorder(dnnl::reorder::primitive_desc(engine(), c->user_weights, engine(), c->pd.weights_desc()));
  if (c->pd.dst_desc() != c->user_dst)
    c->from_dst = dnnl::reorder(dnnl::reorder::primitive_desc(engine(), c->pd.dst_desc(), engine(), c->user_dst));
  return *cache.emplace(key, std::move(c)).first->second;
}

// The memory descriptors of a key's convolution (see primitive()).
struct Descs {
  dnnl::memory::dims src, weights, dst, strides, dilates, pad_l, pad_r;
  dnnl::memory::desc user_src, user_weights, user_dst;
};
inline Descs descs(const std::vector<int64_t>& key) {
  using dims = dnnl::memory::dims;
  using tag = dnnl::memory::format_tag;
  constexpr auto f32 = dnnl::memory::data_type::f32;
  const int64_t groups = key[15];
  Descs d;
  d.src = dims{key[0], key[1], key[2], key[3]};
  d.weights = groups == 1 ? dims{key[4], key[1], key[5], key[6]}
                          : dims{groups, key[4] / groups, key[1] / groups, key[5], key[6]};
  d.dst = dims{key[0], key[4], key[7], key[8]};
  d.strides = dims{key[9], key[10]};
  d.pad_l = dims{key[11], key[12]};
  d.dilates = dims{key[13] - 1, key[14] - 1};
  d.pad_r = dims{(key[7] - 1) * key[9] + (key[5] - 1) * key[13] + 1 - key[2] - key[11],
                 (key[8] - 1) * key[10] + (key[6] - 1) * key[14] + 1 - key[3] - key[12]};
  d.user_src = dnnl::memory::desc(d.src, f32, tag::nchw);
  d.user_weights = dnnl::memory::desc(d.weights, f32, groups == 1 ? tag::oihw : tag::goihw);
  d.user_dst = dnnl::memory::desc(d.dst, f32, tag::nchw);
  return d;
}

// One operand of a backward primitive: the plain layout of opd's tensor, the
// primitive's, and the reorder between them (into the primitive's layout for
// an input, out of it for an output) when they differ.
struct Operand {
  int arg = 0;
  bool output = false;
  dnnl::memory::desc user, inner;
  std::optional<dnnl::reorder> reorder;
};
inline Operand operand(int arg, bool output, const dnnl::memory::desc& user, const dnnl::memory::desc& inner) {
  Operand o{arg, output, user, inner, std::nullopt};
  if (user != inner)
    o.reorder = dnnl::reorder(output ? dnnl::reorder::primitive_desc(engine(), inner, engine(), user)
                                     : dnnl::reorder::primitive_desc(engine(), user, engine(), inner));
  return o;
}

struct Conv2dBackward {
  dnnl::primitive prim;
  std::vector<Operand> operands;
};

// The backward-data (`weights` false) or backward-weights primitive of a
// key's convolution, created once and kept; the forward primitive
// (primitive()) is oneDNN's hint.
inline const Conv2dBackward& backward_primitive(const std::vector<int64_t>& key, bool weights) {
  static std::mutex mu;
  static std::map<std::pair<std::vector<int64_t>, bool>, std::unique_ptr<Conv2dBackward>> cache;
  const bool has_bias = key[16] != 0;
  const Conv2d& fwd = primitive(key, has_bias);  // takes its own lock first
  const std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find({key, weights});
  if (it != cache.end()) return *it->second;
  using tag = dnnl::memory::format_tag;
  constexpr auto f32 = dnnl::memory::data_type::f32;
  constexpr auto direct = dnnl::algorithm::convolution_direct;
  const Descs d = descs(key);
  const dnnl::memory::desc src_any(d.src, f32, tag::any), weights_any(d.weights, f32, tag::any),
      dst_any(d.dst, f32, tag::any);
  auto b = std::make_unique<Conv2dBackward>();
  if (!weights) {
    const dnnl::convolution_backward_data::primitive_desc pd(
        dnnl::convolution_backward_data::desc(direct, src_any, weights_any, dst_any, d.strides, d.dilates, d.pad_l,
                                              d.pad_r),
        engine(), fwd.pd);
    b->prim = dnnl::convolution_backward_data(pd);
    b->operands = {operand(DNNL_ARG_DIFF_DST, false, d.user_dst, pd.diff_dst_desc()),
                   operand(DNNL_ARG_WEIGHTS, false, d.user_weights, pd.weights_desc()),
                   operand(DNNL_ARG_DIFF_SRC, true, d.user_src, pd.diff_src_desc())};
  } else {
    const dnnl::memory::desc bias({key[4]}, f32, tag::x);
    const auto desc = has_bias ? dnnl::convolution_backward_weights::desc(direct, src_any, weights_any, bias, dst_any,
                                                                          d.strides, d.dilates, d.pad_l, d.pad_r)
                               : dnnl::convolution_backward_weights::desc(direct, src_any, weights_any, dst_any,
                                                                          d.strides, d.dilates, d.pad_l, d.pad_r);
    const dnnl::convolution_backward_weights::primitive_desc pd(desc, engine(), fwd.pd);
    b->prim = dnnl::convolution_backward_weights(pd);
    b->operands = {operand(DNNL_ARG_DIFF_DST, false, d.user_dst, pd.diff_dst_desc()),
                   operand(DNNL_ARG_SRC, false, d.user_src, pd.src_desc()),
                   operand(DNNL_ARG_DIFF_WEIGHTS, true, d.user_weights, pd.diff_weights_desc())};
    if (has_bias) b->operands.push_back(operand(DNNL_ARG_DIFF_BIAS, true, bias, pd.diff_bias_desc()));
  }
  return *cache.emplace(std::make_pair(key, weights), std::move(b)).first->second;
}

// Runs backward primitives, one after the other, on plain buffers
// (data[i] for operands[i]): the reordered copies in the thread's scratch
// block, inputs reordered before, outputs after; an input that two
// primitives take in the same layout (grad_output) reordered once.
struct Call {
  const Conv2dBackward& b;
  std::vector<void*> data;
};
inline void run(std::initializer_list<Call> calls) {
  dnnl::engine& eng = engine();
  dnnl::stream stream(eng);
  const auto rounded = [](std::size_t n) { return (n + 63) / 64 * 64; };
  std::size_t bytes = 0;
  for (const Call& c : calls)
    for (const Operand& o : c.b.operands) bytes += o.reorder ? rounded(o.inner.get_size()) : 0;
  const Scratch scratch(bytes);
  char* at = static_cast<char*>(scratch.data());
  std::vector<std::pair<void*, dnnl::memory>> reordered;  // inputs already in a primitive's layout
  for (const Call& c : calls) {
    std::unordered_map<int, dnnl::memory> args;
    std::vector<std::pair<const Operand*, std::pair<dnnl::memory, dnnl::memory>>> outputs;
    auto p = c.data.begin();
    for (const Operand& o : c.b.operands) {
      void* const data = *p++;
      dnnl::memory user(o.user, eng, data);
      if (!o.reorder) {
        args.emplace(o.arg, user);
        continue;
      }
      if (!o.output) {
        bool found = false;
        for (const auto& [ptr, mem] : reordered) {
          if (ptr == data && mem.get_desc() == o.inner) {
            args.emplace(o.arg, mem);
            found = true;
            break;
          }
        }
        if (found) continue;
      }
      dnnl::memory inner(o.inner, eng, at);
      at += rounded(o.inner.get_size());
      if (o.output) {
        outputs.push_back({&o, {inner, user}});
      } else {
        o.reorder->execute(stream, user, inner);
        reordered.emplace_back(data, inner);
      }
      args.emplace(o.arg, inner);
    }
    c.b.prim.execute(stream, args);
    for (auto& [o, mem] : outputs) o->reorder->execute(stream, mem.first, mem.second);
  }
  stream.wait();
}

inline std::vector<int64_t> key_of(const Tensor& x, const Tensor& w, const Tensor& y, std::span<const int64_t> stride,
                                   std::span<const int64_t> padding, std::span<const int64_t> dilation, int64_t groups,
                                   bool has_bias) {
  return {x.size(0),   x.size(1),   x.size(2),  x.size(3),   w.size(0), w.size(2),  w.size(3),
          y.size(2),   y.size(3),   stride[0],  stride[1],   padding[0], padding[1], dilation[0],
          dilation[1], groups,      has_bias ? 1 : 0};
}

}  // namespace onednn

OPD_FUNC bool onednn_conv2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias, const Tensor& out,
                            std::span<const int64_t> stride, std::span<const int64_t> padding,
                            std::span<const int64_t> dilation, int64_t groups) {
  const std::vector<int64_t> key{x.size(0),   x.size(1),   x.size(2),  x.size(3),  w.size(0),   w.size(2),
                                 w.size(3),   out.size(2), out.size(3), stride[0], stride[1],   padding[0],
                                 padding[1],  dilation[0], dilation[1], groups,
                                 bias.has_value() && bias->defined() ? 1 : 0};  // (a primitive made with a bias needs one)
  const bool has_bias = key.back() != 0;
  const onednn::Conv2d& c = onednn::primitive(key, has_bias);
  dnnl::engine& eng = onednn::engine();
  dnnl::stream stream(eng);
  dnnl::memory user_src(c.user_src, eng, x.data_ptr()), user_weights(c.user_weights, eng, w.data_ptr()),
      user_dst(c.user_dst, eng, out.data_ptr());
  // The reordered copies in the thread's scratch block (scratch-inl.hpp): fresh
  // buffers cost a page fault per 4 KB on every call (mobilenet_v2's depthwise
  // layers at batch 8 reorder up to 38 MB each).
  const auto rounded = [](std::size_t n) { return (n + 63) / 64 * 64; };
  const std::size_t src_bytes = c.to_src ? rounded(c.pd.src_desc().get_size()) : 0,
                    weights_bytes = c.to_weights ? rounded(c.pd.weights_desc().get_size()) : 0,
                    dst_bytes = c.from_dst ? rounded(c.pd.dst_desc().get_size()) : 0;
  const Scratch scratch(src_bytes + weights_bytes + dst_bytes);
  char* const base = static_cast<char*>(scratch.data());
  dnnl::memory src = user_src, weights = user_weights, dst = user_dst;
  if (c.to_src) {
    src = dnnl::memory(c.pd.src_desc(), eng, base);
    c.to_src->execute(stream, user_src, src);
  }
  if (c.to_weights) {
    weights = dnnl::memory(c.pd.weights_desc(), eng, base + src_bytes);
    c.to_weights->execute(stream, user_weights, weights);
  }
  if (c.from_dst) dst = dnnl::memory(c.pd.dst_desc(), eng, base + src_bytes + weights_bytes);
  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
  Tensor b;
  if (has_bias) {
    b = bias->stride(0) == 1 ? *bias : contiguous_clone(*bias);
    args.emplace(DNNL_ARG_BIAS, dnnl::memory(dnnl::memory::desc({w.size(0)}, dnnl::memory::data_type::f32,
                                                                dnnl::memory::format_tag::x),
                                             eng, b.data_ptr()));
  }
  c.conv.execute(stream, args);
  if (c.from_dst) c.from_dst->execute(stream, dst, user_dst);
  stream.wait();
  return true;
}

OPD_FUNC bool onednn_conv2d_backward(const Tensor& grad_output, const Tensor& x, const Tensor& w,
                                     const Tensor& grad_input, const Tensor& grad_weight, const Tensor& grad_bias,
                                     std::span<const int64_t> stride, std::span<const int64_t> padding,
                                     std::span<const int64_t> dilation, int64_t groups) {
  const bool has_bias = grad_weight.defined() && grad_bias.defined();
  const auto key = onednn::key_of(x, w, grad_output, stride, padding, dilation, groups, has_bias);
  void* const go = grad_output.data_ptr();
  if (grad_input.defined() && grad_weight.defined()) {
    std::vector<void*> weights_data{go, x.data_ptr(), grad_weight.data_ptr()};
    if (has_bias) weights_data.push_back(grad_bias.data_ptr());
    onednn::run({{onednn::backward_primitive(key, false), {go, w.data_ptr(), grad_input.data_ptr()}},
                 {onednn::backward_primitive(key, true), std::move(weights_data)}});
  } else if (grad_input.defined()) {
    onednn::run({{onednn::backward_primitive(key, false), {go, w.data_ptr(), grad_input.data_ptr()}}});
  } else if (grad_weight.defined()) {
    std::vector<void*> weights_data{go, x.data_ptr(), grad_weight.data_ptr()};
    if (has_bias) weights_data.push_back(grad_bias.data_ptr());
    onednn::run({{onednn::backward_primitive(key, true), std::move(weights_data)}});
  }
  return true;
}
#else
OPD_FUNC bool onednn_conv2d_backward(const Tensor&, const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                     const Tensor&, std::span<const int64_t>, std::span<const int64_t>,
                                     std::span<const int64_t>, int64_t) {
  return false;
}
OPD_FUNC bool onednn_conv2d(const Tensor&, const Tensor&, const std::optional<Tensor>&, const Tensor&,
                            std::span<const int64_t>, std::span<const int64_t>, std::span<const int64_t>, int64_t) {
  return false;
}
#endif

}  // namespace opd::kernels::detail
