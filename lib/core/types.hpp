#pragma once
/// Basic numeric aliases shared by every module. State vectors are flat: q = [x0 y0 z0 x1 ...].
#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace simrun {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Mat9 = Eigen::Matrix<double, 9, 9>;
using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec9 = Eigen::Matrix<double, 9, 1>;
using Vec12 = Eigen::Matrix<double, 12, 1>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
/// n x 3 vertex positions, one row per vertex (row-major so that data() is the flat 3n state).
using MatX3 = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
/// n x 4 tetrahedra (vertex indices), one row per element.
using MatX4i = Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>;
/// n x 3 triangles (vertex indices).
using MatX3i = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;
/// Column-major CSC with int indices (what CHOLMOD's int interface takes).
using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

/// View a flat 3n vector as n x 3 rows.
inline Eigen::Map<MatX3> as_rows(VecX& q) { return {q.data(), q.size() / 3, 3}; }
inline Eigen::Map<const MatX3> as_rows(const VecX& q) { return {q.data(), q.size() / 3, 3}; }
/// View n x 3 rows as a flat 3n vector.
inline Eigen::Map<const VecX> as_flat(const MatX3& x) { return {x.data(), x.size()}; }

}  // namespace simrun
