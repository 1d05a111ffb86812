// opd::functionalize accepts functions returning Tensor, std::vector<Tensor>,
// a tuple of those, or nothing.
#include <functionalize/functionalize.hpp>

#include <tuple>
#include <vector>

void use(const opd::Tensor& x) {
  (void)opd::functionalize([](const opd::Tensor& a) { return a; })(x);
  (void)opd::functionalize([](const opd::Tensor& a, const opd::Tensor& b) { return std::vector<opd::Tensor>{a, b}; })(x, x);
  (void)opd::functionalize([](const opd::Tensor& a) { return std::tuple<opd::Tensor, std::vector<opd::Tensor>>(a, {a}); },
                           opd::FunctionalizeMode::remove_views)(x);
  opd::functionalize([](const opd::Tensor&) {})(x);
}
