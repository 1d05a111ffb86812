// Every operator with a formula against libtorch 1.13's autograd: on the same
// double inputs (gradcheck_samples.hpp), the first derivatives
// (torch::autograd::grad of output 0, or of every element of a Tensor[]
// result, or of each result a sample names, with random output gradients v, under
// create_graph) and the second ones (the gradient of sum_i <first_i, u_i>,
// u random) agree within 1e-10 relative (absolute below 1); an undefined
// gradient counts as zeros.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <set>
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
  } else if (t.dtype() == opd::ScalarType::ComplexDouble) {
    bytes(opd::to_vector<std::complex<double>>(t));
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
  if (a.is_double_list()) return diff::DL(a.to_double_list());
  if (a.is_string()) return diff::S(std::string(a.to_string_view()));
  if (a.is_bool_list()) return diff::BL(a.to_bool_list());
  return diff::None();
}

std::vector<double> doubles(const diff::RawTensor& r) {
  std::vector<double> v(r.storage.size() / sizeof(double));
  std::memcpy(v.data(), r.storage.data(), r.storage.size());
  return v;
}

// A double or complex128 tensor's values as doubles (a complex one's parts in turn).
std::vector<double> doubles(const Tensor& t) {
  if (t.dtype() != opd::ScalarType::ComplexDouble) return opd::to_vector<double>(t);
  std::vector<double> v;
  for (const std::complex<double>& z : opd::to_vector<std::complex<double>>(t)) {
    v.push_back(z.real());
    v.push_back(z.imag());
  }
  return v;
}

// opd's gradient (undefined: zeros) against libtorch's, element by element (a complex one part by
// part; the dtypes must agree: a real input's gradient is real on both sides).
void expect_close(const std::string& what, const Tensor& mine, const std::optional<diff::RawTensor>& theirs,
                  const Tensor& input) {
  const std::size_t n = static_cast<std::size_t>(input.numel()) * (opd::is_complex_type(input.dtype()) ? 2 : 1);
  if (mine.defined()) {
    EXPECT_EQ(mine.dtype(), input.dtype()) << what;
  }
  if (theirs) {
    EXPECT_EQ(theirs->dtype, static_cast<int>(input.dtype())) << what << " (libtorch)";
  }
  const std::vector<double> a = mine.defined() ? doubles(mine) : std::vector<double>(n, 0.0);
  const std::vector<double> b = theirs ? doubles(*theirs) : std::vector<double>(n, 0.0);
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::abs(a[i] - b[i]) > 1e-10 * std::max(1.0, std::abs(b[i]))) {
      ADD_FAILURE() << what << ", element " << i << ": opd " << a[i] << ", libtorch " << b[i];
      return;
    }
  }
}

// libtorch 1.13 refuses complex autograd for the *_copy views, slice_scatter, select_scatter and
// diagonal_scatter (not in its GRADIENT_IMPLEMENTED_FOR_COMPLEX list; the library's view formulas call
// the scatters), and for where.self and masked_fill.Tensor with a real input beside a complex one (its
// formulas do not take the real part); the library differentiates them (gradcheck, gradgradcheck).
bool refused_complex_in_113(const std::string& error) {
  return error.find("does not support automatic differentiation for outputs with complex dtype") != std::string::npos ||
         error.find("(input_is_complex == grad_is_complex)") != std::string::npos;
}

Tensor random_like(const Tensor& t, std::mt19937& gen) {
  std::vector<int64_t> s(t.sizes().begin(), t.sizes().end());
  return t.dtype() == opd::ScalarType::ComplexDouble ? opd_test::crnd(s, gen) : opd_test::rnd(s, gen);
}

TEST(AutogradAgainstLibtorch, FirstAndSecondDerivativesOfEveryOperatorWithAFormula) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const opd::RegistrationSet autograd = opd_test::register_all_formulas();
  const auto all = opd_test::samples();
  std::mt19937 gen(11);
  std::size_t compared = 0, first_only = 0, complex_compared = 0, torch_refuses_complex = 0;  // first_only: libtorch has no second derivative
  std::set<std::string> refused_names;  // the operators of those complex samples
  std::size_t not_compared = 0;  // inputs whose libtorch 1.13 gradient is wrong (Sample::wrong_in_libtorch)
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
      // opd: output 0, or each element of a Tensor[] result, or each result checked, with a random gradient
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
      const variable_list first = opd::autograd::grad(ys, inputs, v, true, s.second_order, true);
      Tensor sum;
      for (std::size_t i = 0; i < first.size(); ++i) {
        if (!first[i].defined() || !first[i].requires_grad()) continue;
        Tensor term = opd::call<opd::kernels::ops::sum>(opd::call<opd::kernels::ops::mul::functional>(first[i], u[i]));
        if (opd::is_complex_type(term.dtype())) term = opd::call<opd::kernels::ops::real>(term);  // a real loss
        sum = sum.defined() ? opd::call<opd::kernels::ops::add::functional>(sum, term) : term;
      }
      const variable_list second = sum.defined() && s.second_order
                                       ? opd::autograd::grad({sum}, inputs, {}, std::nullopt, false, true)
                                       : variable_list(inputs.size());
      // libtorch
      const grad_diff::Grads theirs = grad_diff::torch_grads(op, overload, args, s.input_positions(), v_raw, u_raw);
      bool complex_sample = false;
      for (const Tensor& t : inputs) complex_sample = complex_sample || opd::is_complex_type(t.dtype());
      for (const Tensor& t : ys) complex_sample = complex_sample || opd::is_complex_type(t.dtype());
      if (theirs.error && complex_sample && refused_complex_in_113(*theirs.error)) {
        ++torch_refuses_complex;  // the library differentiates it (gradcheck, gradgradcheck); 1.13 does not
        refused_names.insert(name);
        continue;
      }
      if (theirs.error) {
        ADD_FAILURE() << what << ": libtorch: " << theirs.error->substr(0, theirs.error->find('\n'));
        continue;
      }
      ASSERT_EQ(theirs.first.size(), inputs.size()) << what;
      ASSERT_EQ(theirs.second.size(), inputs.size()) << what;
      if (!s.second_order) {  // libtorch's error, or first derivatives without a graph (_embedding_bag's weight)
        const bool none = std::none_of(theirs.second.begin(), theirs.second.end(), [](const auto& g) { return g.has_value(); });
        EXPECT_TRUE(theirs.second_error || none) << what << ": libtorch has a second derivative";
      }
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::vector<std::size_t>& wrong = s.wrong_in_libtorch;
        if (std::find(wrong.begin(), wrong.end(), s.input_positions()[i].first) != wrong.end()) {
          ++not_compared;
          continue;
        }
        expect_close(what + ", first derivative, input " + std::to_string(i), first[i], theirs.first[i], inputs[i]);
        if (!theirs.second_error)
          expect_close(what + ", second derivative, input " + std::to_string(i), second[i], theirs.second[i], inputs[i]);
      }
      if (theirs.second_error) ++first_only;
      ++compared;
      complex_compared += complex_sample ? 1 : 0;
    }
  }
  EXPECT_GE(compared, 200u);
  EXPECT_GE(complex_compared, 60u);
  EXPECT_LE(torch_refuses_complex, 21u);
  std::printf("compared %zu samples of %zu operators with libtorch (%zu first derivatives only, %zu inputs not compared; %zu "
              "samples with complex tensors, of the %zu complex_verified operators; %zu complex samples that libtorch 1.13 "
              "refuses)\n",
              compared, opd_test::operators_with_formulas().size(), first_only, not_compared, complex_compared,
              opd_test::operators_with_complex_formulas().size(), torch_refuses_complex);
  std::string refused;
  for (const std::string& n : refused_names) refused += " " + n;
  std::printf("libtorch 1.13 refuses complex autograd for:%s\n", refused.c_str());
}

// In-place writes to views (CopySlices; grad_torch_side.hpp's programs), the same with opd.
variable_list opd_inplace_view_grads(int program, const Tensor& a, const Tensor& c, const Tensor& w) {
  namespace k = opd::kernels::ops;
  auto mul = [](const Tensor& x, const Tensor& y) { return opd::call<k::mul::functional>(x, y); };
  auto sum = [](const Tensor& x) { return opd::call<k::sum>(x); };
  auto add = [](const Tensor& x, const Tensor& y) { return opd::call<k::add::functional>(x, y); };
  auto narrow = [](const Tensor& x, int64_t d, int64_t s, int64_t l) { return opd::call<k::narrow>(x, d, s, l); };
  auto select = [](const Tensor& x, int64_t d, int64_t i) { return opd::call<k::select>(x, d, i); };
  Tensor loss;
  switch (program) {
    case 0: {
      Tensor b = mul(a, a);
      Tensor row = select(b, 0, 0);
      opd::call<k::mul_scalar::inplace>(row, opd::Scalar(2));
      loss = sum(mul(b, w));
      break;
    }
    case 1: {
      Tensor b = opd::call<k::sin::functional>(a);
      Tensor rows = narrow(b, 0, 1, 2);
      opd::call<k::copy_>(rows, c, false);
      loss = sum(mul(b, w));
      break;
    }
    case 2: {
      Tensor b = mul(a, a);
      Tensor v = narrow(b, 1, 1, 3);
      Tensor vv = select(v, 0, 2);
      opd::call<k::mul::inplace>(vv, narrow(select(c, 0, 0), 0, 0, 3));
      loss = add(sum(mul(b, w)), sum(mul(v, v)));
      break;
    }
    case 3: {
      Tensor b = opd::call<k::sin::functional>(a);
      Tensor t = narrow(opd::call<k::transpose>(b, int64_t{0}, int64_t{1}), 0, 1, 2);
      opd::call<k::add::inplace>(t, narrow(c, 1, 0, 3), opd::Scalar(0.5));
      loss = sum(mul(b, w));
      break;
    }
    default: {
      Tensor b = mul(a, a);
      Tensor v = narrow(b, 0, 1, 2);
      opd::call<k::mul::inplace>(b, w);
      loss = sum(mul(v, c));
      break;
    }
  }
  // first derivatives with their graph (through CopySlices), then the second
  // ones: the derivatives of sum(g_a * w) + sum(g_c * g_c), as the torch side
  variable_list g = opd::autograd::grad({loss}, {a, c}, {}, std::nullopt, true, true);
  Tensor second = sum(mul(g[0], w));
  if (g[1].defined()) second = add(second, sum(mul(g[1], g[1])));
  variable_list gg = opd::autograd::grad({second}, {a, c}, {}, std::nullopt, false, true);
  g.insert(g.end(), gg.begin(), gg.end());
  return g;
}

TEST(AutogradAgainstLibtorch, InPlaceWritesToViews) {
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const opd::RegistrationSet autograd = opd_test::register_all_formulas();
  std::mt19937 gen(5);
  for (int p = 0; p < grad_diff::kInplaceViewPrograms; ++p) {
    Tensor a = opd_test::rnd({3, 4}, gen), c = opd_test::rnd({2, 4}, gen), w = opd_test::rnd({3, 4}, gen);
    const std::vector<double> a_data = opd::to_vector<double>(a), c_data = opd::to_vector<double>(c),
                              w_data = opd::to_vector<double>(w);
    a.set_requires_grad(true);
    c.set_requires_grad(true);
    const variable_list mine = opd_inplace_view_grads(p, a, c, w);
    const std::vector<std::vector<double>> theirs = grad_diff::torch_inplace_view_grads(p, a_data, c_data, w_data);
    ASSERT_EQ(theirs.size(), 4u);
    ASSERT_EQ(mine.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
      const std::vector<double> m =
          mine[i].defined() ? opd::to_vector<double>(mine[i]) : std::vector<double>(theirs[i].size(), 0.0);
      ASSERT_EQ(m.size(), theirs[i].size()) << "program " << p;
      for (std::size_t j = 0; j < m.size(); ++j)
        EXPECT_LE(std::abs(m[j] - theirs[i][j]), 1e-10 * std::max(1.0, std::abs(theirs[i][j])))
            << "program " << p << (i < 2 ? ", first" : ", second") << " derivative by input " << i % 2 << ", element " << j
            << ": opd " << m[j] << ", libtorch " << theirs[i][j];
    }
  }
}

// The second derivative of a conv2d + layer_norm model through the public API (grad with create_graph,
// then backward), as grad_torch_side.hpp's program.
TEST(AutogradAgainstLibtorch, ConvLayerNormModelSecondDerivative) {
  namespace k = opd::kernels::ops;
  const opd::RegistrationSet kernels = opd_test::register_all_kernels();
  const opd::RegistrationSet autograd = opd_test::register_all_formulas();
  std::mt19937 gen(7);
  const std::vector<std::vector<int64_t>> sizes = {{2, 2, 5, 5}, {3, 2, 3, 3}, {3}, {3, 5, 5}, {3, 5, 5},
                                                   {2, 3, 5, 5}, {2, 2, 5, 5}, {3, 2, 3, 3}};
  std::vector<Tensor> t;
  std::vector<std::vector<double>> data;
  for (const auto& sz : sizes) {
    t.push_back(opd_test::rnd(sz, gen));
    data.push_back(opd::to_vector<double>(t.back()));
  }
  variable_list params(t.begin(), t.begin() + grad_diff::kModelInputs);
  for (Tensor& p : params) p.set_requires_grad(true);
  auto sum = [](const Tensor& x) { return opd::call<k::sum>(x); };
  auto mul = [](const Tensor& x, const Tensor& y) { return opd::call<k::mul::functional>(x, y); };
  auto add = [](const Tensor& x, const Tensor& y) { return opd::call<k::add::functional>(x, y); };
  const std::vector<int64_t> one{1, 1};
  const Tensor h = opd::call<k::conv2d>(params[0], params[1], params[2], one, one, one, int64_t{1});
  const Tensor y = std::get<0>(opd::call<k::native_layer_norm>(h, std::vector<int64_t>{3, 5, 5}, params[3], params[4], 1e-5));
  const Tensor loss = sum(mul(opd::call<k::tanh::functional>(y), t[5]));
  const variable_list g = opd::autograd::grad({loss}, params, {}, true, true, false);
  ASSERT_EQ(g.size(), params.size());
  ASSERT_TRUE(g[0].requires_grad() && g[1].requires_grad() && g[3].requires_grad());
  const Tensor second = add(add(sum(mul(g[0], t[6])), sum(mul(g[1], t[7]))), sum(mul(g[3], g[3])));
  second.backward(Tensor(), std::nullopt, false);
  variable_list mine(g.begin(), g.end());
  for (const Tensor& p : params) mine.push_back(p.grad());
  const std::vector<std::vector<double>> theirs = grad_diff::torch_conv_layer_norm_model_grads(data);
  ASSERT_EQ(theirs.size(), mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const std::vector<double> m = mine[i].defined() ? opd::to_vector<double>(mine[i]) : std::vector<double>(theirs[i].size(), 0.0);
    ASSERT_EQ(m.size(), theirs[i].size()) << i;
    double largest = 0;
    for (const double v : theirs[i]) largest = std::max(largest, std::abs(v));
    if (i >= params.size()) {
      EXPECT_GT(largest, 0.0) << "second derivative by input " << i - params.size() << " is all zeros";
    }
    for (std::size_t j = 0; j < m.size(); ++j)
      EXPECT_LE(std::abs(m[j] - theirs[i][j]), 1e-10 * std::max(1.0, std::abs(theirs[i][j])))
          << (i < params.size() ? "first" : "second") << " derivative by input " << i % params.size() << ", element " << j
          << ": opd " << m[j] << ", libtorch " << theirs[i][j];
  }
}

#else

TEST(AutogradAgainstLibtorch, Skipped) { GTEST_SKIP() << "libtorch 1.13 not found (or a sanitizer build)"; }

#endif

}  // namespace
