#include "scene/coarsening_files.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <fstream>

#include "coarsen/tet_overlap.hpp"
#include "io/csv_writer.hpp"
#include "io/vtu_writer.hpp"

namespace simrun {

namespace {
constexpr const char* kVoigt[6] = {"11", "22", "33", "23", "13", "12"};

MatX3 field_rows(const MatX& fields, int j) {
  MatX3 rows(fields.rows() / 3, 3);
  for (Eigen::Index v = 0; v < rows.rows(); ++v) rows.row(v) = fields.col(j).segment<3>(3 * v);
  return rows;
}
}  // namespace

void write_coarsening_files(const std::filesystem::path& out_dir, const std::string& name,
                            const ObjectCoarsening& coarsening, const TetMesh& coarse) {
  std::filesystem::create_directories(out_dir);
  const int nq = static_cast<int>(coarsening.tensors.size());
  const HomogenizedTensors& h = coarsening.homogenized;
  const bool harmonic = h.condition.size() == nq;

  std::vector<std::string> columns = {
      "tet",   "covered_fraction", "condition", "min_eigenvalue", "max_eigenvalue", "density",
      "volume"};
  for (int i = 0; i < 6; ++i)
    for (int k = i; k < 6; ++k) columns.push_back(std::string("C") + kVoigt[i] + "_" + kVoigt[k]);
  CsvWriter csv(out_dir / (name + "_tensors.csv"), columns);
  VecX c11(nq), c22(nq), c33(nq), min_eig(nq), covered(nq);
  for (int q = 0; q < nq; ++q) {
    const VoigtTensor& C = coarsening.tensors[q];
    const Eigen::SelfAdjointEigenSolver<VoigtTensor> eig(C, Eigen::EigenvaluesOnly);
    covered[q] = harmonic ? h.covered_fraction[q] : std::nan("");
    min_eig[q] = eig.eigenvalues()[0];
    std::vector<double> row = {
        static_cast<double>(q), covered[q],           harmonic ? h.condition[q] : std::nan(""),
        eig.eigenvalues()[0],   eig.eigenvalues()[5], coarsening.density[q]};
    // density x volume is the fine mass inside the tet: the column sums to the coarse mass.
    const auto x = tet_corners(coarse, q);
    row.push_back(std::abs(signed_tet_volume(x[0], x[1], x[2], x[3])));
    for (int i = 0; i < 6; ++i)
      for (int k = i; k < 6; ++k) row.push_back(C(i, k));
    csv.row(row);
    c11[q] = C(0, 0), c22[q] = C(1, 1), c33[q] = C(2, 2);
  }
  VtuFields coarse_fields;
  coarse_fields.cell_scalars = {
      {"C11", &c11}, {"C22", &c22}, {"C33", &c33}, {"min_eigenvalue", &min_eig}};
  if (harmonic) coarse_fields.cell_scalars.push_back({"covered_fraction", &covered});
  write_vtu(out_dir / (name + "_coarse.vtu"), coarse.vertices, coarse.tets, coarse_fields);

  if (coarsening.harmonic.fields.cols() == 6) {
    std::vector<MatX3> fields;
    for (int j = 0; j < 6; ++j) fields.push_back(field_rows(coarsening.harmonic.fields, j));
    VtuFields fine_fields;
    for (int j = 0; j < 6; ++j)
      fine_fields.point_vectors.push_back({std::string("h_") + kVoigt[j], &fields[j]});
    fine_fields.cell_scalars = {{"E", &coarsening.fine.youngs}};
    write_vtu(out_dir / (name + "_harmonic.vtu"), coarsening.fine.mesh.vertices,
              coarsening.fine.mesh.tets, fine_fields);
  }
  std::ofstream report(out_dir / "report.txt", std::ios::app);
  report << name << ": overlaps " << coarsening.overlap_seconds << " s, harmonic solves "
         << coarsening.harmonic_seconds << " s, tensors " << coarsening.tensor_seconds << " s\n";
  for (const std::string& note : coarsening.notes) report << "  " << note << "\n";
}

}  // namespace simrun
