// compile_cost: the dispatcher's headers alone.
#include <dispatch/dispatcher.hpp>
