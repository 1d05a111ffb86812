// libtorch's side of opd_bench_models (torch_model.hpp).
#include "torch_model.hpp"

#include <ATen/Parallel.h>
#include <cblas.h>
#include <torch/script.h>

namespace opd_bench {

struct TorchModel::Impl {
  torch::jit::script::Module module;
  std::vector<torch::jit::IValue> inputs;
};

TorchModel::TorchModel(const std::string& pt_path, const std::vector<std::vector<int64_t>>& sizes,
                       const std::vector<std::vector<float>>& values)
    : impl_(std::make_unique<Impl>()) {
  impl_->module = torch::jit::load(pt_path);
  impl_->module.eval();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    at::Tensor t = at::empty(sizes[i], at::kFloat);
    std::copy(values[i].begin(), values[i].end(), t.data_ptr<float>());
    impl_->inputs.emplace_back(t);
  }
}

TorchModel::~TorchModel() = default;

std::vector<float> TorchModel::run() {
  c10::InferenceMode guard;
  torch::jit::IValue out = impl_->module.forward(impl_->inputs);
  at::Tensor t;
  if (out.isTensor()) t = out.toTensor();
  else if (out.isTuple()) t = out.toTuple()->elements().at(0).toTensor();
  else return {};
  t = t.contiguous();
  return std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
}

// The peer's BLAS too, at its default (a pool of n threads): at::set_num_threads
// leaves Debian's OpenBLAS alone, and the library holds it at one.
void TorchModel::set_threads(int n) {
  at::set_num_threads(n);
  openblas_set_num_threads(n);
}

}  // namespace opd_bench
