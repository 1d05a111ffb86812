// A plugin (a MODULE library the host dlopens): it declares one operator and
// registers its CPU kernel while loading, as an out-of-tree backend does, and
// reports what it sees of the process-wide state. Built twice, as plugin A
// and plugin B (OPD_PLUGIN_NAME / OPD_OTHER_PLUGIN_NAME), in every
// configuration of tests/plugins/CMakeLists.txt.
#include <dispatch/core/allocator.hpp>
#include <dispatch/core/dimname.hpp>
#include <dispatch/dispatcher.hpp>
#include <string>

#include "plugin.hpp"

#define OPD_STR2(x) #x
#define OPD_STR(x) OPD_STR2(x)

namespace {

// plugin_a::scale multiplies by 10, plugin_b::scale by 100.
struct scale : opd::op<OPD_STR(OPD_PLUGIN_NAME) "::scale(Tensor self) -> Tensor"> {};

opd::Tensor scale_cpu(const opd::Tensor& self) {
  std::vector<float> v = opd::to_vector<float>(self);
  for (float& x : v) x *= OPD_PLUGIN_FACTOR;
  return opd::from_vector<float>(v, self.sizes());
}

// Registered while the plugin loads; unregistered when it is unloaded.
const opd::RegistrationHandle registration = opd::register_kernel<scale, &scale_cpu>(opd::DispatchKey::CPU);

}  // namespace

extern "C" __attribute__((visibility("default"))) opd_plugin_view OPD_PLUGIN_VIEW_FN() {
  opd_plugin_view v{};
  v.dispatcher = &opd::Dispatcher::singleton();
  v.cpu_allocator = opd::try_get_allocator(opd::DeviceType::CPU);
  v.private_allocator = opd::try_get_allocator(opd::DeviceType::PrivateUse1);
  v.dimname = opd::Dimname::intern("plugin_dim").name.data();
  v.excluded_keys = opd::tls_local_dispatch_key_set().excluded.raw_bits();
  v.sees_host_operator = opd::Dispatcher::singleton().find_schema("host::negate") != nullptr;
  const std::string other = OPD_STR(OPD_OTHER_PLUGIN_NAME) "::scale";
  v.sees_other_plugin = opd::Dispatcher::singleton().find_schema(other) != nullptr;
  v.other_plugin_result = -1.f;
  if (v.sees_other_plugin) {
    opd::Stack stack{opd::from_vector<float>({2.f})};
    opd::call_boxed(other, stack);
    v.other_plugin_result = opd::to_vector<float>(stack.at(0).to_tensor()).at(0);
  }
  return v;
}
