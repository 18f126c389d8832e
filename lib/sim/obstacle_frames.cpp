#include "sim/obstacle_frames.hpp"

#include <string>

#include "io/obj_writer.hpp"
#include "io/vtu_writer.hpp"
#include "sim/frame_files.hpp"

namespace simrun {

namespace {

constexpr const char* kStaticFile = "obstacles.vtu";

}  // namespace

ObstacleFrameWriter::ObstacleFrameWriter(const std::filesystem::path& out_dir,
                                         const std::vector<FrameData::Obstacle>& obstacles,
                                         bool zlib, long resume_step, int kept_frames,
                                         bool collection)
    : m_dir(out_dir / "obstacles"), m_obstacles(obstacles), m_zlib(zlib) {
  Eigen::Index n_vertices = 0, n_faces = 0;
  for (const FrameData::Obstacle& o : obstacles) {
    n_vertices += o.vertices.rows();
    n_faces += o.faces.rows();
    m_moving = m_moving || o.first_vertex >= 0;
  }
  m_vertices.resize(n_vertices, 3);
  m_faces.resize(n_faces, 3);
  Eigen::Index v = 0, f = 0;
  for (const FrameData::Obstacle& o : obstacles) {
    m_vertices.middleRows(v, o.vertices.rows()) = o.vertices;
    m_faces.middleRows(f, o.faces.rows()) = o.faces.array() + static_cast<int>(v);
    m_obstacle_of_face.insert(m_obstacle_of_face.end(), static_cast<size_t>(o.faces.rows()),
                              o.index);
    v += o.vertices.rows();
    f += o.faces.rows();
  }

  const std::filesystem::path pvd_path = out_dir / "obstacles.pvd";
  if (resume_step >= 0 && !collection) return;
  if (resume_step >= 0) {
    const auto kept = PvdCollection::read_entries(pvd_path);
    remove_frame_files_after(m_dir, resume_step);
    m_pvd = std::make_unique<PvdCollection>(pvd_path);
    // One entry per frame, in the order of frames.pvd: keep as many as the frames kept.
    for (size_t i = 0; i < kept.size() && static_cast<int>(i) < kept_frames; ++i)
      m_pvd->add(kept[i].time, kept[i].file, kept[i].part);
    return;
  }
  std::filesystem::remove_all(m_dir);
  std::filesystem::create_directories(m_dir);
  for (const FrameData::Obstacle& o : obstacles)
    if (o.mesh)
      write_obj(m_dir / ("obstacle_" + std::to_string(o.index) + ".obj"), o.vertices, o.faces);
  if (!collection) return;
  m_pvd = std::make_unique<PvdCollection>(pvd_path);
  if (!m_moving) write_surface(m_dir / kStaticFile, std::nullopt);
}

void ObstacleFrameWriter::write(int step, double t, const MatX3& x) {
  if (!m_pvd) return;
  if (!m_moving) {
    m_pvd->add(t, m_dir / kStaticFile);
    return;
  }
  Eigen::Index v = 0;
  for (const FrameData::Obstacle& o : m_obstacles) {
    if (o.first_vertex >= 0 && x.rows() >= o.first_vertex + o.vertices.rows())
      m_vertices.middleRows(v, o.vertices.rows()) = x.middleRows(o.first_vertex, o.vertices.rows());
    v += o.vertices.rows();
  }
  const std::filesystem::path file = m_dir / frame_file_name(step, "vtu");
  write_surface(file, t);
  m_pvd->add(t, file);
}

void ObstacleFrameWriter::write_surface(const std::filesystem::path& file,
                                        std::optional<double> t) const {
  VtuFields fields;
  fields.triangles = &m_faces;
  fields.cell_ints = {{"obstacle", &m_obstacle_of_face}};
  fields.zlib = m_zlib;
  fields.time = t;
  write_vtu(file, m_vertices, MatX4i(0, 4), fields);
}

}  // namespace simrun
