#pragma once
// Out-of-line part of ops_random.hpp (compiled in src/kernels/random.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <numbers>
#include <optional>
#include <span>
#include <vector>

#include "dispatch/core/generator_engine.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/random_bits.hpp"
#include "kernels/cpu/type_promotion.hpp"
#include "kernels/cpu/unary_simd.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_random.hpp"

namespace opd::kernels {

namespace random_detail {

using ints = std::span<const int64_t>;

inline Generator generator_or_default(const std::optional<Generator>& g) {
  return g && g->defined() ? *g : default_cpu_generator();
}

// 53 (double) random bits of a 64-bit number as a double in [0, 1).
inline double uniform01(uint64_t bits) {
  return static_cast<double>(static_cast<int64_t>(bits >> 11)) * 0x1.0p-53;
}
// An integer in [0, bound): the high half of a 64 x 64-bit product (Lemire's
// multiply; its bias below 2^-40 for the bounds of a tensor).
inline uint64_t below(uint64_t bits, uint64_t bound) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * bound) >> 64);
}

// The generator's numbers a block at a time (simd::random_bits: the same
// numbers, in the same order, as one call of the engine each), so that a
// kernel reads them from a buffer that stays in cache. The caller holds the
// generator's lock.
class Draws {
 public:
  static constexpr int64_t kBlock = 1024;
  explicit Draws(Mt19937_64& engine) : engine_(engine) {}
  // The next number; at most `wanted` (>= 1) are drawn ahead of use, so that
  // the generator advances by exactly the numbers used.
  uint64_t next(int64_t wanted) {
    if (at_ == have_) {
      have_ = std::min(wanted, kBlock);
      simd::random_bits(engine_, buf_, have_);
      at_ = 0;
    }
    return buf_[at_++];
  }

 private:
  Mt19937_64& engine_;
  int64_t have_ = 0, at_ = 0;
  uint64_t buf_[kBlock];
};

enum class Dist { Uniform, Normal };

// Fills a contiguous floating tensor from the generator, under its lock:
// uniform in [0, 1) from 53 bits of one number (a value that rounds to 1 in
// a narrow dtype is drawn again), or standard normal by Box-Muller pairs
// (two numbers a pair).
inline void fill(const Tensor& out, Dist dist, const Generator& gen) {
  if (out.is_meta() || out.numel() == 0) return;
  GeneratorEngine& g = gen.engine();
  std::lock_guard lock(g.mutex);
  Draws draws(g.engine);
  // A complex tensor is filled as its parts (ATen's uniform_ / normal_ on
  // view_as_real), a normal part with standard deviation 1/sqrt(2), so that
  // E|z|^2 is 1.
  const bool complex = is_complex_kernel_dtype(out.dtype());
  dispatch_floating_dtype(real_part_dtype(out.dtype()), dist == Dist::Uniform ? "rand" : "randn", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data_ptr());
    const int64_t n = out.numel() * (complex ? 2 : 1);
    const double scale = complex ? std::numbers::sqrt2 / 2 : 1.0;
    if (dist == Dist::Uniform) {
      for (int64_t i = 0; i < n;) {
        const T v = convert<T>(uniform01(draws.next(n - i)));
        if (convert<double>(v) < 1.0) p[i++] = v;
      }
      return;
    }
    // Blocks of pairs: the draws first (in pair order), then the pairs'
    // logarithms, cosines, sines and radii a vector at a time (Sleef's,
    // within 1 ULP of libm's; the square root exact), in buffers that stay
    // in cache (no fresh pages per call).
    constexpr int64_t kPairs = 512;
    uint64_t bits[2 * kPairs];
    double r[kPairs], a[kPairs], c[kPairs], sn[kPairs];
    const int64_t pairs = (n + 1) / 2;
    for (int64_t k0 = 0; k0 < pairs; k0 += kPairs) {
      const int64_t m = std::min(kPairs, pairs - k0);
      simd::random_bits(g.engine, bits, 2 * m);
      for (int64_t k = 0; k < m; ++k) {
        r[k] = 1.0 - uniform01(bits[2 * k]);  // u1 in (0, 1]
        a[k] = 2.0 * std::numbers::pi * uniform01(bits[2 * k + 1]);
      }
      const auto map = [m](UnaryOp op, double (*scalar)(double), const double* in, double* out) {
        if (simd::unary_row(op, in, out, m)) return;
        for (int64_t k = 0; k < m; ++k) out[k] = scalar(in[k]);
      };
      map(UnaryOp::Log, [](double x) { return std::log(x); }, r, r);
      map(UnaryOp::Cos, [](double x) { return std::cos(x); }, a, c);
      map(UnaryOp::Sin, [](double x) { return std::sin(x); }, a, sn);
      for (int64_t k = 0; k < m; ++k) r[k] *= -2.0;
      map(UnaryOp::Sqrt, [](double x) { return std::sqrt(x); }, r, r);
      for (int64_t k = 0; k < m; ++k) {
        const double radius = scale * r[k];
        const int64_t i = 2 * (k0 + k);
        p[i] = convert<T>(radius * c[k]);
        if (i + 1 < n) p[i + 1] = convert<T>(radius * sn[k]);
      }
    }
  });
}

// rand/randn: the floating and the complex dtypes.
inline void check_floating(const char* op, ScalarType t) {
  if (!is_floating_type(t) && !is_complex_kernel_dtype(t)) throw_not_implemented_for(op, t);
}
inline void check_sizes(const char* op, ints size) {
  for (int64_t s : size) OPD_CHECK(s >= 0, op, ": Trying to create tensor with negative dimension ", s, ": ", IntArrayRef(size.data(), size.size()));
}

inline Tensor draw(const char* op, Dist dist, ints size, const std::optional<Generator>& generator,
                   std::optional<ScalarType> dtype, std::optional<Layout> layout, std::optional<Device> device,
                   std::optional<bool> pin_memory) {
  detail::check_factory_options(op, layout, pin_memory, std::nullopt);
  check_sizes(op, size);
  const ScalarType t = dtype.value_or(default_dtype());
  check_floating(op, t);
  Tensor out = kernels::empty(IntArrayRef(size.data(), size.size()), t, device);
  fill(out, dist, generator_or_default(generator));
  return out;
}
inline Tensor& draw_out(const char* op, Dist dist, ints size, const std::optional<Generator>& generator, Tensor& out) {
  OPD_CHECK(out.defined(), op, ": argument 'out' is an undefined tensor");
  OPD_CHECK(out.device().is_cpu() || out.is_meta(), op, ": expected an out tensor on the CPU, got ", out.device());
  check_sizes(op, size);
  check_floating(op, out.dtype());
  if (out.sizes() != IntArrayRef(size.data(), size.size())) out.resize_(IntArrayRef(size.data(), size.size()));
  if (!out.is_contiguous()) {
    Tensor tmp = kernels::empty(out.sizes(), out.dtype(), out.device());
    fill(tmp, dist, generator_or_default(generator));
    kernels::copy_(out, tmp);
    return out;
  }
  fill(out, dist, generator_or_default(generator));
  return out;
}

template <Dist D, fixed_string Name>
Tensor factory(ints size, std::optional<ScalarType> dtype, std::optional<Layout> layout, std::optional<Device> device,
               std::optional<bool> pin_memory) {
  return draw(Name.data, D, size, std::nullopt, dtype, layout, device, pin_memory);
}
template <Dist D, fixed_string Name>
Tensor factory_generator(ints size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return draw(Name.data, D, size, generator, dtype, layout, device, pin_memory);
}
template <Dist D, fixed_string Name>
Tensor& factory_out(ints size, Tensor& out) {
  return draw_out(Name.data, D, size, std::nullopt, out);
}
template <Dist D, fixed_string Name>
Tensor& factory_generator_out(ints size, std::optional<Generator> generator, Tensor& out) {
  return draw_out(Name.data, D, size, generator, out);
}

// ATen's check that n - 1 fits the result dtype exactly.
inline void check_randperm(int64_t n, ScalarType t) {
  OPD_CHECK(n >= 0, "n must be non-negative, got", n);
  OPD_CHECK(t != ScalarType::Bool, "randperm: \"randperm_cpu\" not implemented for 'Bool'");
  if (!is_kernel_dtype(t)) throw_not_implemented_for("randperm", t);
  double limit = 0;
  switch (t) {
    case ScalarType::Half: limit = 2048; break;
    case ScalarType::BFloat16: limit = 256; break;
    case ScalarType::Float: limit = 16777216.0; break;
    case ScalarType::Double: limit = 9007199254740992.0; break;
    case ScalarType::Byte: limit = 255; break;
    case ScalarType::Char: limit = 127; break;
    case ScalarType::Short: limit = 32767; break;
    case ScalarType::Int: limit = 2147483647.0; break;
    default: limit = 9.2e18; break;
  }
  OPD_CHECK(n <= 0 || static_cast<double>(n - 1) <= limit, "n is too large for result tensor type: '", t, "'");
}
// A permutation of 0 .. n-1 into a contiguous tensor of n elements
// (Fisher-Yates from the last element, one number a swap), in place when
// the result is Long.
inline void permutation(const Tensor& out, int64_t n, const Generator& gen) {
  if (out.is_meta() || n == 0) return;
  const bool in_place = out.dtype() == ScalarType::Long;
  std::vector<int64_t> scratch(in_place ? 0 : static_cast<std::size_t>(n));
  int64_t* v = in_place ? out.data_ptr<int64_t>() : scratch.data();
  for (int64_t i = 0; i < n; ++i) v[i] = i;
  {
    GeneratorEngine& g = gen.engine();
    std::lock_guard lock(g.mutex);
    Draws draws(g.engine);
    for (int64_t i = n - 1; i > 0; --i) std::swap(v[i], v[below(draws.next(i), static_cast<uint64_t>(i) + 1)]);
  }
  if (in_place) return;
  dispatch_dtype(out.dtype(), "randperm", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data_ptr());
    for (int64_t i = 0; i < n; ++i) p[i] = convert<T>(v[i]);
  });
}
inline Tensor randperm_generator(int64_t n, std::optional<Generator> generator, std::optional<ScalarType> dtype,
                                 std::optional<Layout> layout, std::optional<Device> device,
                                 std::optional<bool> pin_memory) {
  detail::check_factory_options("aten::randperm", layout, pin_memory, std::nullopt);
  const ScalarType t = dtype.value_or(ScalarType::Long);
  check_randperm(n, t);
  Tensor out = kernels::empty({n}, t, device);
  permutation(out, n, generator_or_default(generator));
  return out;
}
inline Tensor randperm(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                       std::optional<Device> device, std::optional<bool> pin_memory) {
  return randperm_generator(n, std::nullopt, dtype, layout, device, pin_memory);
}
inline Tensor& randperm_generator_out(int64_t n, std::optional<Generator> generator, Tensor& out) {
  OPD_CHECK(out.defined(), "aten::randperm.out: argument 'out' is an undefined tensor");
  OPD_CHECK(out.device().is_cpu() || out.is_meta(), "aten::randperm.out: expected an out tensor on the CPU, got ",
            out.device());
  check_randperm(n, out.dtype());
  if (out.sizes() != IntArrayRef({n})) out.resize_({n});
  if (out.is_contiguous()) {
    permutation(out, n, generator_or_default(generator));
  } else {
    Tensor tmp = kernels::empty({n}, out.dtype(), out.device());
    permutation(tmp, n, generator_or_default(generator));
    kernels::copy_(out, tmp);
  }
  return out;
}
inline Tensor& randperm_out(int64_t n, Tensor& out) { return randperm_generator_out(n, std::nullopt, out); }

// ATen 1.13's native_dropout_cpu: in training (train None or true) a Bool
// mask kept with probability 1 - p and input.mul(mask).mul_(1 / (1 - p)) (0
// when p is 1); otherwise (input's copy, all-true mask). Any dtype: complex
// trains through those two products, as ATen's; an integral or Bool input
// then fails as ATen's does ("result type Float can't be cast to the desired
// output type Long", from mul_).
inline std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train) {
  constexpr const char* op = "native_dropout";
  OPD_CHECK(input.defined(), op, ": argument 'input' is an undefined tensor");
  OPD_CHECK(input.device().is_cpu() || input.is_meta(), op, ": the CPU kernel got a tensor on ", input.device());
  OPD_CHECK_VALUE(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  const bool training = !train || *train;
  Tensor out = kernels::empty(input.sizes(), input.dtype(), input.device());
  // no elements: ATen returns before it makes the Bool mask (a mask of the input's dtype)
  if (input.numel() == 0) return {out, kernels::empty(input.sizes(), input.dtype(), input.device())};
  Tensor mask = kernels::empty(input.sizes(), ScalarType::Bool, input.device());
  if (input.is_meta()) return {out, mask};
  const Tensor x = input.is_contiguous() ? input : contiguous_clone(input);
  const int64_t n = input.numel();
  bool* m = mask.data_ptr<bool>();
  if (!training) {
    std::fill(m, m + n, true);
    kernels::copy_(out, x);
    return {out, mask};
  }
  const double keep = 1.0 - p, scale = keep == 0 ? 0.0 : 1.0 / keep;
  {
    const Generator gen = default_cpu_generator();
    GeneratorEngine& g = gen.engine();
    std::lock_guard lock(g.mutex);
    Draws draws(g.engine);
    for (int64_t i = 0; i < n; ++i) m[i] = uniform01(draws.next(n - i)) < keep;
  }
  if (!is_floating_type(input.dtype())) {
    Tensor masked = call<ops::mul::functional>(input, mask);
    call<ops::mul_scalar::inplace>(masked, Scalar(scale));
    return {masked, mask};
  }
  dispatch_floating_dtype(input.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* xp = static_cast<const T*>(x.data_ptr());
    T* o = static_cast<T*>(out.data_ptr());
    const T s = convert<T>(scale);
    // as ATen: input.mul(mask) (exact; NaN * 0 stays NaN), then mul_(scale) rounded to T once
    for (int64_t i = 0; i < n; ++i) {
      const double masked = convert<double>(xp[i]) * (m[i] ? 1.0 : 0.0);
      o[i] = convert<T>(masked * convert<double>(s));
    }
  });
  return {out, mask};
}

inline Tensor native_dropout_backward(const Tensor& grad_output, const Tensor& mask, double scale) {
  return call<ops::mul_scalar::functional>(call<ops::mul::functional>(grad_output, mask), Scalar(scale));
}

}  // namespace random_detail

OPD_FUNC RegistrationSet register_random() {
  namespace r = random_detail;
  using D = r::Dist;
  RegistrationSet set;
  // Meta: the same kernels; a Meta result is sized and nothing is drawn.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::rand, &r::factory<D::Uniform, "aten::rand">>(key));
    set.add(register_kernel<ops::rand_generator, &r::factory_generator<D::Uniform, "aten::rand">>(key));
    set.add(register_kernel<ops::rand_out, &r::factory_out<D::Uniform, "aten::rand.out">>(key));
    set.add(register_kernel<ops::rand_generator_out, &r::factory_generator_out<D::Uniform, "aten::rand.out">>(key));
    set.add(register_kernel<ops::randn, &r::factory<D::Normal, "aten::randn">>(key));
    set.add(register_kernel<ops::randn_generator, &r::factory_generator<D::Normal, "aten::randn">>(key));
    set.add(register_kernel<ops::randn_out, &r::factory_out<D::Normal, "aten::randn.out">>(key));
    set.add(register_kernel<ops::randn_generator_out, &r::factory_generator_out<D::Normal, "aten::randn.out">>(key));
    set.add(register_kernel<ops::randperm, &r::randperm>(key));
    set.add(register_kernel<ops::randperm_generator, &r::randperm_generator>(key));
    set.add(register_kernel<ops::randperm_out, &r::randperm_out>(key));
    set.add(register_kernel<ops::randperm_generator_out, &r::randperm_generator_out>(key));
    set.add(register_kernel<ops::native_dropout, &r::native_dropout>(key));
  }
  set.add(register_kernel<ops::native_dropout_backward, &r::native_dropout_backward>(
      DispatchKey::CompositeExplicitAutograd));
  return set;
}

}  // namespace opd::kernels
