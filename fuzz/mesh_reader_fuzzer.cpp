// libFuzzer target for one mesh reader (docs/fuzzing.md), chosen at build time by
// SIMRUN_FUZZ_FORMAT: the input is written to a file with that extension and read as
// `simrun run` would read it. simrun::InputError is the expected rejection; anything else that
// escapes (std::bad_alloc, length_error, ...), a sanitizer report, a hang or an allocation over
// libFuzzer's limits is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "input_file.hpp"
#include "mesh/load_mesh.hpp"
#include "mesh/read_surface.hpp"

#ifndef SIMRUN_FUZZ_FORMAT
#error "define SIMRUN_FUZZ_FORMAT as \"mesh\", \"msh\", \"off\", \"obj\" or \"stl\""
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string format = SIMRUN_FUZZ_FORMAT;
  const auto path = simrun::fuzz::input_folder().write("input." + format, data, size);
  try {
    if (format == "off" || format == "obj" || format == "stl") {
      // The reader only: tetrahedralizing a fuzzed surface would fuzz TetGen.
      simrun::read_surface(path);
    } else {
      simrun::load_mesh_file(path, 2.0, 0.0, 0);
    }
  } catch (const simrun::InputError&) {
  }
  return 0;
}
