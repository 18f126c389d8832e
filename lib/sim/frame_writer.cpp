#include "sim/frame_writer.hpp"

#include "io/obj_writer.hpp"
#include "sim/frame_files.hpp"

namespace simrun {

namespace {

void recreate_folder(const std::filesystem::path& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
}

/// `values` per tet, then zeros for the spring lines.
VecX padded(const VecX& values, Eigen::Index tets, Eigen::Index lines) {
  VecX out = VecX::Zero(tets + lines);
  if (values.size() == tets) out.head(tets) = values;
  return out;
}

std::vector<int> padded(const std::vector<int>& values, size_t tets, size_t lines) {
  std::vector<int> out(tets + lines, 0);
  if (values.size() == tets) std::copy(values.begin(), values.end(), out.begin());
  return out;
}

/// frames.pvd: new, over an emptied frames/, or when resuming the frames up to `resume_step`
/// (counted into `count`), the later ones' files removed.
std::unique_ptr<PvdCollection> open_frames_pvd(const std::filesystem::path& dir, bool resume,
                                               long resume_step, int& count) {
  if (resume) {
    remove_frame_files_after(dir / "frames", resume_step);
    const auto kept = PvdCollection::read_entries(dir / "frames.pvd");
    auto pvd = std::make_unique<PvdCollection>(dir / "frames.pvd");
    for (const auto& entry : kept)
      if (frame_file_step(entry.file) <= resume_step) {
        pvd->add(entry.time, entry.file, entry.part);
        ++count;
      }
    return pvd;
  }
  recreate_folder(dir / "frames");
  return std::make_unique<PvdCollection>(dir / "frames.pvd");
}

/// The vertices the boundary triangles use (ascending) and the triangles over them.
void renumber_surface(const FrameData& frames, std::vector<int>& surface_vertices,
                      MatX3i& surface_faces) {
  // The OBJ holds the boundary vertices only, renumbered in their original order.
  std::vector<int> index(static_cast<size_t>(frames.mesh.num_vertices()), -1);
  for (Eigen::Index f = 0; f < frames.surface.rows(); ++f)
    for (int k = 0; k < 3; ++k) index[static_cast<size_t>(frames.surface(f, k))] = 0;
  for (size_t i = 0; i < index.size(); ++i)
    if (index[i] == 0) {
      index[i] = static_cast<int>(surface_vertices.size());
      surface_vertices.push_back(static_cast<int>(i));
    }
  surface_faces = frames.surface;
  for (Eigen::Index f = 0; f < surface_faces.rows(); ++f)
    for (int k = 0; k < 3; ++k)
      surface_faces(f, k) = index[static_cast<size_t>(frames.surface(f, k))];
}

}  // namespace

FrameWriter::FrameWriter(const std::filesystem::path& out_dir, const FrameFormat& format,
                         const FrameData& frames, long resume_step)
    : FrameWriter(out_dir, format, frames, resume_step, true) {}

FrameWriter::FrameWriter(const std::filesystem::path& out_dir, const FrameFormat& format,
                         const FrameData& frames)
    : FrameWriter(out_dir, format, frames, -1, false) {}

FrameWriter::FrameWriter(const std::filesystem::path& out_dir, const FrameFormat& format,
                         const FrameData& frames, long resume_step, bool resume)
    : m_dir(out_dir), m_format(format), m_frames(frames) {
  if (m_format.vtu) m_pvd = open_frames_pvd(m_dir, resume, resume_step, m_count);
  if (!frames.obstacles.empty())
    m_obstacles = std::make_unique<ObstacleFrameWriter>(
        m_dir, frames.obstacles, m_format.zlib, resume ? resume_step : -1, m_count, m_format.vtu);
  if (m_format.surface) {
    if (resume)
      remove_frame_files_after(m_dir / "surface", resume_step);
    else
      recreate_folder(m_dir / "surface");
    renumber_surface(frames, m_surface_vertices, m_surface_faces);
  }
  // Springs (mass-spring objects) are line cells after the tets; their cell data is padded.
  const Eigen::Index n_tets = frames.mesh.num_tets();
  const Eigen::Index n_lines = static_cast<Eigen::Index>(frames.mesh.edges.size());
  m_youngs = padded(frames.youngs, n_tets, n_lines);
  m_cell_fields.cell_scalars = {{"E", &m_youngs}};
  if (frames.poisson.size() == n_tets) {
    m_poisson = padded(frames.poisson, n_tets, n_lines);
    m_cell_fields.cell_scalars.push_back({"nu", &m_poisson});
  }
  if (frames.density.size() == n_tets) {
    m_density = padded(frames.density, n_tets, n_lines);
    m_cell_fields.cell_scalars.push_back({"density", &m_density});
  }
  const auto tets = static_cast<size_t>(n_tets), lines = static_cast<size_t>(n_lines);
  if (!frames.mesh.regions.empty() || lines > 0) {
    m_regions = padded(frames.mesh.regions, tets, lines);
    m_cell_fields.cell_ints.push_back({"region", &m_regions});
  }
  if (!frames.material_region.empty() || lines > 0) {
    m_material_region = padded(frames.material_region, tets, lines);
    m_cell_fields.cell_ints.push_back({"material_region", &m_material_region});
  }
  if (frames.object.size() == tets + lines) {
    m_object = frames.object;
    m_cell_fields.cell_ints.push_back({"object", &m_object});
  }
  m_extra_cell_ints.reserve(frames.extra_cell_ints.size());  // pointers into it stay valid
  for (const auto& [name, values] : frames.extra_cell_ints) {
    if (values.size() != tets) continue;
    m_extra_cell_ints.push_back(padded(values, tets, lines));
    m_cell_fields.cell_ints.push_back({name, &m_extra_cell_ints.back()});
  }
  m_extra_cell_scalars.reserve(frames.extra_cell_scalars.size());
  for (const auto& [name, values] : frames.extra_cell_scalars) {
    if (values.size() != n_tets) continue;
    m_extra_cell_scalars.push_back(padded(values, n_tets, n_lines));
    m_cell_fields.cell_scalars.push_back({name, &m_extra_cell_scalars.back()});
  }
  for (const auto& [name, values] : frames.extra_point_scalars)
    if (values.size() == frames.mesh.num_vertices())
      m_cell_fields.point_scalars.push_back({name, &values});
  if (lines > 0) m_cell_fields.lines = &frames.mesh.edges;
  m_cell_fields.zlib = m_format.zlib;
}

void FrameWriter::write(int step, double t, const VecX& x, const VecX& v,
                        const std::vector<std::pair<std::string, MatX3>>& extra) {
  const MatX3 positions = as_rows(x);
  if (m_format.vtu) {
    const MatX3 displacement = positions - m_frames.mesh.vertices;
    const MatX3 velocity = as_rows(v);
    VtuFields fields = m_cell_fields;
    // ParaView's Warp By Vector warps by the active vectors, or else by the first vector array.
    // Over rest points that is `displacement`. Over deformed points `displacement` would show
    // the motion twice, so an all-zero array named for the reason is first and active: the
    // default warp leaves the deformed mesh as it is (tests/readers/check_frames_paraview.py).
    if (!m_format.rest_points) {
      if (m_already_deformed.rows() != positions.rows())
        m_already_deformed = MatX3::Zero(positions.rows(), 3);
      fields.point_vectors.emplace_back("already_deformed", &m_already_deformed);
    }
    fields.point_vectors.emplace_back("displacement", &displacement);
    fields.point_vectors.emplace_back("velocity", &velocity);
    for (const auto& [name, values] : extra) fields.point_vectors.emplace_back(name, &values);
    fields.active_vectors = true;
    fields.time = t;
    const auto file = m_dir / "frames" / frame_file_name(step, "vtu");
    write_vtu(file, m_format.rest_points ? m_frames.mesh.vertices : positions, m_frames.mesh.tets,
              fields);
    m_pvd->add(t, file);
    if (m_obstacles) m_obstacles->write(step, t, positions);
  }
  if (m_format.surface) {
    const MatX3 boundary = positions(m_surface_vertices, Eigen::all);
    write_obj(m_dir / "surface" / frame_file_name(step, "obj"), boundary, m_surface_faces);
  }
  if (m_format.vtu || m_format.surface) ++m_count;  // a run without frames counts none
}

}  // namespace simrun
