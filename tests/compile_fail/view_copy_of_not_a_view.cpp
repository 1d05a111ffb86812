// EXPECT: View's schema returns no alias of an argument
// opd::kernels::view_copy_of<Op> derives a *_copy operator from a view's
// schema; an operator that returns no alias of its input (clone) has none.
#include <kernels/ops_view_copies.hpp>

std::string_view derived = opd::kernels::view_copy_of<opd::kernels::ops::clone>::schema_str;
