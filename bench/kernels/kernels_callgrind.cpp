// Driver for instruction counts under callgrind: N functional calls of one
// kernel operator on float tensors, as bench/kernels/elementwise.cpp and
// reductions.cpp call them (opd only: without libtorch loaded, valgrind
// starts it in a second).
//
//   opd_kernels_callgrind <exp|mul|lt|softmax|argmin|max|count_nonzero|mv|roll> <n elements> <N calls>
//
// The reductions take [1, n] (argmin over dim -1, max and count_nonzero over
// everything), mv a [1, n] matrix and an n vector, roll [1000, n / 1000] by
// one along the last dim, as opd_kernels_all_ops does.
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
#include <kernels/ops_linalg.hpp>
#include <kernels/ops_pointwise.hpp>
#include <kernels/ops_reductions.hpp>
#include <kernels/ops_shape.hpp>

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
    std::fprintf(stderr, "usage: %s <exp|mul|lt|softmax|argmin|max|count_nonzero|mv|roll> <n> <calls>\n", argv[0]);
    return 2;
  }
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  opd::kernels::set_num_threads(1);
  const std::string op = argv[1];
  const int64_t n = std::atoll(argv[2]);
  const long calls = std::atol(argv[3]);
  const bool elementwise = op == "exp" || op == "mul" || op == "lt";
  const opd::Tensor a = input(n, 0.f, !elementwise), b = input(n, 0.001f, !elementwise && op != "mv");
  long sink = 0;
  for (long i = 0; i < calls; ++i) {
    opd::Tensor r;
    if (op == "exp") r = opd::call<ops::exp::functional>(a);
    else if (op == "mul") r = opd::call<ops::mul::functional>(a, b);
    else if (op == "lt") r = opd::call<ops::lt::functional>(a, b);
    else if (op == "softmax") r = opd::call<ops::softmax>(a, 1, std::nullopt);
    else if (op == "argmin") r = opd::call<ops::argmin>(a, std::optional<int64_t>(-1), false);
    else if (op == "max") r = opd::call<ops::max>(a);
    else if (op == "count_nonzero") r = opd::call<ops::count_nonzero>(a, std::nullopt);
    else if (op == "mv") r = opd::call<ops::mv>(a, b);
    else if (op == "roll") r = opd::call<ops::roll>(opd::call<ops::view>(a, std::vector<int64_t>{1000, n / 1000}), std::vector<int64_t>{1}, std::vector<int64_t>{-1});
    else {
      std::fprintf(stderr, "unknown op: %s\n", argv[1]);
      return 2;
    }
    sink += r.numel();
  }
  const int64_t per_call = elementwise || op == "softmax" || op == "roll" ? n : 1;  // the reductions' and mv's result: 1 element
  return sink == calls * per_call ? 0 : 1;
}
