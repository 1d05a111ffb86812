// EXPECT: malformed_schema<opd::schema_error::expected_end_of_schema, 29,
// Text after the returns.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x) -> Tensor)"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
