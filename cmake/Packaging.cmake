# The Debian package: `cpack -G DEB` in the build directory (or `cpack -G DEB --config
# <build>/CPackConfig.cmake -B <dir>`) packs what `cmake --install` installs (the tools, the
# collector libraries, the collector API with its pkg-config file and CMake package, er.rc,
# the man pages and the bash completion) under /usr. The library dependencies are computed by
# dpkg-shlibdeps from the binaries themselves. tests/install/deb_test.sh builds, installs
# (dpkg -i) and removes it.
set(CPACK_PACKAGE_NAME erkit)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "erkit")
set(CPACK_PACKAGE_CONTACT "erkit maintainers <erkit@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Performance Analyzer for Linux: collect, er_print and tools")
set(CPACK_PACKAGE_DESCRIPTION
    "erkit re-creates the Sun/Oracle Studio Performance Analyzer on Linux: collect records clock\n"
    "profiles, heap, synchronization and I/O traces of any dynamically linked program into an\n"
    "experiment; er_print, er_src and the other tools analyse it.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "man-db, bash-completion")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "linux-perf")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
set(CPACK_GENERATOR DEB)
include(CPack)
