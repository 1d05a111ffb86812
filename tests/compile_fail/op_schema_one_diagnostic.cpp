// EXPECT: ^([^e]|e[^r]|er[^r]|err[^o]|erro[^r]|error[^:]|error:[^ ])*error: static assertion failed: malformed operator schema([^e]|e[^r]|er[^r]|err[^o]|erro[^r]|error[^:]|error:[^ ])*$
// EXPECT-Clang: well_formed_schema<opd::malformed_schema<opd::schema_error::unknown_type, 20, 'T', 'e', 'n', 's', 'r'>, opd::schema_text<'m', 'y', 'o', 'p', 's', ':', ':', 'f', '[(]', 'T', 'e', 'n', 's', 'o', 'r', ' ', 'x', ',', ' ', 'T', 'e', 'n', 's', 'r'.*[^0-9]1 error generated
// One mistake, one diagnostic: a malformed schema is reported once, with the
// schema text readable (clang prints a fixed_string argument as character
// codes, so the text also comes as opd::schema_text<'m', 'y', ...>), and the
// correct kernels registered for it and the call made to it add no error.
// (The g++ regex: no "error: " but the schema's.)
#include <dispatch/dispatcher.hpp>
#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::f(Tensor x, Tensr y) -> Tensor"> {};
opd::Tensor kernel(const opd::Tensor& x, const opd::Tensor&) { return x; }

int main() {
  auto h1 = opd::register_kernel<my_op, &kernel>(opd::DispatchKey::CPU);
  auto h2 = opd::register_kernel<my_op>(opd::DispatchKey::CPU, [](const opd::Tensor& x, const opd::Tensor&) { return x; });
  static_assert(opd::schema::check_kernel<my_op, decltype(&kernel)>());
  opd::Tensor t;
  (void)opd::call<my_op>(t, t);
  return 0;
}
