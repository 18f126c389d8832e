#include "coarsen/homogenized_tensors.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

#include "coarsen/harmonic_displacements.hpp"

namespace simrun {

LoadCaseStrains load_case_strains(const TetGradients& G, const Eigen::Vector4i& tet,
                                  const MatX& fields) {
  const Eigen::Matrix<double, 6, 12> B = voigt_strain_operator(G);
  Eigen::Matrix<double, 12, 6> u;
  for (int a = 0; a < 4; ++a) u.middleRows<3>(3 * a) = fields.middleRows<3>(3 * tet[a]);
  return B * u;
}

HomogenizedTensors homogenize_tensors(const TetMesh& fine, const TetElements& fine_elements,
                                      const std::vector<VoigtTensor>& fine_tensors,
                                      const MatX& fine_fields, const TetMesh& coarse,
                                      const TetElements& coarse_elements,
                                      const TetOverlaps& overlaps) {
  const int nq = coarse_elements.size();
  HomogenizedTensors out;

  // Step 3: H at the coarse vertices, by barycentric interpolation over the fine tets.
  out.coarse_in_fine = embed_points(fine, coarse.vertices);
  out.coarse_fields.resize(3 * coarse.num_vertices(), 6);
  for (int j = 0; j < 6; ++j)
    out.coarse_fields.col(j) = out.coarse_in_fine.interpolate_flat(fine, fine_fields.col(j));

  // Step 4: A_q, the overlap-weighted G_p^T C_p G_p (pairs sorted by coarse tet).
  std::vector<VoigtTensor> A(nq, VoigtTensor::Zero());
  out.covered_fraction = VecX::Zero(nq);
  for (size_t k = 0; k < overlaps.volume.size(); ++k) {
    const int p = overlaps.fine[k], q = overlaps.coarse[k];
    const double fraction = overlaps.volume[k] / coarse_elements.volume[q];
    const LoadCaseStrains Gp =
        load_case_strains(fine_elements.grad[p], fine_elements.tets.row(p), fine_fields);
    A[q] += fraction * Gp.transpose() * fine_tensors[p] * Gp;
    out.covered_fraction[q] += fraction;
  }

  // Step 5: C_q = G_q^-T A_q G_q^-1 (Eq. 4.5), symmetrized.
  out.tensors.resize(nq);
  out.condition.resize(nq);
  out.min_eigenvalue.resize(nq);
  out.max_eigenvalue.resize(nq);
  for (int q = 0; q < nq; ++q) {
    const LoadCaseStrains Gq =
        load_case_strains(coarse_elements.grad[q], coarse_elements.tets.row(q), out.coarse_fields);
    const Eigen::JacobiSVD<VoigtTensor> svd(Gq);
    const auto& s = svd.singularValues();
    out.condition[q] = s[0] / s[5];
    const VoigtTensor Ginv = Gq.inverse();
    VoigtTensor C = Ginv.transpose() * A[q] * Ginv;
    C = 0.5 * (C + C.transpose()).eval();
    out.tensors[q] = C;
    const Eigen::SelfAdjointEigenSolver<VoigtTensor> eig(C, Eigen::EigenvaluesOnly);
    out.min_eigenvalue[q] = eig.eigenvalues()[0];
    out.max_eigenvalue[q] = eig.eigenvalues()[5];
  }
  return out;
}

std::vector<LameParameters> average_lame(const std::vector<LameParameters>& fine,
                                         const TetOverlaps& overlaps, const VecX& coarse_volumes) {
  std::vector<LameParameters> coarse(coarse_volumes.size(), LameParameters{0.0, 0.0});
  for (size_t k = 0; k < overlaps.volume.size(); ++k) {
    const int p = overlaps.fine[k], q = overlaps.coarse[k];
    const double fraction = overlaps.volume[k] / coarse_volumes[q];
    coarse[q].mu += fraction * fine[p].mu;
    coarse[q].lambda += fraction * fine[p].lambda;
  }
  return coarse;
}

VecX coarse_density(const VecX& fine_density, const TetOverlaps& overlaps,
                    const VecX& coarse_volumes) {
  VecX mass = VecX::Zero(coarse_volumes.size());
  for (size_t k = 0; k < overlaps.volume.size(); ++k)
    mass[overlaps.coarse[k]] += fine_density[overlaps.fine[k]] * overlaps.volume[k];
  return mass.cwiseQuotient(coarse_volumes);
}

}  // namespace simrun
