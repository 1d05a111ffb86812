// EXPECT: written_return_matches_no_argument
// A return annotated as written (Tensor(a!)) must hand back a written
// argument; here no argument is in set a. Rejected when the operator type
// is used, at compile time (a run-time schema: opd::Error when declared).
#include <dispatch/dispatcher.hpp>

struct bad_op : opd::op<"cf_alias::bad(Tensor self, Tensor(b!) other) -> Tensor(a!)"> {};

opd::OperatorEntry& f() { return opd::entry_for<bad_op>(); }

int main() {}
