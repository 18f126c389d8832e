#pragma once
/// frames/NNNNNN.vtu + frames.pvd (and surface/NNNNNN.obj when asked) for the output steps.
#include <filesystem>
#include <memory>

#include "io/pvd_writer.hpp"
#include "sim/simulation.hpp"

namespace simrun {

class FrameWriter {
 public:
  /// Creates OUT/frames (and OUT/surface), removing frames of an earlier run there.
  FrameWriter(const std::filesystem::path& out_dir, bool vtu, bool surface);
  /// Writes the frame of `step` at full positions x and full velocities v.
  void write(int step, double t, const FrameData& frames, const VecX& x, const VecX& v);
  int frames_written() const { return m_count; }

 private:
  std::filesystem::path m_dir;
  bool m_vtu, m_surface;
  std::unique_ptr<PvdCollection> m_pvd;
  int m_count = 0;
};

}  // namespace simrun
