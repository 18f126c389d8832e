# Writes generated/simrun/version.hpp from cmake/version.hpp.in with the current git commit, on
# every build (target simrun_version), so `simrun --version`, run.json and the coarsening cache
# key name the commit the binary was built from, not the one CMake was configured at. A working
# tree with uncommitted changes to tracked files gets "-dirty". configure_file() rewrites the
# header only when its text changes, so an unchanged commit rebuilds nothing.
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -DPROJECT_VERSION=... -P write_version.cmake
execute_process(COMMAND git rev-parse --short HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE SIMRUN_GIT_HASH OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT SIMRUN_GIT_HASH)
  set(SIMRUN_GIT_HASH "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no
                  WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE changes ERROR_QUIET)
  if(changes)
    string(APPEND SIMRUN_GIT_HASH "-dirty")
  endif()
endif()
configure_file(${SOURCE_DIR}/cmake/version.hpp.in ${OUTPUT} @ONLY)
