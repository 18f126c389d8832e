#include "sim/frame_writer.hpp"

#include <cstdio>

#include "io/obj_writer.hpp"
#include "io/vtu_writer.hpp"

namespace simrun {

namespace {

std::string frame_name(int step, const char* extension) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%06d.%s", step, extension);
  return buffer;
}

void recreate_folder(const std::filesystem::path& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
}

}  // namespace

FrameWriter::FrameWriter(const std::filesystem::path& out_dir, bool vtu, bool surface)
    : m_dir(out_dir), m_vtu(vtu), m_surface(surface) {
  if (m_vtu) {
    recreate_folder(m_dir / "frames");
    m_pvd = std::make_unique<PvdCollection>(m_dir / "frames.pvd");
  }
  if (m_surface) recreate_folder(m_dir / "surface");
}

void FrameWriter::write(int step, double t, const FrameData& frames, const VecX& x, const VecX& v) {
  const MatX3 positions = as_rows(x);
  if (m_vtu) {
    const MatX3 displacement = positions - frames.mesh.vertices;
    const MatX3 velocity = as_rows(v);
    VtuFields fields;
    fields.point_vectors = {{"displacement", &displacement}, {"velocity", &velocity}};
    // Springs (mass-spring objects) are line cells after the tets; their tet-only cell data
    // is padded (E = 0, region = material_region = 0).
    const size_t n_lines = frames.mesh.edges.size();
    VecX youngs = frames.youngs;
    std::vector<int> regions = frames.mesh.regions, material_region = frames.material_region;
    if (n_lines > 0) {
      youngs.conservativeResize(frames.mesh.num_tets() + static_cast<Eigen::Index>(n_lines));
      youngs.tail(static_cast<Eigen::Index>(n_lines)).setZero();
      regions.resize(frames.mesh.num_tets() + n_lines, 0);
      material_region.resize(frames.mesh.num_tets() + n_lines, 0);
      fields.lines = &frames.mesh.edges;
    }
    fields.cell_scalars = {{"E", &youngs}};
    if (!frames.mesh.regions.empty() || n_lines > 0)
      fields.cell_ints.push_back({"region", &regions});
    if (!frames.material_region.empty() || n_lines > 0) {
      fields.cell_ints.push_back({"material_region", &material_region});
    }
    fields.time = t;
    const auto file = m_dir / "frames" / frame_name(step, "vtu");
    write_vtu(file, positions, frames.mesh.tets, fields);
    m_pvd->add(t, file);
  }
  if (m_surface) write_obj(m_dir / "surface" / frame_name(step, "obj"), positions, frames.surface);
  ++m_count;
}

}  // namespace simrun
