#pragma once
// Thread-count settings of parallel.hpp, kept out of user files. OpenBLAS is
// held at one thread: the library splits its products across these threads
// and runs each OpenBLAS call on one (kernels/cpu/blas_threads.hpp, which
// does the same before each product).
#include <cblas.h>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels {

OPD_FUNC int get_num_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

OPD_FUNC void set_num_threads(int n) {
  if (n < 1) throw ValueError(::opd::detail::str_cat("set_num_threads: expected a positive number of threads, but got ", n));
#if defined(_OPENMP)
  omp_set_num_threads(n);
#endif
  openblas_set_num_threads(1);
}

}  // namespace opd::kernels
