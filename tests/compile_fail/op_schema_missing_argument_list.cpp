// EXPECT: malformed_schema<opd::schema_error::missing_argument_list, 9,
// Only the operator name.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
