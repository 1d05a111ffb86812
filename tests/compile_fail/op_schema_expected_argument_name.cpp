// EXPECT: malformed_schema<opd::schema_error::expected_argument_name, 16,
// An argument without a name.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
