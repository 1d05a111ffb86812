// Every operator with a formula against libtorch 1.13's autograd: on the same
// double inputs (gradcheck_samples.hpp), the first derivatives
// (torch::autograd::grad of output 0, or of every element of a Tensor[]
// result, with random output gradients v, under
// create_graph) and the second ones (the gradient of sum_i <first_i, u_i>,
// u random) agree within 1e-10 relative (absolute below 1); an undefined
// gradient counts as zeros.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "all_formulas.hpp"
#include "all_kernels.hpp"
#include "gradcheck_samples.hpp"
#ifdef OPD_HAVE_LIBTORCH
#include "grad_torch_side.hpp"
#endif

namespace {

using opd::Tensor;
using opd::autograd::variable_list;

#ifdef OPD_HAVE_LIBTORCH

diff::RawTensor raw(const Tensor& t) {
  diff::RawTensor r;
  r.dtype = static_cast<int>(t.dtype());
  r.sizes.assign(t.sizes().begin(), t.sizes().end());
  r.strides.assign(r.sizes.size(), 1);
  for (std::size_t d = r.sizes.size(); d-- > 1;) r.strides[d - 1] = r.strides[d] * std::max<int64_t>(r.sizes[d], 1);
  auto bytes = [&](const auto& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    r.storage.assign(p, p + v.size() * sizeof(v[0]));
  };
  if (t.dtype() == opd::ScalarType::Double) {
    bytes(opd::to_vector<double>(t));
  } else if (t.dtype() == opd::ScalarType::Bool) {
    const std::vector<bool> b = opd::to_vector<bool>(t);
    bytes(std::vector<unsigned char>(b.begin(), b.end()));
  } else {
    bytes(opd::to_vector<int64_t>(t));
  }
  return r;
}

diff::Value value(const opd::IValue& a) {
  if (a.is_tensor()) return diff::T(raw(a.to_tensor()));
  if (a.is_tensor_list()) {
    std::vector<diff::RawTensor> ts;
    for (const Tensor& t : a.to_tensor_list()) ts.push_back(raw(t));
    return diff::TL(std::move(ts));
  }
  if (a.is_optional_tensor_list()) {
    std::vector<std::optional<diff::RawTensor>> ts;
    for (const std::optional<Tensor>& t : a.to_optional_tensor_list())
      ts.push_back(t ? std::optional<diff::RawTensor>(raw(*t)) : std::nullopt);
    return diff::OTL(std::move(ts));
  }
  if (a.is_bool()) return diff::B(a.to_bool());
  if (a.is_int()) return diff::I(a.to_int());
  if (a.is_double()) return diff::D(a.to_double());
  if (a.is_int_list()) return diff::L(a.to_int_list());
  if (a.is_string()) return diff::S(std::string(a.to_string_view()));
  return diff::None();
}

std::vector<double> doubles(const diff::RawTensor& r) {
  std::vector<double> v(r.storage.size() / sizeof(double));
  std::memcpy(v.data(), r.storage.data(), r.storage.size());
  return v;
}

// opd's gradient (undefined: zeros) against libtorch's, element by element.
void expect_close(const std::string& what, const Tensor& mine, const std::optional<diff::RawTensor>& theirs,
                  int64_t numel) {
  const std::vector<double> a =
      mine.defined() ? opd::to_vector<double>(mine) : std::vector<double>(static_cast<std::size_t>(numel), 0.0);
  const std::vector<double> b = theirs ? doubles(*theirs) : std::vector<double>(static_cast<std::size_t>(numel), 0.0);
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::abs(a[i] - b[i]) > 1e-10 * std::max(1.0, std::abs(b[i]))) {
      ADD_FAILURE() << what << ", element " << i << ": opd " << a[i] << ", libtorch " << b[i];
      return;
    }
  }
}

Tensor random_like(const Tensor& t, std::mt19937& gen) {
  std::vector<int64_t> s(t.sizes().begin(), t.sizes().end());
  return opd_test::rnd(s, gen);
}

TEST(AutogradAgainstLibtorch, FirstAndSecondDerivativesOfEveryOperatorWithAFormula) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const opd::RegistrationSet autograd = opd_test::register_all_formulas();
  const auto all = opd_test::samples();
  std::mt19937 gen(11);
  std::size_t compared = 0, first_only = 0;  // first_only: libtorch has no second derivative
  for (const std::string& name : opd_test::operators_with_formulas()) {
    auto it = all.find(name);
    ASSERT_NE(it, all.end()) << name << " has a formula but no sample";
    const std::size_t dot = name.find('.');
    const std::string op = name.substr(0, dot), overload = dot == std::string::npos ? "" : name.substr(dot + 1);
    for (std::size_t k = 0; k < it->second.size(); ++k) {
      const opd_test::Sample& s = it->second[k];
      const std::string what = name + " sample " + std::to_string(k);
      std::vector<diff::Value> args;
      for (const opd::IValue& a : s.args) args.push_back(value(a));
      variable_list inputs;
      for (const Tensor& x : s.inputs()) {
        inputs.push_back(x.detach());
        inputs.back().set_requires_grad(true);
      }
      // opd: output 0, or each element of a Tensor[] result, with a random gradient
      const variable_list ys = opd_test::boxed_fn(name, s)(inputs);
      variable_list v;
      std::vector<diff::RawTensor> v_raw;
      for (const Tensor& y : ys) {
        v.push_back(random_like(y, gen));
        v_raw.push_back(raw(v.back()));
      }
      std::vector<Tensor> u;
      std::vector<diff::RawTensor> u_raw;
      for (const Tensor& x : inputs) {
        u.push_back(random_like(x, gen));
        u_raw.push_back(raw(u.back()));
      }
      const variable_list first = opd::autograd::grad(ys, inputs, v, true, true, true);
      Tensor sum;
      for (std::size_t i = 0; i < first.size(); ++i) {
        if (!first[i].defined() || !first[i].requires_grad()) continue;
        const Tensor term = opd::call<opd::kernels::ops::sum>(opd::call<opd::kernels::ops::mul::functional>(first[i], u[i]));
        sum = sum.defined() ? opd::call<opd::kernels::ops::add::functional>(sum, term) : term;
      }
      const variable_list second =
          sum.defined() ? opd::autograd::grad({sum}, inputs, {}, std::nullopt, false, true) : variable_list(inputs.size());
      // libtorch
      const grad_diff::Grads theirs = grad_diff::torch_grads(op, overload, args, s.input_positions(), v_raw, u_raw);
      if (theirs.error) {
        ADD_FAILURE() << what << ": libtorch: " << theirs.error->substr(0, theirs.error->find('\n'));
        continue;
      }
      ASSERT_EQ(theirs.first.size(), inputs.size()) << what;
      ASSERT_EQ(theirs.second.size(), inputs.size()) << what;
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        expect_close(what + ", first derivative, input " + std::to_string(i), first[i], theirs.first[i], inputs[i].numel());
        if (!theirs.second_error)
          expect_close(what + ", second derivative, input " + std::to_string(i), second[i], theirs.second[i],
                       inputs[i].numel());
      }
      if (theirs.second_error) ++first_only;
      ++compared;
    }
  }
  EXPECT_GE(compared, 200u);
  std::printf("compared %zu samples of %zu operators with libtorch (%zu first derivatives only)\n", compared,
              opd_test::operators_with_formulas().size(), first_only);
}

#else

TEST(AutogradAgainstLibtorch, Skipped) { GTEST_SKIP() << "libtorch 1.13 not found (or a sanitizer build)"; }

#endif

}  // namespace
