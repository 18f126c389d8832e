// Regression tests for faults that fuzzing found in the mesh readers (docs/fuzzing.md). Each input
// once allocated without bound, overflowed a signed integer, read a whole file into memory or was
// silently accepted; each must now be an InputError naming the file and line. The inputs are
// tiny files in tests/data/fuzz/ (also seeds of the fuzz corpora) or are generated here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "mesh/load_mesh.hpp"
#include "mesh/read_gmsh.hpp"
#include "mesh/read_medit.hpp"
#include "mesh/read_surface.hpp"
#include "mesh/read_tetgen.hpp"
#include "mesh/text_reader.hpp"
#include "mesh_test_util.hpp"
#include "scene/scene_test_files.hpp"
#include "support/test_paths.hpp"

namespace simrun {
namespace {

namespace fs = std::filesystem;
using test::input_error_message;

fs::path fuzz_data(const std::string& name) { return fs::path(SIMRUN_TEST_DATA) / "fuzz" / name; }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TetMesh load(const fs::path& path) { return load_mesh_file(path, 2.0, 0.0, 0); }

// Found: a declared count made the reader resize to it (std::bad_alloc, exit 3 "internal error").
// Now only what the rest of the file can hold is reserved, and a larger count fails where the
// file ends, as a truncated file does, naming the count.
TEST(ReaderRobustness, MeditCountsBeyondTheFileFailAtTheEndWithoutAllocating) {
  std::string msg = input_error_message([] { load(fuzz_data("medit_vertex_count.mesh")); });
  EXPECT_TRUE(contains(msg,
                       "medit_vertex_count.mesh:4: expected a coordinate of vertex 1 of "
                       "9000000000000, found end of file"))
      << msg;
  msg = input_error_message([] { load(fuzz_data("medit_tet_count.mesh")); });
  EXPECT_TRUE(contains(msg,
                       "medit_tet_count.mesh:11: expected a vertex index of tetrahedron 2 of "
                       "900000000000, found end of file"))
      << msg;
}

// Found by fuzz_medit in the first version of the fix above: the count line's last token
// ("45000000000\v...\v00") was stored as a coordinate of a vertex the file could not hold,
// past the rows that were sized to what fits (heap overflow; an Eigen assertion in debug).
TEST(ReaderRobustness, MeditEntryIsStoredOnlyWhenComplete) {
  const std::string msg =
      input_error_message([] { load(fuzz_data("medit_count_then_partial_vertex.mesh")); });
  EXPECT_TRUE(contains(msg,
                       "medit_count_then_partial_vertex.mesh:4: expected a coordinate of "
                       "vertex 1 of 45000000000, found end of file"))
      << msg;
}

TEST(ReaderRobustness, TetgenCountsBeyondTheFileFailAtTheEndWithoutAllocating) {
  std::string msg = input_error_message([] { load(fuzz_data("tetgen_point_count.node")); });
  EXPECT_TRUE(contains(msg, "tetgen_point_count.node:2: expected point 2 of 900000000000")) << msg;
  EXPECT_TRUE(contains(msg, "found end of file")) << msg;
  msg = input_error_message([] { load(fuzz_data("tetgen_tet_count.node")); });
  EXPECT_TRUE(contains(msg, "tetgen_tet_count.ele:2: expected tetrahedron 1 of 900000000000"))
      << msg;
  EXPECT_TRUE(contains(msg, "found end of file")) << msg;
}

// Found: "OFF\n4611686018427387904 1 0" sized a std::vector from the header (length_error).
TEST(ReaderRobustness, OffVertexCountBeyondTheFileFailsAtTheEndWithoutAllocating) {
  const std::string msg = input_error_message([] { read_off(fuzz_data("off_vertex_count.off")); });
  EXPECT_TRUE(contains(msg,
                       "off_vertex_count.off:2: expected vertex 1 of 4611686018427387904, "
                       "found end of file"))
      << msg;
}

// Found: 3 + #tags + 4 overflowed (UB) and the message printed a negative field count.
TEST(ReaderRobustness, GmshTagCountIsCheckedWithoutOverflow) {
  const std::string msg = input_error_message([] { read_gmsh(fuzz_data("gmsh_tag_count.msh")); });
  EXPECT_TRUE(contains(msg, "gmsh_tag_count.msh:10:")) << msg;
  EXPECT_TRUE(contains(msg, "found 9223372036854775807 tags on a line of 7 fields")) << msg;
  EXPECT_FALSE(contains(msg, "-9223372036854775")) << msg;
}

// Found: 4 + #attributes (+ marker) and 5 + #attributes overflowed (UB); the message printed the
// wrapped sum 9223372036854775811.
TEST(ReaderRobustness, TetgenAttributeCountsAreCheckedWithoutOverflow) {
  std::string msg = input_error_message([] { load(fuzz_data("tetgen_point_attributes.node")); });
  EXPECT_TRUE(contains(msg,
                       "tetgen_point_attributes.node:1: 9223372036854775807 attributes per "
                       "point are more than the rest of the file can hold"))
      << msg;
  EXPECT_FALSE(contains(msg, "9223372036854775811")) << msg;
  msg = input_error_message([] { load(fuzz_data("tetgen_tet_attributes.node")); });
  EXPECT_TRUE(contains(msg, "tetgen_tet_attributes.ele:1:")) << msg;
  EXPECT_TRUE(contains(msg, "9223372036854775807 attributes per tetrahedron")) << msg;
  EXPECT_FALSE(contains(msg, "9223372036854775812")) << msg;
}

// Found (UBSan): a region attribute of 1e300 was cast to int before it was checked.
TEST(ReaderRobustness, TetgenRegionAttributeOutsideIntIsRejectedBeforeTheCast) {
  const std::string msg = input_error_message([] { load(fuzz_data("tetgen_region_1e300.node")); });
  EXPECT_TRUE(contains(msg, "tetgen_region_1e300.ele:2:")) << msg;
  EXPECT_TRUE(contains(msg, "an integer region attribute from -2147483648 to 2147483647")) << msg;
}

// Found: "1\0x" was read as 1, since strtod stopped at the NUL and the check looked for one.
TEST(ReaderRobustness, NulByteInANumberIsRejected) {
  const std::string msg = input_error_message([] { load(fuzz_data("nul_in_number.node")); });
  EXPECT_TRUE(contains(msg, "nul_in_number.node:3: unexpected NUL byte")) << msg;
}

// Found: a 2 GB sparse file took 8 GB of memory (one 2 GB "line", copied three times) before it
// was rejected. The size cap rejects it from its size alone.
TEST(ReaderRobustness, FileOverTheSizeCapIsRejectedWithoutReading) {
  test::SceneFolder dir;
  const fs::path big = dir.write("sparse.mesh", "");
  fs::resize_file(big, std::uintmax_t{2} << 30);  // sparse: no disk space, no reading
  const std::string msg = input_error_message([&] { load(big); });
  EXPECT_TRUE(contains(msg, "sparse.mesh")) << msg;
  EXPECT_TRUE(contains(msg, "2147483648 bytes, more than the limit")) << msg;
}

// Under the cap, binary zeros stop at the first NUL and a long line at the line cap: the reader
// holds at most one line, and the message does not quote megabytes of it.
TEST(ReaderRobustness, ZerosAndOverlongLinesStopAtTheFirstLine) {
  test::SceneFolder dir;
  const fs::path zeros = dir.write("zeros.node", "");
  fs::resize_file(zeros, std::uintmax_t{8} << 20);
  std::string msg = input_error_message([&] { load(zeros); });
  EXPECT_TRUE(contains(msg, "zeros.node:1: unexpected NUL byte")) << msg;
  EXPECT_LT(msg.size(), 400u) << msg.substr(0, 400);

  const fs::path long_line = dir.write("long.mesh", std::string(std::size_t{3} << 20, 'a'));
  msg = input_error_message([&] { load(long_line); });
  EXPECT_TRUE(contains(msg, "long.mesh:1: line longer than 1048576 bytes")) << msg.substr(0, 400);
  EXPECT_LT(msg.size(), 400u) << msg.substr(0, 400);

  // Binary STL is recognized from its 84-byte header and size, not by reading it whole.
  const fs::path stl = dir.write("zeros.stl", "");
  fs::resize_file(stl, std::uintmax_t{8} << 20);
  msg = input_error_message([&] { read_stl(stl); });
  EXPECT_TRUE(contains(msg, "zeros.stl: expected an ASCII STL starting with 'solid'")) << msg;
}

TEST(ReaderRobustness, DevicesAreNotRead) {
  const std::string msg = input_error_message([] { TextReader in("/dev/zero"); });
  EXPECT_TRUE(contains(msg, "/dev/zero")) << msg;
  EXPECT_TRUE(contains(msg, "not a regular file")) << msg;
}

}  // namespace
}  // namespace simrun
