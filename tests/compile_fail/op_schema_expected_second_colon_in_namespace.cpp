// EXPECT: malformed_schema<opd::schema_error::expected_second_colon_in_namespace, 7,
// A single ':' between namespace and name.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops:f(Tensor x) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
