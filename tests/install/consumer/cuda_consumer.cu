// A CUDA translation unit consuming opdispatch: nvcc gets C++20 from the
// target's usage requirements (compiled only: there may be no GPU).
#include <dispatch/dispatcher.hpp>

struct cuda_twice : opd::op<"consumer::cuda_twice(Tensor self) -> Tensor"> {};

__global__ void scale_kernel(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.f;
}

opd::Tensor cuda_twice_host(const opd::Tensor& self) { return self; }
static_assert(std::is_same_v<cuda_twice::signature, opd::Tensor(const opd::Tensor&)>);
