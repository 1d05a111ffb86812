// EXPECT: malformed_schema<opd::schema_error::use_float_instead_of_double, 20,
// 'double' is spelled 'float' in a schema.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x, double scale) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
