# Small programs symbols_test symbolises. Each is built with exactly the flags a case
# needs (not the project's), then some are post-processed with objcopy/strip.
set(SYMBOLS_TESTDATA_BIN ${CMAKE_CURRENT_BINARY_DIR}/testdata)
set(td ${CMAKE_CURRENT_SOURCE_DIR}/testdata)
set(SYMBOLS_TEST_OBJECTS "")

function(symbols_test_program name src)
  add_executable(${name} ${td}/${src})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${SYMBOLS_TESTDATA_BIN})
  target_compile_options(${name} PRIVATE ${ARGN})
  set(SYMBOLS_TEST_OBJECTS ${SYMBOLS_TEST_OBJECTS} ${name} PARENT_SCOPE)
endfunction()

symbols_test_program(sym_inline_dw5 inline.c -O2 -g -gdwarf-5)
symbols_test_program(sym_inline_dw4 inline.c -O2 -g -gdwarf-4)
# IBT PLT layout: lazy stubs in .plt, the called entries in .plt.sec.
symbols_test_program(sym_inline_ibt inline.c -O2 -g -fcf-protection=full)
target_link_options(sym_inline_ibt PRIVATE -Wl,-z,ibtplt)
symbols_test_program(sym_cxx cxx.cc -O1 -g)
symbols_test_program(sym_static static.c -O1)
target_link_options(sym_static PRIVATE -static)
symbols_test_program(sym_static_pie static.c -O1 -fPIE)
target_link_options(sym_static_pie PRIVATE -static-pie)

# Stripped copy whose symbols and DWARF are only in a separate file found through
# .gnu_debuglink (placed beside it, as distributions do under /usr/lib/debug).
set(stripped ${SYMBOLS_TESTDATA_BIN}/sym_inline_stripped)
add_custom_command(
  OUTPUT ${stripped} ${SYMBOLS_TESTDATA_BIN}/sym_inline_stripped.debug
  COMMAND objcopy --only-keep-debug $<TARGET_FILE:sym_inline_dw5> ${stripped}.debug
  COMMAND objcopy --strip-all --add-gnu-debuglink=${stripped}.debug $<TARGET_FILE:sym_inline_dw5> ${stripped}
  DEPENDS sym_inline_dw5
  WORKING_DIRECTORY ${SYMBOLS_TESTDATA_BIN}
  VERBATIM)

# MiniDebugInfo as Fedora builds it: local function symbols in an xz-compressed ELF in
# .gnu_debugdata of an otherwise stripped object.
set(mini ${SYMBOLS_TESTDATA_BIN}/sym_inline_mini)
add_custom_command(
  OUTPUT ${mini}
  COMMAND sh ${td}/make_minidebuginfo.sh $<TARGET_FILE:sym_inline_dw5> ${mini}
  DEPENDS sym_inline_dw5 ${td}/make_minidebuginfo.sh
  WORKING_DIRECTORY ${SYMBOLS_TESTDATA_BIN}
  VERBATIM)

# Symbol `compute` removed but DWARF kept: the function is known from DWARF only.
set(nosym ${SYMBOLS_TESTDATA_BIN}/sym_inline_nosym)
add_custom_command(
  OUTPUT ${nosym}
  COMMAND objcopy --strip-symbol=compute $<TARGET_FILE:sym_inline_dw5> ${nosym}
  DEPENDS sym_inline_dw5
  VERBATIM)

add_custom_target(sym_postprocessed DEPENDS ${stripped} ${mini} ${nosym})
list(APPEND SYMBOLS_TEST_OBJECTS sym_postprocessed)

# aarch64 shared objects (plain and BTI PLT layouts), when clang and lld can make them.
find_program(SYMBOLS_CLANG clang)
find_program(SYMBOLS_LLD ld.lld)
if(SYMBOLS_CLANG AND SYMBOLS_LLD)
  foreach(variant plain bti)
    set(out ${SYMBOLS_TESTDATA_BIN}/sym_a64_${variant}.so)
    if(variant STREQUAL "bti")
      set(cflags -mbranch-protection=standard)
      set(ldflags -z force-bti)
    else()
      set(cflags "")
      set(ldflags "")
    endif()
    add_custom_command(
      OUTPUT ${out}
      COMMAND ${SYMBOLS_CLANG} --target=aarch64-linux-gnu -O2 -g -fPIC ${cflags} -c ${td}/a64.c -o ${out}.o
      COMMAND ${SYMBOLS_LLD} -shared ${ldflags} ${out}.o -o ${out}
      DEPENDS ${td}/a64.c
      VERBATIM)
    list(APPEND SYMBOLS_A64 ${out})
  endforeach()
  add_custom_target(sym_a64 DEPENDS ${SYMBOLS_A64})
  list(APPEND SYMBOLS_TEST_OBJECTS sym_a64)
endif()

# A relocatable object (issue 15 item 8): inline.c compiled but not linked, one section per
# function, so that libdwfl's layout and the relocated DWARF are what relocatable_test checks.
set(relobj ${SYMBOLS_TESTDATA_BIN}/sym_inline_rel.o)
add_custom_command(
  OUTPUT ${relobj}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${SYMBOLS_TESTDATA_BIN}
  COMMAND ${CMAKE_C_COMPILER} -O2 -g -ffunction-sections -c ${td}/inline.c -o ${relobj}
  DEPENDS ${td}/inline.c
  VERBATIM)
add_custom_target(sym_inline_rel DEPENDS ${relobj})
list(APPEND SYMBOLS_TEST_OBJECTS sym_inline_rel)
