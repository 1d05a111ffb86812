// EXPECT: more positional arguments than the schema has
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::many(Tensor self) -> Tensor"> {};

opd::Tensor f(const opd::Tensor& t) { return opd::call<my_op>(t, t); }

int main() {}
