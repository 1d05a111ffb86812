// Driver for instruction counts under callgrind: N functional calls of one
// kernel operator on float tensors, as bench/kernels/elementwise.cpp and
// reductions.cpp call them (opd only: without libtorch loaded, valgrind
// starts it in a second).
//
//   opd_kernels_callgrind <exp|mul|lt|softmax> <n elements> <N calls>
//
// Instructions per call = (Ir(2N) - Ir(N)) / N, which cancels start-up and
// registration (bench/kernels/kernels_callgrind.sh).
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <kernels/cpu/parallel.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_pointwise.hpp>
#include <kernels/ops_reductions.hpp>

namespace {

namespace ops = opd::kernels::ops;

opd::Tensor input(int64_t n, float shift, bool matrix) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = 0.5f + static_cast<float>((i * 7919) % 1000) / 1000.f + shift;
  if (matrix) return opd::from_vector<float>(v, std::vector<int64_t>{1, n});
  return opd::from_vector<float>(v);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <exp|mul|lt|softmax> <n> <calls>\n", argv[0]);
    return 2;
  }
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  opd::kernels::set_num_threads(1);
  const std::string op = argv[1];
  const int64_t n = std::atoll(argv[2]);
  const long calls = std::atol(argv[3]);
  const bool matrix = op == "softmax";
  const opd::Tensor a = input(n, 0.f, matrix), b = input(n, 0.001f, matrix);
  long sink = 0;
  for (long i = 0; i < calls; ++i) {
    opd::Tensor r;
    if (op == "exp") r = opd::call<ops::exp::functional>(a);
    else if (op == "mul") r = opd::call<ops::mul::functional>(a, b);
    else if (op == "lt") r = opd::call<ops::lt::functional>(a, b);
    else if (op == "softmax") r = opd::call<ops::softmax>(a, 1, std::nullopt);
    else {
      std::fprintf(stderr, "unknown op: %s\n", argv[1]);
      return 2;
    }
    sink += r.numel();
  }
  return sink == calls * n ? 0 : 1;
}
