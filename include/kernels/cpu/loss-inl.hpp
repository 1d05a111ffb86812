#pragma once
// Out-of-line part of loss.hpp (compiled in src/kernels/loss.cpp).
//
// Both families run one loop over a (batch, classes, map) layout: nll_loss's
// (N, C) is map 1 (a 1-D input one sample), nll_loss2d's (N, C, H, W) is
// map H * W. Targets are read into Long first (Byte widened), checked, and
// only then is anything written.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dispatch/core/bfloat16.hpp"
#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/loss.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels {

namespace loss_detail {

enum Reduction : int64_t { None = 0, Mean = 1 };  // anything else sums, as ATen

struct Layout {
  int64_t batch, classes, map;
  int64_t samples() const { return batch * map; }
};

inline void check_defined(const char* op, const Tensor& t, const char* arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
  OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": the CPU kernel got argument '", arg, "' on device ",
            t.device());
}
inline const Tensor* weight_of(const std::optional<Tensor>& w) { return w && w->defined() ? &*w : nullptr; }
inline Tensor contiguous_of(const Tensor& t) { return t.is_contiguous() ? t : contiguous_clone(t); }

// ATen's checks of nll_loss_forward / nll_loss_backward (LossNLL.cpp's meta functions).
inline Layout check_nll(const Tensor& self, const Tensor& target, const Tensor* weight, bool forward) {
  OPD_CHECK(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  OPD_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch_dim = self.dim() == 1 && target.dim() == 0;
  OPD_CHECK(no_batch_dim || self.size(0) == target.size(0), "size mismatch (got input: ", self.sizes(),
            ", target: ", target.sizes(), ")");
  const int64_t classes = self.size(-1);
  if (forward) {
    OPD_CHECK(weight == nullptr || (weight->dim() == 1 && weight->numel() == classes),
              "weight tensor should be defined either for all ", classes,
              " classes or no classes but got weight tensor of shape: ", weight->sizes());
  } else {
    OPD_CHECK(weight == nullptr || weight->numel() == classes,
              "weight tensor should be defined either for all or no classes");
  }
  return {self.dim() == 1 ? 1 : self.size(0), classes, 1};
}

// ATen's check_inputs_nll_loss2d.
inline Layout check_nll2d(const Tensor& self, const Tensor& target, const Tensor* weight) {
  OPD_CHECK(target.dim() == 3,
            "only batches of spatial targets supported (3D tensors) but got targets of dimension: ", target.dim());
  OPD_CHECK(self.dim() == 4,
            "only batches of spatial inputs supported (4D tensors), but got input of dimension: ", self.dim());
  OPD_CHECK(weight == nullptr || weight->numel() == self.size(1),
            "weight tensor should be defined either for all or no classes");
  OPD_CHECK(self.size(0) == target.size(0) && self.size(2) == target.size(1) && self.size(3) == target.size(2),
            "size mismatch (got input: ", self.sizes(), " , target: ", target.sizes());
  return {self.size(0), self.size(1), self.size(2) * self.size(3)};
}

// ATen's check_dim_size.
inline void check_dim_size(const Tensor& t, int64_t dim, int64_t d, int64_t size) {
  OPD_CHECK(t.dim() == dim && t.size(d) == size, "Expected a tensor of dimension ", dim, " and tensor.size[", d,
            "] == ", size, " but got: dimension ", t.dim(), " and tensor.size[", d, "] = ",
            t.dim() > d ? t.size(d) : int64_t{0});
}

// data_ptr<scalar_t>'s check in ATen's frames: every tensor read is of the loop's dtype.
inline void check_dtype(const Tensor& t, ScalarType expected) {
  OPD_CHECK(t.dtype() == expected, "expected scalar type ", expected, " but found ", t.dtype());
}
inline void check_floating(const char* frame, ScalarType dt) {
  if (dt != ScalarType::Float && dt != ScalarType::Double && dt != ScalarType::BFloat16)
    throw_not_implemented_for(frame, dt);
}

// The first `count` targets as Long (nll_loss also takes Byte; anything else is
// read as Long by ATen, whose data_ptr refuses it), each checked. A contiguous
// Long target is read in place; others are converted once.
struct Targets {
  Tensor storage;               // keeps a contiguous copy alive
  std::vector<int64_t> widened;  // Byte targets as Long
  const int64_t* data = nullptr;
  int64_t operator[](int64_t i) const { return data[i]; }
};
inline Targets read_targets(const Tensor& target, int64_t count, bool byte_ok, int64_t classes, int64_t ignore_index) {
  const bool byte = byte_ok && target.dtype() == ScalarType::Byte;
  if (!byte) check_dtype(target, ScalarType::Long);
  Targets out;
  out.storage = contiguous_of(target);
  if (byte) {
    const uint8_t* b = out.storage.data_ptr<uint8_t>();
    out.widened.assign(b, b + count);
    out.data = out.widened.data();
  } else {
    out.data = count > 0 ? out.storage.data_ptr<int64_t>() : nullptr;
  }
  for (int64_t i = 0; i < count; ++i) {
    const int64_t v = out.data[i];
    if (v != ignore_index && (v < 0 || v >= classes)) [[unlikely]]
      OPD_CHECK_INDEX(false, "Target ", v, " is out of bounds.");
  }
  return out;
}

template <class T>
T from_count(int64_t c) {
  if constexpr (std::is_same_v<T, BFloat16>) return T(static_cast<float>(c));
  else return static_cast<T>(c);
}

// The forward loop. Unreduced: one loss per sample. Reduced: ATen's cascade
// sum (partial sums folded up a level every 2^level_power samples), so that
// the rounding is ATen's; each step rounded to T as ATen's arithmetic in T.
template <class T>
void forward_frame(const Layout& l, const T* x, const Targets& tgt, const T* w, int64_t reduction,
                   int64_t ignore_index, bool unreduced, T* out, T* total) {
  const int64_t n = l.samples();
  *total = T(0);
  if (unreduced) {
    for (int64_t b = 0, i = 0; b < l.batch; ++b) {
      const T* xb = x + b * l.classes * l.map;
      for (int64_t e = 0; e < l.map; ++e, ++i) {
        const int64_t t = tgt[i];
        out[i] = t == ignore_index ? T(0) : T(T(-xb[t * l.map + e]) * (w != nullptr ? w[t] : T(1)));
      }
    }
    return;
  }
  constexpr int64_t levels = 8;
  const int64_t ceil_log2 = n <= 2 ? 1 : static_cast<int64_t>(std::bit_width(static_cast<uint64_t>(n - 1)));
  const int64_t level_power = std::max<int64_t>(4, ceil_log2 / levels);
  const int64_t level_mask = (int64_t{1} << level_power) - 1;
  T wsum[levels], lsum[levels];
  std::fill(wsum, wsum + levels, T(0));
  std::fill(lsum, lsum + levels, T(0));
  int64_t ignored = 0;
  for (int64_t b = 0, i = 0; b < l.batch; ++b) {
    const T* xb = x + b * l.classes * l.map;
    for (int64_t e = 0; e < l.map; ++e, ++i) {
      const int64_t t = tgt[i];
      if (t == ignore_index) {
        ++ignored;
        continue;
      }
      const T v = xb[t * l.map + e];
      if (w != nullptr) {
        lsum[0] = T(lsum[0] - T(v * w[t]));
        wsum[0] = T(wsum[0] + w[t]);
      } else {
        lsum[0] = T(lsum[0] - v);
      }
      for (int64_t j = 0; j + 1 < levels; ++j) {
        if ((i & (level_mask << (j * level_power))) != 0) break;
        wsum[j + 1] = T(wsum[j + 1] + wsum[j]);
        lsum[j + 1] = T(lsum[j + 1] + lsum[j]);
        wsum[j] = T(0);
        lsum[j] = T(0);
      }
    }
  }
  T weight_total = T(0), loss = T(0);
  for (int64_t j = 0; j < levels; ++j) {
    weight_total = T(weight_total + wsum[j]);
    loss = T(loss + lsum[j]);
  }
  *total = w != nullptr ? weight_total : from_count<T>(n - ignored);
  *out = reduction == Mean ? T(loss / *total) : loss;
}

// The backward loop: each sample's block of grad_input zeroed, then
// -w[t] * grad_output at its target (divided by total_weight for mean).
// Threads split the batch, and each writes the targets of the blocks it has
// just zeroed. Before, zeros ran on all threads and the target writes on one,
// which then wrote into lines the other threads had just filled: on all
// threads 56 us against ATen's 25 over [1000, 1000], where zeros alone took
// 20 (2026-11-29 08:43 run); one thread, 40 -> 32 us with this loop.
template <class T>
void backward_frame(const Layout& l, T* gi, const T* go, const Targets& tgt, const T* w,
                    int64_t reduction, int64_t ignore_index, bool unreduced, const T* total) {
  T grad = T(0);
  if (!unreduced) grad = T(-(reduction == Mean ? T(*go / *total) : *go));
  const int64_t block = l.classes * l.map;
  parallel_for(0, l.batch, std::max<int64_t>(1, grain_size / std::max<int64_t>(1, block)), [&](int64_t begin, int64_t end) {
    std::fill(gi + begin * block, gi + end * block, T(0));
    for (int64_t b = begin; b < end; ++b) {
      T* gb = gi + b * block;
      for (int64_t e = 0, i = b * l.map; e < l.map; ++e, ++i) {
        const int64_t t = tgt[i];
        if (t == ignore_index) continue;
        T& dst = gb[t * l.map + e];
        if (unreduced) dst = T(T(-(w != nullptr ? w[t] : T(1))) * go[i]);
        else dst = w != nullptr ? T(w[t] * grad) : grad;
      }
    }
  });
}

template <class F>
void dispatch_floating(ScalarType dt, F&& f) {
  if (dt == ScalarType::Float) f(float{});
  else if (dt == ScalarType::Double) f(double{});
  else f(BFloat16{});
}

// One forward: checks, then the loop. `unreduced`: reduction none over a batch.
inline std::tuple<Tensor, Tensor> forward(const char* frame, bool spatial, const Tensor& self, const Tensor& target,
                                          const std::optional<Tensor>& weight_opt, int64_t reduction,
                                          int64_t ignore_index) {
  const char* op = spatial ? "nll_loss2d_forward" : "nll_loss_forward";
  check_defined(op, self, "self");
  check_defined(op, target, "target");
  const Tensor* weight = weight_of(weight_opt);
  if (weight != nullptr) check_defined(op, *weight, "weight");
  const Layout l = spatial ? check_nll2d(self, target, weight) : check_nll(self, target, weight, true);
  const bool unreduced = reduction == None && self.dim() >= 2;
  std::vector<int64_t> out_sizes;
  if (unreduced) {
    out_sizes.push_back(self.size(0));
    if (spatial) out_sizes.insert(out_sizes.end(), {self.size(2), self.size(3)});
  }
  const ScalarType dt = self.dtype();
  const Device device = self.is_meta() ? Device::meta() : Device::cpu();
  Tensor output = opd::empty(out_sizes, dt, device), total_weight = opd::empty({}, dt, device);
  if (self.is_meta()) return {output, total_weight};
  check_floating(frame, dt);
  if (weight != nullptr) check_dtype(*weight, dt);
  const bool empty_target = !unreduced && target.numel() == 0;
  const Targets tgt = read_targets(target, empty_target ? 0 : l.samples(), !spatial, l.classes, ignore_index);
  const Tensor x = contiguous_of(self);
  const Tensor w = weight != nullptr ? contiguous_of(*weight) : Tensor();
  dispatch_floating(dt, [&](auto zero) {
    using T = decltype(zero);
    if (empty_target) {  // ATen: NaN for mean (0 / 0), 0 otherwise
      *output.data_ptr<T>() = reduction == Mean ? T(std::numeric_limits<float>::quiet_NaN()) : T(0);
      *total_weight.data_ptr<T>() = T(0);
      return;
    }
    forward_frame<T>(l, x.data_ptr<T>(), tgt, w.defined() ? w.data_ptr<T>() : nullptr, reduction, ignore_index,
                     unreduced, output.data_ptr<T>(), total_weight.data_ptr<T>());
  });
  return {output, total_weight};
}

inline Tensor backward(const char* frame, bool spatial, const Tensor& grad_output, const Tensor& self,
                       const Tensor& target, const std::optional<Tensor>& weight_opt, int64_t reduction,
                       int64_t ignore_index, const Tensor& total_weight) {
  const char* op = spatial ? "nll_loss2d_backward" : "nll_loss_backward";
  check_defined(op, grad_output, "grad_output");
  check_defined(op, self, "self");
  check_defined(op, target, "target");
  check_defined(op, total_weight, "total_weight");
  const Tensor* weight = weight_of(weight_opt);
  if (weight != nullptr) check_defined(op, *weight, "weight");
  const Layout l = spatial ? check_nll2d(self, target, weight) : check_nll(self, target, weight, false);
  OPD_CHECK(total_weight.numel() == 1, "expected total_weight to be a  single element tensor, got: ",
            total_weight.sizes(), " (", total_weight.numel(), " elements)");
  const bool unreduced = reduction == None && self.dim() >= 2;
  if (unreduced && spatial) {
    check_dim_size(grad_output, 3, 0, self.size(0));
    check_dim_size(grad_output, 3, 1, self.size(2));
    check_dim_size(grad_output, 3, 2, self.size(3));
  } else if (unreduced) {
    check_dim_size(grad_output, 1, 0, self.size(0));
  } else {
    OPD_CHECK(grad_output.dim() <= 1 && grad_output.numel() == 1,
              "Expected a single element grad_output tensor, but got: ", grad_output.sizes());
  }
  const ScalarType dt = self.dtype();
  if (self.is_meta()) return opd::empty(self.sizes(), dt, Device::meta());
  check_floating(frame, dt);
  check_dtype(grad_output, dt);
  if (weight != nullptr) check_dtype(*weight, dt);
  if (!unreduced) check_dtype(total_weight, dt);
  if (target.numel() == 0) return kernels::zeros(self.sizes(), dt, Device::cpu());  // (a 1-D input of 0 classes counts one sample, with no target)
  const Targets tgt = read_targets(target, l.samples(), !spatial, l.classes, ignore_index);
  const Tensor go = contiguous_of(grad_output);
  const Tensor w = weight != nullptr ? contiguous_of(*weight) : Tensor();
  Tensor grad_input = opd::empty(self.sizes(), dt, Device::cpu());  // zeroed by backward_frame
  dispatch_floating(dt, [&](auto zero) {
    using T = decltype(zero);
    backward_frame<T>(l, grad_input.data_ptr<T>(), go.data_ptr<T>(), tgt, w.defined() ? w.data_ptr<T>() : nullptr,
                      reduction, ignore_index, unreduced, unreduced ? nullptr : total_weight.data_ptr<T>());
  });
  return grad_input;
}

}  // namespace loss_detail

OPD_FUNC std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                                     const std::optional<Tensor>& weight, int64_t reduction,
                                                     int64_t ignore_index) {
  return loss_detail::forward("nll_loss_out_frame", false, self, target, weight, reduction, ignore_index);
}
OPD_FUNC Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                  const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                  const Tensor& total_weight) {
  return loss_detail::backward("nll_loss_backward_out_frame", false, grad_output, self, target, weight, reduction,
                               ignore_index, total_weight);
}
OPD_FUNC std::tuple<Tensor, Tensor> nll_loss2d_forward(const Tensor& self, const Tensor& target,
                                                       const std::optional<Tensor>& weight, int64_t reduction,
                                                       int64_t ignore_index) {
  return loss_detail::forward("nll_loss2d_forward_out_frame", true, self, target, weight, reduction, ignore_index);
}
OPD_FUNC Tensor nll_loss2d_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                    const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                    const Tensor& total_weight) {
  return loss_detail::backward("nll_loss2d_backward_out_frame", true, grad_output, self, target, weight, reduction,
                               ignore_index, total_weight);
}

}  // namespace opd::kernels
