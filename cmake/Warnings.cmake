# Warning flags shared by every target; warnings are errors in CI builds (ERKIT_WERROR).
option(ERKIT_WERROR "Treat warnings as errors" OFF)
set(ERKIT_WARNINGS -Wall -Wextra -Wno-missing-field-initializers)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  list(APPEND ERKIT_WARNINGS -Wshadow=local)
endif()
if(ERKIT_WERROR)
  list(APPEND ERKIT_WARNINGS -Werror)
endif()

# erkit_host_target(<target>): flags for code that runs in the analysis tools.
function(erkit_host_target tgt)
  target_compile_options(${tgt} PRIVATE ${ERKIT_WARNINGS} ${ERKIT_HOST_SANITIZE_FLAGS})
  target_link_options(${tgt} PRIVATE ${ERKIT_HOST_SANITIZE_FLAGS})
endfunction()

# erkit_target_code(<target>): flags for code that runs inside the profiled process:
# no exceptions, no RTTI, no libstdc++ runtime, no thread-safe statics (they need __cxa_guard).
# ERKIT_COLLECTOR_UBSAN: UBSan in trap mode for target code (docs/reliability.md): no runtime
# library is linked (the rules of check_symbols.sh still hold); undefined behaviour executes
# ud2 and the target dies of SIGILL, which the tests see.
option(ERKIT_COLLECTOR_UBSAN "Build the collector with UBSan in trap mode" OFF)
function(erkit_target_code tgt)
  target_compile_options(${tgt} PRIVATE ${ERKIT_WARNINGS}
    -fno-exceptions -fno-rtti -fno-threadsafe-statics
    -fvisibility=hidden -fno-stack-protector -ftls-model=initial-exec -O2)
  if(ERKIT_COLLECTOR_UBSAN)
    target_compile_options(${tgt} PRIVATE -fsanitize=undefined -fsanitize-undefined-trap-on-error
      -fno-sanitize=vptr)
  endif()
endfunction()
