// nvcc must compile every header a .cu file includes: this one includes them all
// and exercises the compile-time parts (a schema literal, a kernel check) in device-compiled code,
// a keyword argument, and the structured CPU kernels' derived variants.
#include <dispatch/dispatcher.hpp>
#include <dispatch/schema.hpp>
#include <dispatch/schema/properties.hpp>
#include <dispatch/schema/variants.hpp>
#include <fallback/cpu_fallback.hpp>
#include <functionalize/view_inverse.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_scatter.hpp>
#include <kernels/ops_view_copies.hpp>
#include <structured/structured.hpp>

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
  // The structured CPU kernels and their derived variants.
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  const opd::Tensor a = opd::kernels::ones(std::vector<int64_t>{3}, std::nullopt, std::nullopt);
  opd::Tensor c = opd::call<opd::kernels::ops::add::functional>(a, a);
  opd::call<opd::kernels::ops::add::inplace>(c, a);
  if (opd::to_vector<float>(c) != std::vector<float>{3.f, 3.f, 3.f}) return 3;
  return 0;
}
