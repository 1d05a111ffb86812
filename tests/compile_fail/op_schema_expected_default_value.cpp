// EXPECT: malformed_schema<opd::schema_error::expected_default_value, 28,
// '=' without a value.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x, int dim=) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
