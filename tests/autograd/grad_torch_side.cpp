// libtorch 1.13: an operator's first and second derivatives by
// torch::autograd::grad (grad_torch_side.hpp).
#include "grad_torch_side.hpp"

#include <algorithm>
#include <stdexcept>

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/autograd/autograd.h>

namespace grad_diff {
namespace {

at::Tensor to_tensor(const diff::RawTensor& r) {
  const at::Tensor storage =
      at::from_blob(const_cast<unsigned char*>(r.storage.data()),
                    {static_cast<int64_t>(r.storage.size() / diff::element_size(r.dtype))},
                    at::TensorOptions().dtype(static_cast<at::ScalarType>(r.dtype)))
          .clone();
  return storage.as_strided(r.sizes, r.strides, r.offset);
}

diff::RawTensor to_raw(const at::Tensor& t) {
  // libtorch's efficient zero tensors (some gradients) have no storage
  // (a complex gradient may carry the conjugate or negative bit: resolved, as the opd side has none)
  const at::Tensor c = t._is_zerotensor() ? at::zeros(t.sizes(), at::TensorOptions().dtype(t.scalar_type()))
                                          : t.resolve_conj().resolve_neg().contiguous();
  diff::RawTensor r;
  r.dtype = static_cast<int>(c.scalar_type());
  r.sizes = c.sizes().vec();
  r.strides = c.strides().vec();
  const auto* p = static_cast<const unsigned char*>(c.data_ptr());
  r.storage.assign(p, p + c.numel() * static_cast<int64_t>(c.element_size()));
  return r;
}

c10::IValue to_ivalue(const diff::Value& v) {
  using K = diff::Value::Kind;
  switch (v.kind) {
    case K::None: return c10::IValue();
    case K::Bool: return c10::IValue(v.b);
    case K::Int: return c10::IValue(v.i);
    case K::Double: return c10::IValue(v.d);
    case K::IntList: return c10::IValue(v.ints);
    case K::DoubleList: return c10::IValue(v.doubles);
    case K::String: return c10::IValue(v.s);
    case K::BoolList: {
      c10::List<bool> bs;
      for (bool b : v.bools) bs.push_back(b);
      return c10::IValue(bs);
    }
    case K::Tensor: return c10::IValue(to_tensor(*v.tensors.at(0)));
    case K::TensorList: {
      std::vector<at::Tensor> ts;
      for (const auto& t : v.tensors) ts.push_back(to_tensor(*t));
      return c10::IValue(ts);
    }
    case K::OptTensorList: {
      c10::List<c10::optional<at::Tensor>> ts;
      for (const auto& t : v.tensors) ts.push_back(t ? c10::optional<at::Tensor>(to_tensor(*t)) : c10::nullopt);
      return c10::IValue(ts);
    }
    default: throw std::runtime_error("grad_torch_side: an argument kind the samples do not use");
  }
}

}  // namespace

Grads torch_grads(const std::string& op, const std::string& overload, const std::vector<diff::Value>& args,
                  const std::vector<std::pair<std::size_t, std::size_t>>& differentiated,
                  const std::vector<diff::RawTensor>& v, const std::vector<diff::RawTensor>& u) {
  Grads out;
  try {
    const c10::OperatorHandle handle = c10::Dispatcher::singleton().findSchemaOrThrow(op.c_str(), overload.c_str());
    torch::jit::Stack stack;
    std::vector<at::Tensor> inputs;
    for (const diff::Value& a : args) stack.push_back(to_ivalue(a));
    for (const auto& [i, j] : differentiated) {  // (tensors of a list share their impl with the stack's)
      at::Tensor t = stack.at(i).isTensor() ? stack.at(i).toTensor() : stack.at(i).toTensorList().get(j);
      t.requires_grad_(true);
      inputs.push_back(t);
    }
    const auto& schema_args = handle.schema().arguments();
    for (std::size_t i = stack.size(); i < schema_args.size(); ++i) {  // the defaults of the arguments left out
      if (!schema_args[i].default_value()) throw std::runtime_error("argument " + schema_args[i].name() + " is missing");
      stack.push_back(*schema_args[i].default_value());
    }
    handle.callBoxed(&stack);
    std::vector<at::Tensor> ys, vs;
    if (stack.at(0).isTensorList())
      ys = stack.at(0).toTensorVector();
    else
      for (std::size_t k = 0; k < std::max<std::size_t>(v.size(), 1); ++k) ys.push_back(stack.at(k).toTensor());
    for (const diff::RawTensor& r : v) vs.push_back(to_tensor(r));
    const std::vector<at::Tensor> first =
        torch::autograd::grad(ys, inputs, vs, /*retain_graph=*/true, /*create_graph=*/true, /*allow_unused=*/true);
    at::Tensor s;
    for (std::size_t i = 0; i < first.size(); ++i) {
      out.first.push_back(first[i].defined() ? std::optional<diff::RawTensor>(to_raw(first[i])) : std::nullopt);
      if (!first[i].defined() || !first[i].requires_grad()) continue;
      at::Tensor term = (first[i] * to_tensor(u[i])).sum();
      if (term.is_complex()) term = at::real(term);  // a real loss, as the opd side
      s = s.defined() ? s + term : term;
    }
    if (s.defined()) {
      std::vector<at::Tensor> second;
      try {
        second = torch::autograd::grad({s}, inputs, {}, false, false, true);
      } catch (const std::exception& e) {
        const std::string what = e.what();
        if (what.find("is not implemented") == std::string::npos) throw;
        out.second_error = what;
        second.resize(inputs.size());
      }
      for (const at::Tensor& g : second)
        out.second.push_back(g.defined() ? std::optional<diff::RawTensor>(to_raw(g)) : std::nullopt);
    } else {
      out.second.resize(inputs.size());
    }
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

std::vector<std::vector<double>> torch_inplace_view_grads(int program, const std::vector<double>& a_data,
                                                          const std::vector<double>& c_data,
                                                          const std::vector<double>& w_data) {
  const auto options = at::TensorOptions().dtype(at::kDouble);
  auto make = [&](const std::vector<double>& v, at::IntArrayRef sizes) {
    return at::from_blob(const_cast<double*>(v.data()), sizes, options).clone();
  };
  at::Tensor a = make(a_data, {3, 4}).requires_grad_(true);
  at::Tensor c = make(c_data, {2, 4}).requires_grad_(true);
  const at::Tensor w = make(w_data, {3, 4});
  at::Tensor loss;
  switch (program) {
    case 0: {  // b[0] *= 2
      at::Tensor b = a * a;
      b.select(0, 0).mul_(2);
      loss = (b * w).sum();
      break;
    }
    case 1: {  // b.narrow(0, 1, 2).copy_(c)
      at::Tensor b = a.sin();  // (exp and tanh save their result, which the write would invalidate)
      b.narrow(0, 1, 2).copy_(c);
      loss = (b * w).sum();
      break;
    }
    case 2: {  // a view of a view written in place, then the first view used
      at::Tensor b = a * a;
      at::Tensor v = b.narrow(1, 1, 3);
      v.select(0, 2).mul_(c.select(0, 0).narrow(0, 0, 3));
      loss = (b * w).sum() + (v * v).sum();
      break;
    }
    case 3: {  // a transposed view
      at::Tensor b = a.sin();
      b.transpose(0, 1).narrow(0, 1, 2).add_(c.narrow(1, 0, 3), 0.5);
      loss = (b * w).sum();
      break;
    }
    default: {  // the base written in place after the view was taken
      at::Tensor b = a * a;
      at::Tensor v = b.narrow(0, 1, 2);
      b.mul_(w);
      loss = (v * c).sum();
      break;
    }
  }
  // first derivatives with their graph, then the derivatives of
  // sum(g_a * w) + sum(g_c * g_c) (the second ones)
  const auto g = torch::autograd::grad({loss}, {a, c}, {}, c10::nullopt, true, true);
  at::Tensor second = (g[0] * w).sum();
  if (g[1].defined()) second = second + (g[1] * g[1]).sum();
  const auto gg = torch::autograd::grad({second}, {a, c}, {}, c10::nullopt, false, true);
  std::vector<std::vector<double>> out;
  for (const auto* list : {&g, &gg})
    for (std::size_t i = 0; i < list->size(); ++i) {
      const at::Tensor& d = (*list)[i];
      const at::Tensor t = d.defined() ? d.detach().contiguous() : at::zeros(i == 0 ? a.sizes() : c.sizes(), options);
      out.emplace_back(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
    }
  return out;
}

std::vector<std::vector<double>> torch_conv_layer_norm_model_grads(const std::vector<std::vector<double>>& data) {
  const auto options = at::TensorOptions().dtype(at::kDouble);
  const std::vector<std::vector<int64_t>> sizes = {{2, 2, 5, 5}, {3, 2, 3, 3}, {3}, {3, 5, 5}, {3, 5, 5},
                                                   {2, 3, 5, 5}, {2, 2, 5, 5}, {3, 2, 3, 3}};
  std::vector<at::Tensor> t;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    t.push_back(at::from_blob(const_cast<double*>(data.at(i).data()), sizes[i], options).clone());
  std::vector<at::Tensor> params(t.begin(), t.begin() + kModelInputs);
  for (at::Tensor& p : params) p.requires_grad_(true);
  const at::Tensor h = at::conv2d(params[0], params[1], params[2], 1, 1, 1, 1);
  const at::Tensor loss = (at::tanh(at::layer_norm(h, {3, 5, 5}, params[3], params[4], 1e-5)) * t[5]).sum();
  const std::vector<at::Tensor> g = torch::autograd::grad({loss}, params, {}, true, true, false);
  const at::Tensor second = (g[0] * t[6]).sum() + (g[1] * t[7]).sum() + (g[3] * g[3]).sum();
  second.backward();
  std::vector<std::vector<double>> out;
  auto put = [&](const at::Tensor& x, const at::Tensor& like) {
    const at::Tensor c = x.defined() ? x.contiguous() : at::zeros_like(like);
    out.emplace_back(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
  };
  for (int i = 0; i < kModelInputs; ++i) put(g[static_cast<std::size_t>(i)], params[static_cast<std::size_t>(i)]);
  for (const at::Tensor& p : params) put(p.grad(), p);
  return out;
}

}  // namespace grad_diff
