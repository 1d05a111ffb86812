// The lazy backend (include/lazy/): operators traced from their schemas with
// shapes from Meta kernels, sync with the graph cache, the CPU plan and its
// fused loops, compared with the same programs run eagerly on the CPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <autograd/autograd_meta.hpp>
#include <autograd/engine.hpp>
#include <autograd/grad_mode.hpp>
#include <autograd/tensor_api.hpp>
#include <dispatch/dispatcher.hpp>
#include <functionalize/functionalize.hpp>
#include <kernels/cpu/elementwise.hpp>
#include <kernels/cpu/parallel.hpp>
#include <kernels/ops_arithmetic.hpp>
#include <kernels/ops_linalg.hpp>
#include <kernels/ops_reductions.hpp>
#include <kernels/ops_pointwise.hpp>
#include <kernels/ops_scalars.hpp>
#include <kernels/ops_shape.hpp>
#include <kernels/ops_views.hpp>
#include <lazy/lazy.hpp>
#include <lazy/lowerings.hpp>
#include <lazy/op_node.hpp>

#include "all_formulas.hpp"
#include "all_kernels.hpp"
#include "schema_arguments.hpp"

namespace {

using opd::Tensor;
namespace ops = opd::kernels::ops;
namespace lazy = opd::lazy;

class Lazy : public ::testing::Test {
 protected:
  void SetUp() override {
    lazy::ensure_registered();
    lazy::clear_graph_cache();
    lazy::reset_counters();
  }
  static opd::RegistrationSet& kernels() {
    static opd::RegistrationSet k = opd_test::register_all_kernels();
    return k;
  }
  static void SetUpTestSuite() { (void)kernels(); }
};

Tensor randn(std::vector<int64_t> sizes, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist;
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = dist(gen);
  return opd::from_vector<float>(v, sizes);
}

// The elements' bytes in row-major order (any strides).
std::vector<unsigned char> bytes_of(const Tensor& t) {
  const std::size_t item = t.itemsize();
  std::vector<unsigned char> out(static_cast<std::size_t>(t.numel()) * item);
  std::vector<int64_t> idx(static_cast<std::size_t>(t.dim()), 0);
  const auto* base = static_cast<const unsigned char*>(t.data_ptr());
  for (int64_t i = 0; i < t.numel(); ++i) {
    int64_t off = 0;
    for (std::size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.strides()[d];
    std::memcpy(out.data() + static_cast<std::size_t>(i) * item, base + off * static_cast<int64_t>(item), item);
    for (std::size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < t.sizes()[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

void expect_same(const Tensor& lazy_result, const Tensor& eager, const std::string& what) {
  ASSERT_TRUE(lazy_result.defined()) << what;
  EXPECT_TRUE(lazy_result.device().is_cpu()) << what;
  EXPECT_EQ(lazy_result.sizes().vec(), eager.sizes().vec()) << what;
  EXPECT_EQ(lazy_result.dtype(), eager.dtype()) << what;
  EXPECT_EQ(bytes_of(lazy_result), bytes_of(eager)) << what;
}

// ---- every operator of the registry that takes 1-3 tensors (then defaults) ----

// Operators whose values are not a function of their inputs.
bool nondeterministic(const std::string& name) {
  return name.find("empty") != std::string::npos || name.find("rand") != std::string::npos ||
         name.find("dropout") != std::string::npos || name.find("bernoulli") != std::string::npos ||
         name.find("normal") != std::string::npos || name.find("multinomial") != std::string::npos;
}

TEST_F(Lazy, EveryTensorOnlyOperatorTracesWithEagerShapesDtypesAndValues) {
  opd::Dispatcher& d = opd::Dispatcher::singleton();
  int traced = 0, eager_errors = 0, lazy_ran = 0;
  std::vector<std::string> mismatched;
  for (const std::string& name : d.operator_names()) {
    if (name.rfind("aten::", 0) != 0 || nondeterministic(name)) continue;
    opd::OperatorEntry* op = d.find_schema(name);
    if (op == nullptr || op->alias_facts().is_view() || !op->alias_facts().written.empty()) continue;
    const auto& s = *op->schema();
    // leading Tensor arguments, then only arguments with defaults
    std::size_t tensors = 0;
    while (tensors < s.arguments.size() && s.type_of(s.arguments[tensors]).kind == opd::schema::type_kind::base &&
           s.type_of(s.arguments[tensors]).base == opd::schema::base_type::Tensor)
      ++tensors;
    if (tensors == 0 || tensors > 3) continue;
    bool rest_default = true;
    for (std::size_t i = tensors; i < s.arguments.size(); ++i) rest_default = rest_default && s.arguments[i].has_default;
    if (!rest_default || s.returns.empty()) continue;
    for (const auto& r : s.returns)
      if (!(s.type_of(r).kind == opd::schema::type_kind::base && s.type_of(r).base == opd::schema::base_type::Tensor))
        rest_default = false;
    if (!rest_default) continue;

    // Positive inputs of one shape (log, sqrt, pow stay finite); a 2-D shape so linear algebra applies.
    std::vector<Tensor> cpu;
    for (std::size_t i = 0; i < tensors; ++i) {
      Tensor t = randn({4, 4}, static_cast<unsigned>(7 + i));
      cpu.push_back(opd::call<ops::add_scalar::functional>(opd::call<ops::abs::functional>(t), 0.5, 1.0));
    }
    opd::Stack eager_stack(cpu.begin(), cpu.end());
    try {
      opd::call_boxed(*op, eager_stack);
    } catch (const std::exception&) {
      ++eager_errors;  // the operator rejects these inputs: the lazy run must fail too
      opd::Stack lazy_stack;
      for (const Tensor& t : cpu) lazy_stack.emplace_back(lazy::make_lazy(t));
      bool failed = false;
      try {
        opd::call_boxed(*op, lazy_stack);
        for (const opd::IValue& v : lazy_stack)
          if (v.is_tensor()) (void)lazy::to_cpu(v.to_tensor());
      } catch (const std::exception&) {
        failed = true;
      }
      EXPECT_TRUE(failed) << name << " fails eagerly but not lazily";
      continue;
    }
    const auto before = lazy::counters();
    opd::Stack lazy_stack;
    for (const Tensor& t : cpu) lazy_stack.emplace_back(lazy::make_lazy(t));
    try {
      opd::call_boxed(*op, lazy_stack);
    } catch (const std::exception& e) {
      mismatched.push_back(name + " threw lazily: " + e.what());
      continue;
    }
    const auto after = lazy::counters();
    const bool was_traced = after.nodes_traced > before.nodes_traced;
    traced += was_traced ? 1 : 0;
    ASSERT_EQ(lazy_stack.size(), eager_stack.size()) << name;
    for (std::size_t i = 0; i < lazy_stack.size(); ++i) {
      const Tensor& lt = lazy_stack[i].to_tensor();
      const Tensor& et = eager_stack[i].to_tensor();
      ASSERT_TRUE(lazy::is_lazy(lt)) << name;
      // shape and dtype before anything ran: from the Meta kernel
      EXPECT_EQ(lt.sizes().vec(), et.sizes().vec()) << name;
      EXPECT_EQ(lt.dtype(), et.dtype()) << name;
      Tensor value;
      try {
        value = lazy::to_cpu(lt);
      } catch (const std::exception& e) {
        mismatched.push_back(name + " threw at sync: " + e.what());
        continue;
      }
      if (bytes_of(value) != bytes_of(et)) mismatched.push_back(name);
    }
    ++lazy_ran;
  }
  EXPECT_TRUE(mismatched.empty()) << "values differ from eager: " << ::testing::PrintToString(mismatched);
  // Most of the library's tensor operators have Meta kernels: they trace.
  EXPECT_GE(traced, 100) << "ran " << lazy_ran << ", eager errors " << eager_errors;
  std::printf("[ lazy ] %d operators traced, %d ran lazily, %d rejected the sample inputs eagerly\n", traced, lazy_ran,
              eager_errors);
}

// ---- the graph cache ------------------------------------------------------------

Tensor step(const Tensor& x, const Tensor& y) {
  Tensor a = opd::call<ops::mul::functional>(x, y);
  Tensor b = opd::call<ops::add_scalar::functional>(a, 1.0, 1.0);
  return opd::call<ops::relu>(b);
}

// Dense bytes of a tensor (any strides), for comparing values.
Tensor dense(const Tensor& t) { return t.is_contiguous() ? t : opd::kernels::contiguous_clone(t); }

// Every operator with a CPU kernel, called with arguments built from its
// schema alone (tests/support/schema_arguments.hpp: [2, 3] Float tensors,
// dims 1, sizes [2, 3]) on functionalized lazy tensors (`to_lazy`: views,
// in-place and out= variants go through the Functionalize layer, so only
// functional and *_copy operators are traced), returns eager's values and
// writes eager's values into its written arguments; an operator that refuses
// the arguments eagerly refuses them lazily too (at the call or at sync).
TEST_F(Lazy, EveryOperatorWithSchemaBuiltArgumentsEqualsEager) {
  opd::Dispatcher& d = opd::Dispatcher::singleton();
  std::vector<std::string> mismatched, skipped;
  int ran = 0, refused = 0;
  for (const std::string& name : d.operator_names()) {
    const opd::OperatorEntry* op = d.find_schema(name);
    if (name.rfind("aten::", 0) != 0 || op == nullptr || !op->has_kernel_for(opd::DispatchKey::CPU) ||
        nondeterministic(name))
      continue;
    // The first argument profile the eager call accepts (else the last one,
    // which the lazy call must refuse too).
    opd::Stack eager, on_lazy, eager_args, lazy_args;  // (the caller's tensors, to read written ones)
    bool eager_failed = true, built = true;
    for (const opd_test::ArgumentProfile profile : opd_test::argument_profiles) {
      eager.clear();
      on_lazy.clear();
      built = opd_test::build_arguments(*op, opd::Device::cpu(), [](const Tensor& t) { return t; }, eager, profile) &&
              opd_test::build_arguments(*op, lazy::kLazyDevice, [](const Tensor& t) { return lazy::to_lazy(t); },
                                        on_lazy, profile);
      if (!built) break;
      eager_args = eager;
      lazy_args = on_lazy;
      try {
        opd::call_boxed(*op, eager);
        eager_failed = false;
        break;
      } catch (const std::exception&) {
      }
    }
    if (!built) {
      skipped.push_back(name);
      continue;
    }
    // Values (returns and written arguments) brought back from the lazy device.
    std::vector<std::pair<std::string, opd::IValue>> got;
    try {
      opd::call_boxed(*op, on_lazy);
      for (std::size_t r = 0; r < on_lazy.size(); ++r) {
        const opd::IValue& v = on_lazy[r];
        if (v.is_tensor()) {
          got.emplace_back("return " + std::to_string(r), v.to_tensor().defined() ? opd::IValue(lazy::to_cpu(v.to_tensor())) : v);
        } else if (v.is_tensor_list()) {
          std::vector<Tensor> list;
          for (const Tensor& t : v.to_tensor_list()) list.push_back(lazy::to_cpu(t));
          got.emplace_back("return " + std::to_string(r), opd::IValue(std::move(list)));
        } else {
          got.emplace_back("return " + std::to_string(r), v);
        }
      }
      for (const std::size_t p : op->alias_facts().written)
        got.emplace_back("written argument " + std::to_string(p), opd::IValue(lazy::to_cpu(lazy_args[p].to_tensor())));
    } catch (const std::exception& e) {
      if (!eager_failed) mismatched.push_back(name + " threw lazily only: " + e.what());
      else ++refused;
      continue;
    }
    if (eager_failed) {
      mismatched.push_back(name + " ran lazily but refuses its arguments eagerly");
      continue;
    }
    std::vector<opd::IValue> want(eager.begin(), eager.end());
    for (const std::size_t p : op->alias_facts().written) want.push_back(eager_args[p]);
    if (want.size() != got.size()) {
      mismatched.push_back(name + ": " + std::to_string(got.size()) + " values, eager " + std::to_string(want.size()));
      continue;
    }
    const bool values = name.find("empty") == std::string::npos;  // memory nobody wrote
    auto same_tensor = [&](const Tensor& a, const Tensor& b) {
      if (a.defined() != b.defined()) return false;
      if (!a.defined()) return true;
      if (a.sizes().vec() != b.sizes().vec() || a.dtype() != b.dtype()) return false;
      return !values || bytes_of(dense(a)) == bytes_of(dense(b));
    };
    for (std::size_t i = 0; i < want.size(); ++i) {
      const opd::IValue& w = want[i];
      const opd::IValue& g = got[i].second;
      bool same = false;
      if (w.is_tensor()) {
        same = g.is_tensor() && same_tensor(g.to_tensor(), w.to_tensor());
      } else if (w.is_tensor_list()) {
        same = g.is_tensor_list() && g.to_tensor_list().size() == w.to_tensor_list().size();
        for (std::size_t k = 0; same && k < w.to_tensor_list().size(); ++k)
          same = same_tensor(g.to_tensor_list()[k], w.to_tensor_list()[k]);
      } else if (w.is_int()) {
        same = g.is_int() && g.to_int() == w.to_int();
      } else if (w.is_double()) {
        same = g.is_double() && (g.to_double() == w.to_double() || (std::isnan(g.to_double()) && std::isnan(w.to_double())));
      } else if (w.is_bool()) {
        same = g.is_bool() && g.to_bool() == w.to_bool();
      } else {
        same = g.tag() == w.tag();
      }
      if (!same) mismatched.push_back(name + " " + got[i].first);
    }
    ++ran;
  }
  EXPECT_TRUE(skipped.empty()) << ::testing::PrintToString(skipped);
  EXPECT_TRUE(mismatched.empty()) << mismatched.size() << " differ from eager: " << ::testing::PrintToString(mismatched);
  // Most operators accept the schema-built arguments.
  EXPECT_GE(ran, 2 * refused) << "ran " << ran << ", refused alike " << refused;
  std::printf("lazy sweep: %d operators equal eager, %d refuse the arguments alike\n", ran, refused);
}

TEST_F(Lazy, SameShapesHitTheGraphCacheAndANewShapeMisses) {
  const Tensor xc = randn({8, 16}, 1), yc = randn({8, 16}, 2);
  const Tensor expected = step(xc, yc);
  for (int it = 0; it < 3; ++it) {
    Tensor out = step(lazy::to_lazy(xc), lazy::to_lazy(yc));
    expect_same(lazy::to_cpu(out), expected, "iteration " + std::to_string(it));
  }
  EXPECT_EQ(lazy::counters().uncached_compile, 1u);
  EXPECT_EQ(lazy::counters().cached_compile, 2u);
  EXPECT_EQ(lazy::counters().nodes_traced, 9u);
  const Tensor x2 = randn({4, 16}, 3);
  Tensor out = step(lazy::to_lazy(x2), lazy::to_lazy(x2));
  expect_same(lazy::to_cpu(out), step(x2, x2), "new shape");
  EXPECT_EQ(lazy::counters().uncached_compile, 2u);
  EXPECT_EQ(lazy::graph_cache_size(), 2u);
}

TEST_F(Lazy, GraphCacheIsBoundedLeastRecentlyUsedFirst) {
  lazy::set_graph_cache_capacity(1);
  const Tensor a = randn({3}, 1), b = randn({5}, 2);
  for (const Tensor& x : {a, b, a}) (void)lazy::to_cpu(step(lazy::to_lazy(x), lazy::to_lazy(x)));
  EXPECT_EQ(lazy::counters().uncached_compile, 3u);
  EXPECT_EQ(lazy::graph_cache_size(), 1u);
  lazy::set_graph_cache_capacity(1024);
}

// ---- functionalization above the lazy key -----------------------------------------

// y = x.t(); y[1] += 2; x *= x; return x.diagonal() + 1
Tensor views_program(Tensor x) {
  Tensor y = opd::call<ops::t>(x);
  Tensor row = opd::call<ops::select>(y, 0, 1);
  opd::call<ops::add_scalar::inplace>(row, 2.0, 1.0);
  opd::call<ops::mul::inplace>(x, x);
  Tensor d = opd::call<ops::diagonal>(x, 0, 0, 1);
  return opd::call<ops::add_scalar::functional>(d, 1.0, 1.0);
}

TEST_F(Lazy, ViewsAndInPlaceOperatorsReachTheLazyKernelsFunctionalized) {
  const Tensor xc = randn({3, 3}, 4);
  Tensor xe = opd::call<ops::clone>(xc, std::nullopt);
  const Tensor expected = views_program(xe);
  Tensor x = lazy::to_lazy(xc);
  Tensor out = views_program(x);
  const std::string graph = lazy::dump_graph();
  EXPECT_NE(graph.find("aten::t_copy"), std::string::npos) << graph;
  EXPECT_EQ(graph.find("aten::add_."), std::string::npos) << graph;
  expect_same(lazy::to_cpu(out), expected, "result");
  expect_same(lazy::to_cpu(x), xe, "mutated input");
}

TEST_F(Lazy, AViewAndItsBaseStillAliasAfterSync) {
  const Tensor xc = randn({4, 6}, 5);
  Tensor x = lazy::to_lazy(xc);
  Tensor v = opd::call<ops::transpose>(x, 0, 1);
  opd::call<ops::mul_scalar::inplace>(x, 2.0);
  lazy::sync();
  EXPECT_EQ(lazy::counters().syncs, 1u);
  opd::call<ops::add_scalar::inplace>(v, 1.0, 1.0);  // through the view, after the sync
  Tensor xe = opd::call<ops::clone>(xc, std::nullopt);
  Tensor ve = opd::call<ops::transpose>(xe, 0, 1);
  opd::call<ops::mul_scalar::inplace>(xe, 2.0);
  opd::call<ops::add_scalar::inplace>(ve, 1.0, 1.0);
  expect_same(lazy::to_cpu(x), xe, "base sees the write through its view");
  expect_same(lazy::to_cpu(v), ve, "view");
}

// ---- reading values -----------------------------------------------------------------

TEST_F(Lazy, ReadingAValueMidGraphRunsOnlyWhatItNeeds) {
  const Tensor xc = randn({5, 5}, 6);
  Tensor x = lazy::to_lazy(xc);
  Tensor a = opd::call<ops::mul_scalar::functional>(x, 3.0);
  Tensor b = opd::call<ops::mul::functional>(a, a);
  expect_same(lazy::to_cpu(a), opd::call<ops::mul_scalar::functional>(xc, 3.0), "a read mid-graph");
  Tensor c = opd::call<ops::add::functional>(a, b, 1.0);
  const Tensor ae = opd::call<ops::mul_scalar::functional>(xc, 3.0);
  const Tensor ce = opd::call<ops::add::functional>(ae, opd::call<ops::mul::functional>(ae, ae), 1.0);
  expect_same(lazy::to_cpu(c), ce, "c after a was read");
  // item() reads a value too: _local_scalar_dense has no tensor result, so it runs eagerly.
  Tensor s = opd::call<ops::sum>(c, std::nullopt);
  const opd::Scalar v = opd::call<ops::_local_scalar_dense>(s);
  EXPECT_EQ(v.to<double>(), opd::call<ops::_local_scalar_dense>(opd::call<ops::sum>(ce, std::nullopt)).to<double>());
  EXPECT_GE(lazy::counters().eager_ops, 1u);
}

TEST_F(Lazy, DataDependentShapesRunEagerlyAndStayLazyAfterwards) {
  const Tensor xc = randn({6, 7}, 8);
  Tensor x = lazy::to_lazy(xc);
  Tensor mask = opd::call<ops::gt_scalar::functional>(x, 0.0);
  const auto before = lazy::counters().eager_ops;
  Tensor sel = opd::call<ops::masked_select>(x, mask);
  Tensor nz = opd::call<ops::nonzero>(mask);
  EXPECT_EQ(lazy::counters().eager_ops, before + 2);
  EXPECT_TRUE(lazy::is_lazy(sel));
  const Tensor mask_e = opd::call<ops::gt_scalar::functional>(xc, 0.0);
  const Tensor sel_e = opd::call<ops::masked_select>(xc, mask_e);
  EXPECT_EQ(sel.sizes().vec(), sel_e.sizes().vec());
  Tensor after = opd::call<ops::mul_scalar::functional>(sel, 2.0);  // traced on the eager result
  expect_same(lazy::to_cpu(after), opd::call<ops::mul_scalar::functional>(sel_e, 2.0), "masked_select * 2");
  expect_same(lazy::to_cpu(nz), opd::call<ops::nonzero>(mask_e), "nonzero");
}

// ---- errors -----------------------------------------------------------------------

TEST_F(Lazy, AKernelErrorAtSyncNamesTheOperatorAndLeavesTheTensorsUsable) {
  auto def = opd::declare("t_lazy::boom(Tensor self) -> Tensor");
  auto meta = opd::register_boxed_kernel("t_lazy::boom", opd::DispatchKey::Meta,
                                         [](const opd::OperatorEntry&, opd::DispatchKeySet, opd::Stack* s) {
                                           const Tensor self = s->back().to_tensor();
                                           s->back() = opd::IValue(opd::empty(self.sizes(), self.dtype(), opd::Device::meta()));
                                         });
  auto cpu = opd::register_boxed_kernel("t_lazy::boom", opd::DispatchKey::CPU,
                                        [](const opd::OperatorEntry&, opd::DispatchKeySet, opd::Stack*) {
                                          throw opd::ValueError("boom kernel failed");
                                        });
  lazy::ensure_registered();  // the new operator
  const Tensor xc = randn({4}, 9);
  Tensor x = lazy::make_lazy(xc);
  Tensor good = opd::call<ops::relu>(x);
  Tensor bad;
  {
    opd::Stack s{opd::IValue(opd::call<ops::mul_scalar::functional>(x, 2.0))};
    opd::call_boxed(opd::Dispatcher::singleton().find_schema_or_throw("t_lazy::boom"), s);
    bad = s.back().to_tensor();
  }
  EXPECT_TRUE(lazy::is_lazy(bad));
  try {
    lazy::sync();
    ADD_FAILURE() << "sync did not throw";
  } catch (const opd::Error& e) {
    EXPECT_NE(std::string(e.what()).find("t_lazy::boom"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("boom kernel failed"), std::string::npos) << e.what();
  }
  // Nothing ran: both are still pending, and the good one still computes.
  EXPECT_TRUE(lazy::lazy_impl(good)->pending());
  EXPECT_TRUE(lazy::lazy_impl(bad)->pending());
  expect_same(lazy::to_cpu(good), opd::call<ops::relu>(xc), "good after the failed sync");
  EXPECT_THROW((void)lazy::to_cpu(bad), opd::Error);
  bad = Tensor();
  EXPECT_NO_THROW(lazy::sync());
}

// An update `w - a * g` of a graph input that nothing reads after the sync
// writes the input's buffer (as eager mode's sub_ does), bitwise as eager; a
// pending reader outside the synced graph keeps the input, and so does an
// operator that fails in the same graph.
TEST_F(Lazy, AnUpdateWritesItsGraphInputInPlaceOnlyWhenNothingElseReadsIt) {
  const Tensor wc = randn({40, 70}, 21), gc = randn({40, 70}, 22);
  const Tensor expected = opd::call<ops::sub::functional>(wc, opd::call<ops::mul::functional>(gc, gc), 0.5);
  auto buffer = [](const Tensor& t) { return lazy::lazy_impl(t)->node()->data.at(0).data_ptr(); };
  auto update = [](Tensor& w, const Tensor& g) {
    opd::call<ops::sub::inplace>(w, opd::call<ops::mul::functional>(g, g), 0.5);
  };
  {  // an earlier reader in the same graph, and the update writes w's buffer
    Tensor w = lazy::to_lazy(wc);
    const Tensor g = lazy::to_lazy(gc);
    const void* before = buffer(w);
    const Tensor twice = opd::call<ops::mul_scalar::functional>(w, 2.0);
    update(w, g);
    const std::uint64_t written = lazy::counters().inputs_written;
    lazy::sync();
    EXPECT_EQ(buffer(w), before) << "written in place (g, which the caller holds, is not)";
    EXPECT_EQ(lazy::counters().inputs_written - written, 1u);
    expect_same(lazy::to_cpu(w), expected, "the update");
    expect_same(lazy::to_cpu(twice), opd::call<ops::mul_scalar::functional>(wc, 2.0), "the earlier reader");
  }
  {  // a pending reader outside the graph synced: a new buffer
    Tensor w = lazy::to_lazy(wc);
    const Tensor g = lazy::to_lazy(gc);
    const void* before = buffer(w);
    const Tensor later = opd::call<ops::mul_scalar::functional>(w, 2.0);
    update(w, g);
    const std::uint64_t written = lazy::counters().inputs_written;
    lazy::sync(std::vector<Tensor>{w});
    EXPECT_NE(buffer(w), before);
    EXPECT_EQ(lazy::counters().inputs_written, written);
    expect_same(lazy::to_cpu(w), expected, "the update");
    expect_same(lazy::to_cpu(later), opd::call<ops::mul_scalar::functional>(wc, 2.0), "the reader outside");
  }
  {  // an operator that fails: w's input is intact, the next sync computes it
    auto def = opd::declare("t_lazy::boom2(Tensor self) -> Tensor");
    auto meta = opd::register_boxed_kernel("t_lazy::boom2", opd::DispatchKey::Meta,
                                           [](const opd::OperatorEntry&, opd::DispatchKeySet, opd::Stack* s) {
                                             const Tensor self = s->back().to_tensor();
                                             s->back() = opd::IValue(opd::empty(self.sizes(), self.dtype(), opd::Device::meta()));
                                           });
    auto cpu = opd::register_boxed_kernel("t_lazy::boom2", opd::DispatchKey::CPU,
                                          [](const opd::OperatorEntry&, opd::DispatchKeySet, opd::Stack*) {
                                            throw opd::ValueError("boom2 kernel failed");
                                          });
    lazy::ensure_registered();
    Tensor w = lazy::to_lazy(wc);
    const Tensor g = lazy::to_lazy(gc);
    update(w, g);
    Tensor bad;
    {
      opd::Stack s{opd::IValue(lazy::make_lazy(gc))};
      opd::call_boxed(opd::Dispatcher::singleton().find_schema_or_throw("t_lazy::boom2"), s);
      bad = s.back().to_tensor();
    }
    EXPECT_THROW(lazy::sync(), opd::Error);
    bad = Tensor();
    expect_same(lazy::to_cpu(w), expected, "the update after a failed sync");
  }
}

// A bare lazy tensor is never written, so a view of it is traced as its value
// (autograd's formulas call views on the lazy tensors below functionalization);
// a write needs the functional wrapper and is refused by name.
TEST_F(Lazy, ViewsOfBareLazyTensorsAreTracedAsValuesAndWritesAreRefusedByName) {
  const Tensor xc = randn({2, 3}, 10);
  Tensor x = lazy::make_lazy(xc);
  const Tensor v = opd::call<ops::t>(x);
  EXPECT_EQ(v.sizes().vec(), (std::vector<int64_t>{3, 2}));
  EXPECT_NE(lazy::dump_graph({&v, 1}).find("aten::t("), std::string::npos) << lazy::dump_graph({&v, 1});
  const Tensor w = opd::call<ops::mul::functional>(v, v);
  expect_same(lazy::to_cpu(w), opd::call<ops::mul::functional>(opd::call<ops::t>(xc), opd::call<ops::t>(xc)), "t(x) * t(x)");
  expect_same(lazy::to_cpu(v), opd::call<ops::t>(xc), "t(x), a root");
  try {
    (void)opd::call<ops::add_scalar::inplace>(x, 1.0, 1.0);
    ADD_FAILURE() << "add_ on an unwrapped lazy tensor did not throw";
  } catch (const opd::NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("aten::add_"), std::string::npos) << e.what();
  }
  expect_same(lazy::to_cpu(x), xc, "x unchanged by the refused write");
}

// Handed-over transfers copy nothing when nothing else holds the memory, and
// copy otherwise (so a write to one side never reaches the other).
TEST_F(Lazy, HandedOverTransfersAdoptAndReturnBuffersOnlyWhenUnshared) {
  const Tensor xc = randn({4, 8}, 12);
  Tensor c = opd::call<ops::clone>(xc, std::nullopt);
  const void* mem = c.data_ptr();
  Tensor l = lazy::to_lazy(std::move(c));
  EXPECT_FALSE(c.defined());
  Tensor r = lazy::to_cpu(std::move(l));
  EXPECT_FALSE(l.defined());
  EXPECT_EQ(r.data_ptr(), mem) << "adopted in, returned out";
  expect_same(r, xc, "round trip");

  // shared on the CPU side: copied in
  Tensor shared = opd::call<ops::clone>(xc, std::nullopt);
  Tensor keep = shared;
  Tensor a = lazy::to_lazy(std::move(shared));
  opd::call<ops::add_scalar::inplace>(keep, 1.0, 1.0);
  expect_same(lazy::to_cpu(a), xc, "the lazy copy does not see the CPU write");

  // shared on the lazy side (an alias, a pending reader): copied out
  Tensor b = opd::call<ops::relu>(a);
  Tensor view = opd::call<ops::t>(b);
  Tensor out = lazy::to_cpu(std::move(b));
  opd::call<ops::add_scalar::inplace>(out, 1.0, 1.0);
  expect_same(lazy::to_cpu(view), opd::call<ops::t>(opd::call<ops::relu>(xc)), "the alias does not see the CPU write");
  Tensor d = opd::call<ops::neg::functional>(a);
  Tensor reader = opd::call<ops::mul::functional>(d, d);
  Tensor dout = lazy::to_cpu(std::move(d));
  opd::call<ops::add_scalar::inplace>(dout, 1.0, 1.0);
  const Tensor nx = opd::call<ops::neg::functional>(xc);
  expect_same(lazy::to_cpu(reader), opd::call<ops::mul::functional>(nx, nx), "the pending reader does not see it");
}

// ---- fusion --------------------------------------------------------------------------

Tensor chain(const Tensor& x, const Tensor& bias) {
  Tensor a = opd::call<ops::mul_scalar::functional>(x, 1.5);
  Tensor b = opd::call<ops::add::functional>(a, bias, 1.0);  // broadcast over rows
  Tensor c = opd::call<ops::relu>(b);
  Tensor d = opd::call<ops::sub::functional>(c, x, 1.0);
  Tensor m = opd::call<ops::gt_scalar::functional>(d, 0.25);
  Tensor e = opd::call<ops::div::functional>(d, b);
  Tensor f = opd::call<ops::where::functional>(m, e, x);
  return opd::call<ops::exp::functional>(f);
}

TEST_F(Lazy, ElementwiseChainsRunFusedAndEqualEager) {
  const Tensor xc = randn({33, 70}, 11), bc = randn({70}, 12);
  const Tensor expected = chain(xc, bc);
  Tensor out = chain(lazy::to_lazy(xc), lazy::to_lazy(bc));
  const Tensor got = lazy::to_cpu(out);
  EXPECT_EQ(lazy::counters().fused_nodes, 8u);
  ASSERT_EQ(got.sizes().vec(), expected.sizes().vec());
  // + - * / relu, comparisons and where are bitwise equal; exp within 1 ulp
  const float* g = got.data_ptr<float>();
  const float* e = expected.data_ptr<float>();
  int worse = 0;
  for (int64_t i = 0; i < got.numel(); ++i)
    if (g[i] != e[i] && std::nextafter(g[i], e[i]) != e[i]) ++worse;
  EXPECT_EQ(worse, 0);
  // Without the final exp the chain is bitwise equal.
  Tensor x2 = lazy::to_lazy(xc);
  Tensor b2 = lazy::to_lazy(bc);
  Tensor a = opd::call<ops::mul_scalar::functional>(x2, 1.5);
  Tensor b = opd::call<ops::relu>(opd::call<ops::add::functional>(a, b2, 1.0));
  Tensor m = opd::call<ops::lt::functional>(b, x2);
  Tensor w = opd::call<ops::where::functional>(m, b, opd::call<ops::div::functional>(x2, b));
  const Tensor ae = opd::call<ops::mul_scalar::functional>(xc, 1.5);
  const Tensor be = opd::call<ops::relu>(opd::call<ops::add::functional>(ae, bc, 1.0));
  const Tensor we = opd::call<ops::where::functional>(opd::call<ops::lt::functional>(be, xc), be, opd::call<ops::div::functional>(xc, be));
  expect_same(lazy::to_cpu(w), we, "fused without transcendental functions");
  expect_same(lazy::to_cpu(m), opd::call<ops::lt::functional>(be, xc), "a Bool value of the group, live");
  // A Bool mask in * (promoted to 1 or 0, as eager) and a broadcast view
  // (expand) fused too, bitwise.
  auto masked = [](const Tensor& x, const Tensor& bias) {
    const Tensor mask = opd::call<ops::gt_scalar::functional>(x, 0.0);
    const Tensor wide = opd::call<ops::expand>(bias, std::vector<int64_t>{33, 70}, false);
    return opd::call<ops::add::functional>(opd::call<ops::mul::functional>(x, mask), wide, 1.0);
  };
  const lazy::Counters before = lazy::counters();
  Tensor r = masked(lazy::to_lazy(xc), lazy::to_lazy(bc));
  expect_same(lazy::to_cpu(r), masked(xc, bc), "mask and broadcast");
  EXPECT_EQ(lazy::counters().fused_nodes - before.fused_nodes, 3u) << "gt, mul and add in one loop";
}

// Operands broadcast in any way ([n, 1] beside [n, m], [1, m], [b, 1, c]) are
// gathered per block; casts between float and the real dtypes convert on
// load or store (or through the dtype in a register): all bitwise eager's.
TEST_F(Lazy, GeneralBroadcastsAndCastsRunFusedAndEqualEager) {
  const Tensor xc = randn({33, 70}, 60), rc = randn({1, 70}, 61), yc = randn({4, 5, 6}, 62), zc = randn({4, 1, 6}, 63);
  auto to = [](const Tensor& t, opd::ScalarType d) {
    return opd::call<ops::to_copy>(t, d, std::nullopt, std::nullopt, std::nullopt, false, std::nullopt);
  };
  // x - sum(x, 1, keepdim) scaled by a row, then relu: the column and the row gathered.
  auto centred = [](const Tensor& x, const Tensor& row) {
    const Tensor col = opd::call<ops::sum_dim>(x, std::vector<int64_t>{1}, true, std::nullopt);
    const Tensor d = opd::call<ops::sub::functional>(x, col, 1.0);
    return opd::call<ops::relu>(opd::call<ops::mul::functional>(d, row));
  };
  lazy::Counters before = lazy::counters();
  expect_same(lazy::to_cpu(centred(lazy::to_lazy(xc), lazy::to_lazy(rc))), centred(xc, rc), "[n, 1] and [1, m]");
  EXPECT_EQ(lazy::counters().fused_nodes - before.fused_nodes, 3u) << "sub, mul and relu in one loop";
  // Rows of 2,500: a block within one row reads a column as its scalar (c1,
  // a second operand only), a block across rows gathers it; c2 is a first
  // operand and where's, so always gathered.
  const Tensor wc = randn({3, 2500}, 64), c1 = randn({3, 1}, 65), c2 = randn({3, 1}, 66);
  auto rows = [](const Tensor& x, const Tensor& a, const Tensor& b) {
    const Tensor d = opd::call<ops::mul::functional>(opd::call<ops::sub::functional>(x, a, 2.0), a);
    const Tensor q = opd::call<ops::div::functional>(b, d);
    return opd::call<ops::where::functional>(opd::call<ops::gt::functional>(q, a), b, q);
  };
  before = lazy::counters();
  expect_same(lazy::to_cpu(rows(lazy::to_lazy(wc), lazy::to_lazy(c1), lazy::to_lazy(c2))), rows(wc, c1, c2), "columns");
  EXPECT_EQ(lazy::counters().fused_nodes - before.fused_nodes, 5u);
  // An outer sum [4, 1, 6] + [4, 5, 6] and a strided operand (a transpose's result).
  auto outer = [](const Tensor& y, const Tensor& z) {
    const Tensor zt = opd::call<ops::transpose>(opd::call<ops::neg::functional>(z), 0, 2);  // [6, 1, 4]
    const Tensor back = opd::call<ops::transpose>(zt, 0, 2);                              // [4, 1, 6], strided
    return opd::call<ops::mul::functional>(opd::call<ops::add::functional>(y, back, 1.0), y);
  };
  before = lazy::counters();
  expect_same(lazy::to_cpu(outer(lazy::to_lazy(yc), lazy::to_lazy(zc))), outer(yc, zc), "[b, 1, c] strided");
  EXPECT_EQ(lazy::counters().fused_nodes - before.fused_nodes, 2u) << "add and mul in one loop";

  // Casts: a mask to float, a Long input to float, a round trip through
  // Long (truncation), and results stored as Half and Double.
  const Tensor ic = to(opd::call<ops::mul_scalar::functional>(xc, 100.0), opd::ScalarType::Long);
  auto casts = [&](const Tensor& x, const Tensor& i) {
    const Tensor mask = to(opd::call<ops::gt_scalar::functional>(x, 0.0), opd::ScalarType::Float);
    const Tensor idx = to(i, opd::ScalarType::Float);
    const Tensor trunc = to(to(opd::call<ops::mul_scalar::functional>(x, 7.0), opd::ScalarType::Long), opd::ScalarType::Float);
    const Tensor v = opd::call<ops::add::functional>(opd::call<ops::mul::functional>(mask, idx), trunc, 1.0);
    return std::vector<Tensor>{to(v, opd::ScalarType::Half), to(v, opd::ScalarType::Double), v};
  };
  before = lazy::counters();
  const std::vector<Tensor> lazy_casts = casts(lazy::to_lazy(xc), lazy::to_lazy(ic));
  const std::vector<Tensor> eager_casts = casts(xc, ic);
  lazy::sync(lazy_casts);
  for (std::size_t k = 0; k < lazy_casts.size(); ++k) {
    const Tensor got = lazy::to_cpu(lazy_casts[k]);
    ASSERT_EQ(got.dtype(), eager_casts[k].dtype()) << k;
    ASSERT_EQ(got.sizes().vec(), eager_casts[k].sizes().vec()) << k;
    EXPECT_EQ(std::memcmp(got.data_ptr(), eager_casts[k].data_ptr(), static_cast<std::size_t>(got.numel()) * got.itemsize()), 0)
        << "cast result " << k;
  }
  // Of the ten operators (gt, the mask's cast, the Long input's cast, mul 7,
  // two casts, mul, add, the Half and Double casts) nine run fused: groups
  // are formed greedily in post-order and never merged, so one cast starts a
  // group of its own that is closed before its reader joins another, and a
  // group of one runs as its operator.
  EXPECT_EQ(lazy::counters().fused_nodes - before.fused_nodes, 9u);
  // A cast that is not between float and a real dtype is a step: Half to Double.
  const Tensor hc = to(xc, opd::ScalarType::Half);
  before = lazy::counters();
  const Tensor hd = to(opd::call<ops::abs::functional>(to(lazy::to_lazy(hc), opd::ScalarType::Double)), opd::ScalarType::Float);
  expect_same(lazy::to_cpu(hd), to(opd::call<ops::abs::functional>(to(hc, opd::ScalarType::Double)), opd::ScalarType::Float), "half to double");
}

// A group over 2^20 elements runs on several threads (runs of blocks, each
// with its own registers): the same bits as on one thread and as eager.
TEST_F(Lazy, LargeFusedGroupsSplitAcrossThreadsAndEqualEager) {
  const Tensor xc = randn({1024, 1024}, 70), col = randn({1024, 1}, 71), row = randn({1024}, 72);
  auto program = [](const Tensor& x, const Tensor& c, const Tensor& r) {
    const Tensor d = opd::call<ops::mul::functional>(opd::call<ops::sub::functional>(x, c, 1.0), r);
    const Tensor m = opd::call<ops::gt_scalar::functional>(d, 0.5);
    const Tensor h = opd::call<ops::to_copy>(opd::call<ops::where::functional>(m, d, x), opd::ScalarType::Half,
                                             std::nullopt, std::nullopt, std::nullopt, false, std::nullopt);
    return std::vector<Tensor>{opd::call<ops::relu>(d), h};
  };
  const int threads = opd::kernels::get_num_threads();
  const std::vector<Tensor> eager = program(xc, col, row);
  for (const int n : {1, 2}) {
    opd::kernels::set_num_threads(n);
    const lazy::Counters before = lazy::counters();
    const std::vector<Tensor> got = program(lazy::to_lazy(xc), lazy::to_lazy(col), lazy::to_lazy(row));
    lazy::sync(got);
    EXPECT_EQ(lazy::counters().fused_nodes - before.fused_nodes, 6u) << n << " threads";
    for (std::size_t k = 0; k < got.size(); ++k) {
      const Tensor c = lazy::to_cpu(got[k]);
      ASSERT_EQ(c.dtype(), eager[k].dtype());
      EXPECT_EQ(std::memcmp(c.data_ptr(), eager[k].data_ptr(), static_cast<std::size_t>(c.numel()) * c.itemsize()), 0)
          << "result " << k << " on " << n << " threads";
    }
  }
  opd::kernels::set_num_threads(threads);
}

// ---- dumps and the compiler hook -------------------------------------------------

TEST_F(Lazy, DumpsNameOperatorsAttributesAndShapes) {
  Tensor x = lazy::to_lazy(randn({2, 3}, 13));
  Tensor y = opd::call<ops::add_scalar::functional>(opd::call<ops::mul::functional>(x, x), 2.0, 1.0);
  const std::string text = lazy::dump_graph(std::vector<Tensor>{y});
  EXPECT_NE(text.find("aten::mul.Tensor(%0, %0)"), std::string::npos) << text;
  EXPECT_NE(text.find("aten::add.Scalar(%1, other=2.0, alpha=1.0)"), std::string::npos) << text;
  EXPECT_NE(text.find("Float[2, 3]"), std::string::npos) << text;
  const std::string dot = lazy::dump_dot(std::vector<Tensor>{y});
  EXPECT_EQ(dot.rfind("digraph lazy {", 0), 0u) << dot;
  EXPECT_NE(dot.find("n0 -> n1"), std::string::npos) << dot;
}

TEST_F(Lazy, ABackendCompilerIsCalledOnceperGraphStructure) {
  int compiled = 0;
  auto old = lazy::set_compiler([&](const lazy::Graph& g) {
    ++compiled;
    return lazy::compile_cpu_plan(g);
  });
  const Tensor xc = randn({4, 4}, 14);
  for (int i = 0; i < 3; ++i) (void)lazy::to_cpu(step(lazy::to_lazy(xc), lazy::to_lazy(xc)));
  EXPECT_EQ(compiled, 1);
  lazy::set_compiler(old);
}

// A backend author's view of a node: OpNode<Op> reads a traced node with the
// types of Op's schema (operands by name, attributes typed, lists viewed).
TEST_F(Lazy, TypedNodesReadOperandsAndAttributesWithTheSchemasTypes) {
  using lazy::OpNode;
  const Tensor a = lazy::make_lazy(randn({2, 3}, 40)), b = lazy::make_lazy(randn({2, 3}, 41));
  const Tensor w = lazy::make_lazy(randn({4, 3}, 42));
  const Tensor sum = opd::call<ops::add::functional>(a, b, 2.5);
  const Tensor reduced = opd::call<ops::sum_dim>(sum, std::vector<int64_t>{1, 0}, true, opd::ScalarType::Double);
  const Tensor g = opd::call<ops::gelu::functional>(a, "tanh");
  const Tensor joined = opd::call<ops::cat>(std::vector<Tensor>{a, b, a}, 1);
  const Tensor with_bias = opd::call<ops::linear>(a, w, std::optional<Tensor>(lazy::make_lazy(randn({4}, 43))));
  const Tensor without_bias = opd::call<ops::linear>(a, w, std::nullopt);
  const lazy::Node& add_node = *lazy::lazy_impl(sum)->node();

  // Another operator's node, or data, is not matched.
  EXPECT_FALSE(OpNode<ops::mul::functional>::match(add_node));
  EXPECT_FALSE(OpNode<ops::add::functional>::match(*lazy::lazy_impl(a)->node()));

  auto add = OpNode<ops::add::functional>::match(add_node);
  ASSERT_TRUE(add);
  const lazy::Operand& self = add->get<"self">();
  EXPECT_EQ(self.node, lazy::lazy_impl(a)->node());
  EXPECT_EQ(add->get<"other">().node, lazy::lazy_impl(b)->node());
  static_assert(std::is_same_v<decltype(add->get<"alpha">()), opd::Scalar>);
  EXPECT_EQ(add->get<"alpha">().to<double>(), 2.5);
  const auto [alpha] = add->attributes();  // the one non-tensor argument
  EXPECT_EQ(alpha.to<double>(), 2.5);
  EXPECT_EQ(add->str(), "aten::add.Tensor(alpha=2.5)");
  // The compile-time hash is the tracer's: the registry's schema text is the declared one.
  EXPECT_EQ(OpNode<ops::add::functional>::schema_hash, lazy::schema_hash(add_node.op->schema().text()));
  EXPECT_NE(OpNode<ops::add::functional>::schema_hash, OpNode<ops::mul::functional>::schema_hash);

  auto s = OpNode<ops::sum_dim>::match(*lazy::lazy_impl(reduced)->node());
  ASSERT_TRUE(s);
  static_assert(std::is_same_v<decltype(s->get<"dim">()), std::optional<std::span<const int64_t>>>);
  ASSERT_TRUE(s->get<"dim">());
  EXPECT_EQ(std::vector<int64_t>(s->get<"dim">()->begin(), s->get<"dim">()->end()), (std::vector<int64_t>{1, 0}));
  EXPECT_TRUE(s->get<"keepdim">());
  EXPECT_EQ(s->get<"dtype">(), std::optional<opd::ScalarType>(opd::ScalarType::Double));
  const auto [dim, keepdim, dtype] = s->attributes();
  EXPECT_EQ(dim->size(), 2u);
  EXPECT_TRUE(keepdim);
  EXPECT_EQ(*dtype, opd::ScalarType::Double);

  auto ge = OpNode<ops::gelu::functional>::match(*lazy::lazy_impl(g)->node());
  ASSERT_TRUE(ge);
  static_assert(std::is_same_v<decltype(ge->get<"approximate">()), std::string_view>);
  EXPECT_EQ(ge->get<"approximate">(), "tanh");

  auto c = OpNode<ops::cat>::match(*lazy::lazy_impl(joined)->node());
  ASSERT_TRUE(c);
  const std::span<const lazy::Operand> tensors = c->get<"tensors">();
  ASSERT_EQ(tensors.size(), 3u);
  EXPECT_EQ(tensors[2].node, lazy::lazy_impl(a)->node());
  EXPECT_EQ(tensors[1].node, lazy::lazy_impl(b)->node());
  EXPECT_EQ(c->get<"dim">(), 1);

  // Tensor?: the operand, or null for None (the operands after it shift).
  auto l1 = OpNode<ops::linear>::match(*lazy::lazy_impl(with_bias)->node());
  auto l0 = OpNode<ops::linear>::match(*lazy::lazy_impl(without_bias)->node());
  ASSERT_TRUE(l1 && l0);
  ASSERT_NE(l1->get<"bias">(), nullptr);
  EXPECT_EQ(l1->get<"bias">()->node->output(0).sizes, (std::vector<int64_t>{4}));
  EXPECT_EQ(l0->get<"bias">(), nullptr);
  EXPECT_EQ(l0->get<"weight">().node, lazy::lazy_impl(w)->node());
  static_assert(std::tuple_size_v<decltype(l0->attributes())> == 0);
}

// A device author's compiler built from typed lowering rules: graphs of add,
// mul and relu on same-shape float tensors run on its own loops (a program of
// steps over node positions, so that the cached executable serves any graph
// of this structure); any other graph goes to the CPU plan.
struct ToyProgram {
  std::vector<std::function<void(std::vector<std::vector<float>>&)>> steps;
  std::uint32_t at = 0;  // the position of the node being lowered
  std::uint32_t pos(const lazy::Operand& o) const { return o.node->order; }
};

class ToyExecutable final : public lazy::Executable {
 public:
  explicit ToyExecutable(ToyProgram p) : program_(std::move(p)) {}
  std::vector<Tensor> run(const lazy::Graph& g) override {
    std::vector<std::vector<float>> values(g.nodes.size());
    for (const std::uint32_t i : g.inputs) values[i] = opd::to_vector<float>(g.nodes[i]->data[0]);
    for (const auto& step : program_.steps) step(values);
    std::vector<Tensor> out;
    for (const std::uint32_t r : g.roots) {
      Tensor t = opd::empty(g.nodes[r]->output(0).sizes, opd::ScalarType::Float);
      std::copy(values[r].begin(), values[r].end(), t.data_ptr<float>());
      out.push_back(t);
    }
    return out;
  }
  std::string describe() const override { return "toy program"; }

 private:
  ToyProgram program_;
};

TEST_F(Lazy, ABackendLowersNodesThroughTypedRules) {
  lazy::Lowerings<ToyProgram> rules;
  rules.on<ops::add::functional>([](lazy::OpNode<ops::add::functional> n, ToyProgram& p) {
    const std::uint32_t a = p.pos(n.get<"self">()), b = p.pos(n.get<"other">()), at = p.at;
    const auto alpha = static_cast<float>(n.get<"alpha">().to<double>());
    p.steps.push_back([=](std::vector<std::vector<float>>& v) {
      v[at].resize(v[a].size());
      for (std::size_t i = 0; i < v[a].size(); ++i) v[at][i] = v[a][i] + alpha * v[b][i];
    });
  });
  rules.on<ops::mul::functional>([](lazy::OpNode<ops::mul::functional> n, ToyProgram& p) {
    const std::uint32_t a = p.pos(n.get<"self">()), b = p.pos(n.get<"other">()), at = p.at;
    p.steps.push_back([=](std::vector<std::vector<float>>& v) {
      v[at].resize(v[a].size());
      for (std::size_t i = 0; i < v[a].size(); ++i) v[at][i] = v[a][i] * v[b][i];
    });
  });
  rules.on<ops::relu>([](lazy::OpNode<ops::relu> n, ToyProgram& p) {
    const std::uint32_t a = p.pos(n.get<"self">()), at = p.at;
    p.steps.push_back([=](std::vector<std::vector<float>>& v) {
      v[at].resize(v[a].size());
      for (std::size_t i = 0; i < v[a].size(); ++i) v[at][i] = v[a][i] > 0.f ? v[a][i] : 0.f;
    });
  });
  int toy = 0, planned = 0;
  auto old = lazy::set_compiler([&](const lazy::Graph& g) -> std::unique_ptr<lazy::Executable> {
    ToyProgram p;
    for (const lazy::Node* n : g.nodes) {
      if (n->is_data()) continue;
      for (const lazy::Operand& o : n->operands)
        if (o.node->output(o.index).sizes != n->output(0).sizes) {
          ++planned;
          return lazy::compile_cpu_plan(g);  // broadcasting: not this device's
        }
      p.at = n->order;
      if (!rules.lower(*n, p)) {
        ++planned;
        return lazy::compile_cpu_plan(g);
      }
    }
    ++toy;
    return std::make_unique<ToyExecutable>(std::move(p));
  });
  const Tensor xc = randn({3, 5}, 50), yc = randn({3, 5}, 51);
  auto program = [](const Tensor& x, const Tensor& y) {
    return opd::call<ops::relu>(opd::call<ops::add::functional>(opd::call<ops::mul::functional>(x, y), x, 2.0));
  };
  for (int i = 0; i < 2; ++i) expect_same(lazy::to_cpu(program(lazy::to_lazy(xc), lazy::to_lazy(yc))), program(xc, yc), "toy");
  EXPECT_EQ(toy, 1);  // compiled once, then cached
  EXPECT_EQ(planned, 0);
  // An operator without a rule: the graph goes to the CPU plan.
  const Tensor e = opd::call<ops::exp::functional>(program(lazy::to_lazy(xc), lazy::to_lazy(yc)));
  expect_same(lazy::to_cpu(e), opd::call<ops::exp::functional>(program(xc, yc)), "exp through the CPU plan");
  EXPECT_EQ(planned, 1);
  EXPECT_FALSE(rules.has(*lazy::lazy_impl(lazy::make_lazy(xc))->node()));  // data
  lazy::set_compiler(old);
}

TEST_F(Lazy, FactoriesOnTheLazyDeviceAreTracedAndAnotherDeviceRunsEagerly) {
  Tensor z;
  {
    opd::FunctionalizeGuard on(opd::FunctionalizeMode::remove_views);
    z = opd::call<ops::zeros>(std::vector<int64_t>{2, 3}, std::nullopt, std::nullopt, lazy::kLazyDevice, std::nullopt);
  }
  EXPECT_TRUE(lazy::is_lazy(z));
  EXPECT_TRUE(lazy::lazy_impl(z)->pending());  // a node with no operand, its device an attribute
  Tensor y = opd::call<ops::add_scalar::functional>(z, 3.0, 1.0);
  EXPECT_NE(lazy::dump_graph().find("aten::zeros(size=[2, 3]"), std::string::npos) << lazy::dump_graph();
  EXPECT_EQ(opd::to_vector<float>(lazy::to_cpu(y)), std::vector<float>(6, 3.0f));
  // The same factory on the CPU, from the lazy kernel's point of view: not lazy.
  const auto eager_before = lazy::counters().eager_ops;
  opd::Stack s{opd::IValue(std::vector<int64_t>{2}), opd::IValue(), opd::IValue(), opd::IValue(opd::Device::cpu()),
               opd::IValue()};
  opd::redispatch_boxed(opd::Dispatcher::singleton().find_schema_or_throw("aten::zeros"),
                        opd::DispatchKeySet(lazy::kLazyKey), s);
  EXPECT_TRUE(s.back().to_tensor().device().is_cpu());
  EXPECT_EQ(lazy::counters().eager_ops, eager_before + 1);
}

TEST_F(Lazy, LinearLayersMatchEager) {
  const Tensor xc = randn({8, 16}, 15), w = randn({12, 16}, 16), b = randn({12}, 17);
  const Tensor expected = opd::call<ops::relu>(opd::call<ops::linear>(xc, w, b));
  Tensor out = opd::call<ops::relu>(opd::call<ops::linear>(lazy::to_lazy(xc), lazy::to_lazy(w), lazy::to_lazy(b)));
  expect_same(lazy::to_cpu(out), expected, "relu(linear)");
}

// Elementwise |a - b| <= 1e-5 (1 + |b|): the same product summed in another order.
void expect_close(const Tensor& lazy_result, const Tensor& eager, const std::string& what) {
  ASSERT_EQ(lazy_result.sizes().vec(), eager.sizes().vec()) << what;
  const std::vector<float> a = opd::to_vector<float>(lazy_result), b = opd::to_vector<float>(eager);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i) bad += std::abs(a[i] - b[i]) > 1e-5f * (1.f + std::abs(b[i])) ? 1 : 0;
  EXPECT_EQ(bad, 0u) << what;
}

// A linear layer whose weight is a graph input the graph never writes (an
// inference weight) multiplies by the plan's transposed copy of it, made once
// per weight value: the same bits on every run, eager's within rounding, and
// a new copy as soon as the weight is another value (new tensor, in-place
// update), never a stale one.
TEST_F(Lazy, InferenceWeightsAreKeptTransposedWhileUnchanged) {
  Tensor wc = randn({256, 256}, 40), bc = randn({256}, 41);
  const Tensor xc = randn({32, 256}, 42);
  Tensor w = lazy::to_lazy(wc), b = lazy::to_lazy(bc);
  auto step = [&](const Tensor& weight) {
    return lazy::to_cpu(opd::call<ops::relu>(opd::call<ops::linear>(lazy::to_lazy(xc), weight, b)));
  };
  const Tensor expected = opd::call<ops::relu>(opd::call<ops::linear>(xc, wc, bc));
  const Tensor first = step(w);
  expect_close(first, expected, "first run");
  // One copy where the product runs on oneDNN (sgemm_paths.hpp), none without it.
  const std::uint64_t per_value = lazy::counters().weights_transposed;
  EXPECT_LE(per_value, 1u);
  if (per_value == 0) std::printf("note: built without oneDNN, linear reads its weight as eager does\n");
  for (int i = 0; i < 2; ++i) expect_same(step(w), first, "run " + std::to_string(i + 2) + ", as the first");
  EXPECT_EQ(lazy::counters().weights_transposed, per_value);
  EXPECT_EQ(lazy::counters().uncached_compile, 1u);

  // Another weight tensor: the same graph (a cache hit), a new copy.
  const Tensor wc2 = randn({256, 256}, 43);
  const Tensor second = step(lazy::to_lazy(wc2));
  expect_close(second, opd::call<ops::relu>(opd::call<ops::linear>(xc, wc2, bc)), "another weight");
  EXPECT_EQ(lazy::counters().weights_transposed, 2 * per_value);
  EXPECT_EQ(lazy::counters().uncached_compile, 1u);

  // The same lazy tensor written in place (and synced): a new value, a new copy.
  opd::call<ops::mul_scalar::inplace>(w, 0.5);
  lazy::sync();
  opd::call<ops::mul_scalar::inplace>(wc, 0.5);
  expect_close(step(w), opd::call<ops::relu>(opd::call<ops::linear>(xc, wc, bc)), "after w *= 0.5");
  EXPECT_EQ(lazy::counters().weights_transposed, 3 * per_value);

  // A weight the graph writes (an update) is read as eager reads it: bitwise.
  const std::uint64_t copies = lazy::counters().weights_transposed;
  Tensor y = opd::call<ops::linear>(lazy::to_lazy(xc), w, b);
  opd::call<ops::sub::inplace>(w, w, 1e-3);
  const Tensor ye = opd::call<ops::linear>(xc, wc, bc);
  opd::call<ops::sub::inplace>(wc, wc, 1e-3);
  lazy::sync();
  expect_same(lazy::to_cpu(y), ye, "linear of a weight the graph updates");
  expect_same(lazy::to_cpu(w), wc, "the update");
  EXPECT_EQ(lazy::counters().weights_transposed, copies);
}

}  // namespace

namespace {

// A backend marks an operator eager: it runs at once, its result a graph input.
// (aten::neg: no other test here uses it; the mark lasts for the process.)
TEST_F(Lazy, AnOperatorMarkedEagerRunsAtOnce) {
  const Tensor xc = randn({3, 3}, 18);
  Tensor x = lazy::make_lazy(xc);
  const auto traced = lazy::counters().nodes_traced;
  (void)opd::call<ops::neg::functional>(x);
  EXPECT_EQ(lazy::counters().nodes_traced, traced + 1);
  lazy::mark_eager("aten::neg");
  EXPECT_TRUE(lazy::is_marked_eager("aten::neg"));
  const auto eager = lazy::counters().eager_ops;
  Tensor y = opd::call<ops::neg::functional>(x);
  EXPECT_EQ(lazy::counters().eager_ops, eager + 1);
  EXPECT_FALSE(lazy::lazy_impl(y)->pending());
  expect_same(lazy::to_cpu(y), opd::call<ops::neg::functional>(xc), "neg run eagerly");
}

// ---- autograd on lazy tensors ------------------------------------------------------

class LazyAutograd : public Lazy {
 protected:
  static void SetUpTestSuite() {
    Lazy::SetUpTestSuite();
    (void)autograd();
  }
  static opd::RegistrationSet& autograd() {
    static opd::RegistrationSet a = opd_test::register_all_formulas();
    return a;
  }
};

// optimizer.zero_grad(set_to_none=True): the library has no setter for .grad yet.
void set_grad_none(const Tensor& t) {
  opd::autograd::AutogradMeta* m = opd::autograd::autograd_meta(t);
  ASSERT_NE(m, nullptr);
  std::lock_guard<std::mutex> lock(m->mutex);
  m->grad = Tensor();
}

struct MlpParams {
  std::vector<Tensor> w, b;
};

// One training step: forward (linear, relu, linear, relu, linear, mean of the
// squares), backward, SGD in place under no_grad, grads set to None.
Tensor train_step(MlpParams& p, const Tensor& x, double lr) {
  Tensor h = x;
  for (std::size_t i = 0; i < p.w.size(); ++i) {
    h = opd::call<ops::linear>(h, p.w[i], p.b[i]);
    if (i + 1 < p.w.size()) h = opd::call<ops::relu>(h);
  }
  Tensor loss = opd::call<ops::mean>(opd::call<ops::mul::functional>(h, h), std::nullopt);
  loss.backward();
  opd::NoGradGuard no_grad;
  for (std::vector<Tensor>* list : {&p.w, &p.b})
    for (Tensor& t : *list) {
      const Tensor g = t.grad();
      EXPECT_TRUE(g.defined());
      EXPECT_EQ(lazy::is_lazy(g), lazy::is_lazy(t));
      opd::call<ops::sub::inplace>(t, g, lr);  // p -= lr * grad
      set_grad_none(t);
    }
  return loss;
}

MlpParams mlp_params(bool on_lazy) {
  MlpParams p;
  const std::vector<std::pair<int64_t, int64_t>> shapes = {{32, 16}, {32, 32}, {4, 32}};
  unsigned seed = 40;
  for (const auto& [out, in] : shapes) {
    Tensor w = opd::call<ops::mul_scalar::functional>(randn({out, in}, seed++), 0.25);
    Tensor b = opd::call<ops::mul_scalar::functional>(randn({out}, seed++), 0.1);
    if (on_lazy) {
      w = lazy::to_lazy(w);
      b = lazy::to_lazy(b);
    }
    w.set_requires_grad(true);
    b.set_requires_grad(true);
    p.w.push_back(w);
    p.b.push_back(b);
  }
  return p;
}

TEST_F(LazyAutograd, MlpTrainingStepsEqualEagerOneGraphPerStepCachedAfterTheFirst) {
  MlpParams eager = mlp_params(false), on_lazy = mlp_params(true);
  for (int step = 0; step < 3; ++step) {
    const Tensor x = randn({8, 16}, 100 + static_cast<unsigned>(step));
    const Tensor eager_loss = train_step(eager, x, 0.1);
    const lazy::Counters before = lazy::counters();
    Tensor loss = train_step(on_lazy, lazy::to_lazy(x), 0.1);
    EXPECT_EQ(lazy::counters().syncs, before.syncs) << "step " << step << " ran something before sync";
    lazy::sync();  // the whole step: forward, backward and the update
    const lazy::Counters c = lazy::counters();
    EXPECT_EQ(c.syncs, before.syncs + 1) << "step " << step;
    EXPECT_EQ(c.eager_ops, 0u) << "step " << step;
    EXPECT_EQ(c.uncached_compile, 1u) << "step " << step;
    EXPECT_EQ(c.cached_compile, static_cast<std::uint64_t>(step)) << "step " << step;
    EXPECT_NE(lazy::dump_graph().find(" 0 nodes,"), std::string::npos) << "pending after sync: " << lazy::dump_graph();
    const float le = opd::to_vector<float>(eager_loss)[0], ll = opd::to_vector<float>(lazy::to_cpu(loss))[0];
    EXPECT_NEAR(ll, le, 1e-5 * std::fabs(le)) << "loss of step " << step;
  }
  for (std::size_t i = 0; i < eager.w.size(); ++i)
    for (const auto& [e, l] : {std::pair{eager.w[i], on_lazy.w[i]}, std::pair{eager.b[i], on_lazy.b[i]}}) {
      EXPECT_TRUE(l.is_leaf() && l.requires_grad()) << "parameter " << i << " stays a leaf through in-place updates";
      expect_same(lazy::to_cpu(l), e, "parameter " + std::to_string(i));  // bitwise
    }
}

// A leaf used twice (x * x + x): the engine sums its gradients; a second
// backward accumulates into .grad; zero_ on .grad (in place, functionalized)
// starts again from zero. All as eager.
TEST_F(LazyAutograd, GradientOfALeafUsedTwiceAccumulatesZeroedGradsRestart) {
  const Tensor xc = randn({3, 4}, 7);
  std::vector<Tensor> grads[2];
  for (int on_lazy = 0; on_lazy < 2; ++on_lazy) {
    Tensor x = on_lazy ? lazy::to_lazy(xc) : opd::call<ops::clone>(xc, std::nullopt);
    x.set_requires_grad(true);
    auto loss = [&] {
      Tensor y = opd::call<ops::add::functional>(opd::call<ops::mul::functional>(x, x), x, 1.0);
      return opd::call<ops::sum>(y, std::nullopt);
    };
    loss().backward();
    grads[on_lazy].push_back(x.grad());
    loss().backward();  // accumulates
    grads[on_lazy].push_back(x.grad());
    {
      opd::NoGradGuard no_grad;
      Tensor g = x.grad();
      opd::call<ops::zero_>(g);
    }
    grads[on_lazy].push_back(x.grad());
    loss().backward();
    grads[on_lazy].push_back(x.grad());
  }
  EXPECT_TRUE(lazy::is_lazy(grads[1][0]));
  for (std::size_t i = 0; i < grads[0].size(); ++i)
    expect_same(lazy::to_cpu(grads[1][i]), grads[0][i], "grad " + std::to_string(i));
  // 2x + 1 the first time: the two uses of x summed
  const std::vector<float> x = opd::to_vector<float>(xc), g = opd::to_vector<float>(grads[0][0]);
  for (std::size_t k = 0; k < x.size(); ++k) EXPECT_FLOAT_EQ(g[k], 2 * x[k] + 1) << k;
}

// Views and in-place operations under autograd: a view's gradient, in-place
// on a non-leaf (its history rebased), and eager mode's refusals with the
// tensors unchanged.
TEST_F(LazyAutograd, ViewsAndInPlaceUnderAutogradBehaveAsEager) {
  const Tensor xc = randn({3, 4}, 8), cc = randn({4, 3}, 9);
  std::vector<Tensor> results[2];
  for (int on_lazy = 0; on_lazy < 2; ++on_lazy) {
    auto make = [&](const Tensor& t) { return on_lazy ? lazy::to_lazy(t) : opd::call<ops::clone>(t, std::nullopt); };
    Tensor x = make(xc);
    const Tensor c = make(cc);
    x.set_requires_grad(true);
    Tensor v = opd::call<ops::t>(x);                       // a view of a leaf
    Tensor z = opd::call<ops::mul::functional>(v, c);      // a non-leaf
    opd::call<ops::mul_scalar::inplace>(z, 3.0);           // in place: z's history is rebased
    EXPECT_EQ(z.grad_fn()->name(), "MulBackward1") << on_lazy;
    opd::call<ops::add::inplace>(z, c, 1.0);
    opd::call<ops::sum>(opd::call<ops::mul::functional>(z, z), std::nullopt).backward();
    results[on_lazy] = {x.grad(), z};
    // refused: in place on a leaf that requires grad, and on a view of it recording grad (eagerly
    // PyTorch's "a view of a leaf Variable ..."; lazily functionalization's NotImplementedError)
    EXPECT_THROW(opd::call<ops::mul_scalar::inplace>(x, 2.0), opd::Error) << on_lazy;
    try {
      opd::call<ops::mul_scalar::inplace>(v, 2.0);
      ADD_FAILURE() << "in-place on a view with grad did not throw";
    } catch (const opd::Error& e) {
      EXPECT_NE(std::string(e.what()).find("aten::mul_.Scalar"), std::string::npos) << e.what();
    }
    results[on_lazy].push_back(x);
  }
  for (std::size_t i = 0; i < results[0].size(); ++i)
    expect_same(lazy::to_cpu(results[1][i]), results[0][i], "result " + std::to_string(i));
}

}  // namespace
