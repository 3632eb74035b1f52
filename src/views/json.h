// Forwarding header (issue 18): the JSON document model and its parser moved to common/json.h,
// so that every module (commentary's optimisation records included) reads JSON with one parser.
#pragma once
#include "common/json.h"
