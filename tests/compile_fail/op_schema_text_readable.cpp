// EXPECT: schema_text
// EXPECT-GNU: opd::schema_text<opd::fixed_string<[0-9]+>[{]"mylib::axpb[(]Tensor x, Scalr a, Scalar b[)] -> Tensor"[}]>
// EXPECT-Clang: opd::schema_text<'m', 'y', 'l', 'i', 'b', ':', ':', 'a', 'x', 'p', 'b', '[(]', 'T', 'e', 'n', 's', 'o', 'r', ' ', 'x', ',', ' ', 'S', 'c', 'a', 'l', 'r'>
// The schema in a malformed schema's diagnostic is readable: g++ prints it as
// a string literal (a fixed_string template argument); clang 14 prints those
// as character codes, so there it comes as characters, up to the offending
// text only (not the whole schema).
#include <dispatch/op.hpp>

struct axpb : opd::op<"mylib::axpb(Tensor x, Scalr a, Scalar b) -> Tensor"> {};

int main() { return static_cast<int>(axpb::schema.arguments.size()); }
