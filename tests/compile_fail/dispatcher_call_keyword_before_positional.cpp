// EXPECT: keyword arguments .* must follow the positional ones
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::order(Tensor self, int n=1) -> Tensor"> {};

opd::Tensor f(const opd::Tensor& t) { return opd::call<my_op>(opd::arg<"n"> = int64_t{2}, t); }

int main() {}
