// libopdispatch: device transfer (opd::to, to_cpu, copy_from_and_resize).
#include "dispatch/transfer-inl.hpp"
