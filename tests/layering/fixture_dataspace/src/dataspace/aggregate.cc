// A dataspace (analysis) file including a report: refused since issue 18 split dataspace/.
#include "views/dataspace_views.h"
