#include "coarsen/display_map.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

namespace simrun {

namespace {
/// The rotation nearest to A (polar factor with det +1).
Mat3 nearest_rotation(const Mat3& A) {
  const Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 D = Mat3::Identity();
  D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1.0 : 1.0;
  return svd.matrixU() * D * svd.matrixV().transpose();
}

Mat3 edge_matrix(const MatX3& x, const Eigen::Vector4i& t) {
  Mat3 D;
  for (int c = 0; c < 3; ++c) D.col(c) = (x.row(t[c + 1]) - x.row(t[0])).transpose();
  return D;
}
}  // namespace

void CoarseToFineMap::fit_rotation_and_coefficients(const Mat3& F,
                                                    const Eigen::Matrix<double, 9, 6>& basis,
                                                    Mat3& R, Eigen::Matrix<double, 6, 1>& c) {
  using Vec9 = Eigen::Matrix<double, 9, 1>;
  // Start: R = the polar rotation of F transposed, c by least squares.
  R = nearest_rotation(F).transpose();
  const auto residual = [&](const Mat3& rotation, const Eigen::Matrix<double, 6, 1>& coef) {
    const Mat3 r = rotation * F - Mat3::Identity();
    return Vec9(Eigen::Map<const Vec9>(r.data()) - basis * coef);
  };
  const Mat3 start = R * F - Mat3::Identity();
  c = basis.colPivHouseholderQr().solve(Eigen::Map<const Vec9>(start.data()));
  // Newton on (rotation vector, c): d/dw_k of exp([w]x) R F at w = 0 is [e_k]x R F.
  for (int iteration = 0; iteration < 30; ++iteration) {
    const Vec9 r = residual(R, c);
    if (r.norm() < 1e-14 * (1.0 + F.norm())) break;
    Eigen::Matrix<double, 9, 9> J;
    const Mat3 M = R * F;
    for (int k = 0; k < 3; ++k) {
      Mat3 column;  // [e_k]x M, column by column
      for (int m = 0; m < 3; ++m) column.col(m) = Vec3::Unit(k).cross(M.col(m));
      J.col(k) = Eigen::Map<const Vec9>(column.data());
    }
    J.rightCols<6>() = -basis;
    const Vec9 step = J.fullPivLu().solve(-r);
    const Vec3 w = step.head<3>();
    if (w.norm() > 0.0) R = Eigen::AngleAxisd(w.norm(), w.normalized()).toRotationMatrix() * R;
    c += step.tail<6>();
  }
}

CoarseToFineMap::CoarseToFineMap(const TetMesh& coarse, const MatX& coarse_fields,
                                 std::vector<bool> mapped, const MatX3& fine_points,
                                 const MatX& fine_fields, Embedding embedding)
    : m_coarse(coarse),
      m_mapped(std::move(mapped)),
      m_fine_points(fine_points),
      m_embedding(std::move(embedding)) {
  const int nq = coarse.num_tets();
  m_rest_inverse.resize(nq);
  m_basis.assign(nq, Eigen::Matrix<double, 9, 6>::Zero());
  for (int q = 0; q < nq; ++q) {
    const Eigen::Vector4i t = coarse.tets.row(q);
    m_rest_inverse[q] = edge_matrix(coarse.vertices, t).inverse();
    if (!m_mapped[q]) continue;
    for (int j = 0; j < 6; ++j) {
      Mat3 dH;  // columns: H_j(X^a) - H_j(X^0), a = 1..3
      for (int a = 0; a < 3; ++a)
        dH.col(a) = coarse_fields.col(j).segment<3>(3 * t[a + 1]) -
                    coarse_fields.col(j).segment<3>(3 * t[0]);
      const Mat3 gradient = dH * m_rest_inverse[q];
      m_basis[q].col(j) = Eigen::Map<const Eigen::Matrix<double, 9, 1>>(gradient.data());
    }
  }
  const int n = m_embedding.num_points();
  m_fine_detail.assign(n, Eigen::Matrix<double, 3, 6>::Zero());
  for (int p = 0; p < n; ++p) {
    const int q = m_embedding.tet[p];
    if (!m_mapped[q]) continue;
    const int v0 = coarse.tets(q, 0);
    for (int j = 0; j < 6; ++j)
      m_fine_detail[p].col(j) =
          fine_fields.col(j).segment<3>(3 * p) - coarse_fields.col(j).segment<3>(3 * v0);
  }
}

VecX CoarseToFineMap::positions(const VecX& coarse_positions) const {
  VecX x = m_embedding.interpolate_flat(m_coarse, coarse_positions);
  const int nq = m_coarse.num_tets();
  std::vector<Mat3> rotation(nq);
  std::vector<Eigen::Matrix<double, 6, 1>> coefficients(nq);
  std::vector<bool> fitted(nq, false);
  for (int p = 0; p < m_embedding.num_points(); ++p) {
    const int q = m_embedding.tet[p];
    if (!m_mapped[q]) continue;
    const Eigen::Vector4i t = m_coarse.tets.row(q);
    if (!fitted[q]) {
      Mat3 D;
      for (int c = 0; c < 3; ++c)
        D.col(c) =
            coarse_positions.segment<3>(3 * t[c + 1]) - coarse_positions.segment<3>(3 * t[0]);
      fit_rotation_and_coefficients(D * m_rest_inverse[q], m_basis[q], rotation[q],
                                    coefficients[q]);
      fitted[q] = true;
    }
    const Vec3 X0 = m_coarse.vertices.row(t[0]).transpose();
    const Vec3 local = m_fine_points.row(p).transpose() - X0 + m_fine_detail[p] * coefficients[q];
    x.segment<3>(3 * p) = coarse_positions.segment<3>(3 * t[0]) + rotation[q].transpose() * local;
  }
  return x;
}

VecX CoarseToFineMap::velocities(const VecX& coarse_velocities) const {
  return m_embedding.interpolate_flat(m_coarse, coarse_velocities);
}

}  // namespace simrun
