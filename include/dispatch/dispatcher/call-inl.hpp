#pragma once
// Out-of-line part of call.hpp.
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/schema/printer.hpp"

namespace opd::detail {

OPD_FUNC OperatorEntry& declare_compiled(std::string_view text, std::string_view ns, std::string_view name,
                                         std::string_view overload) {
  Dispatcher& d = Dispatcher::singleton();
  (void)d.declare(text, /*permanent=*/true);  // a permanent declaration has nothing to undo
  return d.entry(schema::operator_name(ns, name, overload));
}

}  // namespace opd::detail
