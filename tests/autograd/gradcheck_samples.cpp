// The definition of opd_test::samples() (gradcheck_samples.hpp), compiled once for the autograd tests.
#define OPD_TEST_DEFINE_SAMPLES
#include "gradcheck_samples.hpp"
