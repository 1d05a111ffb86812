#pragma once
// Out-of-line part of call.hpp.
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/schema/printer.hpp"


namespace opd::detail {

OPD_FUNC OperatorEntry& declare_compiled(const schema::runtime_schema::parts& parts,
                                        const schema::precomputed_alias_facts& facts) {
  return Dispatcher::singleton().declare_permanent(schema::runtime_schema::copy_of(parts), facts);
}

OPD_FUNC void throw_missing_result(const OperatorEntry& e, std::size_t stack_size, std::size_t index) {
  throw TypeError(str_cat(e.name(), ": the boxed kernel left ", stack_size, " values on the stack; expected result ", index));
}

OPD_FUNC void rethrow_naming_operator(const OperatorEntry& e) {
  try {
    throw;
  } catch (Error& error) {
    error.name_operator(e.name());
    throw;
  }
}

}  // namespace opd::detail
