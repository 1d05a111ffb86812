// EXPECT: inferable_parameter<.*float
// opd::def infers a schema from the kernel's parameter types: a C++ type with
// no schema type (float: the schema's float is double) stops compilation with
// the type named.
#include <dispatch/dispatcher.hpp>

int main() {
  auto r = opd::def("cf_dispatcher::bad_def", [](const opd::Tensor& t, float) { return t; });
}
