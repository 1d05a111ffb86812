#pragma once
// Out-of-line part of ops.hpp (compiled in src/kernels/register_cpu.cpp):
// register_cpu(), one line per family.
#include "kernels/ops.hpp"
// Families registered here whose headers ops.hpp does not include (so that
// adding one recompiles only this file): include them by name.
#include "kernels/ops_complex.hpp"
#include "kernels/ops_conv_backward.hpp"
#include "kernels/ops_core_aten.hpp"
#include "kernels/ops_distance.hpp"
#include "kernels/ops_embedding_bag.hpp"
#include "kernels/ops_fft.hpp"
#include "kernels/ops_grid_sampler.hpp"
#include "kernels/ops_loss.hpp"
#include "kernels/ops_pooling3d.hpp"

namespace opd::kernels {

OPD_FUNC RegistrationSet register_cpu() {
  RegistrationSet set;
  set.add(register_arithmetic());
  set.add(register_views());
  set.add(register_view_copies());
  set.add(register_scatter());
  set.add(register_reductions());
  set.add(register_linalg());
  set.add(register_nn());
  set.add(register_conv());
  set.add(register_batch_norm());
  set.add(register_pooling());
  set.add(register_shape());
  set.add(register_pointwise());
  set.add(register_padding());
  set.add(register_random());
  set.add(register_scalars());
  set.add(register_upsample());
  set.add(register_core_aten());
  set.add(register_pooling3d());
  set.add(register_distance());
  set.add(register_grid_sampler());
  set.add(register_conv_backward());
  set.add(register_embedding_bag());
  set.add(register_fft());
  set.add(register_complex());
  set.add(register_composites());
  set.add(register_transformer());
  set.add(register_loss());
  return set;
}

}  // namespace opd::kernels
