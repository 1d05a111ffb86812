// libopdispatch: structured kernels' out-of-line parts (the resize-out
// warning's state, error texts, the built-in _structured_copy_ kernels and
// their registration, the out=/in-place write-back paths, the
// derived kernels' registration step).
#include "structured/copy-inl.hpp"
#include "structured/out_semantics-inl.hpp"
#include "structured/registration-inl.hpp"
#include "structured/write_back-inl.hpp"
