#include "coarsen/eigen_ratios.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <cmath>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace simrun {

namespace {

GeneralizedEigenResult lowest_modes(Model& model, int count, const std::string& what,
                                    const char* mesh, const RestEigenSolve& solve) {
  require(count <= model.num_free(), what + ": " + std::to_string(count) +
                                         " modes requested, but the " + mesh + " mesh has " +
                                         std::to_string(model.num_free()) + " free DOFs");
  // The elastic stiffness at the full rest state: the constrained DOFs at rest too (at t = 0 they
  // may be prescribed elsewhere, e.g. a stretched start), and no springs or contact.
  SpMat K;
  model.rest_elastic_stiffness(K);
  GeneralizedEigenResult r = solve ? solve(K, model.mass(), count)
                                   : smallest_generalized_eigenpairs(K, model.mass(), count);
  require(r.status == Status::kSuccess && r.values.size() == count,
          what + ": the rest eigensolve of the " + mesh + " mesh did not converge (" +
              std::to_string(count) + " modes)");
  return r;
}

}  // namespace

EigenRatios rest_eigen_ratios(Model& coarse, Model* fine, int modes, int rigid,
                              const std::vector<double>& manual, const std::string& what,
                              const RestEigenSolve& solve) {
  const int count = rigid + modes;
  EigenRatios out;
  out.rigid = rigid;
  const GeneralizedEigenResult c = lowest_modes(coarse, count, what, "coarse", solve);
  out.coarse = c.values;
  out.coarse_modes = c.vectors;
  out.ratios = VecX::Ones(count);
  const bool all_manual = static_cast<int>(manual.size()) >= modes;
  if (fine != nullptr && !all_manual) {
    const GeneralizedEigenResult f = lowest_modes(*fine, count, what, "reference", solve);
    out.fine = f.values;
    out.fine_modes = f.vectors;
  }
  for (int i = rigid; i < count; ++i) {
    const int k = i - rigid;  // elastic mode index
    if (k < static_cast<int>(manual.size())) {
      out.ratios[i] = manual[static_cast<size_t>(k)];
      out.manual = true;
      continue;
    }
    require(out.fine.size() == count, what + ": no reference mesh to compute ratio " +
                                          std::to_string(k + 1) + " from (give it in 'ratios')");
    // A positive elastic spectrum on both meshes: a zero eigenvalue means an unconstrained
    // rigid motion the rigid count missed (e.g. a body held at one vertex), where 0/0 is
    // meaningless.
    const double lc = out.coarse[i], lf = out.fine[i];
    const double scale = std::max(std::abs(out.coarse[count - 1]), 1e-300);
    require(lc > 1e-8 * scale && lf > 1e-8 * scale,
            what + ": elastic eigenvalue " + std::to_string(k + 1) + " is not positive (coarse " +
                short_number(lc, 6) + ", reference " + short_number(lf, 6) +
                "): the body has an unconstrained rigid motion; constrain it or leave it free "
                "(free bodies hold their 6 rigid modes at ratio 1)");
    out.ratios[i] = lf / lc;
  }
  return out;
}

VecX compatibility_column_maxima(const Model& coarse, const TetMesh& coarse_mesh, const Model& fine,
                                 const Embedding& embedding, const MatX& coarse_modes,
                                 const MatX& fine_modes, std::vector<int>* matched_fine_mode) {
  const Eigen::Index s = std::min(coarse_modes.cols(), fine_modes.cols());
  MatX BU(fine.num_free(), s);
  VecX full = VecX::Zero(coarse.dofs().num_full());
  for (Eigen::Index j = 0; j < s; ++j) {
    full.setZero();
    coarse.dofs().scatter(coarse_modes.col(j), full);
    const VecX at_fine = embedding.interpolate_flat(coarse_mesh, full);
    VecX col = fine.restrict_vector(at_fine);
    const double norm = std::sqrt(std::max(col.dot(fine.apply_mass(col)), 0.0));
    BU.col(j) = norm > 0 ? VecX(col / norm) : col;
  }
  MatX MUf(fine.num_free(), s);
  for (Eigen::Index j = 0; j < s; ++j) MUf.col(j) = fine.apply_mass(fine_modes.col(j));
  // C(i, j) = |(B u_c,i)^T M_f u_f,j|: row i belongs to coarse mode i.
  const MatX C = (BU.transpose() * MUf).cwiseAbs();
  VecX maxima(s);
  if (matched_fine_mode) matched_fine_mode->assign(static_cast<size_t>(s), -1);
  for (Eigen::Index i = 0; i < s; ++i) {
    Eigen::Index j = 0;
    maxima[i] = C.row(i).maxCoeff(&j);
    if (matched_fine_mode) (*matched_fine_mode)[static_cast<size_t>(i)] = static_cast<int>(j);
  }
  return maxima;
}

VecX tracking_column_maxima(const Model& model, const MatX& modes, const MatX& rest_modes,
                            const Mat3& rotation) {
  const Eigen::Index s = std::min(modes.cols(), rest_modes.cols());
  return tracking_column_maxima_of_mass_modes(model, model.apply_mass_block(modes.leftCols(s)),
                                              rest_modes, rotation);
}

VecX tracking_column_maxima_of_mass_modes(const Model& model, const MatX& mass_modes,
                                          const MatX& rest_modes, const Mat3& rotation) {
  const Eigen::Index s = std::min(mass_modes.cols(), rest_modes.cols());
  const MatX turned = rotation.isIdentity(0.0)
                          ? MatX(rest_modes.leftCols(s))
                          : rotate_vertex_vectors(model, rotation, rest_modes.leftCols(s));
  // U^T M (Q U_r) = (M U)^T (Q U_r): M is symmetric.
  const MatX C = (mass_modes.leftCols(s).transpose() * turned).cwiseAbs();
  return C.colwise().maxCoeff().transpose();
}

Mat3 best_rotation(const Model& model, const VecX& q) {
  const VecX x = model.full_positions(q);
  const VecX& X = model.rest_positions();
  const DofMap& dofs = model.dofs();
  const VecX& mass = model.lumped_mass();
  // Free vertices (all three DOFs free) and their masses.
  std::vector<std::pair<int, double>> vertices;
  for (int v = 0; v < model.num_vertices(); ++v) {
    const int i = dofs.free_index(3 * v);
    if (i >= 0 && dofs.free_index(3 * v + 1) >= 0 && dofs.free_index(3 * v + 2) >= 0)
      vertices.emplace_back(v, mass[i]);
  }
  double total = 0.0;
  Vec3 xc = Vec3::Zero(), Xc = Vec3::Zero();
  for (const auto& [v, m] : vertices) {
    xc += m * x.segment<3>(3 * v);
    Xc += m * X.segment<3>(3 * v);
    total += m;
  }
  if (!(total > 0.0)) return Mat3::Identity();
  xc /= total;
  Xc /= total;
  Mat3 A = Mat3::Zero();
  for (const auto& [v, m] : vertices)
    A += m * (x.segment<3>(3 * v) - xc) * (X.segment<3>(3 * v) - Xc).transpose();
  const Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 S = Mat3::Identity();
  S(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
  return svd.matrixU() * S * svd.matrixV().transpose();
}

MatX rotate_vertex_vectors(const Model& model, const Mat3& rotation, const MatX& vectors) {
  MatX out = vectors;
  const DofMap& dofs = model.dofs();
  for (int v = 0; v < model.num_vertices(); ++v) {
    const int i = dofs.free_index(3 * v), j = dofs.free_index(3 * v + 1),
              k = dofs.free_index(3 * v + 2);
    if (i < 0 || j != i + 1 || k != i + 2) continue;
    out.middleRows(i, 3) = rotation * vectors.middleRows(i, 3);
  }
  return out;
}

int columns_passing(const VecX& column_maxima) {
  return static_cast<int>((column_maxima.array() > 0.6).count());
}

bool passes_mode_test(const VecX& column_maxima) {
  return 2 * columns_passing(column_maxima) >= column_maxima.size();
}

}  // namespace simrun
