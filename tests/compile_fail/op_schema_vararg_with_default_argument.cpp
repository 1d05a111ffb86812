// EXPECT: malformed_schema<opd::schema_error::vararg_with_default_argument, 14,
// A default in a vararg schema.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(int n=1, ...) -> ()"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
