// compile_cost: the floor for add_call.cpp: the same calls against plain
// declarations (what a user pays when the kernels are compiled elsewhere).
#include <dispatch/core/scalar.hpp>
#include <dispatch/core/tensor.hpp>
#include <optional>

namespace plain {
opd::Tensor ones(opd::IntArrayRef size, std::optional<opd::ScalarType>, std::optional<opd::Device>);
opd::Tensor empty(opd::IntArrayRef size, std::optional<opd::ScalarType>, std::optional<opd::Device>);
void add_impl(const opd::Tensor& self, const opd::Tensor& other, const opd::Scalar& alpha, opd::Tensor& out);
}  // namespace plain

int main() {
  opd::Tensor a = plain::ones({3}, std::nullopt, std::nullopt);
  opd::Tensor out = plain::empty({3}, std::nullopt, std::nullopt);
  plain::add_impl(a, a, opd::Scalar(1), out);
  return out.defined() ? 0 : 1;
}
