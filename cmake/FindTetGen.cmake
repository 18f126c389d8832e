# Finds TetGen 1.5 from Debian's libtet1.5-dev. Defines the imported target TetGen::TetGen.
# The library is built with TETLIBRARY, so consumers must define it too.
find_path(TETGEN_INCLUDE_DIR tetgen.h)
find_library(TETGEN_LIBRARY tet)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(TetGen REQUIRED_VARS TETGEN_LIBRARY TETGEN_INCLUDE_DIR)
if(TetGen_FOUND AND NOT TARGET TetGen::TetGen)
  add_library(TetGen::TetGen UNKNOWN IMPORTED)
  set_target_properties(TetGen::TetGen PROPERTIES
    IMPORTED_LOCATION "${TETGEN_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${TETGEN_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS TETLIBRARY)
endif()
mark_as_advanced(TETGEN_INCLUDE_DIR TETGEN_LIBRARY)
