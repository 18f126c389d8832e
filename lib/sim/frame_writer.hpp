#pragma once
/// frames/NNNNNN.vtu + frames.pvd (and surface/NNNNNN.obj when asked) for the output steps.
#include <filesystem>
#include <memory>

#include "io/pvd_writer.hpp"
#include "io/vtu_writer.hpp"
#include "sim/simulated_system.hpp"

namespace simrun {

class FrameWriter {
 public:
  /// Creates OUT/frames (and OUT/surface), removing frames of an earlier run there. `frames`
  /// must outlive the writer; its cell data is laid out once here.
  FrameWriter(const std::filesystem::path& out_dir, bool vtu, bool surface,
              const FrameData& frames);
  /// Writes the frame of `step` at full positions x and full velocities v.
  void write(int step, double t, const VecX& x, const VecX& v);
  int frames_written() const { return m_count; }

 private:
  std::filesystem::path m_dir;
  bool m_vtu, m_surface;
  const FrameData& m_frames;
  std::unique_ptr<PvdCollection> m_pvd;
  /// Cell data, one entry per tet then per spring line (E, nu, density 0 and regions 0 there).
  VecX m_youngs, m_poisson, m_density;
  std::vector<int> m_regions, m_material_region;
  VtuFields m_cell_fields;  ///< the cell arrays above, and the line cells
  int m_count = 0;
};

}  // namespace simrun
