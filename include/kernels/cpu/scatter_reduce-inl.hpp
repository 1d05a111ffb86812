#pragma once
// Out-of-line part of scatter_reduce.hpp (compiled in src/kernels/core_aten.cpp).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/scatter_reduce.hpp"
#include "kernels/cpu/scatter_walk-inl.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace scatter_reduce_detail {

enum class Reduce { Sum, Prod, Mean, Amax, Amin };

inline Reduce reduce_of(std::string_view op, std::string_view reduce) {
  if (reduce == "sum") return Reduce::Sum;
  if (reduce == "prod") return Reduce::Prod;
  if (reduce == "mean") return Reduce::Mean;
  if (reduce == "amax") return Reduce::Amax;
  if (reduce == "amin") return Reduce::Amin;
  throw Error(opd::detail::str_cat(op, ": reduce argument must be either sum, prod, mean, amax or amin, got ", reduce));
}

// ATen's ensure_nonempty_*: a 0-dim tensor counts as one dimension of size 1.
using scatter_walk::size_of;
using scatter_walk::stride_of;
inline int64_t nd_of(const Tensor& t) { return scatter_walk::dims_of(t); }

inline void check_device(std::string_view op, const Tensor& t, const char* arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
  OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": the CPU kernel got argument '", arg, "' on device ",
            t.device());
}

// ATen's scatter_gather_dtype_check and scatter_shape_check (with src).
inline void check_shapes(std::string_view op, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  if (index.numel() != 0) {
    OPD_CHECK(index.dtype() == ScalarType::Long, op, ": scatter(): Expected dtype int64 for index");
  }
  OPD_CHECK(self.dtype() == src.dtype(), op, ": scatter(): Expected self.dtype to be equal to src.dtype");
  if (index.numel() == 0) return;
  const int64_t nd = nd_of(self);
  OPD_CHECK(nd_of(index) == nd, op, ": Index tensor must have the same number of dimensions as self tensor");
  OPD_CHECK(nd_of(src) == nd_of(index), op, ": Index tensor must have the same number of dimensions as src tensor");
  bool fits = true;
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t n = size_of(index, d);
    if (d != dim && n > size_of(self, d)) fits = false;
    if (n > size_of(src, d)) fits = false;
  }
  OPD_CHECK(fits, op, ": Expected index ", index.sizes(), " to be smaller than self ", self.sizes(),
            " apart from dimension ", dim, " and to be smaller size than src ", src.sizes());
}

template <class T>
T identity(Reduce r) {
  if (r == Reduce::Prod) return T(1);
  if (r == Reduce::Amax) {
    if constexpr (std::is_same_v<T, bool>) return false;
    else if constexpr (!std::is_integral_v<T>) return T(-std::numeric_limits<float>::infinity());
    else return std::numeric_limits<T>::lowest();
  }
  if (r == Reduce::Amin) {
    if constexpr (std::is_same_v<T, bool>) return true;
    else if constexpr (!std::is_integral_v<T>) return T(std::numeric_limits<float>::infinity());
    else return std::numeric_limits<T>::max();
  }
  return T(0);
}

// One step of the reduction, in T as ATen's loops compute it (reduced
// floating dtypes through float, rounded once per step; integers wrap).
template <class T>
T combine(Reduce r, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    if (r == Reduce::Prod || r == Reduce::Amin) return a && b;
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (r == Reduce::Sum || r == Reduce::Mean) return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    if (r == Reduce::Prod) {
      return static_cast<T>(static_cast<uint64_t>(static_cast<U>(a)) * static_cast<uint64_t>(static_cast<U>(b)));
    }
    if (r == Reduce::Amax) return a < b ? b : a;
    return b < a ? b : a;
  } else {
    using M = opmath_t<T>;
    const M x = static_cast<M>(a), y = static_cast<M>(b);
    if (r == Reduce::Sum || r == Reduce::Mean) return convert<T>(x + y);
    if (r == Reduce::Prod) return convert<T>(x * y);
    if (std::isnan(y)) return b;
    if (r == Reduce::Amax) return x < y ? b : a;  // std::max: a NaN self stays
    return y < x ? b : a;                          // std::min
  }
}

// "mean": the sum divided by the count (floor division for integers).
template <class T>
T divide(T sum, int64_t count) {
  if constexpr (std::is_same_v<T, bool>) {
    return sum;  // a count of at least 1: floor(x / n) of 0 or 1 is x only for n = 1
  } else if constexpr (std::is_integral_v<T>) {
    const int64_t a = static_cast<int64_t>(sum);
    int64_t q = a / count;
    if (a % count != 0 && a < 0) --q;
    return static_cast<T>(q);
  } else {
    return convert<T>(static_cast<opmath_t<T>>(sum) / static_cast<opmath_t<T>>(T(static_cast<float>(count))));
  }
}

}  // namespace scatter_reduce_detail

OPD_FUNC Tensor scatter_reduce_two(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                                   std::string_view reduce, bool include_self) {
  using namespace scatter_reduce_detail;
  constexpr std::string_view op = "aten::scatter_reduce.two";
  check_device(op, self, "self");
  check_device(op, index, "index");
  check_device(op, src, "src");
  dim = views::wrap_dim(op, dim, self.dim());
  check_shapes(op, self, dim, index, src);
  const Reduce r = reduce_of(op, reduce);
  if (self.is_meta() || index.is_meta() || src.is_meta()) return opd::empty(self.sizes(), self.dtype(), Device::meta());
  Tensor out = contiguous_clone(self);
  if (index.numel() == 0) return out;
  // the walk gather and scatter share (scatter_walk-inl.hpp): rows in
  // parallel when dim is index's last dimension, each row's indices checked
  // as it is reached (out is this call's own clone: an error leaves self as
  // it was)
  const Tensor idx = index.is_contiguous() ? index : contiguous_clone(index);
  SizesVector sstrides;
  for (int64_t d = 0; d < nd_of(src); ++d) sstrides.push_back(stride_of(src, d));
  const bool parallel = dim == nd_of(index) - 1;
  const auto walk = [&](auto&& f) { scatter_walk::for_each_position(op, out, dim, idx, sstrides, parallel, f); };
  dispatch_dtype(self.dtype(), "scatter_reduce", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.data_ptr<T>();
    const T* s = static_cast<const T*>(src.data_ptr());
    // the reduction chosen once, not per element (the identity's fill is one
    // walk per dtype: fewer instantiations to compile)
    if (!include_self) {
      const T id = identity<T>(r);
      walk([&](int64_t t, int64_t) { o[t] = id; });
    }
    const auto run = [&](auto kind) {
      constexpr Reduce R = decltype(kind)::value;
      walk([&](int64_t t, int64_t i) { o[t] = combine<T>(R, o[t], s[i]); });
    };
    switch (r) {
      case Reduce::Sum: run(std::integral_constant<Reduce, Reduce::Sum>{}); break;
      case Reduce::Prod: run(std::integral_constant<Reduce, Reduce::Prod>{}); break;
      case Reduce::Mean: run(std::integral_constant<Reduce, Reduce::Mean>{}); break;
      case Reduce::Amax: run(std::integral_constant<Reduce, Reduce::Amax>{}); break;
      case Reduce::Amin: run(std::integral_constant<Reduce, Reduce::Amin>{}); break;
    }
    if (r != Reduce::Mean) return;
    std::vector<int64_t> count(static_cast<std::size_t>(out.numel()), include_self ? 1 : 0);
    walk([&](int64_t t, int64_t) { ++count[static_cast<std::size_t>(t)]; });
    for (std::size_t k = 0; k < count.size(); ++k) {
      if (count[k] != 0) o[k] = divide<T>(o[k], count[k]);  // ATen: a count of 0 divides by 1
    }
  });
  return out;
}

}  // namespace opd::kernels
