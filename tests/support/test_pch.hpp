#pragma once
// The headers the test files that use kernel families include, compiled once
// per build into a precompiled header that those test programs reuse
// (OPD_TEST_PCH, clang only: tests/CMakeLists.txt). Tests still include what
// they use: the builds without it compile each file on its own.
#include <gtest/gtest.h>

#include "dispatch/dispatcher.hpp"
#include "kernels/ops.hpp"
