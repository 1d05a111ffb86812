// EXPECT: an argument without a default was not given
// opd::call fills defaults from the schema; `int n` has none.
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::missing(Tensor self, int n, int m=2) -> Tensor"> {};

opd::Tensor f(const opd::Tensor& t) { return opd::call<my_op>(t); }

int main() {}
