# External libraries, all from Debian packages installed by scripts/install-deps.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBDW REQUIRED IMPORTED_TARGET libdw)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
pkg_check_modules(CAPSTONE REQUIRED IMPORTED_TARGET capstone)
find_package(fmt 9 REQUIRED)
find_library(PFM_LIBRARY pfm REQUIRED)
find_path(PFM_INCLUDE_DIR perfmon/pfmlib.h REQUIRED)
find_library(EDIT_LIBRARY edit)
