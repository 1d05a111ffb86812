// All CPU kernels, as their users see them: the ops' meta and impl
// functions and the engine's non-template entry points, declared (defined
// in libopdispatch, src/kernels/, or inline under OPD_HEADER_ONLY). The
// loops themselves (loops-inl.hpp, convert-inl.hpp) are for kernel sources.
// See docs/kernels.md.
#pragma once

#include "kernels/cpu/binary_ops.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/normalization.hpp"
#include "kernels/cpu/linalg.hpp"
#include "kernels/cpu/nn.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/reduce.hpp"
#include "kernels/cpu/reduce_simd.hpp"
#include "kernels/cpu/shape.hpp"
#include "kernels/cpu/pointwise.hpp"
#include "kernels/cpu/tensor_meta.hpp"
#include "kernels/cpu/type_promotion.hpp"
