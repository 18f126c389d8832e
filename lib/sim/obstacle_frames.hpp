#pragma once
/// The obstacles of a run as triangle surfaces beside its frames: OUT/obstacles.pvd indexes, per
/// frame time, OUT/obstacles/obstacles.vtu (all obstacles static, written once) or
/// OUT/obstacles/NNNNNN.vtu (some obstacle moves: the moving ones at their positions in that
/// frame). Opened together with frames.pvd, ParaView shows the bodies and what they touch at the
/// same time. Mesh obstacles are also written once as OUT/obstacles/obstacle_<index>.obj.
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "io/pvd_writer.hpp"
#include "sim/simulated_system.hpp"

namespace simrun {

class ObstacleFrameWriter {
 public:
  /// Lays the obstacles out as one triangle surface (cell data "obstacle": the index in the
  /// scene's "obstacles"). A fresh run recreates OUT/obstacles; a run resumed at `resume_step`
  /// (>= 0) keeps the files up to it and the collection's first `kept_frames` entries (one per
  /// frame kept in frames.pvd). Without `collection` (a run writing no VTU frames) only the mesh
  /// obstacles' OBJ files are written, and write() does nothing.
  ObstacleFrameWriter(const std::filesystem::path& out_dir,
                      const std::vector<FrameData::Obstacle>& obstacles, bool zlib,
                      long resume_step = -1, int kept_frames = 0, bool collection = true);
  /// Adds the obstacles at frame `step`, time t; x holds the full positions (moving obstacles'
  /// vertices among them).
  void write(int step, double t, const MatX3& x);

 private:
  /// The obstacles at m_vertices as one VTU (with its time when given).
  void write_surface(const std::filesystem::path& file, std::optional<double> t) const;

  std::filesystem::path m_dir;
  const std::vector<FrameData::Obstacle>& m_obstacles;
  bool m_zlib;
  bool m_moving = false;  ///< some obstacle moves: one file per frame
  MatX3 m_vertices;       ///< every obstacle's vertices, in obstacles order
  MatX3i m_faces;         ///< over m_vertices
  std::vector<int> m_obstacle_of_face;
  std::unique_ptr<PvdCollection> m_pvd;
};

}  // namespace simrun
