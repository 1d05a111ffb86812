// EXPECT: malformed_schema<opd::schema_error::expected_close_bracket, 16,
// A fixed-size list without its ']'.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(int[2 size) -> Tensor"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
