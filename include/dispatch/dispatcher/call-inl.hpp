#pragma once
// Out-of-line part of call.hpp.
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/schema/printer.hpp"

namespace opd::detail {

OPD_FUNC OperatorEntry& declare_compiled(schema::runtime_schema s) {
  Dispatcher& d = Dispatcher::singleton();
  std::string name = schema::operator_name(s->ns, s->name, s->overload);
  (void)d.declare(std::move(s), /*permanent=*/true);  // a permanent declaration has nothing to undo
  return d.entry(name);
}

}  // namespace opd::detail
