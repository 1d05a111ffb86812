// EXPECT: a keyword argument names no argument of this operator
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::keyword(Tensor self, *, int n=1) -> Tensor"> {};

opd::Tensor f(const opd::Tensor& t) { return opd::call<my_op>(t, opd::arg<"m"> = int64_t{2}); }

int main() {}
