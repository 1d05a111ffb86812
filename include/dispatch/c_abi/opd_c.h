/* opdispatch's C ABI: the types every derived C entry point uses, and the
 * run-time functions around them (errors, tensor handles, values, the boxed
 * call, DLPack). Pure C (C11; also valid C++): no exception and no C++ type
 * crosses it. docs/c_abi.md is the guide.
 *
 * Conventions (the derivation in dispatch/c_abi/c_types.hpp follows them):
 *   - every function returns an int32_t status, 0 on success; opd_last_error()
 *     is the message of this thread's last failure;
 *   - a tensor is an opaque handle (opd_tensor) that the caller owns once a
 *     function hands it out, and gives back with opd_tensor_release();
 *   - bool is int32_t (C's and C++'s bool need not agree across compilers);
 *   - a Scalar is an opd_scalar: tagged, so an int64 stays exact (AOTInductor's
 *     shim passes a double, which cannot hold every int64) and a complex fits. */
#ifndef OPD_C_ABI_OPD_C_H
#define OPD_C_ABI_OPD_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define OPD_C_API
#else
#define OPD_C_API __attribute__((visibility("default")))
#endif

/* 1 where OPD_EXPORT_C (dispatch/c_abi/shim.hpp) defines each exported
 * operator as a function with C linkage (an assembly trampoline exists for
 * the target: x86-64 and AArch64 ELF); 0 elsewhere, where the symbol is a
 * constant pointer to the function. Generated headers declare the one or the
 * other after it. Define OPD_C_EXPORT_POINTERS to get pointers everywhere
 * (in the exporting library and in its callers alike). */
#if !defined(OPD_C_EXPORT_POINTERS) && defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__))
#define OPD_C_EXPORTS_FUNCTIONS 1
#else
#define OPD_C_EXPORTS_FUNCTIONS 0
#endif

/* Statuses. */
#define OPD_OK 0
#define OPD_ERR_INVALID_ARGUMENT 1 /* null handle, negative length, unknown code, wrong tag */
#define OPD_ERR_OPERATOR 2         /* the operator (or the dispatcher) failed: opd_last_error() says why */
#define OPD_ERR_OUT_OF_MEMORY 3
#define OPD_ERR_SIGNATURE 4 /* a fingerprint that does not match */

/* A tensor: an opaque handle. */
typedef struct opd_tensor_s* opd_tensor;
/* An owned value the flat C forms cannot show: a list, a string, a tuple,
 * an optional return, ... Read it with opd_value_*; release it. */
typedef struct opd_value_s* opd_value;
/* A string argument: NUL-terminated, borrowed for the call. */
typedef const char* opd_str;

/* Scalar kinds. */
#define OPD_SCALAR_INT 0
#define OPD_SCALAR_DOUBLE 1
#define OPD_SCALAR_BOOL 2
#define OPD_SCALAR_COMPLEX 3

/* A Scalar (24 bytes): the tag says which member holds the value. */
typedef struct opd_scalar {
  int32_t tag;
  int32_t reserved; /* 0 */
  union {
    int64_t i;   /* OPD_SCALAR_INT; OPD_SCALAR_BOOL (0 or 1) */
    double d;    /* OPD_SCALAR_DOUBLE */
    double c[2]; /* OPD_SCALAR_COMPLEX: real, imaginary */
  } v;
} opd_scalar;

/* A complex number (schema type `complex`). */
typedef struct opd_complex {
  double re, im;
} opd_complex;

/* Tags of a boxed value. */
#define OPD_TAG_NONE 0
#define OPD_TAG_INT 1
#define OPD_TAG_DOUBLE 2
#define OPD_TAG_BOOL 3
#define OPD_TAG_STRING 4 /* v.s: borrowed for the call */
#define OPD_TAG_TENSOR 5 /* v.tensor: borrowed for the call */
#define OPD_TAG_LIST 6   /* v.value: an opd_value holding a list, borrowed for the call */
#define OPD_TAG_DEVICE 7 /* v.device */
#define OPD_TAG_DTYPE 8  /* v.i32: a dtype code */

/* A boxed value (16 bytes), as TVM-FFI's TVMFFIAny: a tag and a payload. */
typedef struct opd_any {
  int32_t tag;
  int32_t reserved; /* 0 */
  union {
    int64_t i;      /* INT; BOOL (0 or 1) */
    double d;       /* DOUBLE */
    const char* s;  /* STRING */
    opd_tensor tensor;
    opd_value value;
    struct {
      int32_t type, index;
    } device;
    int32_t i32;    /* DTYPE */
  } v;
} opd_any;

/* dtype codes (PyTorch's ScalarType numbering). */
#define OPD_DTYPE_UINT8 0
#define OPD_DTYPE_INT8 1
#define OPD_DTYPE_INT16 2
#define OPD_DTYPE_INT32 3
#define OPD_DTYPE_INT64 4
#define OPD_DTYPE_FLOAT16 5
#define OPD_DTYPE_FLOAT32 6
#define OPD_DTYPE_FLOAT64 7
#define OPD_DTYPE_COMPLEX32 8
#define OPD_DTYPE_COMPLEX64 9
#define OPD_DTYPE_COMPLEX128 10
#define OPD_DTYPE_BOOL 11
#define OPD_DTYPE_BFLOAT16 15

/* Device type codes. */
#define OPD_DEVICE_CPU 0
#define OPD_DEVICE_CUDA 1
#define OPD_DEVICE_META 2

/* ---- errors ---------------------------------------------------------------- */
/* The message of this thread's last failed call ("" if none); valid until the
 * thread's next failing call. */
OPD_C_API const char* opd_last_error(void);

/* ---- tensors ----------------------------------------------------------------- */
typedef void (*opd_deleter)(void* data, void* context);

/* A tensor over existing memory: sizes and strides (in elements) of `ndim`
 * dimensions (strides may be NULL: contiguous), dtype and device codes. The
 * memory is not copied; `deleter(data, context)` runs when the last tensor
 * using it is gone (deleter may be NULL). */
OPD_C_API int32_t opd_tensor_from_data(void* data, int64_t ndim, const int64_t* sizes, const int64_t* strides,
                                       int32_t dtype, int32_t device_type, int32_t device_index,
                                       opd_deleter deleter, void* context, opd_tensor* out);
/* A new contiguous tensor, uninitialised. */
OPD_C_API int32_t opd_tensor_empty(int64_t ndim, const int64_t* sizes, int32_t dtype, int32_t device_type,
                                   int32_t device_index, opd_tensor* out);
OPD_C_API int32_t opd_tensor_release(opd_tensor t); /* NULL is fine */
OPD_C_API int32_t opd_tensor_ndim(opd_tensor t, int64_t* out);
/* sizes/strides: a pointer valid while t lives. */
OPD_C_API int32_t opd_tensor_sizes(opd_tensor t, const int64_t** out);
OPD_C_API int32_t opd_tensor_strides(opd_tensor t, const int64_t** out);
OPD_C_API int32_t opd_tensor_dtype(opd_tensor t, int32_t* out);
OPD_C_API int32_t opd_tensor_device(opd_tensor t, int32_t* type, int32_t* index);
/* The address of the first element (storage offset applied). */
OPD_C_API int32_t opd_tensor_data_ptr(opd_tensor t, void** out);

/* DLPack (dlpack.h's DLManagedTensor, passed as void* so that this header
 * needs no dlpack.h). Import takes ownership of `managed` (its deleter runs
 * when the tensor is gone); export hands out one the caller must delete
 * through its own deleter. Neither copies the data. */
OPD_C_API int32_t opd_tensor_from_dlpack(void* managed, opd_tensor* out);
OPD_C_API int32_t opd_tensor_to_dlpack(opd_tensor t, void** managed_out);

/* ---- values ------------------------------------------------------------------ */
#define OPD_VALUE_NONE 0
#define OPD_VALUE_LIST 1
#define OPD_VALUE_STRING 2
#define OPD_VALUE_TUPLE 3
#define OPD_VALUE_OTHER 4
OPD_C_API int32_t opd_value_kind(opd_value v, int32_t* kind);
/* Elements of a list or tuple. */
OPD_C_API int32_t opd_value_size(opd_value v, int64_t* size);
/* Element i as a boxed value: a tensor element comes as a new handle (release
 * it), a string one as a pointer valid while v lives, a nested list as a new
 * opd_value (release it). A value that is none, int, double, bool, tensor or
 * string itself is element 0 of size 1. */
OPD_C_API int32_t opd_value_get(opd_value v, int64_t i, opd_any* out);
/* A string value's text, valid while v lives. */
OPD_C_API int32_t opd_value_string(opd_value v, const char** out);
/* A list of n boxed values (for OPD_TAG_LIST arguments). */
OPD_C_API int32_t opd_value_list(const opd_any* items, int64_t n, opd_value* out);
OPD_C_API int32_t opd_value_release(opd_value v); /* NULL is fine */

/* ---- the boxed call ---------------------------------------------------------- */
/* Calls operator `name` ("ns::name" or "ns::name.overload") with `nargs`
 * arguments in schema order; omitted trailing arguments take the schema's
 * defaults. Each argument is checked against its schema type and converted
 * as the schema asks: an INT where it wants a float (also inside lists: an
 * int list for float[]), a list of tensors and NONEs for Tensor?[], a bare
 * INT for int[N] (N copies); a value of another kind is
 * OPD_ERR_INVALID_ARGUMENT naming the operator, the argument and the type.
 * Writes up to `max_results` results to `results` (tensors as new handles,
 * lists and strings as new opd_values: release them) and their number to
 * *nresults (NULL if not wanted). */
OPD_C_API int32_t opd_call_boxed(const char* name, const opd_any* args, int64_t nargs, opd_any* results,
                                 int64_t max_results, int64_t* nresults);

/* An operator found once by name, for callers that call it many times: the
 * handle stays valid for the life of the process (no release). */
typedef struct opd_op_s* opd_op;
OPD_C_API int32_t opd_op_find(const char* name, opd_op* out);
/* opd_call_boxed through a handle from opd_op_find (no name lookup). */
OPD_C_API int32_t opd_op_call_boxed(opd_op op, const opd_any* args, int64_t nargs, opd_any* results,
                                    int64_t max_results, int64_t* nresults);

/* ---- the built-in kernels ------------------------------------------------------ */
/* Registers the library's CPU kernels (opd::kernels::register_cpu()) once per
 * process; later calls do nothing. C, Rust and Python callers call it before
 * their first operator; the registrations last until the process exits.
 * Defined with the kernels (kernels/c_register-inl.hpp, in libopdispatch; a
 * header-only program includes that file in one of its translation units). */
OPD_C_API int32_t opd_register_builtin_kernels(void);

/* ---- autograd ------------------------------------------------------------------ */
/* The derivative formulas of the library's operators (opd::autograd::
 * register_autograd()), registered once per process as
 * opd_register_builtin_kernels does the kernels; later calls do nothing.
 * Defined with the formulas (autograd/c_register-inl.hpp, in libopdispatch). */
OPD_C_API int32_t opd_register_builtin_formulas(void);
/* The entry points below are autograd/c_entry_points-inl.hpp's (in
 * libopdispatch; a header-only program includes that file in one translation
 * unit). Errors are PyTorch's, as statuses: a non-leaf's or an integer
 * tensor's requires_grad, a second backward through a freed graph, ... */
/* t.requires_grad: a leaf's flag, or 1 for a tensor with a history. */
OPD_C_API int32_t opd_tensor_requires_grad(opd_tensor t, int32_t* out);
/* t.requires_grad_(flag) on a leaf. */
OPD_C_API int32_t opd_tensor_set_requires_grad(opd_tensor t, int32_t flag);
/* 1 for a tensor without a history (grad_fn). */
OPD_C_API int32_t opd_tensor_is_leaf(opd_tensor t, int32_t* out);
/* The name of t's grad_fn ("MulBackward0"), NULL for a leaf; valid until this
 * thread's next call of this function. */
OPD_C_API int32_t opd_tensor_grad_fn_name(opd_tensor t, const char** out);
/* t.grad as a new handle (release it), NULL when it has none. */
OPD_C_API int32_t opd_tensor_grad(opd_tensor t, opd_tensor* out);
/* Sets t.grad (NULL clears it: PyTorch's `t.grad = None`). */
OPD_C_API int32_t opd_tensor_set_grad(opd_tensor t, opd_tensor grad);
/* t.detach() as a new handle. */
OPD_C_API int32_t opd_tensor_detach(opd_tensor t, opd_tensor* out);
/* t.backward(gradient, retain_graph, create_graph): gradient may be NULL for a
 * one-element t; retain_graph < 0 means PyTorch's default (create_graph). */
OPD_C_API int32_t opd_backward(opd_tensor t, opd_tensor gradient, int32_t retain_graph, int32_t create_graph);
/* torch.autograd.grad(outputs, inputs, grad_outputs, retain_graph,
 * create_graph, allow_unused): writes n_inputs new handles to `results` (NULL
 * where allow_unused and an input is unused). grad_outputs may be NULL, or
 * hold n_outputs handles, NULL for ones. */
OPD_C_API int32_t opd_autograd_grad(const opd_tensor* outputs, int64_t n_outputs, const opd_tensor* inputs,
                                    int64_t n_inputs, const opd_tensor* grad_outputs, int32_t retain_graph,
                                    int32_t create_graph, int32_t allow_unused, opd_tensor* results);
/* This thread's grad mode (torch.set_grad_enabled); *previous gets the old
 * mode (previous may be NULL). */
OPD_C_API int32_t opd_set_grad_enabled(int32_t enabled, int32_t* previous);

#ifdef __cplusplus
}
#endif

#endif /* OPD_C_ABI_OPD_C_H */
