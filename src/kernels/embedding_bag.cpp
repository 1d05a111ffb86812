// libopdispatch: _embedding_bag and opd::kernels::register_embedding_bag()
// (kernels/ops_embedding_bag.hpp).
#include "kernels/ops_embedding_bag-inl.hpp"
