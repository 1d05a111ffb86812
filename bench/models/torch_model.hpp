// libtorch's side of opd_bench_models: a TorchScript trace (torch.jit.trace,
// saved by tools/export_aten_graph.py --torchscript) run by libtorch 1.13 in
// C++ under InferenceMode. Compiled as C++17 in its own library
// (torch_model.cpp): this header names no libtorch type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace opd_bench {

class TorchModel {
 public:
  // inputs: float32 tensors, contiguous, with these sizes and values.
  TorchModel(const std::string& pt_path, const std::vector<std::vector<int64_t>>& sizes,
             const std::vector<std::vector<float>>& values);
  ~TorchModel();
  TorchModel(const TorchModel&) = delete;
  TorchModel& operator=(const TorchModel&) = delete;
  // One forward; the first output's elements.
  std::vector<float> run();
  static void set_threads(int n);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace opd_bench
