// EXPECT: (cannot convert|no viable conversion|no matching function)
// A typed call must match the operator's C++ signature (PyTorch: accessing an
// operator with a mismatching C++ signature fails at run time).
#include <dispatch/dispatcher.hpp>

#include <string>

struct my_op : opd::op<"cf_dispatcher::argtype_call(Tensor self, int n) -> Tensor"> {};

opd::Tensor f(const opd::Tensor& t) { return opd::call<my_op>(t, std::string("seven")); }

int main() {}
