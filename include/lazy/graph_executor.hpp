#pragma once
// Header-only, the definitions come after the declarations of every lazy
// header this one includes: only the outermost lazy header includes them,
// at its end (an inner one would reach lazy-inl.hpp mid-declaration).
#ifndef OPD_LAZY_DECLARING
#define OPD_LAZY_DECLARING
#define OPD_LAZY_OUTERMOST_GRAPH_EXECUTOR
#endif
// Sync (PyTorch's mark_step), the graph cache and the counters (docs/lazy.md).
//
//   opd::lazy::sync();                   // run the pending graph of every live lazy tensor
//   opd::lazy::counters().uncached_compile
//   std::cout << opd::lazy::dump_graph() << opd::lazy::dump_dot();
//
// Sync in numbered steps: (1) collect the live lazy tensors whose value is
// pending; (2) walk their graph in post-order and hash its structure; (3)
// look the hash up in the graph cache (LRU, bounded), compiling on a miss;
// (4) run; (5) only if every operator succeeded, the roots become data (so an
// operator that fails leaves every lazy tensor as it was, and the error names
// the operator).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::lazy {

struct Counters {
  std::uint64_t nodes_traced = 0;       // IR nodes recorded
  std::uint64_t eager_ops = 0;          // operators run eagerly (data-dependent, marked, no Meta kernel)
  std::uint64_t syncs = 0;              // graph executions
  std::uint64_t uncached_compile = 0;   // graph cache misses
  std::uint64_t cached_compile = 0;     // graph cache hits
  std::uint64_t shape_cache_misses = 0; // Meta kernel calls
  std::uint64_t nodes_executed = 0;     // operator nodes run at sync
  std::uint64_t fused_nodes = 0;        // of which run inside fused loops
  std::uint64_t inputs_written = 0;     // graph inputs whose buffer a fused update wrote in place
  std::uint64_t weights_transposed = 0; // linear weights a plan copied transposed (kept while unchanged)
};
OPD_API Counters counters();
OPD_API void reset_counters();

// Runs the pending graph of every live lazy tensor.
OPD_API void sync();
// Runs what these tensors' values need (functional wrappers are synced first).
OPD_API void sync(std::span<const Tensor> tensors);

// The pending graph of the live lazy tensors (or of `tensors`), as text
// ("%3 = aten::mul.Tensor(%1, %2)  f32[32, 256]") and as Graphviz DOT.
OPD_API std::string dump_graph();
OPD_API std::string dump_graph(std::span<const Tensor> tensors);
OPD_API std::string dump_dot();
OPD_API std::string dump_dot(std::span<const Tensor> tensors);

// The graph cache: LRU with at most `capacity` executables (default 1024, as LTC's).
OPD_API void set_graph_cache_capacity(std::size_t capacity);
OPD_API std::size_t graph_cache_size();
OPD_API void clear_graph_cache();

// Number of live lazy tensors (tests).
OPD_API std::size_t live_tensor_count();

}  // namespace opd::lazy

#ifdef OPD_LAZY_OUTERMOST_GRAPH_EXECUTOR
#undef OPD_LAZY_OUTERMOST_GRAPH_EXECUTOR
#undef OPD_LAZY_DECLARING
// Header-only: the definitions (lazy/lazy.hpp includes them).
#ifdef OPD_HEADER_ONLY
#include "lazy/lazy.hpp"
#endif
#endif
