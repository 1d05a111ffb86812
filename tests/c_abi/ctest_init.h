/* opd_ctest_init(): registers the test operators' CPU kernels and the
 * library's (c_test_exports.cpp). C and C++. */
#ifndef OPD_CTEST_INIT_H
#define OPD_CTEST_INIT_H
#include <dispatch/c_abi/opd_c.h>
#ifdef __cplusplus
extern "C" {
#endif
OPD_C_API int32_t opd_ctest_init(void);
/* The library's derivative formulas (opd_test::register_all_formulas()). */
OPD_C_API int32_t opd_ctest_init_autograd(void);
#ifdef __cplusplus
}
#endif
#endif
