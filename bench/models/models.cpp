// Whole models, opdispatch next to libtorch 1.13 in one run:
//
//   BM_model_<name>_<b1|b8>_<1t|mt>/<opd|aten>
//
// opd: the model's ATen graph (tools/export_aten_graph.py at 224x224, batch 1
// or 8, random weights, seed 0) run by tools/opd-run's runner (opd::graph::
// Graph::run: the boxed dispatcher, operator handles resolved at load).
// aten: the same model traced by torch.jit.trace in the same export, run by
// libtorch in C++ (torch::jit::load, forward under InferenceMode). The two
// sides get the same inputs; the first run of each checks that their outputs
// agree (relative 1e-3), else the row reports an error.
// 1t: one thread (opd::kernels::set_num_threads(1); libtorch's
// at::set_num_threads(1) and the shared OpenBLAS's count, which the library
// holds at one and splits its products itself); mt: every core.
// The graphs are made at build time into OPD_MODEL_GRAPH_DIR (bench/CMakeLists.txt).
// Run with --benchmark_repetitions=3; the summary prints opd / aten per row.
// On a machine shared with other work, run it under OMP_WAIT_POLICY=passive:
// both sides share libgomp, whose workers otherwise spin between parallel
// regions and, with more runnable threads than cores, wait on each other's
// time slices (resnet18 b1 on 2 threads here: 1270 ms per run, 67 ms passive).
// OpenMP reads it at start, so it is the caller's environment, not set here.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <kernels/cpu/parallel.hpp>
#include <kernels/ops.hpp>

#include "../median_reporter.hpp"
#include "graph.hpp"
#if defined(OPD_BENCH_WITH_TORCH)
#include "torch_model.hpp"
#endif

namespace {

int threads_for(bool mt) { return mt ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) : 1; }

struct Loaded {
  opd::graph::Graph graph;
  std::vector<opd::Tensor> inputs;
  std::vector<float> reference;  // PyTorch's first output, from the export
};

// Each graph loaded once, on first use.
Loaded& loaded(const std::string& base) {
  static std::map<std::string, std::unique_ptr<Loaded>> cache;
  auto& slot = cache[base];
  if (!slot) {
    auto l = std::make_unique<Loaded>();
    const std::string dir = OPD_MODEL_GRAPH_DIR;
    l->graph = opd::graph::Graph::load(dir + "/" + base + ".json");
    l->inputs = opd::graph::load_tensors(dir + "/" + base + ".io.json", "inputs");
    l->reference = opd::to_vector<float>(opd::graph::load_tensors(dir + "/" + base + ".io.json", "outputs").at(0));
    slot = std::move(l);
  }
  return *slot;
}

bool close(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::fabs(static_cast<double>(a[i]) - b[i]));
    scale = std::max(scale, std::fabs(static_cast<double>(b[i])));
  }
  return diff <= 1e-3 * std::max(scale, 1e-30);
}

// Each row starts on a quiet machine: after its last call, OpenBLAS's pthreads
// pool (libtorch's GEMMs; the library keeps OpenBLAS on one thread) spins in
// sched_yield for about 2^28 cycles (0.1 s) before it sleeps, and a row run
// right after an aten row shared the cores with it: resnet18_b1_mt's opd side
// took 24 ms in the interleaved run and 16 ms alone.
void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }

void BM_opd(benchmark::State& st, std::string base, bool mt) {
  opd::kernels::set_num_threads(threads_for(mt));
  try {
    Loaded& l = loaded(base);
    if (!close(opd::to_vector<float>(l.graph.run(l.inputs).at(0)), l.reference)) {
      st.SkipWithError("opd's output is not PyTorch's");
      return;
    }
    settle();
    for (auto _ : st) benchmark::DoNotOptimize(l.graph.run(l.inputs));
  } catch (const std::exception& e) {
    st.SkipWithError(e.what());
  }
}

#if defined(OPD_BENCH_WITH_TORCH)
void BM_aten(benchmark::State& st, std::string base, bool mt) {
  // TorchModel::set_threads sets the shared OpenBLAS's count for libtorch.
  opd_bench::TorchModel::set_threads(threads_for(mt));
  try {
    Loaded& l = loaded(base);
    std::vector<std::vector<int64_t>> sizes;
    std::vector<std::vector<float>> values;
    for (const opd::Tensor& t : l.inputs) {
      sizes.emplace_back(t.sizes().begin(), t.sizes().end());
      values.push_back(opd::to_vector<float>(t));
    }
    opd_bench::TorchModel m(std::string(OPD_MODEL_GRAPH_DIR) + "/" + base + ".pt", sizes, values);
    if (!close(m.run(), l.reference)) {
      st.SkipWithError("libtorch's output is not PyTorch's");
      return;
    }
    m.run();  // the profiling executor's second run
    settle();
    for (auto _ : st) benchmark::DoNotOptimize(m.run());
  } catch (const std::exception& e) {
    st.SkipWithError(e.what());
  }
}
#endif

void register_all() {
  for (const char* model : {OPD_BENCH_MODEL_NAMES}) {
    for (const char* batch : {"b1", "b8"}) {
      for (bool mt : {false, true}) {
        const std::string base = std::string(model) + "_" + batch;
        const std::string row = "BM_model_" + base + (mt ? "_mt" : "_1t");
        benchmark::RegisterBenchmark((row + "/opd").c_str(), BM_opd, base, mt)->Unit(benchmark::kMillisecond)->UseRealTime();
#if defined(OPD_BENCH_WITH_TORCH)
        benchmark::RegisterBenchmark((row + "/aten").c_str(), BM_aten, base, mt)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif
      }
    }
  }
}

class SummaryReporter : public opd_bench::MedianReporter {
  void summary(const char* what, const table& t) override {
    std::printf("\n%s, ms: %-32s %10s %10s %8s\n", what, "row", "opd", "aten", "opd/aten");
    for (const auto& [name, ns] : t) {
      if (!name.ends_with("/opd")) continue;
      const std::string row = name.substr(0, name.size() - 4);
      const auto aten = get(t, row + "/aten");
      std::printf("%-42s", row.c_str());
      print(ns / 1e6, 10);
      print(aten ? std::optional<double>(*aten / 1e6) : std::nullopt, 10);
      print(aten ? std::optional<double>(ns / *aten) : std::nullopt, 8);
      std::printf("\n");
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  register_all();
  SummaryReporter reporter;
  return opd_bench::run_benchmarks(argc, argv, reporter);
}
