#pragma once
// Out-of-line part of dispatch_key_set.hpp: its error path.
#include <string>

#include "dispatch/core/error.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"

namespace opd {

OPD_FUNC void DispatchKeySet::throw_not_runtime_key(DispatchKey k) {
  throw ValueError(std::string("DispatchKeySet: ") + std::string(to_string(k)) + " is not a runtime dispatch key" +
                   (is_alias_key(k) ? " (alias keys must be expanded with runtime_keys_for_alias)" : ""));
}

}  // namespace opd
