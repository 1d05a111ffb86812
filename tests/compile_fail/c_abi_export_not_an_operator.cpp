// EXPECT: constraints not satisfied|constraint failure|schema_holder
// OPD_EXPORT_C takes an operator type (something with a compile-time schema).
#include <dispatch/c_abi/shim.hpp>

struct not_an_operator {};
OPD_EXPORT_C(opd_not_an_operator, not_an_operator)

int main() {}
