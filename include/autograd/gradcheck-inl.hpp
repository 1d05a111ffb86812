#pragma once
// gradcheck / gradgradcheck, out of line (gradcheck.hpp).
#include <cmath>
#include <complex>
#include <random>
#include <sstream>
#include <vector>

#include "autograd/autograd_meta.hpp"
#include "autograd/gradcheck.hpp"
#include "autograd/grad_mode.hpp"

namespace opd::autograd {

namespace gradcheck_detail {

using cdouble = std::complex<double>;

inline std::vector<int64_t> offsets(const Tensor& t) {
  std::vector<int64_t> out;
  opd::detail::for_each_element_offset(t.sizes(), t.strides(), [&](int64_t o) { out.push_back(o); });
  return out;
}
inline bool is_complex_double(const Tensor& t) { return t.dtype() == ScalarType::ComplexDouble; }
// A double or complex128 tensor's values (in element order) as complex numbers.
inline std::vector<cdouble> values(const Tensor& t) {
  if (is_complex_double(t)) return to_vector<cdouble>(t);
  const std::vector<double> r = to_vector<double>(t);
  return {r.begin(), r.end()};
}
// The real outputs gradcheck differentiates: each element of a real output, the real and the
// imaginary part of each element of a complex one (PyTorch's _real_and_imag_output).
inline std::size_t parts(const Tensor& y) { return is_complex_double(y) ? 2 : 1; }
inline double part(cdouble v, std::size_t p) { return p == 0 ? v.real() : v.imag(); }

// J[row][in element]: row (output element i, part p) at i * parts + p; a complex input's entry is
// d/dx + i d/dy of that real output (PyTorch's conjugate Wirtinger convention), numerically.
inline std::vector<std::vector<cdouble>> numerical(const DifferentiableFn& fn, const variable_list& inputs,
                                                   std::size_t in, std::size_t out, double eps) {
  const Tensor& x = inputs[in];
  const std::vector<int64_t> in_off = offsets(x);
  const bool complex_in = is_complex_double(x);
  std::vector<std::vector<cdouble>> cols;
  for (int64_t o : in_off) {
    // the derivative along one real direction: the real part, or the imaginary part of a complex element
    auto along = [&](double& v) {
      const double saved = v;
      // (values read at once: an output may be a view of the input)
      v = saved + eps;
      const Tensor yp = fn(inputs).at(out);
      const std::vector<cdouble> p = values(yp);
      v = saved - eps;
      const std::vector<cdouble> m = values(fn(inputs).at(out));
      v = saved;
      const std::size_t np = parts(yp);
      std::vector<double> col(p.size() * np);
      for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t k = 0; k < np; ++k) col[i * np + k] = (part(p[i], k) - part(m[i], k)) / (2 * eps);
      return col;
    };
    std::vector<cdouble> col;
    if (complex_in) {
      double* pair = reinterpret_cast<double*>(x.data_ptr<cdouble>() + o);  // std::complex's array layout
      const std::vector<double> dx = along(pair[0]), dy = along(pair[1]);
      for (std::size_t i = 0; i < dx.size(); ++i) col.emplace_back(dx[i], dy[i]);
    } else {
      const std::vector<double> dx = along(x.data_ptr<double>()[o]);
      col.assign(dx.begin(), dx.end());
    }
    cols.push_back(std::move(col));
  }
  // transpose to rows = real outputs
  const std::size_t n_out = cols.empty() ? 0 : cols[0].size();
  std::vector<std::vector<cdouble>> rows(n_out, std::vector<cdouble>(cols.size()));
  for (std::size_t j = 0; j < cols.size(); ++j)
    for (std::size_t i = 0; i < n_out; ++i) rows[i][j] = cols[j][i];
  return rows;
}

inline std::string describe(const std::vector<std::vector<cdouble>>& m) {
  std::ostringstream os;
  os << "[";
  for (const auto& row : m) {
    os << "[";
    for (cdouble v : row) {
      if (v.imag() == 0) os << v.real() << " ";
      else os << v.real() << (v.imag() < 0 ? "" : "+") << v.imag() << "j ";
    }
    os << "]";
  }
  os << "]";
  return os.str();
}

// Tensor of `like`'s sizes and dtype (double or complex128): `value` at element i, 0 elsewhere.
inline Tensor one_hot(const Tensor& like, int64_t i, cdouble value) {
  Tensor t = empty(like.sizes(), like.dtype());
  const std::vector<int64_t> oo = offsets(t);
  if (is_complex_double(t)) {
    for (int64_t o : oo) t.data_ptr<cdouble>()[o] = 0;
    t.data_ptr<cdouble>()[oo[static_cast<std::size_t>(i)]] = value;
  } else {
    for (int64_t o : oo) t.data_ptr<double>()[o] = 0;
    t.data_ptr<double>()[oo[static_cast<std::size_t>(i)]] = value.real();
  }
  return t;
}

}  // namespace gradcheck_detail

OPD_FUNC GradcheckResult gradcheck(const DifferentiableFn& fn, const variable_list& inputs, GradcheckOptions opt) {
  namespace d = gradcheck_detail;
  for (const Tensor& x : inputs) {
    OPD_CHECK(!requires_grad(x) || x.dtype() == ScalarType::Double || x.dtype() == ScalarType::ComplexDouble,
              "gradcheck: inputs that require grad must be double or complex128 tensors");
  }
  const variable_list outputs0 = fn(inputs);
  for (std::size_t out = 0; out < outputs0.size(); ++out) {
    const Tensor& y = outputs0[out];
    if (!requires_grad(y)) continue;
    const std::size_t np = d::parts(y);
    for (std::size_t in = 0; in < inputs.size(); ++in) {
      if (!requires_grad(inputs[in])) continue;
      const auto num = d::numerical(fn, inputs, in, out, opt.eps);
      // analytical: one vector-Jacobian product per real output: the gradient of re(y_i) is
      // backward with 1 at i, that of im(y_i) backward with i at i (re(conj(v) y) = im(y))
      std::vector<std::vector<d::cdouble>> ana(static_cast<std::size_t>(y.numel()) * np);
      const std::size_t n_in = static_cast<std::size_t>(inputs[in].numel());
      for (int64_t i = 0; i < y.numel(); ++i) {
        for (std::size_t p = 0; p < np; ++p) {
          const variable_list ys = fn(inputs);
          const Tensor v = d::one_hot(ys[out], i, p == 0 ? d::cdouble(1, 0) : d::cdouble(0, 1));
          const variable_list g = grad({ys[out]}, {inputs[in]}, {v}, false, false, true);
          std::vector<d::cdouble> row(n_in, 0.0);
          if (g[0].defined()) {
            OPD_CHECK(g[0].sizes() == inputs[in].sizes(), "gradcheck: the gradient of input ", in, " has sizes ",
                      g[0].sizes(), ", expected ", inputs[in].sizes());
            OPD_CHECK(g[0].dtype() == inputs[in].dtype(), "gradcheck: the gradient of input ", in, " has dtype ",
                      g[0].dtype(), ", expected ", inputs[in].dtype());
            row = d::values(g[0]);
          }
          ana[static_cast<std::size_t>(i) * np + p] = std::move(row);
        }
      }
      for (std::size_t i = 0; i < ana.size(); ++i) {
        for (std::size_t j = 0; j < ana[i].size(); ++j) {
          const d::cdouble n = i < num.size() ? num[i][j] : 0.0;
          if (!(std::abs(ana[i][j] - n) <= opt.atol + opt.rtol * std::abs(n))) {
            std::ostringstream os;
            os << "Jacobian mismatch for output " << out << " with respect to input " << in << ",\nnumerical:"
               << d::describe(num) << "\nanalytical:" << d::describe(ana);
            return {false, os.str()};
          }
        }
      }
    }
  }
  return {};
}

OPD_FUNC GradcheckResult gradgradcheck(const DifferentiableFn& fn, const variable_list& inputs, GradcheckOptions opt,
                                       unsigned seed) {
  const variable_list outputs0 = fn(inputs);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  variable_list vs;
  for (const Tensor& y : outputs0) {  // random output gradients (complex for a complex output)
    const bool complex_out = y.dtype() == ScalarType::ComplexDouble;
    Tensor v = empty(y.sizes(), complex_out ? ScalarType::ComplexDouble : ScalarType::Double);
    for (int64_t i = 0; i < v.numel(); ++i) {
      if (complex_out) {
        const double re = dist(gen);
        v.data_ptr<std::complex<double>>()[i] = {re, dist(gen)};
      } else {
        v.data_ptr<double>()[i] = dist(gen);
      }
    }
    set_requires_grad(v, true);
    vs.push_back(v);
  }
  const std::size_t n_in = inputs.size();
  variable_list all = inputs;
  all.insert(all.end(), vs.begin(), vs.end());
  DifferentiableFn first = [&](const variable_list& xs) {
    variable_list ins(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(n_in));
    variable_list gs(xs.begin() + static_cast<std::ptrdiff_t>(n_in), xs.end());
    const variable_list ys = fn(ins);
    variable_list diff_ys, diff_gs, diff_ins;
    for (std::size_t i = 0; i < ys.size(); ++i) {
      if (requires_grad(ys[i])) {
        diff_ys.push_back(ys[i]);
        diff_gs.push_back(gs[i]);
      }
    }
    for (const Tensor& x : ins) if (requires_grad(x)) diff_ins.push_back(x);
    if (diff_ys.empty()) return variable_list{};
    variable_list g = grad(diff_ys, diff_ins, diff_gs, true, true, true);
    for (std::size_t i = 0; i < g.size(); ++i) {
      if (!g[i].defined()) {  // unused: zeros that depend on nothing
        g[i] = empty(diff_ins[i].sizes(), diff_ins[i].dtype());
        if (g[i].dtype() == ScalarType::ComplexDouble) {
          for (int64_t k = 0; k < g[i].numel(); ++k) g[i].data_ptr<std::complex<double>>()[k] = 0;
        } else {
          for (int64_t k = 0; k < g[i].numel(); ++k) g[i].data_ptr<double>()[k] = 0;
        }
      }
    }
    return g;
  };
  return gradcheck(first, all, opt);
}

}  // namespace opd::autograd
