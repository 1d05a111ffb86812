// EXPECT: malformed_schema<opd::schema_error::schema_too_complex, 26,
// More alias sets in one annotation than the parser holds.
#include <dispatch/op.hpp>

constexpr const auto& s = opd::schema::schema_of<"myops::f(Tensor(a|b|c|d|e) x) -> Tensor">();

int main() { return static_cast<int>(s.arguments.size()); }
