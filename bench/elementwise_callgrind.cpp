// Driver for instruction counts under callgrind: N calls of one add.
//
//   elementwise_callgrind <opd|opd_handwritten|aten> <functional|inplace|out> <n elements> <N calls>
//
// Instructions per call = (Ir(2N) - Ir(N)) / N, which cancels start-up,
// registration and set-up (bench/elementwise_callgrind.sh).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "elementwise_ops.hpp"

namespace {

using bench_elem::Variant;

template <class T, class Input, class Call>
void loop(Input input, int64_t n, long calls, Call call) {
  T a = input(n, 1.f);
  const T b = input(n, 0.f);
  T out = input(n, 0.f);
  for (long i = 0; i < calls; ++i) call(a, b, out);
}

template <Variant V>
bool run(const std::string& side, int64_t n, long calls) {
  if (side == "opd") loop<opd::Tensor>(&bench_elem::opd_input, n, calls, &bench_elem::opd_derived<V>);
  else if (side == "opd_handwritten") loop<opd::Tensor>(&bench_elem::opd_input, n, calls, &bench_elem::opd_handwritten<V>);
#if defined(OPD_BENCH_WITH_TORCH)
  else if (side == "aten") loop<at::Tensor>(&bench_elem::aten_input, n, calls, &bench_elem::aten<V>);
#endif
  else return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s <opd|opd_handwritten|aten> <functional|inplace|out> <n> <calls>\n", argv[0]);
    return 2;
  }
  const opd::RegistrationSet kernels = bench_elem::setup();
  const std::string side = argv[1], variant = argv[2];
  const int64_t n = std::atoll(argv[3]);
  const long calls = std::atol(argv[4]);
  bool ok = false;
  if (variant == "functional") ok = run<Variant::functional>(side, n, calls);
  else if (variant == "inplace") ok = run<Variant::inplace>(side, n, calls);
  else if (variant == "out") ok = run<Variant::out>(side, n, calls);
  if (!ok) {
    std::fprintf(stderr, "unknown side or variant: %s %s\n", argv[1], argv[2]);
    return 2;
  }
  return 0;
}
