// Forwarding header (issue 18): the load-object archives are reader/load_object_archives.h.
#pragma once
#include "reader/load_object_archives.h"
