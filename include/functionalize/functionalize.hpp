#pragma once
// Functionalization: run a program of views and mutations so that what lies
// below sees only functional operators (PyTorch's functionalize, with the
// mechanics of FunctionalTensorWrapper; docs/functionalization.md).
//
//   auto g = opd::functionalize(f, opd::FunctionalizeMode::remove_views);
//   opd::Tensor y = g(x);        // x's mutations by f are copied back into x
//
//   opd::Tensor w = opd::to_functional(x);    // by hand
//   { opd::FunctionalizeGuard on; ... calls on w ... }
//   opd::sync(w); opd::Tensor v = opd::from_functional(w);
//
// The modes: keep_views replays views as views below the layer; remove_views
// calls each view's *_copy operator and the scatter inverses, so a backend
// without aliasing (a tracer, a graph compiler) sees no view either.
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "functionalize/functional_tensor.hpp"
#include "functionalize/kernel.hpp"

namespace opd {

using FunctionalizeMode = functionalization::ViewReplay;

// A functional tensor whose value is t (t itself when already functional).
OPD_API Tensor to_functional(const Tensor& t, FunctionalizeMode mode = FunctionalizeMode::keep_views);
// The current value of a functional tensor, without syncing it first (t
// itself when it is no functional tensor), as PyTorch's from_functional_tensor.
OPD_API Tensor from_functional(const Tensor& t);
// Brings a functional tensor's value up to date with every mutation of its
// aliases; a no-op for other tensors.
OPD_API void sync(const Tensor& t);
OPD_API bool is_functional(const Tensor& t) noexcept;
// After a functionalized run: copies the synced value of `functional` into
// `original` when its base was mutated (resizing `original` when the value
// was resized); returns whether it copied.
OPD_API bool copy_back_mutation(const Tensor& original, const Tensor& functional);

// For its lifetime: every call goes through the Functionalize key (factories
// too), and new functional tensors get `mode`.
class FunctionalizeGuard {
 public:
  explicit FunctionalizeGuard(FunctionalizeMode mode = FunctionalizeMode::keep_views)
      : include_(DispatchKey::Functionalize), saved_(functionalization::exchange_current_replay(mode)) {
    functionalization::ensure_registered();
  }
  FunctionalizeGuard(const FunctionalizeGuard&) = delete;
  FunctionalizeGuard& operator=(const FunctionalizeGuard&) = delete;
  ~FunctionalizeGuard() { functionalization::exchange_current_replay(saved_); }

 private:
  IncludeDispatchKeyGuard include_;
  FunctionalizeMode saved_;
};

namespace functionalize_detail {
inline Tensor unwrap_output(const Tensor& t) {
  sync(t);
  return from_functional(t);
}
inline std::vector<Tensor> unwrap_output(const std::vector<Tensor>& ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(unwrap_output(t));
  return out;
}
template <class... T>
std::tuple<T...> unwrap_output(const std::tuple<T...>& ts) {
  return std::apply([](const auto&... t) { return std::tuple<T...>(unwrap_output(t)...); }, ts);
}
}  // namespace functionalize_detail

// f, functionalized: called with tensors, it wraps them, runs f on the
// wrappers under a FunctionalizeGuard, syncs and unwraps what f returns
// (Tensor, std::vector<Tensor>, std::tuple of those, or void) and copies the
// inputs' mutations back into the caller's tensors.
template <class F>
auto functionalize(F f, FunctionalizeMode mode = FunctionalizeMode::keep_views) {
  return [f = std::move(f), mode](const auto&... inputs) {
    static_assert((std::is_same_v<std::decay_t<decltype(inputs)>, Tensor> && ...),
                  "opd::functionalize: the functionalized function takes Tensors");
    std::array<Tensor, sizeof...(inputs)> wrapped{to_functional(inputs, mode)...};
    const std::array<const Tensor*, sizeof...(inputs)> originals{&inputs...};
    auto copy_back = [&] {
      for (std::size_t i = 0; i < wrapped.size(); ++i) copy_back_mutation(*originals[i], wrapped[i]);
    };
    using R = decltype(std::apply(f, wrapped));
    if constexpr (std::is_void_v<R>) {
      {
        FunctionalizeGuard on(mode);
        std::apply(f, wrapped);
      }
      copy_back();
    } else {
      auto result = [&] {
        FunctionalizeGuard on(mode);
        return std::apply(f, wrapped);
      }();
      auto out = functionalize_detail::unwrap_output(result);
      copy_back();
      return out;
    }
  };
}

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "functionalize/functionalize-inl.hpp"
#endif
