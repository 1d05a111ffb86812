#pragma once
// gradcheck / gradgradcheck, out of line (gradcheck.hpp).
#include <cmath>
#include <random>
#include <sstream>
#include <vector>

#include "autograd/autograd_meta.hpp"
#include "autograd/gradcheck.hpp"
#include "autograd/grad_mode.hpp"

namespace opd::autograd {

namespace gradcheck_detail {

inline std::vector<int64_t> offsets(const Tensor& t) {
  std::vector<int64_t> out;
  opd::detail::for_each_element_offset(t.sizes(), t.strides(), [&](int64_t o) { out.push_back(o); });
  return out;
}
inline double* base(const Tensor& t) { return t.data_ptr<double>(); }

// J[out element][in element] for each (output, input) pair, numerically.
inline std::vector<std::vector<double>> numerical(const DifferentiableFn& fn, const variable_list& inputs,
                                                  std::size_t in, std::size_t out, double eps) {
  const std::vector<int64_t> in_off = offsets(inputs[in]);
  std::vector<std::vector<double>> cols;
  for (int64_t o : in_off) {
    double& x = base(inputs[in])[o];
    const double saved = x;
    // (values read at once: an output may be a view of the input)
    x = saved + eps;
    const std::vector<double> p = to_vector<double>(fn(inputs).at(out));
    x = saved - eps;
    const std::vector<double> m = to_vector<double>(fn(inputs).at(out));
    x = saved;
    std::vector<double> col(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) col[i] = (p[i] - m[i]) / (2 * eps);
    cols.push_back(std::move(col));
  }
  // transpose to rows = output elements
  const std::size_t n_out = cols.empty() ? 0 : cols[0].size();
  std::vector<std::vector<double>> rows(n_out, std::vector<double>(cols.size()));
  for (std::size_t j = 0; j < cols.size(); ++j)
    for (std::size_t i = 0; i < n_out; ++i) rows[i][j] = cols[j][i];
  return rows;
}

inline std::string describe(const std::vector<std::vector<double>>& m) {
  std::ostringstream os;
  os << "[";
  for (const auto& row : m) {
    os << "[";
    for (double v : row) os << v << " ";
    os << "]";
  }
  os << "]";
  return os.str();
}

}  // namespace gradcheck_detail

OPD_FUNC GradcheckResult gradcheck(const DifferentiableFn& fn, const variable_list& inputs, GradcheckOptions opt) {
  namespace d = gradcheck_detail;
  for (const Tensor& x : inputs) {
    OPD_CHECK(!requires_grad(x) || x.dtype() == ScalarType::Double,
              "gradcheck: inputs that require grad must be double tensors");
  }
  const variable_list outputs0 = fn(inputs);
  for (std::size_t out = 0; out < outputs0.size(); ++out) {
    const Tensor& y = outputs0[out];
    if (!requires_grad(y)) continue;
    for (std::size_t in = 0; in < inputs.size(); ++in) {
      if (!requires_grad(inputs[in])) continue;
      const auto num = d::numerical(fn, inputs, in, out, opt.eps);
      // analytical: one vector-Jacobian product per output element
      std::vector<std::vector<double>> ana(static_cast<std::size_t>(y.numel()));
      const std::vector<int64_t> in_off = d::offsets(inputs[in]);
      for (int64_t i = 0; i < y.numel(); ++i) {
        const variable_list ys = fn(inputs);
        Tensor onehot = empty(ys[out].sizes(), ScalarType::Double);
        std::vector<int64_t> oo = d::offsets(onehot);
        for (int64_t o : oo) d::base(onehot)[o] = 0;
        d::base(onehot)[oo[static_cast<std::size_t>(i)]] = 1;
        const variable_list g = grad({ys[out]}, {inputs[in]}, {onehot}, false, false, true);
        std::vector<double> row(in_off.size(), 0.0);
        if (g[0].defined()) {
          OPD_CHECK(g[0].sizes() == inputs[in].sizes(), "gradcheck: the gradient of input ", in, " has sizes ",
                    g[0].sizes(), ", expected ", inputs[in].sizes());
          row = to_vector<double>(g[0]);
        }
        ana[static_cast<std::size_t>(i)] = std::move(row);
      }
      for (std::size_t i = 0; i < ana.size(); ++i) {
        for (std::size_t j = 0; j < ana[i].size(); ++j) {
          const double n = i < num.size() ? num[i][j] : 0.0;
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
  for (const Tensor& y : outputs0) {
    Tensor v = empty(y.sizes(), ScalarType::Double);
    double* p = v.data_ptr<double>();
    for (int64_t i = 0; i < v.numel(); ++i) p[i] = dist(gen);
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
        g[i] = empty(diff_ins[i].sizes(), ScalarType::Double);
        double* p = g[i].data_ptr<double>();
        for (int64_t k = 0; k < g[i].numel(); ++k) p[k] = 0;
      }
    }
    return g;
  };
  return gradcheck(first, all, opt);
}

}  // namespace opd::autograd
