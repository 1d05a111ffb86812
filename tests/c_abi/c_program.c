/* A C11 client of the C ABI: compiled as C (-std=c11 -Wall -Wextra -Werror),
 * linked to the C++ shared library that exports the shims
 * (c_test_exports.cpp). Every check prints what failed; exit status 0 = all passed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ctest_init.h"
#include "opd_ctest.h"

static int failures = 0;
#define CHECK(cond)                                                                     \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, __LINE__, \
              #cond, opd_last_error());                                                 \
      ++failures;                                                                       \
    }                                                                                   \
  } while (0)

static opd_tensor make(const float* values, int64_t n) {
  opd_tensor t = NULL;
  void* p = NULL;
  CHECK(opd_tensor_empty(1, &n, OPD_DTYPE_FLOAT32, OPD_DEVICE_CPU, -1, &t) == OPD_OK);
  CHECK(opd_tensor_data_ptr(t, &p) == OPD_OK);
  memcpy(p, values, (size_t)n * sizeof(float));
  return t;
}
static float at(opd_tensor t, int64_t i) {
  void* p = NULL;
  CHECK(opd_tensor_data_ptr(t, &p) == OPD_OK);
  return ((const float*)p)[i];
}

/* One boxed call with tensor arguments and one tensor result (NULL on failure). */
static opd_tensor call_tensors(const char* op, opd_tensor a, opd_tensor b) {
  opd_any args[2];
  memset(args, 0, sizeof args);
  args[0].tag = OPD_TAG_TENSOR;
  args[0].v.tensor = a;
  args[1].tag = OPD_TAG_TENSOR;
  args[1].v.tensor = b;
  opd_any result;
  int64_t n = 0;
  if (opd_call_boxed(op, args, b != NULL ? 2 : 1, &result, 1, &n) != OPD_OK || n != 1 || result.tag != OPD_TAG_TENSOR)
    return NULL;
  return result.v.tensor;
}

/* Autograd from C: requires_grad, a recorded graph, backward, .grad, grad(),
 * and PyTorch's errors as statuses. */
static void autograd_checks(void) {
  CHECK(opd_ctest_init_autograd() == OPD_OK);
  const float xs[] = {1, 2, 3};
  opd_tensor x = make(xs, 3);
  int32_t flag = -1;
  CHECK(opd_tensor_requires_grad(x, &flag) == OPD_OK && flag == 0);
  CHECK(opd_tensor_set_requires_grad(x, 1) == OPD_OK);
  CHECK(opd_tensor_requires_grad(x, &flag) == OPD_OK && flag == 1);
  CHECK(opd_tensor_is_leaf(x, &flag) == OPD_OK && flag == 1);

  /* loss = sum(x * x) */
  opd_tensor sq = call_tensors("aten::mul.Tensor", x, x);
  CHECK(sq != NULL);
  opd_tensor loss = call_tensors("aten::sum", sq, NULL);
  CHECK(loss != NULL);
  if (sq == NULL || loss == NULL) return;
  const char* name = NULL;
  CHECK(opd_tensor_grad_fn_name(sq, &name) == OPD_OK && name != NULL && strcmp(name, "MulBackward0") == 0);
  CHECK(opd_tensor_grad_fn_name(x, &name) == OPD_OK && name == NULL);
  CHECK(opd_tensor_is_leaf(loss, &flag) == OPD_OK && flag == 0);
  /* A non-leaf's flag cannot be turned off (PyTorch's error). */
  CHECK(opd_tensor_set_requires_grad(loss, 0) == OPD_ERR_OPERATOR);
  CHECK(strstr(opd_last_error(), "only change requires_grad flags of leaf variables") != NULL);

  /* d loss / dx = 2x, through grad() (the graph kept), then backward(). */
  opd_tensor dx = NULL;
  CHECK(opd_autograd_grad(&loss, 1, &x, 1, NULL, 1, 0, 0, &dx) == OPD_OK && dx != NULL);
  if (dx != NULL) CHECK(at(dx, 0) == 2.0f && at(dx, 1) == 4.0f && at(dx, 2) == 6.0f);
  opd_tensor_release(dx);
  opd_tensor g = NULL;
  CHECK(opd_tensor_grad(x, &g) == OPD_OK && g == NULL); /* grad() leaves .grad alone */
  CHECK(opd_backward(loss, NULL, -1, 0) == OPD_OK);
  CHECK(opd_tensor_grad(x, &g) == OPD_OK && g != NULL);
  if (g != NULL) CHECK(at(g, 0) == 2.0f && at(g, 1) == 4.0f && at(g, 2) == 6.0f);
  /* The graph is freed: a second backward is PyTorch's error, as a status. */
  CHECK(opd_backward(loss, NULL, -1, 0) == OPD_ERR_OPERATOR);
  CHECK(strstr(opd_last_error(), "backward through the graph a second time") != NULL);

  /* .grad = None, and a .grad of another size refused. */
  CHECK(opd_tensor_set_grad(x, NULL) == OPD_OK);
  opd_tensor none = x;
  CHECK(opd_tensor_grad(x, &none) == OPD_OK && none == NULL);
  CHECK(opd_tensor_set_grad(x, loss) == OPD_ERR_OPERATOR);
  CHECK(strstr(opd_last_error(), "different size") != NULL);
  if (g != NULL) CHECK(opd_tensor_set_grad(x, g) == OPD_OK);
  opd_tensor_release(g);

  /* Without grad mode no graph is recorded; detach has no history. */
  int32_t previous = -1;
  CHECK(opd_set_grad_enabled(0, &previous) == OPD_OK && previous == 1);
  opd_tensor untracked = call_tensors("aten::mul.Tensor", x, x);
  CHECK(untracked != NULL && opd_tensor_requires_grad(untracked, &flag) == OPD_OK && flag == 0);
  opd_tensor_release(untracked);
  CHECK(opd_set_grad_enabled(1, NULL) == OPD_OK);
  opd_tensor d = NULL;
  CHECK(opd_tensor_detach(sq, &d) == OPD_OK && d != NULL);
  CHECK(opd_tensor_requires_grad(d, &flag) == OPD_OK && flag == 0);
  opd_tensor_release(d);

  /* Bad input: statuses, never a crash. */
  int64_t sizes = 2;
  opd_tensor ints = NULL;
  CHECK(opd_tensor_empty(1, &sizes, OPD_DTYPE_INT64, OPD_DEVICE_CPU, -1, &ints) == OPD_OK);
  CHECK(opd_tensor_set_requires_grad(ints, 1) == OPD_ERR_OPERATOR);
  CHECK(strstr(opd_last_error(), "floating point and complex dtype") != NULL);
  CHECK(opd_tensor_requires_grad(NULL, &flag) == OPD_ERR_INVALID_ARGUMENT);
  CHECK(opd_backward(NULL, NULL, -1, 0) == OPD_ERR_INVALID_ARGUMENT);
  CHECK(opd_autograd_grad(&loss, 1, &x, -1, NULL, 0, 0, 0, &dx) == OPD_ERR_INVALID_ARGUMENT);
  opd_tensor_release(ints);
  opd_tensor_release(loss);
  opd_tensor_release(sq);
  opd_tensor_release(x);
}

int main(void) {
  CHECK(opd_ctest_init() == OPD_OK);
  /* A caller checks the signatures it was built against. */
  CHECK(opd_ctest_scale_fingerprint == opd_ctest_scale_FINGERPRINT);
  CHECK(opd_add_out_fingerprint == opd_add_out_FINGERPRINT);

  const float xs[] = {1, 2, 3};
  opd_tensor x = make(xs, 3);

  /* Optional scalars: omitted, then given. */
  opd_tensor r = NULL;
  CHECK(opd_ctest_scale(x, NULL, NULL, &r) == OPD_OK);
  CHECK(at(r, 2) == 3.0f);
  opd_tensor_release(r);
  const double factor = 10;
  const int64_t offset = -1;
  CHECK(opd_ctest_scale(x, &factor, &offset, &r) == OPD_OK);
  CHECK(at(r, 0) == 9.0f && at(r, 2) == 29.0f);
  opd_tensor_release(r);

  /* A list of optional tensors. */
  const opd_tensor* list[] = {&x, NULL, &x};
  int64_t present = 0;
  double total = 0;
  CHECK(opd_ctest_count_present(list, 3, &present, &total) == OPD_OK);
  CHECK(present == 2 && total == 12.0);

  /* An int list, an optional int list given and omitted, a bool. */
  const int64_t dims[] = {4, 5};
  const int64_t extra[] = {100};
  const int64_t* extra_p = extra;
  int64_t sum = 0;
  CHECK(opd_ctest_sum_ints(dims, 2, NULL, 0, 0, &sum) == OPD_OK && sum == 9);
  CHECK(opd_ctest_sum_ints(dims, 2, &extra_p, 1, 1, &sum) == OPD_OK && sum == -109);

  /* An optional tensor, a string, several returns. */
  opd_tensor same = NULL;
  int64_t len = 0, numel = 0;
  CHECK(opd_ctest_describe(x, &x, "abcd", &same, &len, &numel) == OPD_OK);
  CHECK(len == 4 && numel == 3 && same != NULL);
  opd_tensor_release(same);

  /* A tensor list return. */
  opd_value parts = NULL;
  int64_t n = 0;
  CHECK(opd_ctest_unbind(x, &parts) == OPD_OK);
  CHECK(opd_value_size(parts, &n) == OPD_OK && n == 3);
  opd_any e;
  CHECK(opd_value_get(parts, 1, &e) == OPD_OK && e.tag == OPD_TAG_TENSOR && at(e.v.tensor, 0) == 2.0f);
  opd_tensor_release(e.v.tensor);
  opd_value_release(parts);

  /* out= and in-place. */
  const float zeros[] = {0, 0, 0};
  opd_tensor out = make(zeros, 3);
  opd_scalar alpha;
  memset(&alpha, 0, sizeof alpha);
  alpha.tag = OPD_SCALAR_DOUBLE;
  alpha.v.d = 0.5;
  CHECK(opd_add_out(out, x, x, alpha) == OPD_OK);
  CHECK(at(out, 2) == 4.5f);
  opd_scalar seven;
  memset(&seven, 0, sizeof seven);
  seven.tag = OPD_SCALAR_INT;
  seven.v.i = 7;
  CHECK(opd_ctest_fill_(out, seven) == OPD_OK);
  CHECK(at(out, 0) == 7.0f && at(out, 2) == 7.0f);

  /* An operator that fails: a status and a message, no crash. */
  CHECK(opd_ctest_fail(x, &r) == OPD_ERR_OPERATOR);
  CHECK(strstr(opd_last_error(), "always fails") != NULL);
  CHECK(opd_ctest_scale(NULL, NULL, NULL, &r) == OPD_ERR_INVALID_ARGUMENT);
  CHECK(opd_ctest_sum_ints(dims, -3, NULL, 0, 0, &sum) == OPD_ERR_INVALID_ARGUMENT);

  /* The boxed entry: defaults filled (alpha=1), an int where a float is wanted. */
  opd_any args[3];
  memset(args, 0, sizeof args);
  args[0].tag = OPD_TAG_TENSOR;
  args[0].v.tensor = x;
  args[1].tag = OPD_TAG_INT;
  args[1].v.i = 3; /* factor: float? */
  opd_any results[2];
  int64_t nresults = 0;
  CHECK(opd_call_boxed("ctest::scale", args, 2, results, 2, &nresults) == OPD_OK);
  CHECK(nresults == 1 && results[0].tag == OPD_TAG_TENSOR);
  if (nresults == 1 && results[0].tag == OPD_TAG_TENSOR) {
    CHECK(fabsf(at(results[0].v.tensor, 1) - 6.0f) < 1e-6f);
    opd_tensor_release(results[0].v.tensor);
  }
  CHECK(opd_call_boxed("ctest::no_such_op", args, 1, results, 2, &nresults) != OPD_OK);

  opd_tensor_release(out);
  opd_tensor_release(x);
  autograd_checks();
  if (failures == 0) printf("c_program: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
