// libFuzzer target for the TetGen reader (docs/fuzzing.md). The input is a .node file, a line
// "--- ele ---", and the .ele file; both are written beside each other and read as `simrun run`
// reads them. simrun::InputError is the expected rejection; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "input_file.hpp"
#include "mesh/read_tetgen.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string marker = "\n--- ele ---\n";
  const std::size_t split = input.find(marker);
  const auto& folder = simrun::fuzz::input_folder();
  const auto node = folder.write("input.node", input.substr(0, split));
  folder.write("input.ele",
               split == std::string::npos ? std::string() : input.substr(split + marker.size()));
  try {
    simrun::read_tetgen(node);
  } catch (const simrun::InputError&) {
  }
  return 0;
}
