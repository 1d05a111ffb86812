// libopdispatch: nll_loss_forward / nll_loss2d_forward and their backward
// (kernels/cpu/loss.hpp) and opd::kernels::register_loss() (kernels/ops_loss.hpp), in one source.
#include "kernels/cpu/loss-inl.hpp"
#include "kernels/ops_loss-inl.hpp"
