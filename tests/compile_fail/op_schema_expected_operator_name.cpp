// EXPECT: malformed_schema<opd::schema_error::expected_operator_name, 1,
// No operator name before the argument list.
#include <dispatch/op.hpp>

struct my_op : opd::op<"(Tensor x) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
