// EXPECT: malformed_schema<opd::schema_error::expected_list_size, 14,
// A list size that is not a number.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(int[n] size) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
