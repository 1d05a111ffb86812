// EXPECT: kernel_return_mismatch<std::tuple<opd::Tensor, opd::Tensor ?>, opd::Tensor ?>
// A functor kernel returning one Tensor for a schema with two returns.
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::returns(Tensor self) -> (Tensor, Tensor)"> {};

struct kernel {
  opd::Tensor operator()(const opd::Tensor& self) const { return self; }
};

int main() { auto h = opd::register_kernel<my_op>(opd::DispatchKey::CPU, kernel{}); }
