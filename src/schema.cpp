// libopdispatch: the schema parser, instantiated once for run-time schemas.
#include "dispatch/schema/runtime-inl.hpp"
