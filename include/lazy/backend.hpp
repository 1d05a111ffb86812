#pragma once
// Header-only, the definitions come after the declarations of every lazy
// header this one includes: only the outermost lazy header includes them,
// at its end (an inner one would reach lazy-inl.hpp mid-declaration).
#ifndef OPD_LAZY_DECLARING
#define OPD_LAZY_DECLARING
#define OPD_LAZY_OUTERMOST_BACKEND
#endif
// A device author's interface to the lazy backend (docs/lazy.md): a compiler
// turns a collected graph into an executable; the default one is the CPU
// plan (graph_executor.hpp), which runs the CPU kernels through the
// dispatcher. Executables are cached by the graph's structure hash, so an
// executable must only depend on the graph's structure (operators,
// attributes, shapes, dtypes, edges), and read the input values from the
// graph it is run on.
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "dispatch/config.hpp"
#include "lazy/ir.hpp"

namespace opd::lazy {

// A pending graph, collected at sync: its nodes in post-order (operands
// before users; node->order is the position), the graph inputs (data nodes)
// and the nodes whose outputs are wanted.
struct Graph {
  std::vector<Node*> nodes;
  std::vector<std::uint32_t> inputs;  // positions of data nodes
  std::vector<std::uint32_t> roots;   // positions of nodes whose outputs are live
  std::uint64_t hash = 0;             // structure: operators, attributes, shapes, edges
};

class OPD_API Executable {
 public:
  virtual ~Executable();
  // Runs the graph `g` (of the structure this was compiled for); returns
  // every output of every root, root by root.
  virtual std::vector<Tensor> run(const Graph& g) = 0;
  // A description for dumps ("cpu plan: 5 steps, 3 slots, 1 fused group").
  virtual std::string describe() const = 0;
};

using Compiler = std::function<std::unique_ptr<Executable>(const Graph&)>;

// Installs a compiler (empty: the default CPU plan); returns the previous
// one. Clears the graph cache.
OPD_API Compiler set_compiler(Compiler c);
// The default: the CPU plan (ordered steps, liveness slots, fused
// elementwise groups).
OPD_API std::unique_ptr<Executable> compile_cpu_plan(const Graph& g);

// Operators that always run eagerly (inputs materialized, CPU kernel,
// outputs become graph inputs): those whose output shape depends on data.
// A backend may add its own. Names are "ns::name.overload" or "ns::name".
OPD_API void mark_eager(std::string_view op_name);
OPD_API bool is_marked_eager(std::string_view op_name);

}  // namespace opd::lazy

#ifdef OPD_LAZY_OUTERMOST_BACKEND
#undef OPD_LAZY_OUTERMOST_BACKEND
#undef OPD_LAZY_DECLARING
// Header-only: the definitions (lazy/lazy.hpp includes them).
#ifdef OPD_HEADER_ONLY
#include "lazy/lazy.hpp"
#endif
#endif
