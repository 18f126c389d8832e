// libFuzzer target for the per-element field reader (material.E_file; docs/fuzzing.md). The input
// is the field file; the mesh is taken to have 4 tets. simrun::InputError is the expected
// rejection; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "core/error.hpp"
#include "input_file.hpp"
#include "io/read_scalar_field.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = simrun::fuzz::input_folder().write("E.txt", data, size);
  try {
    simrun::read_scalar_field(path, 4);
  } catch (const simrun::InputError&) {
  }
  return 0;
}
