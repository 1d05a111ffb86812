// The host of the plugin test: loads two plugins with dlopen(RTLD_LOCAL) and
// checks that the process has one instance of every piece of process-wide
// state, so that each plugin's registrations are visible to the host and to
// the other plugin. tests/plugins/CMakeLists.txt builds it in each supported
// configuration (compiled and header-only; plugins with and without
// -fvisibility=hidden).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <dispatch/core/allocator.hpp>
#include <dispatch/core/dimname.hpp>
#include <dispatch/dispatcher.hpp>
#include <string>

#include "plugin.hpp"

namespace {

struct negate : opd::op<"host::negate(Tensor self) -> Tensor"> {};
opd::Tensor negate_cpu(const opd::Tensor& self) {
  std::vector<float> v = opd::to_vector<float>(self);
  for (float& x : v) x = -x;
  return opd::from_vector<float>(v, self.sizes());
}

// A do-nothing allocator for a private device: the plugins must see it.
struct private_allocator final : opd::Allocator {
  opd::DataPtr allocate(std::size_t, opd::Device d) override { return opd::DataPtr(nullptr, nullptr, nullptr, d); }
};

struct loaded_plugin {
  void* handle = nullptr;
  opd_plugin_view_fn view = nullptr;
};

loaded_plugin load(const char* path, const char* view_fn) {
  loaded_plugin p;
  p.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(p.handle, nullptr) << dlerror();
  if (p.handle != nullptr) p.view = reinterpret_cast<opd_plugin_view_fn>(dlsym(p.handle, view_fn));
  EXPECT_NE(p.view, nullptr) << view_fn;
  return p;
}

float call_by_name(const std::string& name, float x) {
  opd::Stack stack{opd::from_vector<float>({x})};
  opd::call_boxed(name, stack);
  return opd::to_vector<float>(stack.at(0).to_tensor()).at(0);
}

TEST(Plugins, EveryRegistrationIsVisibleEverywhere) {
  auto host_kernel = opd::register_kernel<negate, &negate_cpu>(opd::DispatchKey::CPU);
  private_allocator allocator;
  opd::Allocator* previous = opd::set_allocator(opd::DeviceType::PrivateUse1, &allocator);
  const opd::ExcludeDispatchKeyGuard exclude(opd::DispatchKey::Tracer);

  const loaded_plugin a = load(OPD_PLUGIN_A_PATH, "opd_plugin_a_view");
  const loaded_plugin b = load(OPD_PLUGIN_B_PATH, "opd_plugin_b_view");
  ASSERT_NE(a.view, nullptr);
  ASSERT_NE(b.view, nullptr);

  // The host reaches both plugins' operators by name.
  EXPECT_FLOAT_EQ(call_by_name("plugin_a::scale", 2.f), 20.f);
  EXPECT_FLOAT_EQ(call_by_name("plugin_b::scale", 2.f), 200.f);
  EXPECT_FLOAT_EQ(call_by_name("host::negate", 2.f), -2.f);

  for (const loaded_plugin* p : {&a, &b}) {
    const opd_plugin_view v = p->view();
    EXPECT_EQ(v.dispatcher, &opd::Dispatcher::singleton()) << "the plugin has a Dispatcher of its own";
    EXPECT_EQ(v.cpu_allocator, opd::try_get_allocator(opd::DeviceType::CPU));
    EXPECT_EQ(v.private_allocator, &allocator) << "the plugin does not see the host's allocator table";
    EXPECT_EQ(v.dimname, opd::Dimname::intern("plugin_dim").name.data()) << "interned names differ";
    EXPECT_EQ(v.excluded_keys, opd::tls_local_dispatch_key_set().excluded.raw_bits())
        << "the plugin does not see this thread's dispatch keys";
    EXPECT_TRUE(v.sees_host_operator);
    EXPECT_TRUE(v.sees_other_plugin);
  }
  // Each plugin calls the other's operator through the one registry.
  EXPECT_FLOAT_EQ(a.view().other_plugin_result, 200.f);
  EXPECT_FLOAT_EQ(b.view().other_plugin_result, 20.f);

  // An error thrown in a plugin's code is caught here as opd::Error.
  opd::Stack wrong{opd::IValue(int64_t{1})};
  EXPECT_THROW(opd::call_boxed("plugin_a::scale", wrong), opd::Error);

  opd::set_allocator(opd::DeviceType::PrivateUse1, previous);
}

}  // namespace
