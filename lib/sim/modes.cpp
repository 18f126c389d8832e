#include "sim/modes.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

#include "io/csv_writer.hpp"
#include "io/vtu_writer.hpp"

namespace simrun {

GeneralizedEigenResult rest_modes(Model& model, int count, GeneralizedEigenSolver& solver) {
  SpMat K;
  model.stiffness(model.restrict_vector(model.rest_positions()), K, /*project_psd=*/false);
  return solver.compute(K, model.mass(), count);
}

GeneralizedEigenResult rest_modes(Model& model, int count) {
  GeneralizedEigenSolver solver;
  return rest_modes(model, count, solver);
}

void write_modes(const std::filesystem::path& out_dir, const Model& model, const FrameData& frames,
                 const GeneralizedEigenResult& modes, bool write_shapes) {
  if (write_shapes)
    std::filesystem::create_directories(out_dir / "modes");
  else
    std::filesystem::create_directories(out_dir);
  CsvWriter csv(out_dir / "modes.csv", {"mode", "eigenvalue", "frequency_hz"});
  for (Eigen::Index i = 0; i < modes.values.size(); ++i) {
    const double lambda = modes.values[i];
    csv.row({static_cast<double>(i + 1), lambda,
             std::sqrt(std::max(lambda, 0.0)) / (2 * std::numbers::pi)});
    if (!write_shapes) continue;
    VecX shape = VecX::Zero(model.dofs().num_full());
    model.dofs().scatter(modes.vectors.col(i), shape);
    const MatX3 displacement = as_rows(shape);
    VtuFields fields;
    fields.point_vectors = {{"displacement", &displacement}};
    fields.cell_scalars = {{"E", &frames.youngs}};
    char name[32];
    std::snprintf(name, sizeof name, "mode_%03d.vtu", static_cast<int>(i + 1));
    write_vtu(out_dir / "modes" / name, frames.mesh.vertices, frames.mesh.tets, fields);
  }
}

}  // namespace simrun
