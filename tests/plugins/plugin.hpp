// What the plugin test's host reads from each plugin (extern "C", by dlsym).
#pragma once
#include <cstdint>

extern "C" {
// The plugin's view of process-wide state, for the host to compare with its own.
struct opd_plugin_view {
  const void* dispatcher;         // &opd::Dispatcher::singleton()
  const void* cpu_allocator;      // opd::try_get_allocator(DeviceType::CPU)
  const void* private_allocator;  // opd::try_get_allocator(DeviceType::PrivateUse1)
  const char* dimname;            // opd::Dimname::intern("plugin_dim").name.data()
  std::uint64_t excluded_keys;    // this thread's excluded dispatch keys, raw bits
  int sees_host_operator;         // Dispatcher::find_schema("host::negate") != null
  int sees_other_plugin;          // the other plugin's operator is declared
  float other_plugin_result;      // the other plugin's operator called by name on [2]
};
using opd_plugin_view_fn = opd_plugin_view (*)();
}
