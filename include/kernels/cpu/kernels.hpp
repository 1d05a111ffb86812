// All CPU kernels: the elementwise engine and the ops built on it.
// See docs/kernels.md.
#pragma once

#include "kernels/cpu/binary_ops.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/tensor_meta.hpp"
#include "kernels/cpu/type_promotion.hpp"
