#pragma once
// Out-of-line part of batch_norm.hpp (compiled in src/kernels/batch_norm.cpp).
// The arithmetic follows ATen 1.13's batch_norm_cpu for contiguous input
// step by step (batch_norm_kernel.cpp: collect_stats, update_stats,
// collect_linear_and_constant_terms), so that float results agree to the
// last bit or two: the mean is a double sum over the channel rounded to T,
// the variance sum adds (x - mean)^2 computed in T to a double and is
// rounded to T, the inverse deviation is computed in double from
// T(var_sum) / N, and the normalization is x * alpha + beta in T.
// BFloat16 (compute_bfloat16) follows the same steps with ATen's BFloat16
// parameters: each stored statistic rounds to BFloat16 and the arithmetic
// combining them rounds at each step (c10's BFloat16 operators); alpha and
// beta are float and the output is x * alpha + beta fused into one rounding
// (ATen's vectorized loop, compiled with FMA), then rounded to BFloat16.
#include <cmath>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/batch_norm.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/parallel.hpp"
#include "structured/out_semantics.hpp"

namespace opd::kernels {

namespace batch_norm_detail {

inline const Tensor* present(const std::optional<Tensor>& t) { return t && t->defined() ? &*t : nullptr; }

inline void check_arg(const Tensor* t, const char* name, int64_t channels, ScalarType dtype) {
  if (t == nullptr) return;
  OPD_CHECK(t->device().is_cpu() || t->device().is_meta(), "native_batch_norm: the CPU kernel got argument '", name,
            "' on device ", t->device());
  OPD_CHECK(t->numel() == channels, name, " should contain ", channels, " elements not ", t->numel());
  OPD_CHECK(t->dtype() == dtype, "native_batch_norm: expected ", name, " to have dtype ", dtype, " (the input's), but got ",
            t->dtype());
}

// Element c of a 1-D tensor (any stride).
template <class T>
T at(const Tensor* t, int64_t c, T absent) {
  return t == nullptr ? absent : t->data_ptr<T>()[c * t->stride(0)];
}

// f(v) for each value of channel c of a contiguous (N, C, image) buffer, in memory order.
template <class T, class F>
void for_each_in_channel(const T* in, int64_t batch, int64_t channels, int64_t image, int64_t c, const F& f) {
  for (int64_t i = 0; i < batch; ++i) {
    const T* p = in + (i * channels + c) * image;
    for (int64_t j = 0; j < image; ++j) f(p[j]);
  }
}

// Channels per task of the per-channel pass: two reads of n values each in
// training; in inference a few operations on the running statistics, not
// worth a parallel region (a wake-up of a sleeping thread costs more).
inline int64_t statistics_grain(bool training, int64_t n) {
  return training ? std::max<int64_t>(1, grain_size / std::max<int64_t>(2 * n, 1)) : grain_size;
}

template <class T>
void compute(const Tensor& x, const Tensor* weight, const Tensor* bias, const Tensor* running_mean,
             const Tensor* running_var, bool training, double momentum, double eps, const Tensor& out,
             const Tensor& save_mean, const Tensor& save_invstd) {
  using acc = double;  // ATen's acc_type<T, /*is_cuda=*/false> for float and double
  const int64_t batch = x.size(0), channels = x.size(1);
  const int64_t image = batch * channels == 0 ? 0 : x.numel() / batch / channels;
  const int64_t n = batch * image;
  const T* in = x.data_ptr<T>();
  T* o = out.data_ptr<T>();
  std::vector<T> alpha(static_cast<std::size_t>(channels)), beta(static_cast<std::size_t>(channels));
  parallel_for(0, channels, statistics_grain(training, n), [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      T mean{}, invstd{};
      if (training) {
        acc sum = 0;
        for_each_in_channel(in, batch, channels, image, c, [&](T v) { sum += v; });
        mean = static_cast<T>(sum / static_cast<acc>(n));
        acc var_acc = 0;
        for_each_in_channel(in, batch, channels, image, c, [&](T v) {
          const T d = v - mean;
          var_acc += d * d;
        });
        const T var_sum = static_cast<T>(var_acc);
        const acc var = static_cast<acc>(var_sum / static_cast<T>(n));
        invstd = var != 0 || eps != 0 ? static_cast<T>(acc(1) / std::sqrt(var + eps)) : T(0);
        save_mean.data_ptr<T>()[c] = mean;
        save_invstd.data_ptr<T>()[c] = invstd;
        const T m = static_cast<T>(momentum);
        if (running_mean != nullptr) {
          T& r = running_mean->data_ptr<T>()[c * running_mean->stride(0)];
          r = m * mean + (T(1) - m) * r;
        }
        if (running_var != nullptr) {
          T& r = running_var->data_ptr<T>()[c * running_var->stride(0)];
          const acc unbiased = static_cast<acc>(var_sum / static_cast<T>(n - 1));
          r = static_cast<T>(m * unbiased + static_cast<acc>((T(1) - m) * r));
        }
      } else {
        mean = at<T>(running_mean, c, T(0));
        invstd = T(1) / std::sqrt(at<T>(running_var, c, T(0)) + static_cast<T>(eps));
      }
      const auto u = static_cast<std::size_t>(c);
      alpha[u] = invstd * at<T>(weight, c, T(1));
      beta[u] = at<T>(bias, c, T(0)) - mean * alpha[u];
    }
  });
  parallel_for(0, batch * channels, std::max<int64_t>(1, grain_size / std::max<int64_t>(image, 1)), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const auto c = static_cast<std::size_t>(p % channels);
      const T a = alpha[c], bb = beta[c];
      const T* src = in + p * image;
      T* dst = o + p * image;
      for (int64_t j = 0; j < image; ++j) dst[j] = src[j] * a + bb;
    }
  });
}

// ATen 1.13's BFloat16 batch norm, step by step; checked against libtorch
// on every statistic and output element (ModelsTorchDiff.NativeBatchNorm).
// ATen collects the statistics of a channels-last input, or of one value per
// channel and image (N, C, 1, ...), in two passes: the mean is stored as
// BFloat16 and the variance sums the squares around that rounded mean
// (`channels_last_pass`); other inputs' variance uses the float mean.
inline void compute_bfloat16(const Tensor& x, const Tensor* weight, const Tensor* bias, const Tensor* running_mean,
                             const Tensor* running_var, bool training, double momentum, double eps, const Tensor& out,
                             const Tensor& save_mean, const Tensor& save_invstd, bool channels_last_pass) {
  using B = BFloat16;
  const auto bf = [](float v) { return static_cast<float>(B(v)); };  // a BFloat16 operator's result
  const int64_t batch = x.size(0), channels = x.size(1);
  const int64_t image = batch * channels == 0 ? 0 : x.numel() / batch / channels;
  const int64_t n = batch * image;
  const B* in = x.data_ptr<B>();
  B* o = out.data_ptr<B>();
  std::vector<float> alpha(static_cast<std::size_t>(channels)), beta(static_cast<std::size_t>(channels));
  const float m = bf(static_cast<float>(momentum)), one_minus_m = bf(1.0f - m);
  parallel_for(0, channels, statistics_grain(training, n), [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      float mean = 0, invstd = 0;
      if (training) {
        double sum = 0;
        for_each_in_channel(in, batch, channels, image, c, [&](B v) { sum += static_cast<float>(v); });
        const float mean_f = static_cast<float>(sum / static_cast<double>(n));
        mean = bf(mean_f);
        const float center = channels_last_pass || image == 1 ? mean : mean_f;
        double var_acc = 0;
        for_each_in_channel(in, batch, channels, image, c, [&](B v) {
          const float d = static_cast<float>(v) - center;
          var_acc += static_cast<double>(d * d);
        });
        const float var_sum = bf(static_cast<float>(var_acc));
        const float var = bf(var_sum / bf(static_cast<float>(n)));  // BFloat16 / int64_t: the count as BFloat16
        invstd = var != 0 || eps != 0 ? bf(static_cast<float>(1.0 / std::sqrt(static_cast<double>(var) + eps))) : 0.0f;
        save_mean.data_ptr<B>()[c] = B(mean);
        save_invstd.data_ptr<B>()[c] = B(invstd);
        if (running_mean != nullptr) {
          B& r = running_mean->data_ptr<B>()[c * running_mean->stride(0)];
          r = B(bf(m * mean) + bf(one_minus_m * static_cast<float>(r)));
        }
        if (running_var != nullptr) {
          B& r = running_var->data_ptr<B>()[c * running_var->stride(0)];
          const float unbiased = bf(var_sum / bf(static_cast<float>(n - 1)));
          r = B(m * unbiased + bf(one_minus_m * static_cast<float>(r)));
        }
      } else {
        mean = static_cast<float>(at<B>(running_mean, c, B(0.0f)));
        invstd = 1.0f / std::sqrt(static_cast<float>(at<B>(running_var, c, B(0.0f))) + static_cast<float>(eps));
      }
      const auto u = static_cast<std::size_t>(c);
      alpha[u] = invstd * static_cast<float>(at<B>(weight, c, B(1.0f)));
      beta[u] = static_cast<float>(at<B>(bias, c, B(0.0f))) - mean * alpha[u];
    }
  });
  parallel_for(0, batch * channels, std::max<int64_t>(1, grain_size / std::max<int64_t>(image, 1)), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const auto c = static_cast<std::size_t>(p % channels);
      const double a = alpha[c], bb = beta[c];
      const B* src = in + p * image;
      B* dst = o + p * image;
      // float's fused multiply-add: the product of a BFloat16 and a float is
      // exact in double, the sum rounded once there and once to float.
      for (int64_t j = 0; j < image; ++j) dst[j] = B(static_cast<float>(static_cast<double>(src[j]) * a + bb));
    }
  });
}

}  // namespace batch_norm_detail

OPD_FUNC void native_batch_norm_out(const Tensor& input, const std::optional<Tensor>& weight_opt,
                                    const std::optional<Tensor>& bias_opt,
                                    const std::optional<Tensor>& running_mean_opt,
                                    const std::optional<Tensor>& running_var_opt, bool training, double momentum,
                                    double eps, const Tensor& out, const Tensor& save_mean,
                                    const Tensor& save_invstd) {
  using namespace batch_norm_detail;
  constexpr std::string_view op = "aten::native_batch_norm";
  OPD_CHECK(input.defined(), "native_batch_norm: argument 'input' is an undefined tensor");
  OPD_CHECK(input.device().is_cpu() || input.device().is_meta(), "native_batch_norm: the CPU kernel got argument "
            "'input' on device ", input.device());
  OPD_CHECK(input.dim() >= 2, "native_batch_norm: expected an input with at least 2 dimensions (N, C, ...), but got "
            "input of size ", input.sizes());
  const ScalarType dt = input.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double && dt != ScalarType::BFloat16)
    throw_not_implemented_for("batch_norm", dt);
  const int64_t channels = input.size(1);
  const Tensor *weight = present(weight_opt), *bias = present(bias_opt);
  const Tensor *running_mean = present(running_mean_opt), *running_var = present(running_var_opt);
  check_arg(weight, "weight", channels, dt);
  check_arg(bias, "bias", channels, dt);
  check_arg(running_mean, "running_mean", channels, dt);
  check_arg(running_var, "running_var", channels, dt);
  OPD_CHECK(training || (running_mean != nullptr && running_var != nullptr),
            "running_mean and running_var must be defined in evaluation mode");
  // One value per channel in training is computed, as ATen's kernel does (the unbiased
  // variance is 0/0: running_var becomes NaN); torch.nn.functional.batch_norm refuses it above.
  for (const Tensor* t : {&out, &save_mean, &save_invstd}) {
    structured_detail::check_out_device(op, input.device(), *t);
    OPD_CHECK(t->dtype() == dt, "native_batch_norm: expected out= tensors of dtype ", dt, ", but got ", t->dtype());
  }
  const int64_t stats = training ? channels : 0;
  structured_detail::resize_out(op, out, input.sizes(), MemoryFormat::Contiguous);
  structured_detail::resize_out(op, save_mean, IntArrayRef(&stats, 1), MemoryFormat::Contiguous);
  structured_detail::resize_out(op, save_invstd, IntArrayRef(&stats, 1), MemoryFormat::Contiguous);
  if (out.is_meta() || input.numel() == 0) return;
  const Tensor x = input.is_contiguous() ? input : contiguous_clone(input);
  // out is written last: a result computed into scratch when out is not contiguous.
  const Tensor dst = out.is_contiguous() ? out : opd::empty(input.sizes(), dt, Device::cpu());
  const Tensor sm = save_mean.is_contiguous() ? save_mean : opd::empty(IntArrayRef(&stats, 1), dt, Device::cpu());
  const Tensor si = save_invstd.is_contiguous() ? save_invstd : opd::empty(IntArrayRef(&stats, 1), dt, Device::cpu());
  if (dt == ScalarType::Float) {
    compute<float>(x, weight, bias, running_mean, running_var, training, momentum, eps, dst, sm, si);
  } else if (dt == ScalarType::BFloat16) {
    const bool channels_last = !input.is_contiguous() &&
                               ((input.dim() == 4 && input.is_contiguous(MemoryFormat::ChannelsLast)) ||
                                (input.dim() == 5 && input.is_contiguous(MemoryFormat::ChannelsLast3d)));
    compute_bfloat16(x, weight, bias, running_mean, running_var, training, momentum, eps, dst, sm, si, channels_last);
  } else {
    compute<double>(x, weight, bias, running_mean, running_var, training, momentum, eps, dst, sm, si);
  }
  if (!dst.is_same(out)) copy_elements(OperandRef::of(out), OperandRef::of(dst));
  if (!sm.is_same(save_mean)) copy_elements(OperandRef::of(save_mean), OperandRef::of(sm));
  if (!si.is_same(save_invstd)) copy_elements(OperandRef::of(save_invstd), OperandRef::of(si));
}

OPD_FUNC std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                              const std::optional<Tensor>& bias,
                                                              const std::optional<Tensor>& running_mean,
                                                              const std::optional<Tensor>& running_var, bool training,
                                                              double momentum, double eps) {
  OPD_CHECK(input.defined(), "native_batch_norm: argument 'input' is an undefined tensor");
  const Device device = input.is_meta() ? Device::meta() : Device::cpu();
  const int64_t zero = 0;
  Tensor out = opd::empty(input.sizes(), input.dtype(), device);
  Tensor save_mean = opd::empty(IntArrayRef(&zero, 1), input.dtype(), device);
  Tensor save_invstd = opd::empty(IntArrayRef(&zero, 1), input.dtype(), device);
  native_batch_norm_out(input, weight, bias, running_mean, running_var, training, momentum, eps, out, save_mean,
                        save_invstd);
  return {out, save_mean, save_invstd};
}

}  // namespace opd::kernels
