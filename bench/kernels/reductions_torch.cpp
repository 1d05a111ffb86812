// The ATen side of bench/kernels/reductions.cpp, in its own C++17 library
// (libtorch 1.13's headers are not C++20-clean with every compiler).
#include <benchmark/benchmark.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <string>

#include "reductions_cases.hpp"

namespace bench_reductions {
namespace {

at::Tensor input(int64_t n) {
  const auto shape = shape_of(n);
  at::Tensor x = at::empty({shape.first, shape.second}, at::kFloat);
  float* p = x.data_ptr<float>();
  for (int64_t i = 0; i < x.numel(); ++i) p[i] = static_cast<float>(i % 17 - 8) * 0.25f;
  return x;
}

enum class Op { sum, amax, softmax, layer_norm };

template <Op K>
void BM_aten(benchmark::State& st, int threads) {
  at::set_num_threads(threads);
  const at::Tensor x = input(st.range(0));
  const int64_t cols = x.size(1);
  const at::Tensor w = at::full({cols}, 1.5f, at::kFloat);
  const at::Tensor b = at::full({cols}, 0.5f, at::kFloat);
  for (auto _ : st) {
    at::Tensor r;
    if (K == Op::sum) r = at::sum(x, {1}, false);
    if (K == Op::amax) r = at::amax(x, {1}, false);
    if (K == Op::softmax) r = at::softmax(x, 1);
    if (K == Op::layer_norm) r = at::layer_norm(x, {cols}, w, b, 1e-5, true);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

}  // namespace

void register_aten_benchmarks(int all_threads) {
  struct Entry {
    const char* name;
    void (*fn)(benchmark::State&, int);
  };
  const Entry entries[] = {{"sum", &BM_aten<Op::sum>},
                           {"amax", &BM_aten<Op::amax>},
                           {"softmax", &BM_aten<Op::softmax>},
                           {"layer_norm", &BM_aten<Op::layer_norm>}};
  for (const Entry& e : entries) {
    for (const int threads : {1, all_threads}) {
      const std::string name = std::string("BM_") + e.name + (threads == 1 ? "_1t" : "_mt") + "/aten";
      benchmark::RegisterBenchmark(name.c_str(), e.fn, threads)->Arg(1)->Arg(1000)->Arg(1000000);
    }
  }
}

}  // namespace bench_reductions
