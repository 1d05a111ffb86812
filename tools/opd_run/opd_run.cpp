// opd-run: runs an ATen graph (tools/export_aten_graph.py; docs/models.md)
// through the boxed dispatcher, with the library's kernels (and plugins').
#include "graph.hpp"

#include <kernels/cpu/parallel.hpp>
#include <kernels/ops.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view usage_text =
    "usage: opd-run GRAPH.json [options]\n"
    "\n"
    "Runs a graph made by tools/export_aten_graph.py through opdispatch's boxed\n"
    "dispatcher (operator handles resolved at load, values dropped after their\n"
    "last use) and prints its outputs' shapes.\n"
    "\n"
    "  --inputs FILE   the inputs: an opd-tensors-1 file's \"inputs\" (default: synthetic\n"
    "                  values, uniform in [-1, 1))\n"
    "  --expect FILE   compare the outputs with an opd-tensors-1 file's \"outputs\":\n"
    "                  max |ours - ref| / max |ref| per output, at most --rtol\n"
    "  --io FILE       both: --inputs FILE --expect FILE (export_aten_graph's <model>.io.json)\n"
    "  --rtol X        the tolerance of --expect (default 1e-4)\n"
    "  --profile       time per ATen operator, slowest first\n"
    "  --repeat N      run N times (after --warmup runs; default 1) and print the mean time\n"
    "  --warmup N      untimed runs first (default 0)\n"
    "  --threads N     the library's thread count (default: the library's)\n"
    "  --device D      run on device D (default cpu): weights and inputs copied there\n"
    "  --plugin SO     dlopen a library that registers kernels (repeatable)\n"
    "  --trace         after each node, print each floating output's sum weighted by position (1 + i mod 7)\n"
    "  --memory        print the peak count and size of the buffers the runs allocate\n"
    "  --missing       list the graph's operators that have no kernel, one per line, and stop\n"
    "  --help          show this text\n"
    "\n"
    "Exit status: 0; 1 when a node fails or an output is off the reference; 2 on bad\n"
    "usage or a malformed file; 3 when the library lacks operators of the graph\n"
    "(listed on stderr, or stdout with --missing).\n";

// --memory: counts the buffers the CPU allocator hands out and their peak,
// to show that the runner drops values after their last use.
class CountingAllocator final : public opd::Allocator {
 public:
  explicit CountingAllocator(opd::Allocator* inner) : inner_(inner) {}
  opd::DataPtr allocate(std::size_t nbytes, opd::Device device) override {
    auto inner = std::make_shared<opd::DataPtr>(inner_->allocate(nbytes, device));
    if (nbytes == 0) return std::move(*inner);
    const std::lock_guard<std::mutex> lock(mutex_);
    ++live_;
    live_bytes_ += nbytes;
    peak_ = std::max(peak_, live_);
    peak_bytes_ = std::max(peak_bytes_, live_bytes_);
    void* data = inner->get();
    return opd::DataPtr::from_function(
        data,
        [this, inner, nbytes](void*) mutable {
          const std::lock_guard<std::mutex> lock(mutex_);
          --live_;
          live_bytes_ -= nbytes;
          inner.reset();
        },
        device);
  }
  void reset_peak() {
    base_ = live_;
    base_bytes_ = live_bytes_;
    peak_ = live_;
    peak_bytes_ = live_bytes_;
  }
  long peak_buffers() const { return peak_ - base_; }
  double peak_mb() const { return static_cast<double>(peak_bytes_ - base_bytes_) / 1e6; }

 private:
  opd::Allocator* inner_;
  std::mutex mutex_;
  long live_ = 0, peak_ = 0, base_ = 0;
  std::size_t live_bytes_ = 0, peak_bytes_ = 0, base_bytes_ = 0;
};

int usage_error(const char* msg) {
  std::fprintf(stderr, "opd-run: %s\n%s", msg, usage_text.data());
  return 2;
}

bool parse_count(const char* text, long& out) {
  char* end = nullptr;
  out = std::strtol(text, &end, 10);
  return end != text && *end == '\0' && out >= 0 && out <= 1000000;
}

}  // namespace

int main(int argc, char** argv) {
  std::string graph_path, inputs_path, expect_path, device_text = "cpu";
  std::vector<std::string> plugins;
  double rtol = 1e-4;
  bool profile = false, missing_only = false, memory = false, trace = false;
  long repeat = 1, warmup = 0, threads = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--help") return std::fputs(usage_text.data(), stdout) < 0 ? 2 : 0;
    if (a == "--profile") profile = true;
    else if (a == "--missing") missing_only = true;
    else if (a == "--memory") memory = true;
    else if (a == "--trace") trace = true;
    else if (a == "--inputs" || a == "--expect" || a == "--io" || a == "--device" || a == "--plugin") {
      const char* v = value();
      if (v == nullptr) return usage_error("an option lacks its value");
      if (a == "--inputs" || a == "--io") inputs_path = v;
      if (a == "--expect" || a == "--io") expect_path = v;
      if (a == "--device") device_text = v;
      if (a == "--plugin") plugins.emplace_back(v);
    } else if (a == "--rtol") {
      const char* v = value();
      char* end = nullptr;
      if (v == nullptr || (rtol = std::strtod(v, &end), end == v || *end != '\0') || !(rtol >= 0))
        return usage_error("--rtol takes a non-negative number");
    } else if (a == "--repeat" || a == "--warmup" || a == "--threads") {
      const char* v = value();
      long n = 0;
      if (v == nullptr || !parse_count(v, n)) return usage_error("--repeat, --warmup and --threads take a count");
      (a == "--repeat" ? repeat : a == "--warmup" ? warmup : threads) = n;
    } else if (a.starts_with("--")) {
      return usage_error("unknown option");
    } else if (graph_path.empty()) {
      graph_path = argv[i];
    } else {
      return usage_error("more than one graph given");
    }
  }
  if (graph_path.empty()) return usage_error("no graph given");
  if (repeat < 1) return usage_error("--repeat takes at least 1");
  const auto device = opd::Device::try_parse(device_text);
  if (!device) return usage_error("unknown --device");

  static CountingAllocator counting(opd::get_allocator(opd::DeviceType::CPU));
  if (memory) opd::set_allocator(opd::DeviceType::CPU, &counting);
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  for (const std::string& p : plugins) {
    if (dlopen(p.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      std::fprintf(stderr, "opd-run: cannot load %s: %s\n", p.c_str(), dlerror());
      return 2;
    }
  }
  if (threads > 0) opd::kernels::set_num_threads(static_cast<int>(threads));

  opd::graph::Graph graph;
  std::vector<opd::Tensor> inputs, expected;
  try {
    graph = opd::graph::Graph::load(graph_path, *device);
    if (!inputs_path.empty()) inputs = opd::graph::load_tensors(inputs_path, "inputs");
    if (!expect_path.empty()) expected = opd::graph::load_tensors(expect_path, "outputs");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opd-run: %s\n", e.what());
    return 2;
  }
  const std::vector<std::string> missing = graph.missing_operators();
  if (missing_only) {
    for (const std::string& m : missing) std::printf("%s\n", m.c_str());
    return missing.empty() ? 0 : 3;
  }
  if (!missing.empty()) {
    std::fprintf(stderr, "opd-run: %s: %zu operators of the graph have no kernel:\n", graph_path.c_str(), missing.size());
    for (const std::string& m : missing) std::fprintf(stderr, "  %s\n", m.c_str());
    return 3;
  }

  std::vector<opd::Tensor> outputs;
  opd::graph::Profile prof;
  double seconds = 0;
  try {
    if (inputs_path.empty()) inputs = opd::graph::synthetic_inputs(graph);
    for (long r = 0; r < warmup; ++r) outputs = graph.run(inputs);
    outputs.clear();
    counting.reset_peak();
    const opd::graph::Graph::NodeHook hook = [](std::size_t i, const opd::graph::Graph::Node& n,
                                                 const std::vector<opd::Tensor>& outs) {
      std::printf("node %zu %s:", i, n.op.c_str());
      for (const opd::Tensor& t : outs) {
        if (t.dtype() != opd::ScalarType::Float) {
          std::printf(" -");
          continue;
        }
        double sum = 0;  // weighted by position, so that a permutation shows
        std::size_t k = 0;
        for (float x : opd::to_vector<float>(t)) sum += x * static_cast<double>(k++ % 7 + 1);
        std::printf(" %.6g", sum);
      }
      std::printf("\n");
    };
    for (long r = 0; r < repeat; ++r) {
      const auto start = std::chrono::steady_clock::now();
      outputs = graph.run(inputs, profile ? &prof : nullptr, trace && r == 0 ? &hook : nullptr);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opd-run: %s\n", e.what());
    return 1;
  }
  std::printf("%s: %zu nodes, %.3f ms per run (%ld runs, %d threads)\n", graph.model().c_str(), graph.nodes().size(),
              1e3 * seconds / static_cast<double>(repeat), repeat, opd::kernels::get_num_threads());
  int status = 0;
  if (!expected.empty() && expected.size() != outputs.size()) {
    std::fprintf(stderr, "opd-run: %zu outputs, the reference has %zu\n", outputs.size(), expected.size());
    status = 1;
  }
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    std::printf("output %zu: sizes [", k);
    for (std::size_t d = 0; d < outputs[k].sizes().size(); ++d)
      std::printf("%s%lld", d ? ", " : "", static_cast<long long>(outputs[k].sizes()[d]));
    std::printf("]");
    if (k < expected.size()) {
      try {
        const double err = opd::graph::relative_error(outputs[k], expected[k]);
        const bool ok = err <= rtol;
        std::printf(", max relative error %.3g (%s, rtol %g)", err, ok ? "ok" : "OFF", rtol);
        if (!ok) status = 1;
      } catch (const std::exception& e) {
        std::printf(", %s", e.what());
        status = 1;
      }
    }
    std::printf("\n");
  }
  if (memory)
    std::printf("memory: peak %ld buffers, %.3f MB allocated by the runs at once (beyond weights and inputs)\n",
                counting.peak_buffers(), counting.peak_mb());
  if (profile) std::printf("\n%s", prof.table(repeat).c_str());
  return status;
}
