// EXPECT: malformed_schema<opd::schema_error::unexpected_character, 30,
// A character that starts no token.
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x) -> Tensor $"> {};

int main() { return static_cast<int>(my_op::schema.arguments.size()); }
