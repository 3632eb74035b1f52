// The descriptor of one variable's DIE as the data-object table writes it ({int i},
// {array:structure:rec_t g_recs}), shared by globals (dwarf_objects.cc) and stack locals
// (stack_locals.cc). Aggregate types met on the way are added to `table`.
#pragma once
#include <elfutils/libdw.h>

#include "dataspace/dwarf_objects.h"

namespace erkit::dataspace {

// Fills out's name, descriptor, size, aggregate and element size (not its address).
void describe_object(Dwarf_Die* die, DataObjectTable* table, Variable* out);

}  // namespace erkit::dataspace
