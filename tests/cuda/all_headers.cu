// nvcc must compile every header a .cu file includes: this one includes them all
// and exercises the compile-time parts (a schema literal, a kernel check) in device-compiled code.
#include <dispatch/dispatcher.hpp>
#include <dispatch/schema.hpp>
#include <dispatch/schema/properties.hpp>
#include <dispatch/schema/variants.hpp>

struct cuda_noop : opd::op<"cudatest::noop(Tensor self, int k, float? s=None) -> Tensor"> {};
static_assert(cuda_noop::schema.arguments.size() == 3);

static std::optional<double> seen_s;
opd::Tensor cuda_noop_kernel(const opd::Tensor& self, int64_t, std::optional<double> s) {
  seen_s = s;
  return self;
}
static_assert(opd::schema::check_kernel<cuda_noop, decltype(&cuda_noop_kernel)>());

__global__ void touch(float* p) { p[threadIdx.x] += 1.0f; }

int main() {
  auto h = opd::register_kernel<cuda_noop, &cuda_noop_kernel>(opd::DispatchKey::CPU);
  opd::Tensor t = opd::empty(std::vector<int64_t>{2}, opd::ScalarType::Float);
  if (!opd::call<cuda_noop>(t, 1).is_same(t) || seen_s) return 1;
  // A keyword argument (opd::arg<"s"> = v) in code nvcc compiles.
  if (!opd::call<cuda_noop>(t, 1, opd::arg<"s"> = 2.0).is_same(t) || seen_s != 2.0) return 2;
  return 0;
}
