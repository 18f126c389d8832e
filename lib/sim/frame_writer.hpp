#pragma once
/// frames/NNNNNN.vtu + frames.pvd (and surface/NNNNNN.obj when asked; obstacles.pvd with the
/// obstacles' surfaces when the scene has obstacles) for the output steps.
#include <filesystem>
#include <memory>

#include "io/pvd_writer.hpp"
#include "io/vtu_writer.hpp"
#include "sim/obstacle_frames.hpp"
#include "sim/simulated_system.hpp"

namespace simrun {

/// What a frame holds and how it is written.
struct FrameFormat {
  bool vtu = true;       ///< frames/NNNNNN.vtu and frames.pvd
  bool surface = false;  ///< surface/NNNNNN.obj: the boundary triangles over their vertices only
  bool zlib = true;      ///< zlib-compressed VTU arrays
  /// VTU points: false, the deformed positions x (what ParaView shows without filters; the
  /// "displacement" array is then for colouring, not for Warp By Vector, and is not marked as
  /// the active vectors); true, the rest positions X, warped to x by Warp By Vector with
  /// "displacement" (marked active).
  bool rest_points = false;
};

class FrameWriter {
 public:
  /// Creates OUT/frames (and OUT/surface), removing frames of an earlier run there. `frames`
  /// must outlive the writer; its cell data is laid out once here.
  FrameWriter(const std::filesystem::path& out_dir, const FrameFormat& format,
              const FrameData& frames);
  /// Continues the frames of a run resumed at `resume_step`: frames written after it are
  /// removed, frames.pvd keeps the ones up to it.
  FrameWriter(const std::filesystem::path& out_dir, const FrameFormat& format,
              const FrameData& frames, long resume_step);
  /// Writes the frame of `step` at full positions x and full velocities v, with `extra` point
  /// vectors after displacement and velocity (e.g. contact_force), one row per vertex.
  void write(int step, double t, const VecX& x, const VecX& v,
             const std::vector<std::pair<std::string, MatX3>>& extra = {});
  int frames_written() const { return m_count; }

 private:
  FrameWriter(const std::filesystem::path& out_dir, const FrameFormat& format,
              const FrameData& frames, long resume_step, bool resume);

  std::filesystem::path m_dir;
  FrameFormat m_format;
  const FrameData& m_frames;
  std::unique_ptr<PvdCollection> m_pvd;
  std::unique_ptr<ObstacleFrameWriter> m_obstacles;  ///< obstacles.pvd beside frames.pvd
  /// Cell data, one entry per tet then per spring line (E, nu, density 0 and regions 0 there).
  VecX m_youngs, m_poisson, m_density;
  std::vector<int> m_regions, m_material_region, m_object;
  std::vector<std::vector<int>> m_extra_cell_ints;  ///< FrameData::extra_cell_ints, padded
  std::vector<VecX> m_extra_cell_scalars;           ///< FrameData::extra_cell_scalars, padded
  std::vector<int> m_surface_vertices;  ///< the vertices the boundary triangles use, ascending
  MatX3i m_surface_faces;               ///< the boundary triangles over m_surface_vertices
  VtuFields m_cell_fields;              ///< the cell arrays above, and the line cells
  MatX3 m_already_deformed;             ///< zeros: the active vectors over deformed points
  int m_count = 0;
};

}  // namespace simrun
