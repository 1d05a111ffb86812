// EXPECT: malformed_schema<opd::schema_error::empty_schema, 1,
// An empty schema.
#include <dispatch/op.hpp>

struct my_op : opd::op<""> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
