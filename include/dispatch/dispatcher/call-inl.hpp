#pragma once
// Out-of-line part of call.hpp.
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/schema/printer.hpp"

#include <memory>
#include <vector>

namespace opd::detail {

OPD_FUNC OperatorEntry& declare_compiled(const schema::runtime_schema::parts& parts) {
  Dispatcher& d = Dispatcher::singleton();
  std::string name = schema::operator_name(parts.ns, parts.name, parts.overload);
  (void)d.declare(schema::runtime_schema::copy_of(parts), /*permanent=*/true);  // a permanent declaration has nothing to undo
  return d.entry(name);
}

// The pool behind pooled_stack: the stacks of this thread, and how many are lent.
struct stack_pool {
  std::vector<std::unique_ptr<Stack>> stacks;
  std::size_t depth = 0;
  static stack_pool& of_this_thread() {
    thread_local stack_pool pool;
    return pool;
  }
};
OPD_FUNC Stack& borrow_pooled_stack() {
  stack_pool& pool = stack_pool::of_this_thread();
  if (pool.depth == pool.stacks.size()) [[unlikely]]
    pool.stacks.push_back(std::make_unique<Stack>());
  return *pool.stacks[pool.depth++];
}
OPD_FUNC void return_pooled_stack(Stack& s) noexcept {
  s.clear();
  --stack_pool::of_this_thread().depth;
}

OPD_FUNC void throw_missing_result(const OperatorEntry& e, std::size_t stack_size, std::size_t index) {
  throw TypeError(str_cat(e.name(), ": the boxed kernel left ", stack_size, " values on the stack; expected result ", index));
}

}  // namespace opd::detail
