// Where the tests find the repository and the simrun binary. The paths are compiled into one
// generated source per build tree (tests/CMakeLists.txt, test_paths.cpp) instead of into every
// test's compile flags, so that the test sources compile to the same objects in any clone and
// ccache shares them (CI builds a clone in another folder).
#pragma once

namespace simrun::test {

/// tests/data of the source tree.
const char* test_data_dir();
/// The source tree's root.
const char* source_dir();
/// The simrun executable of this build tree.
const char* simrun_binary();

}  // namespace simrun::test

#define SIMRUN_TEST_DATA (::simrun::test::test_data_dir())
#define SIMRUN_SOURCE_DIR (::simrun::test::source_dir())
#define SIMRUN_BINARY (::simrun::test::simrun_binary())
