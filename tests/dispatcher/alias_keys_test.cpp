// Alias keys and c10's precedence when computing a dispatch table entry:
// a direct kernel for the runtime key, then CompositeExplicitAutograd (backend
// keys), then CompositeImplicitAutograd (backend and autograd keys, but an
// autograd key skips it when its backend has a kernel of its own), then the
// Autograd alias (autograd keys), then a backend fallback, then an error
// (backends) or a fallthrough (every other layer).
#include <string>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::Tensor;

// One operator per test (entries are never destroyed).
#define OPD_ALIAS_OP(NAME) \
  struct NAME : opd::op<"t_alias_" #NAME "::fn(Tensor self) -> str"> {}

// A kernel that answers with its name.
template <class Op>
opd::RegistrationHandle answer(DispatchKey key, std::string name) {
  return opd::register_kernel<Op>(key, [name](const Tensor&) -> std::string { return name; });
}

template <class Op>
std::string call_with(DispatchKeySet ks) {
  return opd::call<Op>(tensor_with_keys(ks));
}
template <class Op>
std::string call_boxed_with(DispatchKeySet ks) {
  opd::Stack s{tensor_with_keys(ks)};
  opd::call_boxed<Op>(s);
  return s.at(0).to<std::string>();
}

const DispatchKeySet kCPU{DispatchKey::CPU};
const DispatchKeySet kCPUGrad{DispatchKey::CPU, DispatchKey::AutogradCPU};
const DispatchKeySet kCUDA{DispatchKey::CUDA};
const DispatchKeySet kCUDAGrad{DispatchKey::CUDA, DispatchKey::AutogradCUDA};
const DispatchKeySet kPU1{DispatchKey::PrivateUse1};
const DispatchKeySet kPU1Grad{DispatchKey::PrivateUse1, DispatchKey::AutogradPrivateUse1};

OPD_ALIAS_OP(cia_only);
TEST(DispatcherAliasKeys, CompositeImplicitAutogradServesBackendAndAutogradKeys) {
  auto h = answer<cia_only>(DispatchKey::CompositeImplicitAutograd, "cia");
  for (DispatchKeySet ks : {kCPU, kCPUGrad, kCUDA, kCUDAGrad, kPU1, kPU1Grad}) {
    EXPECT_EQ(call_with<cia_only>(ks), "cia") << ks;
    EXPECT_EQ(call_boxed_with<cia_only>(ks), "cia") << ks;
  }
  // The autograd keys got the composite kernel itself (not a fallthrough to it).
  const auto& e = opd::entry_for<cia_only>();
  EXPECT_FALSE(falls_through(e, DispatchKey::AutogradCPU));
  EXPECT_EQ(&e.lookup(DispatchKey::AutogradCPU), &e.lookup(DispatchKey::CPU));
  // AutogradOther takes it too.
  EXPECT_EQ(call_with<cia_only>(DispatchKeySet{DispatchKey::AutogradOther, DispatchKey::CPU}), "cia");
}

OPD_ALIAS_OP(cea_only);
TEST(DispatcherAliasKeys, CompositeExplicitAutogradServesBackendsOnly) {
  auto h = answer<cea_only>(DispatchKey::CompositeExplicitAutograd, "cea");
  for (DispatchKeySet ks : {kCPU, kCUDA, kPU1}) EXPECT_EQ(call_with<cea_only>(ks), "cea") << ks;
  // Autograd keys do not take it: they fall through to the backend, which does.
  const auto& e = opd::entry_for<cea_only>();
  EXPECT_TRUE(falls_through(e, DispatchKey::AutogradCPU));
  EXPECT_FALSE(e.non_fallthrough_keys().has(DispatchKey::AutogradCPU));
  EXPECT_EQ(call_with<cea_only>(kCPUGrad), "cea");
  EXPECT_EQ(call_boxed_with<cea_only>(kCUDAGrad), "cea");
}

OPD_ALIAS_OP(direct_beats_cea);
TEST(DispatcherAliasKeys, BackendKernelOverridesCompositeExplicitAutograd) {
  auto h1 = answer<direct_beats_cea>(DispatchKey::CompositeExplicitAutograd, "cea");
  auto h2 = answer<direct_beats_cea>(DispatchKey::CPU, "cpu");
  EXPECT_EQ(call_with<direct_beats_cea>(kCPU), "cpu");
  EXPECT_EQ(call_with<direct_beats_cea>(kCPUGrad), "cpu");
  EXPECT_EQ(call_with<direct_beats_cea>(kCUDA), "cea");
  EXPECT_EQ(call_with<direct_beats_cea>(kCUDAGrad), "cea");
}

OPD_ALIAS_OP(direct_beats_cia);
TEST(DispatcherAliasKeys, BackendKernelOverridesCompositeImplicitAutograd) {
  auto h1 = answer<direct_beats_cia>(DispatchKey::CompositeImplicitAutograd, "cia");
  auto h2 = answer<direct_beats_cia>(DispatchKey::CPU, "cpu");
  EXPECT_EQ(call_with<direct_beats_cia>(kCPU), "cpu");
  // c10's rule: AutogradCPU does not take the composite kernel while CPU has
  // its own (autograd would otherwise bypass the CPU kernel): it falls through.
  EXPECT_EQ(call_with<direct_beats_cia>(kCPUGrad), "cpu");
  EXPECT_TRUE(falls_through(opd::entry_for<direct_beats_cia>(), DispatchKey::AutogradCPU));
  // Other backends keep the composite kernel, autograd included.
  EXPECT_EQ(call_with<direct_beats_cia>(kCUDA), "cia");
  EXPECT_EQ(call_with<direct_beats_cia>(kCUDAGrad), "cia");
}

OPD_ALIAS_OP(pu1_kernel_and_cia);
TEST(DispatcherAliasKeys, AutogradKeyOfABackendWithItsOwnKernelIsNotFilledFromComposite) {
  // PyTorch's "AutogradXLA is not filled" with XLA played by PrivateUse1.
  auto h1 = answer<pu1_kernel_and_cia>(DispatchKey::CompositeImplicitAutograd, "cia");
  auto h2 = answer<pu1_kernel_and_cia>(DispatchKey::PrivateUse1, "pu1");
  const auto& e = opd::entry_for<pu1_kernel_and_cia>();
  EXPECT_TRUE(falls_through(e, DispatchKey::AutogradPrivateUse1));
  EXPECT_EQ(call_with<pu1_kernel_and_cia>(kPU1Grad), "pu1");
  EXPECT_EQ(call_with<pu1_kernel_and_cia>(kPU1), "pu1");
  // Deregistering the backend kernel gives the autograd key the composite back.
  h2.release();
  EXPECT_FALSE(falls_through(e, DispatchKey::AutogradPrivateUse1));
  EXPECT_EQ(call_with<pu1_kernel_and_cia>(kPU1Grad), "cia");
}

OPD_ALIAS_OP(cea_blocks_cia_for_autograd);
TEST(DispatcherAliasKeys, CompositeExplicitTakesPrecedenceOverImplicitEverywhere) {
  auto h1 = answer<cea_blocks_cia_for_autograd>(DispatchKey::CompositeImplicitAutograd, "cia");
  auto h2 = answer<cea_blocks_cia_for_autograd>(DispatchKey::CompositeExplicitAutograd, "cea");
  EXPECT_EQ(call_with<cea_blocks_cia_for_autograd>(kCPU), "cea");
  // With a CompositeExplicitAutograd kernel the autograd keys skip the
  // implicit one too, and fall through to the backend key (which runs cea).
  EXPECT_EQ(call_with<cea_blocks_cia_for_autograd>(kCPUGrad), "cea");
  EXPECT_EQ(call_with<cea_blocks_cia_for_autograd>(kPU1Grad), "cea");
}

OPD_ALIAS_OP(autogradcpu_beats_cia);
TEST(DispatcherAliasKeys, AutogradBackendKernelOverridesCompositeImplicitAutograd) {
  auto h1 = answer<autogradcpu_beats_cia>(DispatchKey::CompositeImplicitAutograd, "cia");
  auto h2 = answer<autogradcpu_beats_cia>(DispatchKey::AutogradCPU, "autogradcpu");
  EXPECT_EQ(call_with<autogradcpu_beats_cia>(kCPUGrad), "autogradcpu");
  EXPECT_EQ(call_with<autogradcpu_beats_cia>(kCPU), "cia");
  EXPECT_EQ(call_with<autogradcpu_beats_cia>(kCUDAGrad), "cia");
}

OPD_ALIAS_OP(cia_and_autograd);
TEST(DispatcherAliasKeys, CompositeImplicitTakesPrecedenceOverTheAutogradAlias) {
  auto h1 = answer<cia_and_autograd>(DispatchKey::CompositeImplicitAutograd, "cia");
  auto h2 = answer<cia_and_autograd>(DispatchKey::Autograd, "autograd");
  EXPECT_EQ(call_with<cia_and_autograd>(kCPUGrad), "cia");
  EXPECT_EQ(call_with<cia_and_autograd>(kCPU), "cia");
}

OPD_ALIAS_OP(autograd_precedence);
TEST(DispatcherAliasKeys, AutogradPrecedence) {
  auto cpu = answer<autograd_precedence>(DispatchKey::CPU, "cpu");
  EXPECT_EQ(call_with<autograd_precedence>(kCPU), "cpu");
  // No autograd kernel: AutogradCPU is a fallthrough.
  EXPECT_EQ(call_with<autograd_precedence>(kCPUGrad), "cpu");
  // The Autograd alias fills every per-backend autograd key...
  auto ag = answer<autograd_precedence>(DispatchKey::Autograd, "autograd");
  EXPECT_EQ(call_with<autograd_precedence>(kCPUGrad), "autograd");
  EXPECT_EQ(call_with<autograd_precedence>(DispatchKeySet{DispatchKey::Meta, DispatchKey::AutogradMeta}), "autograd");
  EXPECT_EQ(call_with<autograd_precedence>(DispatchKeySet{DispatchKey::AutogradOther, DispatchKey::CPU}), "autograd");
  // ...and a kernel for a per-backend key beats the alias.
  auto agcpu = answer<autograd_precedence>(DispatchKey::AutogradCPU, "autogradcpu");
  EXPECT_EQ(call_with<autograd_precedence>(kCPUGrad), "autogradcpu");
  EXPECT_EQ(call_with<autograd_precedence>(kCUDAGrad), "autograd");
  // Backends never take the Autograd alias.
  EXPECT_EQ(call_with<autograd_precedence>(kCPU), "cpu");
  EXPECT_THROW(call_with<autograd_precedence>(kCUDA), opd::NotImplementedError);
  // Removing the per-backend kernel restores the alias for that key.
  agcpu.release();
  EXPECT_EQ(call_with<autograd_precedence>(kCPUGrad), "autograd");
}

OPD_ALIAS_OP(autograd_with_catchall);
TEST(DispatcherAliasKeys, AutogradKernelWithCompositeKernelBelow) {
  // PyTorch: an autograd kernel with a catch-all kernel (now
  // CompositeExplicitAutograd-like for the backend). The autograd kernel runs
  // for tensors that carry an autograd key, and redispatches to the catch-all.
  std::string log;
  // (It steps below itself with an exclude guard, as PyTorch's autograd kernels do.)
  auto ag = opd::register_kernel<autograd_with_catchall>(DispatchKey::Autograd, [&](const Tensor& t) -> std::string {
    log += "autograd>";
    opd::ExcludeDispatchKeyGuard below(opd::runtime_keys_for_alias(DispatchKey::Autograd));
    return opd::call<autograd_with_catchall>(t);
  });
  auto cea = answer<autograd_with_catchall>(DispatchKey::CompositeExplicitAutograd, "catchall");
  EXPECT_EQ(call_with<autograd_with_catchall>(kCPUGrad), "catchall");
  EXPECT_EQ(log, "autograd>");
  log.clear();
  EXPECT_EQ(call_with<autograd_with_catchall>(kCPU), "catchall");
  EXPECT_EQ(log, "");
}

OPD_ALIAS_OP(autograd_other_composite);
TEST(DispatcherAliasKeys, AutogradOtherTakesCompositeEvenWhenABackendHasAKernel) {
  // PyTorch: registering CompositeImplicitAutograd plus a CPU kernel, a call
  // whose highest key is AutogradOther runs the composite kernel.
  auto h1 = answer<autograd_other_composite>(DispatchKey::CompositeImplicitAutograd, "cia");
  auto h2 = answer<autograd_other_composite>(DispatchKey::CPU, "cpu");
  EXPECT_EQ(call_with<autograd_other_composite>(DispatchKeySet{DispatchKey::AutogradOther, DispatchKey::CPU}), "cia");
  EXPECT_EQ(call_with<autograd_other_composite>(kCPU), "cpu");
}

OPD_ALIAS_OP(alias_vs_fallback);
TEST(DispatcherAliasKeys, AliasKernelsBeatBackendFallbacks) {
  // c10: CatchAll (now CompositeImplicitAutograd) has a higher precedence than
  // a backend fallback; a direct kernel too.
  auto fb = opd::register_fallback(DispatchKey::PrivateUse2, [](const opd::OperatorEntry&, DispatchKeySet, opd::Stack* s) {
    s->back() = opd::IValue(std::string("fallback"));
  });
  EXPECT_EQ(call_with<alias_vs_fallback>(DispatchKeySet(DispatchKey::PrivateUse2)), "fallback");
  {
    auto cia = answer<alias_vs_fallback>(DispatchKey::CompositeImplicitAutograd, "cia");
    EXPECT_EQ(call_with<alias_vs_fallback>(DispatchKeySet(DispatchKey::PrivateUse2)), "cia");
  }
  {
    auto cea = answer<alias_vs_fallback>(DispatchKey::CompositeExplicitAutograd, "cea");
    EXPECT_EQ(call_with<alias_vs_fallback>(DispatchKeySet(DispatchKey::PrivateUse2)), "cea");
  }
  {
    auto pu2 = answer<alias_vs_fallback>(DispatchKey::PrivateUse2, "pu2");
    EXPECT_EQ(call_with<alias_vs_fallback>(DispatchKeySet(DispatchKey::PrivateUse2)), "pu2");
  }
  EXPECT_EQ(call_boxed_with<alias_vs_fallback>(DispatchKeySet(DispatchKey::PrivateUse2)), "fallback");
}

OPD_ALIAS_OP(alias_release);
TEST(DispatcherAliasKeys, ReleasingAnAliasKernelRecomputesEveryKeyItServed) {
  auto cpu = answer<alias_release>(DispatchKey::CPU, "cpu");
  auto cia = answer<alias_release>(DispatchKey::CompositeImplicitAutograd, "cia");
  EXPECT_EQ(call_with<alias_release>(kCUDA), "cia");
  EXPECT_EQ(call_with<alias_release>(kPU1Grad), "cia");
  cia.release();
  EXPECT_THROW(call_with<alias_release>(kCUDA), opd::NotImplementedError);
  EXPECT_THROW(call_with<alias_release>(kPU1Grad), opd::NotImplementedError);
  EXPECT_EQ(call_with<alias_release>(kCPU), "cpu");
  EXPECT_EQ(call_with<alias_release>(kCPUGrad), "cpu");
}

OPD_ALIAS_OP(multi_backend);
TEST(DispatcherAliasKeys, MultipleBackendKernelsAndMultipleTensors) {
  auto cpu = answer<multi_backend>(DispatchKey::CPU, "cpu");
  auto cuda = answer<multi_backend>(DispatchKey::CUDA, "cuda");
  auto ag = answer<multi_backend>(DispatchKey::Autograd, "autograd");
  EXPECT_EQ(call_with<multi_backend>(kCPU), "cpu");
  EXPECT_EQ(call_with<multi_backend>(kCUDA), "cuda");
  EXPECT_EQ(call_with<multi_backend>(kCPUGrad), "autograd");
  EXPECT_EQ(call_with<multi_backend>(kCUDAGrad), "autograd");
  expect_throw_containing<opd::NotImplementedError>([] { call_with<multi_backend>(kPU1); },
                                                    {"t_alias_multi_backend::fn", "PrivateUse1"});
}

}  // namespace
