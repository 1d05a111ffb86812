// Reductions and normalization through the dispatcher, opd next to ATen
// (libtorch 1.13) in one run:
//
//   BM_<op>_<1t|mt>/<opd|aten>/<n>
//     op   sum      sum.dim_IntList over the last dim of [rows, cols]
//          amax     amax over the last dim
//          softmax  softmax.int over the last dim
//          layer_norm  layer_norm over the last dim, with weight and bias
//     1t   one thread on both sides (opd::kernels::set_num_threads(1), at::set_num_threads(1));
//     mt   every core (std::thread::hardware_concurrency()) on both sides
//     n    elements: 1 ([1, 1]), 1000 ([10, 100]), 1000000 ([1000, 1000]); float32, contiguous
//
// Run with --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true;
// docs/benchmarks.md has the numbers.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <kernels/cpu/parallel.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_reductions.hpp>

#include "reductions_cases.hpp"

namespace {

namespace ops = opd::kernels::ops;
using opd::Tensor;

Tensor input(int64_t n) {
  const auto [rows, cols] = bench_reductions::shape_of(n);
  std::vector<float> v(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int64_t>(i % 17) - 8) * 0.25f;
  return opd::from_vector<float>(v, std::vector<int64_t>{rows, cols});
}

enum class Op { sum, amax, softmax, layer_norm };

template <Op K>
void BM_opd(benchmark::State& st, int threads) {
  opd::kernels::set_num_threads(threads);
  const Tensor x = input(st.range(0));
  const std::vector<int64_t> last{1};
  const int64_t cols = x.sizes()[1];
  const Tensor w = opd::from_vector<float>(std::vector<float>(static_cast<std::size_t>(cols), 1.5f), std::vector<int64_t>{cols});
  const Tensor b = opd::from_vector<float>(std::vector<float>(static_cast<std::size_t>(cols), 0.5f), std::vector<int64_t>{cols});
  const std::vector<int64_t> normalized{cols};
  for (auto _ : st) {
    Tensor r;
    if constexpr (K == Op::sum) r = opd::call<ops::sum_dim>(x, last, false, std::nullopt);
    if constexpr (K == Op::amax) r = opd::call<ops::amax>(x, last, false);
    if constexpr (K == Op::softmax) r = opd::call<ops::softmax>(x, 1, std::nullopt);
    if constexpr (K == Op::layer_norm) r = opd::call<ops::layer_norm>(x, normalized, w, b, 1e-5, true);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  st.SetItemsProcessed(st.iterations() * st.range(0));
}

void register_opd(int all_threads) {
  struct Entry {
    const char* name;
    void (*fn)(benchmark::State&, int);
  };
  const Entry entries[] = {{"sum", &BM_opd<Op::sum>},
                           {"amax", &BM_opd<Op::amax>},
                           {"softmax", &BM_opd<Op::softmax>},
                           {"layer_norm", &BM_opd<Op::layer_norm>}};
  for (const Entry& e : entries) {
    for (const int threads : {1, all_threads}) {
      const std::string name = std::string("BM_") + e.name + (threads == 1 ? "_1t" : "_mt") + "/opd";
      benchmark::RegisterBenchmark(name.c_str(), e.fn, threads)->Arg(1)->Arg(1000)->Arg(1000000);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  auto kernels = opd::kernels::register_cpu();
  const int all_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  register_opd(all_threads);
#if defined(OPD_BENCH_WITH_TORCH)
  bench_reductions::register_aten_benchmarks(all_threads);
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
