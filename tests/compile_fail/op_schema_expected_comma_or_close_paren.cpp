// EXPECT: malformed_schema<opd::schema_error::expected_comma_or_close_paren, 19,
// Two arguments without a comma between them.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x Tensor y) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
