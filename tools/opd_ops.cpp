// opd-ops: the operators a program gets from opdispatch, with the dispatch
// keys that have kernels for them.
//
//   opd-ops [--markdown] [--schema] [plugin.so ...]
//
// Registers the library's built-in kernels (opd::kernels::register_cpu()),
// loads each plugin given (a shared library that registers kernels while it
// loads, docs/building.md), and writes one line per declared operator,
// sorted by name:
//   <ns::name.overload><TAB><keys with a kernel, comma-separated>
// With --schema a third column holds the schema; with --markdown the lines
// are the rows of a table (docs/kernels.md's operator table is this output,
// checked by the test docs.kernels_operator_table). What is missing from a
// model: compare its operators with this list (opd-schema checks a schema's
// text).
#include <dispatch/dispatcher.hpp>
#include <kernels/ops.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view usage_text =
    "usage: opd-ops [--markdown] [--schema] [--help] [plugin.so ...]\n"
    "\n"
    "Lists every operator the library declares once its built-in kernels are\n"
    "registered (and each plugin given is loaded), one line each, sorted:\n"
    "  <ns::name.overload><TAB><dispatch keys with a kernel>\n"
    "\n"
    "  --schema    add the schema as a third column\n"
    "  --markdown  write the lines as the rows of a markdown table\n"
    "  --help      show this text\n"
    "\n"
    "Exit status: 0, or 1 when a plugin cannot be loaded, 2 on bad usage.\n";

}  // namespace

int main(int argc, char** argv) {
  bool markdown = false, with_schema = false;
  std::vector<const char*> plugins;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--markdown") markdown = true;
    else if (a == "--schema") with_schema = true;
    else if (a == "--help") return std::fputs(usage_text.data(), stdout) < 0 ? 2 : 0;
    else if (a.starts_with("--")) return std::fputs(usage_text.data(), stderr), 2;
    else plugins.push_back(argv[i]);
  }

  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  for (const char* p : plugins) {
    if (dlopen(p, RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      std::fprintf(stderr, "opd-ops: cannot load %s: %s\n", p, dlerror());
      return 1;
    }
  }

  opd::Dispatcher& d = opd::Dispatcher::singleton();
  std::vector<std::string> names = d.operator_names();
  std::sort(names.begin(), names.end());
  if (markdown) std::fputs(with_schema ? "| operator | kernels | schema |\n|---|---|---|\n" : "| operator | kernels |\n|---|---|\n", stdout);
  for (const std::string& name : names) {
    const opd::OperatorEntry* e = d.find_schema(name);
    if (e == nullptr) continue;  // kernels without a schema: Dispatcher::dangling_registrations()
    const std::string keys = e->registered_keys();
    if (markdown) {
      std::printf("| `%s` | %s |", name.c_str(), keys.c_str());
      if (with_schema) std::printf(" `%s` |", std::string(e->schema().text()).c_str());
    } else {
      std::printf("%s\t%s", name.c_str(), keys.c_str());
      if (with_schema) std::printf("\t%s", std::string(e->schema().text()).c_str());
    }
    std::fputc('\n', stdout);
  }
  return 0;
}
