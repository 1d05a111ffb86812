// EXPECT: kernel_argument_mismatch<1, long( int)?, double, 'n'>
// register_kernel<Op, &fn> checks the function against the schema: `int n`
// is an int64_t parameter, not a double.
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::argtype(Tensor self, int n) -> Tensor"> {};

opd::Tensor kernel(const opd::Tensor& self, double n);

int main() { auto h = opd::register_kernel<my_op, &kernel>(opd::DispatchKey::CPU); }
