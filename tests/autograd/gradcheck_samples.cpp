// opd_test::samples() (gradcheck_samples.hpp): one long function of test data, compiled once for the
// autograd tests, without optimization (tests/autograd/CMakeLists.txt).
#include "gradcheck_samples.hpp"

namespace opd_test {

std::map<std::string, std::vector<Sample>> samples() {
  std::mt19937 g(7);
  auto r = [&](std::vector<int64_t> s) { return opd::IValue(rnd(std::move(s), g)); };
  auto pos = [&](std::vector<int64_t> s) { return opd::IValue(rnd(std::move(s), g, 0.5, 1.5)); };
  auto nz = [&](std::vector<int64_t> s) { return opd::IValue(rnd(std::move(s), g, -1, 1, true)); };
  auto noncontig = [&](std::vector<int64_t> s, double lo = -1, double hi = 1) {  // the transpose of a contiguous tensor
    Tensor t = rnd({s[1], s[0]}, g, lo, hi);
    return opd::IValue(t.as_strided({s[0], s[1]}, {1, s[0]}, 0));
  };
  using V = opd::IValue;
  using L = std::vector<int64_t>;
  std::map<std::string, std::vector<Sample>> m;
  m["aten::add.Tensor"] = {{{r({2, 3}), r({2, 3}), V(2.0)}}, {{r({2, 3}), r({3}), V(1)}}, {{r({}), r({2}), V(1)}},
                           {{noncontig({2, 3}), r({2, 3}), V(1)}}};
  m["aten::sub.Tensor"] = {{{r({2, 3}), r({1, 3}), V(0.5)}}};
  m["aten::add.Scalar"] = {{{r({2, 3}), V(2.5), V(1)}}};
  m["aten::sub.Scalar"] = {{{r({2, 3}), V(2.5), V(1)}}};
  m["aten::mul.Tensor"] = {{{r({2, 3}), r({2, 3})}}, {{r({2, 1}), r({3})}}};
  m["aten::mul.Scalar"] = {{{r({3}), V(1.5)}}};
  m["aten::div.Tensor"] = {{{r({2, 3}), pos({3})}}};
  m["aten::div.Scalar"] = {{{r({3}), V(2.0)}}};
  for (const char* u : {"aten::neg", "aten::exp", "aten::tanh", "aten::sigmoid", "aten::sum", "aten::mean", "aten::t",
                        "aten::clone", "aten::alias"})
    m[u] = {{{r({2, 3})}}};
  m["aten::sum"].push_back({{noncontig({2, 3})}});
  m["aten::log"] = {{{pos({2, 3})}}};
  m["aten::relu"] = {{{nz({2, 3})}}};
  m["aten::pow.Tensor_Scalar"] = {{{pos({3}), V(3)}}, {{pos({3}), V(2.5)}}};
  m["aten::sum.dim_IntList"] = {{{r({2, 3, 4}), V(L{1}), V(false)}}, {{r({2, 3}), V(L{0, 1}), V(true)}}};
  m["aten::mean.dim"] = {{{r({2, 3, 4}), V(L{-1}), V(true)}}, {{r({2, 3}), V(L{0}), V(false)}}};
  m["aten::mm"] = {{{r({2, 3}), r({3, 4})}}};
  m["aten::bmm"] = {{{r({2, 2, 3}), r({2, 3, 2})}}};
  m["aten::addmm"] = {{{r({4}), r({2, 3}), r({3, 4}), V(0.5), V(2.0)}}, {{r({2, 4}), r({2, 3}), r({3, 4}), V(1), V(1)}}};
  m["aten::matmul"] = {{{r({3}), r({3})}}, {{r({2, 3}), r({3})}}, {{r({3}), r({3, 2})}}, {{r({2, 2, 3}), r({3, 4})}},
                       {{r({2, 3}), r({2, 3, 2})}}};
  m["aten::transpose.int"] = {{{r({2, 3, 4}), V(0), V(2)}}};
  m["aten::view"] = {{{r({2, 3}), V(L{3, 2})}}};
  m["aten::expand"] = {{{r({3, 1}), V(L{2, 3, 4}), V(false)}}};
  m["aten::unsqueeze"] = {{{r({2, 3}), V(1)}}};
  m["aten::squeeze"] = {{{r({2, 1, 3})}}};
  m["aten::squeeze.dim"] = {{{r({2, 1, 3}), V(1)}}};
  m["aten::reshape"] = {{{r({2, 3}), V(L{3, 2})}}, {{noncontig({2, 3}), V(L{6})}}};
  m["aten::flatten.using_ints"] = {{{r({2, 3, 2}), V(1), V(-1)}}};
  m["aten::expand_as"] = {{{r({3, 1}), V(rnd({2, 3, 4}, g))}}};
  m["aten::contiguous"] = {{{noncontig({2, 3}), V(opd::MemoryFormat::Contiguous)}}};
  m["aten::permute"] = {{{r({2, 3, 4}), V(L{2, 0, 1})}}};
  m["aten::softmax.int"] = {{{r({2, 3}), V(1), V()}}};
  m["aten::_softmax"] = {{{r({2, 3}), V(0), V(false)}}};
  m["aten::log_softmax.int"] = {{{r({2, 3}), V(1), V()}}};
  m["aten::_log_softmax"] = {{{r({2, 3}), V(0), V(false)}}};
  // several outputs (output 0 checked; the indices are not differentiable)
  m["aten::max.dim"] = {{{r({2, 3, 4}), V(1), V(false)}}, {{r({3, 4}), V(-1), V(true)}}};
  m["aten::min.dim"] = {{{r({2, 3}), V(0), V(false)}}};
  m["aten::sort"] = {{{r({2, 4}), V(-1), V(false)}}, {{r({3, 2}), V(0), V(true)}}};
  m["aten::topk"] = {{{r({2, 5}), V(2), V(-1), V(true), V(true)}}, {{r({4, 3}), V(2), V(0), V(false), V(true)}}};
  const Tensor index = opd::from_vector<int64_t>({0, 2, 1, 2, 1, 0, 0, 1}, {2, 4});
  m["aten::gather"] = {{{r({3, 4}), V(1), V(index), V(false)}}};
  m["aten::scatter_add"] = {{{r({3, 4}), V(0), V(index), r({2, 4})}}};
  m["aten::native_layer_norm"] = {{{r({2, 3, 4}), V(L{4}), r({4}), r({4}), V(1e-5)}},
                                  {{r({3, 4}), V(L{3, 4}), V(), V(), V(1e-5)}}};
  m["aten::native_batch_norm"] = {
      {{r({3, 2, 2, 2}), r({2}), r({2}), V(), V(), V(true), V(0.1), V(1e-5)}},
      {{r({2, 3, 4}), r({3}), r({3}), r({3}), pos({3}), V(false), V(0.1), V(1e-5)}, {3, 4}}};
  m["aten::convolution"] = {
      {{r({2, 2, 4, 4}), r({3, 2, 3, 3}), r({3}), V(L{1, 1}), V(L{1, 1}), V(L{1, 1}), V(false), V(L{0, 0}), V(1)}},
      {{r({1, 2, 7, 6}), r({2, 2, 2, 3}), V(), V(L{2, 1}), V(L{0, 1}), V(L{1, 2}), V(false), V(L{0, 0}), V(1)}},
      {{r({1, 4, 4, 4}), r({4, 2, 3, 3}), r({4}), V(L{2, 2}), V(L{1, 1}), V(L{1, 1}), V(false), V(L{0, 0}), V(2)}},
      {{r({1, 2, 3, 3}), r({2, 3, 2, 2}), r({3}), V(L{2, 2}), V(L{0, 0}), V(L{1, 1}), V(true), V(L{1, 0}), V(1)}},
      {{r({2, 2, 6}), r({3, 2, 3}), V(), V(L{2}), V(L{1}), V(L{1}), V(false), V(L{0}), V(1)}}};
  m["aten::max_pool2d_with_indices"] = {{{r({1, 2, 4, 4}), V(L{2, 2}), V(L{2, 2}), V(L{0, 0}), V(L{1, 1}), V(false)}},
                                        {{r({1, 1, 5, 5}), V(L{3, 3}), V(L{}), V(L{1, 1}), V(L{1, 1}), V(true)}}};
  m["aten::max_pool2d"] = {{{r({1, 2, 5, 5}), V(L{2, 2}), V(L{2, 1}), V(L{1, 0}), V(L{1, 1}), V(false)}}};
  {
    const Tensor x = rnd({1, 2, 4, 4}, g);
    const L ks{2, 2}, st{2, 2}, p{0, 0}, d{1, 1};
    const Tensor idx = std::get<1>(opd::call<opd::kernels::ops::max_pool2d_with_indices>(x, ks, st, p, d, false));
    m["aten::max_pool2d_with_indices_backward"] = {
        {{r({1, 2, 2, 2}), V(x), V(ks), V(st), V(p), V(d), V(false), V(idx)}, {1}}};
  }
  m["aten::avg_pool2d"] = {{{r({1, 2, 4, 4}), V(L{2, 2}), V(L{}), V(L{0, 0}), V(false), V(true), V()}},
                           {{r({1, 1, 5, 5}), V(L{3, 3}), V(L{2, 2}), V(L{1, 1}), V(true), V(false), V(2)}}};
  m["aten::avg_pool2d_backward"] = {
      {{r({1, 2, 2, 2}), r({1, 2, 4, 4}), V(L{2, 2}), V(L{2, 2}), V(L{0, 0}), V(false), V(true), V()}, {1}}};
  m["aten::_adaptive_avg_pool2d"] = {{{r({1, 2, 5, 5}), V(L{2, 3})}}};
  m["aten::adaptive_avg_pool2d"] = {{{r({2, 4, 3}), V(L{2, 2})}}};
  m["aten::_adaptive_avg_pool2d_backward"] = {{{r({1, 2, 2, 3}), r({1, 2, 5, 5})}, {1}}};
  m["aten::narrow"] = {{{r({3, 4}), V(1), V(-3), V(2)}}};
  m["aten::slice.Tensor"] = {{{r({5, 2}), V(0), V(1), V(5), V(2)}}};
  m["aten::slice_scatter"] = {{{r({4, 3}), r({2, 3}), V(0), V(1), V(4), V(2)}}};
  // pointwise (formulas_pointwise-inl.hpp): values inside each domain, away from kinks and jumps
  auto in = [&](std::vector<int64_t> sz, double lo, double hi) { return opd::IValue(rnd(std::move(sz), g, lo, hi)); };
  auto vals = [](std::vector<double> v, std::vector<int64_t> sz) {
    return opd::IValue(opd::from_vector<double>(v, opd::IntArrayRef(sz.data(), sz.size())));
  };
  for (const char* u : {"aten::sin", "aten::cos", "aten::tan", "aten::atan", "aten::sinh", "aten::cosh", "aten::asinh",
                        "aten::exp2", "aten::expm1", "aten::erf", "aten::erfc", "aten::silu"})
    m[u] = {{{r({2, 3})}}, {{r({})}}, {{noncontig({2, 3})}}};
  for (const char* u : {"aten::sqrt", "aten::rsqrt", "aten::log2", "aten::log10", "aten::log1p", "aten::reciprocal"})
    m[u] = {{{pos({2, 3})}}, {{noncontig({3, 2}, 0.5, 1.5)}}};
  m["aten::log1p"].push_back({{in({3}, -0.5, 0.5)}});
  m["aten::reciprocal"].push_back({{nz({3})}});
  for (const char* u : {"aten::asin", "aten::acos", "aten::atanh"}) m[u] = {{{in({2, 3}, -0.8, 0.8)}}, {{in({}, -0.5, 0.5)}}};
  m["aten::acosh"] = {{{in({2, 3}, 1.2, 3)}}};
  m["aten::abs"] = {{{nz({2, 3})}}, {{noncontig({3, 2})}}};
  // piecewise constant (zero gradient) and frac: away from integers and halves
  for (const char* u : {"aten::sign", "aten::floor", "aten::ceil", "aten::round", "aten::trunc", "aten::frac"})
    m[u] = {{{vals({-1.7, -0.3, 0.2, 1.3, 2.8, -2.2}, {2, 3})}}};
  m["aten::hardsigmoid"] = {{{vals({-4, -2, 0.5, 2.5, 3.5, -0.1}, {2, 3})}}};
  m["aten::hardswish"] = {{{vals({-4, -2, 0.5, 2.5, 3.5, -0.1}, {2, 3})}}};
  m["aten::gelu"] = {{{r({2, 3}), V("none")}}, {{r({2, 3}), V("tanh")}}, {{in({}, -2, 2), V("none")}}};
  m["aten::elu"] = {{{nz({2, 3}), V(1.0), V(1), V(1)}}, {{nz({3}), V(0.5), V(2.0), V(1.5)}}};
  m["aten::leaky_relu"] = {{{nz({2, 3}), V(0.1)}}, {{nz({}), V(0.01)}}};
  m["aten::hardtanh"] = {{{vals({-2, -0.5, 0.3, 1.7}, {4}), V(-1.0), V(1.0)}}, {{vals({-2, 0.1, 0.4, 1.7}, {2, 2}), V(0), V(0.5)}}};
  m["aten::softplus"] = {{{vals({-2, -0.5, 0.3, 1.7}, {2, 2}), V(1), V(20)}}, {{vals({-1.5, -0.2, 0.3, 0.9}, {4}), V(2.0), V(1.0)}}};
  m["aten::clamp"] = {{{vals({-2, -0.5, 0.3, 1.7}, {2, 2}), V(-1.0), V(1.0)}}, {{vals({-2, -0.5, 0.3, 1.7}, {4}), V(0), V()}},
                      {{vals({-2, -0.5, 0.3, 1.7}, {4}), V(), V(0.5)}}};
  m["aten::nan_to_num"] = {{{r({2, 3}), V(), V(), V()}}};
  m["aten::pow.Tensor_Tensor"] = {{{pos({2, 3}), r({2, 3})}}, {{pos({2, 3}), r({3})}}, {{pos({}), r({2})}}};
  m["aten::pow.Scalar"] = {{{V(2.5), r({2, 3})}}, {{V(0.7), noncontig({2, 3})}}};
  m["aten::maximum"] = {{{r({2, 3}), r({2, 3})}}, {{r({2, 3}), r({3})}}};
  m["aten::minimum"] = {{{r({2, 3}), r({2, 3})}}, {{r({}), r({2, 2})}}};
  m["aten::atan2"] = {{{r({2, 3}), nz({3})}}, {{nz({2, 1}), r({2, 3})}}};
  {
    const Tensor cond = opd::call<opd::kernels::ops::gt_scalar::functional>(rnd({2, 3}, g), opd::Scalar(0));
    m["aten::where.self"] = {{{V(cond), r({2, 3}), r({3})}}, {{V(cond), r({}), r({2, 3})}}};
  }
  m["aten::lerp.Scalar"] = {{{r({2, 3}), r({3}), V(0.3)}}};
  m["aten::lerp.Tensor"] = {{{r({2, 3}), r({3}), r({2, 1})}}, {{r({2, 3}), r({2, 3}), r({})}}};
  m["aten::addcmul"] = {{{r({3}), r({2, 3}), r({2, 1}), V(0.5)}}, {{r({2, 3}), r({2, 3}), r({2, 3}), V(1)}}};
  m["aten::addcdiv"] = {{{r({3}), r({2, 3}), pos({2, 1}), V(2.0)}}, {{r({2, 3}), r({2, 3}), pos({2, 3}), V(1)}}};
  m["aten::div.Tensor_mode"] = {{{r({2, 3}), pos({3}), V()}}, {{r({2, 3}), pos({2, 3}), V("floor")}},
                                {{r({2, 3}), pos({3}), V("trunc")}}};
  m["aten::div.Scalar_mode"] = {{{r({2, 3}), V(2.0), V()}}, {{r({2, 3}), V(0.7), V("floor")}}};
  m["aten::remainder.Tensor"] = {{{vals({-2.3, -0.4, 0.3, 1.7}, {2, 2}), vals({0.7, 1.1}, {2})}}};
  m["aten::fmod.Tensor"] = {{{vals({-2.3, -0.4, 0.3, 1.7}, {2, 2}), vals({0.7, -1.1}, {2})}}};
  m["aten::remainder.Scalar"] = {{{vals({-2.3, -0.4, 0.3, 1.7}, {2, 2}), V(0.7)}}};
  m["aten::fmod.Scalar"] = {{{vals({-2.3, -0.4, 0.3, 1.7}, {2, 2}), V(0.7)}}};
  // reductions and shape (formulas_reductions-inl.hpp); no ties at the extremes
  m["aten::amax"] = {{{r({2, 3, 4}), V(L{1}), V(false)}}, {{r({3, 4}), V(L{}), V(true)}}, {{r({2, 3}), V(L{0, -1}), V(false)}}};
  m["aten::amin"] = {{{r({2, 3, 4}), V(L{-1}), V(true)}}, {{noncontig({2, 3}), V(L{0}), V(false)}}};
  m["aten::max"] = {{{r({2, 3})}}, {{r({})}}};
  m["aten::min"] = {{{noncontig({2, 3})}}};
  m["aten::logsumexp"] = {{{r({2, 3}), V(L{1}), V(false)}}, {{r({2, 3, 2}), V(L{0, 2}), V(true)}}, {{r({}), V(L{0}), V(false)}}};
  m["aten::prod"] = {{{nz({2, 3}), V()}}, {{vals({0.5, 0, 1.5, -2}, {4}), V()}}, {{vals({0.5, 0, 1.5, 0}, {2, 2}), V()}}};
  m["aten::var"] = {{{r({2, 3}), V(true)}}, {{r({4}), V(false)}}};
  m["aten::var.dim"] = {{{r({2, 3, 4}), V(L{1}), V(true), V(false)}}, {{r({2, 3}), V(), V(false), V(true)}}};
  m["aten::var.correction"] = {{{r({2, 3}), V(L{1}), V(0), V(true)}}, {{noncontig({3, 2}), V(), V(), V(false)}},
                               {{r({4, 3}), V(L{0}), V(2), V(false)}}};
  m["aten::std"] = {{{r({2, 3}), V(true)}}};
  m["aten::std.dim"] = {{{r({2, 3, 4}), V(L{-1}), V(false), V(true)}}};
  m["aten::std.correction"] = {{{r({2, 3}), V(L{0}), V(0), V(false)}}, {{r({3, 2}), V(), V(), V(true)}}};
  m["aten::norm.Scalar"] = {{{r({2, 3}), V(2)}}, {{nz({4}), V(1)}}, {{r({2, 3}), V(3.0)}},
                            {{r({3}), V(std::numeric_limits<double>::infinity())}}};
  m["aten::norm.ScalarOpt_dim"] = {{{r({2, 3}), V(2), V(L{1}), V(false)}}, {{r({2, 3}), V(), V(L{0}), V(true)}},
                                   {{nz({2, 3}), V(1.5), V(L{-1}), V(false)}}};
  m["aten::cumsum"] = {{{r({2, 3}), V(1), V()}}, {{r({4}), V(0), V()}}, {{noncontig({2, 3}), V(0), V()}}};
  m["aten::flip"] = {{{r({2, 3, 2}), V(L{0, 2})}}};
  m["aten::roll"] = {{{r({2, 3}), V(L{1}), V(L{1})}}, {{r({2, 3}), V(L{2}), V(L{})}}};
  m["aten::repeat"] = {{{r({2, 3}), V(L{2, 1, 2})}}, {{r({}), V(L{3})}}, {{noncontig({2, 3}), V(L{1, 2})}}};
  m["aten::select.int"] = {{{r({3, 4}), V(1), V(-1)}}, {{r({3}), V(0), V(1)}}};
  m["aten::select_scatter"] = {{{r({3, 4}), r({3}), V(1), V(2)}}};
  m["aten::index_select"] = {{{r({4, 3}), V(0), V(opd::from_vector<int64_t>({2, 0, 2}, {3}))}},
                             {{r({2, 5}), V(1), V(opd::from_vector<int64_t>({4, 1}, {2}))}}};
  {
    const Tensor mask = opd::call<opd::kernels::ops::gt_scalar::functional>(rnd({3}, g), opd::Scalar(0));
    m["aten::masked_fill.Scalar"] = {{{r({2, 3}), V(mask), V(0.5)}}};
    m["aten::masked_fill.Tensor"] = {{{r({2, 3}), V(mask), r({})}}};
  }
  {
    const Tensor ids = opd::from_vector<int64_t>({1, 3, 1, 0, 4, 3}, {2, 3});
    m["aten::embedding"] = {{{r({5, 2}), V(ids), V(-1), V(false), V(false)}},
                            {{r({5, 3}), V(ids), V(3), V(true), V(false)}, {}, false},
                            {{r({5, 2}), V(ids), V(1), V(false), V(false)}, {}, false}};
  }
  // dropout: deterministic samples only (p = 0 in training, or evaluation), gradcheck calls it many times
  m["aten::native_dropout"] = {{{r({2, 3}), V(0.0), V(true)}}, {{r({3}), V(0.5), V(false)}}, {{r({2, 2}), V(0.0), V()}}};
  m["aten::linear"] = {{{r({2, 3}), r({4, 3}), r({4})}}, {{r({2, 2, 3}), r({4, 3}), V()}}, {{r({3}), r({4, 3}), r({4})}}};
  // nll losses: ignore_index, class weights (constant: PyTorch has no formula for them), every reduction;
  // the backward operators get the forward's own total_weight (constant), as autograd passes them
  {
    namespace ko = opd::kernels::ops;
    const Tensor t = opd::from_vector<int64_t>({1, -100, 3}, {3}), t2 = opd::from_vector<int64_t>({0, 2, 2}, {3});
    const Tensor t0 = opd::from_vector<int64_t>({2}, {});
    const Tensor tt = opd::from_vector<int64_t>({2, 0, 1, 2, -100, 1, 0, 0}, {2, 2, 2});
    const Tensor tt1 = opd::from_vector<int64_t>({2, 0, 1, 2, 1, 1, 0, 2}, {2, 2, 2});  // class 1 ignored
    const Tensor w = rnd({4}, g, 0.5, 1.5), w3 = rnd({3}, g, 0.5, 1.5);
    auto total = [](const Tensor& x, const Tensor& tg, const V& wt, int64_t red, int64_t ign) {
      const std::optional<Tensor> o = wt.is_none() ? std::nullopt : std::optional<Tensor>(wt.to_tensor());
      if (x.dim() == 4) return V(std::get<1>(opd::call<ko::nll_loss2d_forward>(x, tg, o, red, ign)));
      return V(std::get<1>(opd::call<ko::nll_loss_forward>(x, tg, o, red, ign)));
    };
    const Tensor x34 = rnd({3, 4}, g), x4 = rnd({4}, g), x2 = rnd({2, 3, 2, 2}, g);
    m["aten::nll_loss_forward"] = {{{r({3, 4}), V(t), V(), V(1), V(-100)}},
                                   {{r({3, 4}), V(t2), V(w), V(0), V(2)}, {2}},
                                   {{r({4}), V(t0), V(w), V(1), V(-100)}, {2}},
                                   {{noncontig({3, 4}), V(t), V(w), V(2), V(-100)}, {2}}};
    m["aten::nll_loss2d_forward"] = {{{r({2, 3, 2, 2}), V(tt), V(), V(1), V(-100)}},
                                     {{r({2, 3, 2, 2}), V(tt1), V(w3), V(0), V(1)}, {2}},
                                     {{r({2, 3, 2, 2}), V(tt), V(w3), V(2), V(-100)}, {2}}};
    m["aten::nll_loss_backward"] = {{{r({}), V(x34), V(t), V(), V(1), V(-100), total(x34, t, V(), 1, -100)}, {6}},
                                    {{r({3}), V(x34), V(t2), V(w), V(0), V(2), total(x34, t2, V(w), 0, 2)}, {3, 6}},
                                    {{r({}), V(x4), V(t0), V(w), V(1), V(-100), total(x4, t0, V(w), 1, -100)}, {3, 6}},
                                    {{r({}), V(x34), V(t), V(w), V(2), V(-100), total(x34, t, V(w), 2, -100)}, {3, 6}}};
    m["aten::nll_loss2d_backward"] = {{{r({}), V(x2), V(tt), V(), V(1), V(-100), total(x2, tt, V(), 1, -100)}, {6}},
                                      {{r({2, 2, 2}), V(x2), V(tt1), V(w3), V(0), V(1), total(x2, tt1, V(w3), 0, 1)}, {3, 6}},
                                      {{r({}), V(x2), V(tt), V(w3), V(1), V(-100), total(x2, tt, V(w3), 1, -100)}, {3, 6}}};
  }
  // prod.dim_int and cumprod with zeros (one, several, first in the slice): PyTorch's zero-safe formulas
  {
    auto d = [](std::vector<double> v, std::vector<int64_t> sizes) {
      return V(opd::from_vector<double>(v, opd::IntArrayRef(sizes.data(), sizes.size())));
    };
    m["aten::prod.dim_int"] = {{{r({2, 3}), V(1), V(false), V()}},
                               {{d({1.5, 0, 2, 3, 0.5, 0}, {2, 3}), V(1), V(true), V()}},
                               {{d({0, 2, 0, 1, 2, 3}, {2, 3}), V(-1), V(false), V()}},
                               {{d({0, 2, 0.5, 1, 0, 3}, {3, 2}), V(0), V(false), V()}},
                               {{r({}), V(0), V(false), V()}},
                               {{noncontig({2, 3}), V(0), V(false), V()}}};
    m["aten::cumprod"] = {{{r({2, 3}), V(1), V()}},
                          {{d({1.5, 0, 2, 0, 3, 0.5, 0, 2}, {2, 4}), V(1), V()}},
                          {{d({0, 2, 3, 1.5}, {4}), V(0), V()}},
                          {{d({0.5, 2, 0, 3, 1.5, 0}, {3, 2}), V(0), V()}},
                          {{r({}), V(0), V()}},
                          {{noncontig({2, 3}), V(-1), V()}}};
  }
  // clamp.Tensor: broadcast bounds, either left out, 0-dim, min > max (the result is max)
  m["aten::clamp.Tensor"] = {{{r({2, 3}), V(rnd({3}, g, -0.6, -0.1)), V(rnd({2, 1}, g, 0.1, 0.6))}},
                             {{r({2, 3}), r({2, 3}), V()}},
                             {{r({3}), V(), V(rnd({}, g, -0.2, 0.2))}},
                             {{r({2, 2}), V(rnd({2, 2}, g, 0.5, 0.9)), V(rnd({2, 2}, g, -0.9, -0.5))}},
                             {{noncontig({2, 3}), V(rnd({}, g, -0.5, -0.1)), r({2, 3})}}};
  // Tensor-list operators (formulas_lists-inl.hpp): a Tensor[] argument's elements are inputs each
  {
    auto tl = [](std::vector<opd::IValue> ts) {
      std::vector<Tensor> v;
      for (const opd::IValue& t : ts) v.push_back(t.to_tensor());
      return V(std::move(v));
    };
    using OL = std::vector<std::optional<Tensor>>;
    const Tensor i3 = opd::from_vector<int64_t>({2, 0, 3}, {3});
    const Tensor dup = opd::from_vector<int64_t>({1, 3, 1, 0}, {2, 2});
    const Tensor mask = opd::call<opd::kernels::ops::gt_scalar::functional>(rnd({2, 3}, g), opd::Scalar(0));
    m["aten::cat"] = {{{tl({r({2, 3}), r({1, 3})}), V(0)}},
                      {{tl({r({2, 2}), noncontig({2, 3}), r({2, 1})}), V(-1)}},
                      {{tl({r({2}), r({0}), r({3})}), V(0)}}};
    m["aten::stack"] = {{{tl({r({2, 3}), r({2, 3})}), V(1)}}, {{tl({r({}), r({}), r({})}), V(0)}},
                        {{tl({noncontig({2, 3}), r({2, 3})}), V(-1)}}};
    m["aten::split.Tensor"] = {{{r({5, 2}), V(2), V(0)}}, {{noncontig({2, 3}), V(2), V(-1)}}, {{r({3}), V(3), V(0)}}};
    m["aten::split_with_sizes"] = {{{r({5, 2}), V(L{2, 3}), V(0)}}, {{r({2, 4}), V(L{1, 0, 3}), V(1)}}};
    m["aten::chunk"] = {{{r({5, 2}), V(3), V(0)}}, {{noncontig({2, 3}), V(2), V(1)}}};
    m["aten::unsafe_split.Tensor"] = m.at("aten::split.Tensor");
    m["aten::unbind.int"] = {{{r({3, 2}), V(0)}}, {{r({2}), V(0)}}, {{noncontig({2, 3}), V(1)}}};
    m["aten::index.Tensor"] = {{{r({4, 3}), V(OL{i3})}}, {{r({3, 4}), V(OL{std::nullopt, dup})}},
                               {{noncontig({2, 3}), V(OL{mask})}}, {{r({4}), V(OL{dup})}}};
    m["aten::index_put"] = {{{r({4, 3}), V(OL{i3}), r({3, 3}), V(false)}}, {{r({4, 3}), V(OL{dup}), r({3}), V(true)}},
                            {{noncontig({2, 3}), V(OL{mask}), r({}), V(false)}}};
  }
  // linear algebra and shape operators added with the coverage list (tests Autograd.DerivativesYamlCoverage)
  m["aten::baddbmm"] = {{{r({2, 2, 2}), r({2, 2, 3}), r({2, 3, 2}), V(0.5), V(2.0)}},
                        {{r({2}), r({2, 2, 3}), r({2, 3, 2}), V(1), V(1)}}};
  m["aten::dot"] = {{{r({3}), r({3})}}};
  m["aten::mv"] = {{{r({2, 3}), r({3})}}, {{noncontig({3, 2}), r({2})}}};
  m["aten::sort.stable"] = {{{r({2, 4}), V(true), V(-1), V(false)}}, {{r({3, 2}), V(false), V(0), V(true)}}};
  m["aten::tril"] = {{{r({3, 4}), V(0)}}, {{r({2, 3, 3}), V(-1)}}};
  m["aten::triu"] = {{{r({3, 4}), V(1)}}, {{noncontig({3, 3}), V(0)}}};
  {
    // a different row per element of each column: scatter overwrites each target once
    const Tensor unique = opd::from_vector<int64_t>({0, 2, 1, 0, 1, 0, 2, 2}, {2, 4});
    m["aten::scatter.src"] = {{{r({3, 4}), V(0), V(unique), r({2, 4})}}};
    m["aten::scatter.value"] = {{{r({3, 4}), V(0), V(unique), V(0.5)}}};
  }
  m["aten::constant_pad_nd"] = {{{r({2, 3}), V(L{1, 2}), V(0.5)}}, {{r({2, 3, 4}), V(L{1, 0, -1, 2}), V(0)}}};
  // the pads and upsamplings (formulas_spatial-inl.hpp): large pads read edge elements several
  // times; the backward kernels with self constant (only its sizes matter)
  for (const char* mode : {"reflection", "replication"}) {
    const std::string pad = std::string("aten::") + mode + "_pad";
    m[pad + "1d"] = {{{r({2, 3, 5}), V(L{4, 2})}}, {{noncontig({3, 6}), V(L{-1, 3})}}};
    m[pad + "2d"] = {{{r({1, 2, 3, 4}), V(L{2, 1, 2, 0})}}, {{r({2, 3, 3}), V(L{1, -1, 0, 2})}}};
    m[pad + "3d"] = {{{r({1, 1, 3, 3, 4}), V(L{1, 2, 2, 0, 1, 1})}}};
    m[pad + "1d_backward"] = {{{r({2, 3, 11}), r({2, 3, 5}), V(L{4, 2})}, {1}}};
    m[pad + "2d_backward"] = {{{r({1, 2, 7, 7}), r({1, 2, 3, 4}), V(L{2, 1, 2, 2})}, {1}}};
    m[pad + "3d_backward"] = {{{r({1, 1, 5, 4, 7}), r({1, 1, 3, 3, 4}), V(L{1, 2, 1, 0, 1, 1})}, {1}}};
  }
  m["aten::upsample_nearest2d"] = {{{r({1, 2, 3, 3}), V(L{5, 7}), V(), V()}}, {{r({2, 1, 4, 5}), V(L{2, 3}), V(), V()}}};
  m["aten::upsample_nearest2d.vec"] = {{{r({1, 2, 3, 3}), V(), V(std::vector<double>{1.5, 2.0})}},
                                       {{r({1, 1, 4, 3}), V(L{6, 2}), V()}}};
  m["aten::upsample_nearest2d_backward"] = {{{r({1, 2, 5, 7}), V(L{5, 7}), V(L{1, 2, 3, 3}), V(), V()}}};
  m["aten::upsample_nearest2d_backward.vec"] = {{{r({1, 2, 4, 6}), V(), V(L{1, 2, 3, 3}), V(std::vector<double>{1.5, 2.0})}}};
  m["aten::upsample_bilinear2d"] = {{{r({1, 2, 3, 3}), V(L{5, 7}), V(false), V(), V()}},
                                    {{r({2, 1, 4, 5}), V(L{3, 7}), V(true), V(), V()}}};
  m["aten::upsample_bilinear2d.vec"] = {{{r({1, 2, 3, 3}), V(), V(false), V(std::vector<double>{1.5, 2.0})}},
                                        {{r({1, 1, 4, 3}), V(L{6, 2}), V(true), V()}}};
  m["aten::upsample_bilinear2d_backward"] = {{{r({1, 2, 5, 7}), V(L{5, 7}), V(L{1, 2, 3, 3}), V(true), V(), V()}},
                                             {{r({1, 1, 2, 3}), V(L{2, 3}), V(L{1, 1, 4, 5}), V(false), V(), V()}}};
  // the 3-D pools (overlapping windows), their backward kernels (self constant), col2im and im2col
  m["aten::avg_pool3d"] = {{{r({1, 2, 4, 4, 5}), V(L{3}), V(L{2}), V(L{1}), V(false), V(true), V()}},
                           {{r({2, 3, 4, 3}), V(L{2, 2, 3}), V(L{1, 2, 1}), V(L{0, 1, 1}), V(true), V(false), V(3)}}};
  m["aten::avg_pool3d_backward"] = {
      {{r({1, 2, 2, 2, 3}), r({1, 2, 4, 4, 5}), V(L{3}), V(L{2}), V(L{1}), V(false), V(true), V()}, {1}}};
  m["aten::max_pool3d_with_indices"] = {{{r({1, 2, 4, 4, 5}), V(L{2}), V(L{2}), V(L{0}), V(L{1}), V(false)}},
                                        {{r({2, 3, 4, 5}), V(L{3, 2, 2}), V(L{}), V(L{1, 1, 0}), V(L{1}), V(true)}}};
  {
    const Tensor x = rnd({1, 2, 4, 4, 5}, g);
    const L ks{2}, st{2}, p{0}, d{1};
    const Tensor idx = std::get<1>(opd::call<opd::kernels::ops::max_pool3d_with_indices>(x, ks, st, p, d, false));
    m["aten::max_pool3d_with_indices_backward"] = {
        {{r({1, 2, 2, 2, 2}), V(x), V(ks), V(st), V(p), V(d), V(false), V(idx)}, {1}}};
  }
  m["aten::_adaptive_avg_pool3d"] = {{{r({1, 2, 4, 5, 3}), V(L{3, 2, 2})}}, {{r({2, 3, 2, 3}), V(L{4, 1, 5})}}};
  m["aten::_adaptive_avg_pool3d_backward"] = {{{r({1, 2, 3, 2, 2}), r({1, 2, 4, 5, 3})}, {1}}};
  m["aten::col2im"] = {{{r({1, 8, 9}), V(L{4, 4}), V(L{2, 2}), V(L{1, 1}), V(L{0, 0}), V(L{1, 1})}},
                       {{r({18, 9}), V(L{7, 6}), V(L{3, 2}), V(L{2, 1}), V(L{1, 2}), V(L{2, 3})}}};
  m["aten::im2col"] = {{{r({1, 2, 4, 4}), V(L{2, 2}), V(L{1, 1}), V(L{0, 0}), V(L{1, 1})}},
                       {{r({2, 7, 6}), V(L{3, 2}), V(L{2, 1}), V(L{1, 2}), V(L{2, 3})}}};
  {
    // grids inside and outside the image (padding modes), every interpolation mode
    Sample s0{{r({1, 2, 4, 5}), V(rnd({1, 3, 2, 2}, g, -0.9, 0.9)), V(int64_t{0}), V(int64_t{0}), V(false)}};
    Sample s1{{r({2, 1, 3, 4}), V(rnd({2, 2, 3, 2}, g, -1.6, 1.6)), V(int64_t{0}), V(int64_t{2}), V(true)}};
    Sample s2{{r({1, 2, 4, 4}), V(rnd({1, 2, 2, 2}, g, -1.2, 1.2)), V(int64_t{2}), V(int64_t{1}), V(false)}};
    Sample s3{{r({1, 1, 3, 3}), V(rnd({1, 2, 2, 2}, g, -0.9, 0.9)), V(int64_t{1}), V(int64_t{0}), V(true)}};
    for (Sample* s : {&s0, &s1, &s2, &s3}) s->second_order = false;
    m["aten::grid_sampler_2d"] = {s0, s1, s2, s3};
  }
  m["aten::upsample_bilinear2d_backward.vec"] = {
      {{r({1, 2, 4, 6}), V(), V(L{1, 2, 3, 3}), V(false), V(std::vector<double>{1.5, 2.0})}}};
  m["aten::clamp_min"] = {{{vals({-2, -0.5, 0.3, 1.7}, {2, 2}), V(0.0)}}};
  m["aten::_unsafe_view"] = {{{r({2, 3}), V(L{3, 2})}}};
  m["aten::clamp_min.Tensor"] = {{{vals({-2, -0.5, 0.3, 1.7}, {2, 2}), vals({0.1, -1}, {2})}}};
  {
    const Tensor mask = opd::call<opd::kernels::ops::gt_scalar::functional>(opd::from_vector<double>({1, -1, 1}, {3}),
                                                                             opd::Scalar(0));
    m["aten::masked_scatter"] = {{{r({2, 3}), V(mask), r({5})}}, {{r({2, 3}), V(mask), r({2, 2})}}};
    m["aten::masked_select"] = {{{r({2, 3}), V(mask)}}, {{r({3}), V(opd::call<opd::kernels::ops::gt_scalar::functional>(
                                                                          rnd({2, 3}, g), opd::Scalar(0)))}}};
  }
  m["aten::native_group_norm"] = {{{r({2, 4, 3}), r({4}), r({4}), V(2), V(4), V(3), V(2), V(1e-5)}},
                                  {{r({2, 4, 2, 2}), V(), V(), V(2), V(4), V(4), V(1), V(1e-5)}}};
  m["aten::_to_copy"] = {{{r({2, 3})}}, {{noncontig({2, 3})}}};
  // the rest of the coverage list: constants, identity, strided views and their scatters, norm's dtype
  // overloads, dropout's backward (formulas_reductions-inl.hpp)
  m["aten::zero"] = {{{r({2, 3})}}, {{r({})}}};
  m["aten::fill.Scalar"] = {{{r({2, 3}), V(1.5)}}};
  m["aten::lift_fresh"] = {{{r({2, 3})}}};
  m["aten::_reshape_alias"] = {{{r({2, 3}), V(L{3, 2}), V(L{2, 1})}}, {{r({2, 3}), V(L{6}), V(L{1})}}};
  m["aten::diagonal"] = {{{r({3, 4}), V(0), V(0), V(1)}}, {{r({2, 3, 4}), V(1), V(2), V(0)}},
                         {{noncontig({3, 3}), V(-1), V(0), V(1)}}};
  m["aten::diagonal_scatter"] = {{{r({3, 4}), r({3}), V(1), V(0), V(1)}}, {{r({2, 3, 3}), r({2, 2}), V(-1), V(1), V(2)}}};
  m["aten::unfold"] = {{{r({5, 2}), V(0), V(2), V(1)}}, {{r({7}), V(0), V(3), V(2)}}, {{noncontig({2, 5}), V(-1), V(2), V(3)}}};
  m["aten::unfold_backward"] = {{{r({4, 2, 2}), V(L{5, 2}), V(0), V(2), V(1)}}, {{r({2, 2}), V(L{5}), V(0), V(2), V(3)}}};
  m["aten::norm.ScalarOpt_dtype"] = {{{r({2, 3}), V(2), V(opd::ScalarType::Double)}},
                                     {{r({3}), V(), V(opd::ScalarType::Double)}}};
  m["aten::norm.ScalarOpt_dim_dtype"] = {{{r({2, 3}), V(2), V(L{1}), V(false), V(opd::ScalarType::Double)}},
                                         {{nz({2, 3}), V(1.5), V(L{0}), V(true), V(opd::ScalarType::Double)}}};
  {
    const Tensor mask = opd::call<opd::kernels::ops::gt_scalar::functional>(rnd({2, 3}, g), opd::Scalar(0));
    m["aten::native_dropout_backward"] = {{{r({2, 3}), V(mask), V(2.0)}}};
  }
  m["aten::_cdist_forward"] = {{{r({3, 2}), r({4, 2}), V(2.0), V()}}, {{r({2, 3, 2}), r({2, 4, 2}), V(1.0), V()}},
                               {{r({3, 3}), r({2, 3}), V(3.0), V()}},
                               {{r({3, 2}), r({2, 2}), V(std::numeric_limits<double>::infinity()), V()}}};
  // contiguous inputs (libtorch gets contiguous copies); overlapping windows add up
  m["aten::as_strided"] = {{{r({3, 4}), V(L{2, 2}), V(L{1, 2}), V(1)}}, {{r({6}), V(L{3, 2}), V(L{1, 1}), V()}},
                           {{r({2, 3}), V(L{3}), V(L{2}), V()}}};
  {
    // every p of ATen's backward kernel (p < 1, < 2, 2, > 2, inf, 0, 1); 1.13's _pdist_backward has no
    // derivatives: first order only
    std::vector<Sample> pd;
    for (double p : {2.0, 1.0, 0.5, 1.5, 3.0, std::numeric_limits<double>::infinity(), 0.0})
      pd.push_back({{r({4, 3}), V(p)}});
    pd.push_back({{r({2, 5}), V(2.0)}});
    for (Sample& s : pd) s.second_order = false;
    m["aten::_pdist_forward"] = pd;
  }
  {
    // 7 indices into 6 rows in 3 bags (the second empty): sum, mean, max; padding_idx; include_last_offset;
    // per_sample_weights (with padding_idx); scale_grad_by_freq (PyTorch's gradient is no Jacobian
    // there). 1.13's backward kernels have no derivatives: first order only.
    const Tensor ids = opd::from_vector<int64_t>({1, 4, 4, 0, 5, 2, 4}, {7});
    const Tensor offs = opd::from_vector<int64_t>({0, 2, 2}, {3}), last = opd::from_vector<int64_t>({0, 2, 2, 7}, {4});
    std::vector<Sample> eb;
    for (int64_t mode : {0, 1, 2}) {
      eb.push_back({{r({6, 3}), V(ids), V(offs), V(false), V(mode), V(false), V(), V(false), V(-1)}});
      eb.push_back({{r({6, 3}), V(ids), V(offs), V(false), V(mode), V(false), V(), V(false), V(4)}});
      eb.push_back({{r({6, 3}), V(ids), V(last), V(false), V(mode), V(false), V(), V(true), V(-1)}});
    }
    eb.push_back({{r({6, 3}), V(ids), V(offs), V(false), V(0), V(false), r({7}), V(false), V(-1)}});
    eb.push_back({{r({6, 3}), V(ids), V(offs), V(false), V(0), V(false), r({7}), V(false), V(0)}});
    for (int64_t mode : {0, 1}) {
      Sample freq{{r({6, 3}), V(ids), V(offs), V(true), V(mode), V(false), V(), V(false), V(-1)}};
      freq.jacobian = false;
      eb.push_back(freq);
    }
    for (Sample& s : eb) s.second_order = false;
    m["aten::_embedding_bag"] = eb;
  }
  {
    // every reduction, with and without include_self; positions with several values, one with none;
    // prod away from zero, and with one zero in self and one alone at its position in src
    const Tensor index = opd::from_vector<int64_t>({0, 2, 0, 1, 0, 2, 2, 1}, {2, 4});
    std::vector<Sample> sr;
    for (const char* reduce : {"sum", "mean", "prod", "amax", "amin"}) {
      for (bool include_self : {true, false}) {
        const bool prod = std::string(reduce) == "prod";
        sr.push_back({{prod ? nz({3, 4}) : r({3, 4}), V(0), V(index), prod ? nz({2, 4}) : r({2, 4}), V(std::string(reduce)),
                       V(include_self)}});
      }
    }
    sr.push_back({{vals({0.5, -1.5, 0, 2, 1.2, 0.7, -0.8, 1.1, 0.9, 1.3, -0.6, 0.4}, {3, 4}), V(1),
                   V(opd::from_vector<int64_t>({0, 1, 3, 2, 0, 3}, {3, 2})), vals({0, 1.4, -0.9, 0.6, 1.7, -1.2}, {3, 2}),
                   V(std::string("prod")), V(true)}});
    m["aten::scatter_reduce.two"] = sr;
  }
  // contiguous self (1.13 supports no other), positions that do not overlap
  m["aten::as_strided_scatter"] = {{{r({4, 4}), r({2, 2}), V(L{2, 2}), V(L{1, 4}), V(5)}},
                                   {{r({3, 4}), r({3, 2}), V(L{3, 2}), V(L{4, 1}), V()}},
                                   {{r({6}), r({2}), V(L{2}), V(L{3}), V(1)}}};
  for (Sample& s : m["aten::as_strided_scatter"]) s.wrong_in_libtorch = {0};
  {
    const Tensor ids = opd::from_vector<int64_t>({1, 3, 1, 0, 4, 3}, {2, 3});
    m["aten::embedding_dense_backward"] = {{{r({2, 3, 2}), V(ids), V(5), V(-1), V(false)}, {1}},
                                           {{r({2, 3, 2}), V(ids), V(5), V(3), V(false)}, {1}},
                                           {{r({2, 3, 2}), V(ids), V(5), V(-1), V(true)}, {1}, false}};
  }
  // complex128 samples of every operator whose formulas are complex_verified (test
  // Autograd.ComplexVerifiedOperatorsHaveComplexSamples), real inputs meeting complex ones among them
  {
    auto c = [&](std::vector<int64_t> s) { return V(crnd(std::move(s), g)); };
    auto cnz = [&](std::vector<int64_t> s) { return V(crnd(std::move(s), g, -1, 1, true)); };
    auto cright = [&](std::vector<int64_t> s) { return V(crnd(std::move(s), g, 0.5, 1.5)); };  // off log's and sqrt's cut
    auto cvals = [](std::vector<std::complex<double>> v, std::vector<int64_t> sz) {
      return V(opd::from_vector<std::complex<double>>(v, opd::IntArrayRef(sz.data(), sz.size())));
    };
    auto more = [&](const std::string& op, std::vector<Sample> extra) {
      for (Sample& x : extra) m[op].push_back(std::move(x));
    };
    more("aten::add.Tensor", {{{c({2, 3}), c({2, 3}), V(2.0)}}, {{r({2, 3}), c({3}), V(1)}}, {{c({}), r({2}), V(0.5)}}});
    more("aten::sub.Tensor", {{{c({2, 3}), c({1, 3}), V(0.5)}}, {{c({2, 3}), r({3}), V(1)}}});
    more("aten::add.Scalar", {{{c({2, 3}), V(2.5), V(1)}}});
    more("aten::sub.Scalar", {{{c({2, 3}), V(2.5), V(1)}}});
    more("aten::mul.Tensor", {{{c({2, 3}), c({2, 3})}}, {{r({2, 1}), c({3})}}, {{c({2, 3}), r({})}}});
    more("aten::mul.Scalar", {{{c({3}), V(1.5)}}});
    more("aten::div.Tensor", {{{c({2, 3}), cnz({2, 3})}}, {{r({2, 3}), cnz({3})}}, {{c({2, 3}), nz({3})}}});
    more("aten::div.Scalar", {{{c({3}), V(2.0)}}});
    for (const char* u : {"aten::neg", "aten::exp", "aten::tanh", "aten::sigmoid", "aten::sum", "aten::mean", "aten::t",
                          "aten::clone", "aten::alias", "aten::_to_copy", "aten::conj_physical"})
      more(u, {{{c({2, 3})}}});
    for (const char* u : {"aten::log", "aten::sqrt", "aten::rsqrt", "aten::log2", "aten::log10"}) more(u, {{{cright({2, 3})}}});
    for (const char* u : {"aten::sin", "aten::cos", "aten::tan", "aten::sinh", "aten::cosh"}) more(u, {{{c({2, 3})}}});
    more("aten::reciprocal", {{{cnz({2, 3})}}});
    more("aten::abs", {{{cnz({2, 3})}}});
    more("aten::_to_copy", {{{r({2, 3}), V(opd::ScalarType::ComplexDouble)}}, {{c({2, 3}), V(opd::ScalarType::Double)}}});
    more("aten::sum.dim_IntList", {{{c({2, 3, 4}), V(L{1}), V(false)}}});
    more("aten::mean.dim", {{{c({2, 3}), V(L{0}), V(true)}}});
    more("aten::mm", {{{c({2, 3}), c({3, 4})}}});
    more("aten::bmm", {{{c({2, 2, 3}), c({2, 3, 2})}}});
    more("aten::addmm", {{{c({4}), c({2, 3}), c({3, 4}), V(0.5), V(2.0)}}});
    more("aten::matmul", {{{c({3}), c({3})}}, {{c({2, 2, 3}), c({3, 4})}}, {{c({3}), c({3, 2})}}});
    more("aten::transpose.int", {{{c({2, 3, 4}), V(0), V(2)}}});
    more("aten::view", {{{c({2, 3}), V(L{3, 2})}}});
    more("aten::reshape", {{{c({2, 3}), V(L{6})}}});
    more("aten::_unsafe_view", {{{c({2, 3}), V(L{3, 2})}}});
    more("aten::permute", {{{c({2, 3, 4}), V(L{2, 0, 1})}}});
    more("aten::expand", {{{c({3, 1}), V(L{2, 3, 4}), V(false)}}});
    more("aten::expand_as", {{{c({3, 1}), V(crnd({2, 3, 4}, g))}}});
    more("aten::unsqueeze", {{{c({2, 3}), V(1)}}});
    more("aten::squeeze", {{{c({2, 1, 3})}}});
    more("aten::squeeze.dim", {{{c({2, 1, 3}), V(1)}}});
    more("aten::flatten.using_ints", {{{c({2, 3, 2}), V(1), V(-1)}}});
    more("aten::slice.Tensor", {{{c({5, 2}), V(0), V(1), V(5), V(2)}}});
    more("aten::narrow", {{{c({3, 4}), V(1), V(-3), V(2)}}});
    more("aten::select.int", {{{c({3, 4}), V(1), V(-1)}}});
    more("aten::slice_scatter", {{{c({4, 3}), c({2, 3}), V(0), V(1), V(4), V(2)}}});
    more("aten::select_scatter", {{{c({3, 4}), c({3}), V(1), V(2)}}});
    more("aten::unbind.int", {{{c({2, 3}), V(1)}}});
    m["aten::real"] = {{{c({2, 3})}}, {{r({3})}}};
    m["aten::imag"] = {{{c({2, 3})}}};
    m["aten::conj"] = {{{c({2, 3})}}, {{r({3})}}};
    {
      const Tensor cont = opd::call<opd::kernels::ops::transpose>(crnd({3, 2}, g), int64_t{0}, int64_t{1});
      more("aten::contiguous", {{{V(cont), V(opd::MemoryFormat::Contiguous)}}});
      const Tensor cond = opd::call<opd::kernels::ops::gt_scalar::functional>(rnd({2, 3}, g), opd::Scalar(0));
      more("aten::where.self", {{{V(cond), c({2, 3}), c({3})}}, {{V(cond), r({2, 3}), c({2, 3})}}});
    }
    more("aten::cat", {{{V(variable_list{crnd({2, 3}, g), rnd({1, 3}, g)}), V(0)}}});
    more("aten::stack", {{{V(variable_list{crnd({2, 3}, g), crnd({2, 3}, g)}), V(1)}}});
    // the complex-valued operators (real samples too: sgn and angle have derivative 0 there)
    m["aten::view_as_real"] = {{{c({2, 3})}}, {{c({})}}};
    m["aten::view_as_complex"] = {{{r({2, 3, 2})}}, {{r({2})}}};
    more("aten::conj_physical", {{{r({3})}}});
    m["aten::sgn"] = {{{cnz({2, 3})}}, {{nz({3})}}};
    m["aten::angle"] = {{{cnz({2, 3})}}, {{nz({3})}}};
    m["aten::_fft_c2c"] = {{{c({4, 3}), V(L{0}), V(0), V(true)}}, {{c({2, 5}), V(L{1}), V(2), V(false)}},
                           {{c({2, 3}), V(L{0, 1}), V(1), V(true)}}};
    m["aten::_fft_r2c"] = {{{r({2, 5}), V(L{1}), V(0), V(true)}}, {{r({4}), V(L{0}), V(1), V(false)}},
                           {{r({2, 4}), V(L{0, 1}), V(2), V(true)}}};
    m["aten::_fft_c2r"] = {{{c({2, 3}), V(L{1}), V(0), V(4)}}, {{c({3}), V(L{0}), V(2), V(5)}},
                           {{c({3, 2}), V(L{0, 1}), V(1), V(3)}}};
    // the operators PyTorch 1.13 differentiates for complex inputs too: values off the branch cuts
    for (const char* u : {"aten::asin", "aten::acos", "aten::atan", "aten::asinh", "aten::atanh"}) more(u, {{{c({2, 3})}}});
    more("aten::acosh", {{{cright({2, 3})}}});
    more("aten::pow.Tensor_Scalar", {{{cnz({3}), V(2.5)}}, {{c({2, 2}), V(2)}}});
    more("aten::pow.Tensor_Tensor", {{{cnz({2, 3}), c({2, 3})}}, {{cnz({3}), r({3})}}, {{pos({3}), c({3})}}});
    more("aten::pow.Scalar", {{{V(2.5), c({2, 3})}}, {{V(-1.5), c({3})}}});
    more("aten::lerp.Scalar", {{{c({2, 3}), c({3}), V(0.3)}}});
    more("aten::lerp.Tensor", {{{c({2, 3}), c({3}), c({2, 1})}}});
    more("aten::addcmul", {{{c({3}), c({2, 3}), c({2, 1}), V(0.5)}}, {{r({2, 3}), c({2, 3}), r({2, 3}), V(1)}}});
    more("aten::addcdiv", {{{c({3}), c({2, 3}), cnz({2, 1}), V(2.0)}}});
    more("aten::div.Tensor_mode", {{{c({2, 3}), cnz({3}), V()}}});
    more("aten::div.Scalar_mode", {{{c({3}), V(2.0), V()}}});
    more("aten::prod", {{{cnz({2, 3}), V()}}, {{cvals({{0.5, 0.2}, {0, 0}, {1.5, -0.3}, {-1, 0.7}}, {4}), V()}}});
    more("aten::prod.dim_int", {{{cnz({2, 3}), V(1), V(false), V()}},
                                {{cvals({{1.5, 0.5}, {0, 0}, {2, -1}, {3, 0.2}, {0.5, 0.5}, {0, 0}}, {2, 3}), V(1), V(true), V()}}});
    more("aten::cumprod", {{{cnz({2, 3}), V(1), V()}}, {{cvals({{0.5, 1}, {0, 0}, {2, -0.5}, {1.5, 0.3}}, {4}), V(0), V()}}});
    more("aten::norm.Scalar", {{{c({2, 3}), V(2)}}, {{cnz({4}), V(1)}}, {{c({2, 3}), V(3.0)}},
                               {{c({3}), V(std::numeric_limits<double>::infinity())}}});
    more("aten::norm.ScalarOpt_dim", {{{c({2, 3}), V(2), V(L{1}), V(false)}}, {{cnz({2, 3}), V(1.5), V(L{-1}), V(false)}}});
    more("aten::masked_fill.Tensor", {{{c({2, 3}), V(opd::from_vector<bool>({true, false, true}, {3})), r({})}}});
    // linear maps (views, gathers, pads) and the rest: the first real sample with complex tensors
    for (const char* u :
         {"aten::baddbmm", "aten::dot", "aten::mv", "aten::linear", "aten::gather", "aten::scatter_add", "aten::cumsum",
          "aten::var", "aten::var.dim", "aten::var.correction", "aten::std", "aten::std.dim", "aten::std.correction",
          "aten::flip", "aten::roll", "aten::repeat",
          "aten::index_select", "aten::masked_fill.Scalar", "aten::masked_fill.Tensor", "aten::fill.Scalar",
          "aten::_reshape_alias", "aten::diagonal", "aten::diagonal_scatter", "aten::unfold", "aten::unfold_backward",
          "aten::as_strided", "aten::as_strided_scatter", "aten::tril", "aten::triu", "aten::scatter.src", "aten::scatter.value",
          "aten::constant_pad_nd", "aten::masked_scatter", "aten::masked_select", "aten::split.Tensor",
          "aten::split_with_sizes", "aten::chunk", "aten::unsafe_split.Tensor", "aten::index.Tensor", "aten::index_put",
          "aten::reflection_pad1d", "aten::reflection_pad2d", "aten::reflection_pad3d", "aten::replication_pad1d",
          "aten::replication_pad2d", "aten::replication_pad3d", "aten::reflection_pad1d_backward",
          "aten::reflection_pad2d_backward", "aten::reflection_pad3d_backward", "aten::replication_pad1d_backward",
          "aten::replication_pad2d_backward", "aten::replication_pad3d_backward", "aten::col2im", "aten::im2col"}) {
      Sample x = m.at(u).front();
      for (opd::IValue& a : x.args) {
        if (!a.is_tensor() || a.to_tensor().dtype() != opd::ScalarType::Double) continue;
        const opd::IntArrayRef sz = a.to_tensor().sizes();
        a = V(crnd(std::vector<int64_t>(sz.begin(), sz.end()), g));
      }
      m[u].push_back(std::move(x));
    }
  }
  // convolution_backward (convolution's double backward): every output checked, each with its own gradient;
  // 1d/2d/3d, stride, padding, dilation, groups, transposed (without output_padding: libtorch 1.13's double
  // backward passes it to a convolution that is not transposed and refuses it)
  {
    using BL = std::vector<bool>;
    m["aten::convolution_backward"] = {
        {{r({2, 3, 4, 4}), r({2, 2, 5, 5}), r({3, 2, 2, 2}), V(L{3}), V(L{1, 1}), V(L{0, 0}), V(L{1, 1}), V(false), V(L{0, 0}),
          V(1), V(BL{true, true, true})}},
        {{r({1, 2, 3, 4}), r({1, 2, 7, 6}), r({2, 2, 2, 3}), V(L{2}), V(L{2, 1}), V(L{0, 1}), V(L{1, 2}), V(false), V(L{0, 0}),
          V(1), V(BL{true, true, true})}},
        {{r({1, 4, 2, 2}), r({1, 4, 4, 4}), r({4, 2, 3, 3}), V(L{4}), V(L{2, 2}), V(L{1, 1}), V(L{1, 1}), V(false), V(L{0, 0}),
          V(2), V(BL{true, true, true})}},
        {{r({1, 3, 6, 6}), r({1, 2, 3, 3}), r({2, 3, 2, 2}), V(L{3}), V(L{2, 2}), V(L{0, 0}), V(L{1, 1}), V(true), V(L{0, 0}),
          V(1), V(BL{true, true, true})}},
        {{r({2, 3, 3}), r({2, 2, 6}), r({3, 2, 3}), V(L{3}), V(L{2}), V(L{1}), V(L{1}), V(false), V(L{0}), V(1),
          V(BL{true, true, true})}},
        {{r({1, 2, 2, 2, 2}), r({1, 2, 3, 3, 3}), r({2, 1, 2, 2, 2}), V(L{2}), V(L{1, 1, 1}), V(L{0, 0, 0}), V(L{1, 1, 1}),
          V(false), V(L{0, 0, 0}), V(2), V(BL{true, true, true})}}};
    for (Sample& s : m["aten::convolution_backward"]) s.outputs = 3;
  }
  // native_layer_norm_backward (layer norm's double backward): mean and rstd from the forward call, held
  // constant (1.13: not_implemented); the input gradient counts them as functions of the input, so it is
  // not the Jacobian with them fixed (no first-order gradcheck); the bias does not enter the gradients
  {
    namespace ko = opd::kernels::ops;
    using BL = std::vector<bool>;
    auto sample = [&](std::vector<int64_t> sizes, std::vector<int64_t> shape, bool affine) {
      const Tensor x = rnd(sizes, g, -2, 2), w = rnd({shape.begin(), shape.end()}, g, 0.5, 1.5);
      auto [y, mean, rstd] = opd::call<ko::native_layer_norm>(x, std::span<const int64_t>(shape), affine ? std::optional<Tensor>(w) : std::nullopt,
                                                              std::nullopt, 1e-5);
      (void)y;
      Sample s{{r(sizes), V(x), V(shape), V(mean), V(rstd), affine ? V(w) : V(), affine ? r({shape.begin(), shape.end()}) : V(),
                V(BL{true, affine, affine})},
               {3, 4, 6}};
      s.jacobian = false;
      s.outputs = affine ? 3 : 1;  // without weight and bias, their gradients are undefined
      return s;
    };
    m["aten::native_layer_norm_backward"] = {sample({2, 3, 4}, {4}, true), sample({3, 2, 3}, {2, 3}, true),
                                             sample({2, 5}, {5}, false)};
  }
  // the views' *_copy operators: their views' samples
  for (const char* v : {"aten::view", "aten::transpose.int", "aten::t", "aten::permute", "aten::slice.Tensor",
                        "aten::select.int", "aten::unsqueeze", "aten::squeeze", "aten::squeeze.dim", "aten::expand",
                        "aten::alias", "aten::split.Tensor", "aten::split_with_sizes", "aten::unbind.int", "aten::diagonal",
                        "aten::unfold", "aten::as_strided", "aten::view_as_real", "aten::view_as_complex"}) {
    const std::string view(v);
    const std::size_t dot = view.find('.');
    m[view.substr(0, dot) + "_copy" + (dot == std::string::npos ? "" : view.substr(dot))] = m.at(view);
  }
  return m;
}

}  // namespace opd_test
