// libopdispatch: autograd's run-time parts (the graph, saved values, the
// engine, views written in place, the ADInplaceOrView and fallback kernels) and its thread-local grad mode.
#include "autograd/autograd_meta-inl.hpp"
#include "autograd/engine-inl.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/layers-inl.hpp"
#include "autograd/node-inl.hpp"
#include "autograd/saved_variable-inl.hpp"
#include "autograd/view_history-inl.hpp"

namespace opd::autograd::detail {
constinit thread_local bool tls_grad_enabled = true;
}  // namespace opd::autograd::detail
#include "autograd/c_entry_points-inl.hpp"
#include "autograd/gradcheck-inl.hpp"
