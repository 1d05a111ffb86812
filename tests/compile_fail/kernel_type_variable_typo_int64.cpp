// EXPECT: is_read_as_a_type_variable<'i', 'n', 't', '6', '4'>::did_you_mean<'i', 'n', 't'>
// `int64` reads as a type variable; the schema type is `int`.
#include <dispatch/dispatcher.hpp>
#include <dispatch/op.hpp>

struct my_narrow : opd::op<"myops::narrow(Tensor self, int64 length) -> Tensor"> {};

opd::Tensor narrow_kernel(const opd::Tensor& self, int64_t) { return self; }

int main() {
  auto h = opd::register_kernel<my_narrow, &narrow_kernel>(opd::DispatchKey::CPU);
  return 0;
}
