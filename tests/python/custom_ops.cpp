// A library of custom operators as a user builds one: it declares its
// operators in C++ and registers their kernels while it loads (a namespace-
// scope RegistrationHandle), links libopdispatch, and needs no Python code:
// after opdispatch.load_library(path) they are opdispatch.ops.pytest.*.
#include <dispatch/dispatcher.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

struct scale : opd::op<"pytest::scale(Tensor self, float factor=2.0, *, int offset=0) -> Tensor"> {};
struct describe : opd::op<"pytest::describe(Tensor[] xs, int[2] size=1, str mode=\"sum\", ScalarType? dtype=None) -> str"> {};
struct fail : opd::op<"pytest::fail(Tensor self) -> Tensor"> {};

opd::Tensor scale_cpu(const opd::Tensor& self, double factor, int64_t offset) {
  std::vector<float> v = opd::to_vector<float>(self);
  for (float& x : v) x = static_cast<float>(x * factor + static_cast<double>(offset));
  return opd::from_vector<float>(v, self.sizes());
}

// What the kernel received, as text: the Python test checks defaults and conversions with it.
std::string describe_cpu(std::span<const opd::Tensor> xs, std::span<const int64_t> size, std::string_view mode,
                         std::optional<opd::ScalarType> dtype) {
  std::string s = std::to_string(xs.size()) + " tensors, size [";
  for (std::size_t i = 0; i < size.size(); ++i) s += (i ? ", " : "") + std::to_string(size[i]);
  s += "], mode " + std::string(mode) + ", dtype " + (dtype ? std::to_string(static_cast<int>(*dtype)) : std::string("None"));
  return s;
}

opd::Tensor fail_cpu(const opd::Tensor&) { throw opd::ValueError("pytest::fail always fails"); }

const opd::RegistrationHandle r1 = opd::register_kernel<scale, &scale_cpu>(opd::DispatchKey::CPU);
const opd::RegistrationHandle r2 = opd::register_kernel<describe, &describe_cpu>(opd::DispatchKey::CPU);
const opd::RegistrationHandle r3 = opd::register_kernel<fail, &fail_cpu>(opd::DispatchKey::CPU);

}  // namespace
