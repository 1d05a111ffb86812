// Elementwise add through the dispatcher: opd next to ATen (libtorch), and
// opd's derived (structured) variants next to the same variants written by
// hand. Two contiguous float32 tensors of n elements, one thread:
//
//   BM_add_<variant>/<side>/<n>
//     variant  functional   c = add(a, b)
//              inplace      a.add_(b)
//              out          add_out(out, a, b), out already of the right size
//     side     opd              opd::call<opd::kernels::ops::add::functional>(a, b), ::inplace, ::out:
//                               the three variants derived by opd::structured from one meta/impl pair
//              opd_handwritten  the same calls of a family with the same schemas whose CPU kernels
//                               are written by hand on the same kernels (elementwise_ops.hpp)
//              aten             at::add(a, b), a.add_(b), at::add_out(out, a, b)
//     n        1, 1000, 1000000
//
// The summary at the end prints, per variant and n, the medians, opd / aten
// and opd / opd_handwritten. Run with --benchmark_repetitions=5
// --benchmark_enable_random_interleaving=true; see docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "elementwise_ops.hpp"
#include "median_reporter.hpp"
#include "page_faults.hpp"

namespace {

using bench_elem::Variant;

void set_bytes(benchmark::State& st) { st.SetBytesProcessed(st.iterations() * st.range(0) * 3 * 4); }

// One benchmark body for both sides: a and out start as 1, 2, ..., b as 0, 1, ...
template <class T, T (*Input)(int64_t, float), void (*Call)(T&, const T&, T&)>
void BM_add(benchmark::State& st) {
  T a = Input(st.range(0), 1);
  const T b = Input(st.range(0), 0);
  T out = Input(st.range(0), 0);
  opd_bench::loop_counting_faults(st, [&] { Call(a, b, out); });
  set_bytes(st);
}
template <void (*Call)(opd::Tensor&, const opd::Tensor&, opd::Tensor&)>
constexpr auto BM_opd = &BM_add<opd::Tensor, &bench_elem::opd_input, Call>;
#if defined(OPD_BENCH_WITH_TORCH)
template <void (*Call)(at::Tensor&, const at::Tensor&, at::Tensor&)>
constexpr auto BM_aten = &BM_add<at::Tensor, &bench_elem::aten_input, Call>;
#endif

// BM_add_<variant>/<side>/<n>
void register_benchmarks() {
  struct Entry {
    const char* variant;
    const char* side;
    void (*fn)(benchmark::State&);
  };
  const Entry entries[] = {
      {"functional", "opd", BM_opd<&bench_elem::opd_derived<Variant::functional>>},
      {"inplace", "opd", BM_opd<&bench_elem::opd_derived<Variant::inplace>>},
      {"out", "opd", BM_opd<&bench_elem::opd_derived<Variant::out>>},
      {"functional", "opd_handwritten", BM_opd<&bench_elem::opd_handwritten<Variant::functional>>},
      {"inplace", "opd_handwritten", BM_opd<&bench_elem::opd_handwritten<Variant::inplace>>},
      {"out", "opd_handwritten", BM_opd<&bench_elem::opd_handwritten<Variant::out>>},
#if defined(OPD_BENCH_WITH_TORCH)
      {"functional", "aten", BM_aten<&bench_elem::aten<Variant::functional>>},
      {"inplace", "aten", BM_aten<&bench_elem::aten<Variant::inplace>>},
      {"out", "aten", BM_aten<&bench_elem::aten<Variant::out>>},
#endif
  };
  for (const Entry& e : entries) {
    const std::string name = std::string("BM_add_") + e.variant + "/" + e.side;
    benchmark::RegisterBenchmark(name.c_str(), e.fn)->Arg(1)->Arg(1000)->Arg(1000000);
  }
}

// ---- summary ----------------------------------------------------------------
// After the run: opd against ATen and against the hand-written family, per
// variant and n.
class SummaryReporter : public opd_bench::MedianReporter {
 private:
  static std::optional<double> ratio(std::optional<double> x, std::optional<double> y) {
    if (x && y && *y > 0) return *x / *y;
    return std::nullopt;
  }
  void summary(const char* what, const table& t) override {
    std::printf("\nSummary, median %s in ns per call:\n", what);
    std::printf("  %-10s %8s %12s %12s %12s %9s %16s\n", "variant", "n", "opd", "handwritten", "aten", "opd/aten",
                "opd/handwritten");
    for (const char* variant : {"functional", "inplace", "out"}) {
      for (const char* n : {"1", "1000", "1000000"}) {
        const std::string base = std::string("BM_add_") + variant + "/";
        const auto o = get(t, base + "opd/" + n);
        const auto h = get(t, base + "opd_handwritten/" + n);
        const auto a = get(t, base + "aten/" + n);
        std::printf("  %-10s %8s", variant, n);
        print(o, 12, 1);
        print(h, 12, 1);
        print(a, 12, 1);
        print(ratio(o, a), 9, 3);
        print(ratio(o, h), 16, 3);
        std::printf("\n");
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const opd::RegistrationSet kernels = bench_elem::setup();
  register_benchmarks();
  SummaryReporter reporter;
  return opd_bench::run_benchmarks(argc, argv, reporter);
}
