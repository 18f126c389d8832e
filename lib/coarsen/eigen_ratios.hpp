#pragma once
/// EigenFit's rest-state eigenvalue ratios and its coarse/fine compatibility test (Chen et al.
/// 2019 (EigenFit), Secs. 3.3.1 and 3.5): r_i = lambda_fine_i / lambda_coarse_i from the consistent
/// (or lumped, the scene's) mass eigenproblems K u = lambda M u of two meshes of one object at
/// rest, with the same constraint region.
#include <functional>
#include <string>
#include <vector>

#include "mesh/embedding.hpp"
#include "model/model.hpp"
#include "solve/eigen_solver.hpp"

namespace simrun {

struct EigenRatios {
  VecX coarse;    ///< lambda_coarse_i at rest, i = 1..rigid + modes, ascending
  VecX fine;      ///< lambda_fine_i (empty with manual ratios and no fine model)
  VecX ratios;    ///< r_i: 1 for the rigid modes, else fine / coarse (or manual)
  int rigid = 0;  ///< leading modes held at ratio 1 (free bodies: 6 each)
  bool manual = false;
  MatX coarse_modes;  ///< U_{s,r}: the coarse rest modes (M-orthonormal), for the tracking test
  MatX fine_modes;    ///< U_{s,r,f}: the fine rest modes (empty with manual ratios)
};

/// The solver of the rest eigenproblems: smallest_generalized_eigenpairs when empty (a scene
/// passes a cached one, scene/rest_eigen_cache.hpp).
using RestEigenSolve =
    std::function<GeneralizedEigenResult(const SpMat& K, const SpMat& M, int count)>;

/// The rest modes of both models and their ratios. `modes` elastic modes are fitted after
/// `rigid` rigid ones (ratio 1: 0/0 is undefined). `manual` (may be empty) replaces the computed
/// ratios of the elastic modes in order (missing entries: computed). A non-positive elastic
/// eigenvalue on either mesh throws InputError naming `what` (the object).
EigenRatios rest_eigen_ratios(Model& coarse, Model* fine, int modes, int rigid,
                              const std::vector<double>& manual, const std::string& what,
                              const RestEigenSolve& solve = {});

/// The first-frame test of Chen et al. 2019 (EigenFit), Sec. 3.5 (its U_{s,r,c}^T B M_f U_{s,r,f}
/// is a typo: the dimensions do not match): C = (B U_c)^T M_f U_f with the columns of B U_c
/// M_f-normalized; per fitted mode (column of C) the largest |C_ij|. The test passes when at
/// least half of them exceed 0.6. B embeds the fine mesh's vertices in the coarse mesh
/// (`embedding`, over full vertex numberings; U's are over free DOFs of each model).
VecX compatibility_column_maxima(const Model& coarse, const TetMesh& coarse_mesh, const Model& fine,
                                 const Embedding& embedding, const MatX& coarse_modes,
                                 const MatX& fine_modes,
                                 std::vector<int>* matched_fine_mode = nullptr);
/// (`matched_fine_mode`, if given: per coarse mode, the fine mode of its largest entry. The
/// ratios pair modes by index, so a match at another index means the two meshes order their
/// modes differently and one mode's ratio is applied to another.)

/// The tracking test (EigenFit Sec. 3.5): per column of |U^T M (Q U_rest)|, the largest entry
/// (how well current mode j follows some rest mode). Q turns every free vertex's 3-vector by
/// `rotation`: the rest modes in the body's current orientation (best_rotation), as a rigidly
/// rotated body's modes are its rest modes rotated. M commutes with Q (it is a scalar per vertex
/// pair times I_3), so Q U_rest stays M-orthonormal.
VecX tracking_column_maxima(const Model& model, const MatX& modes, const MatX& rest_modes,
                            const Mat3& rotation = Mat3::Identity());
/// The same from M U (`mass_modes`), for callers that have it: |(M U)^T (Q U_rest)|.
VecX tracking_column_maxima_of_mass_modes(const Model& model, const MatX& mass_modes,
                                          const MatX& rest_modes,
                                          const Mat3& rotation = Mat3::Identity());

/// The rotation R that best maps the rest positions X onto the current ones x (orthogonal
/// Procrustes, Kabsch): min over rotations of sum_v m_v |R (X_v - X_c) - (x_v - x_c)|^2 over the
/// free vertices, m_v their lumped masses, X_c, x_c the mass centres. R is the rotation factor of
/// the polar decomposition of A = sum_v m_v (x_v - x_c)(X_v - X_c)^T: A = U S V^T (SVD),
/// R = U diag(1, 1, det(U V^T)) V^T.
Mat3 best_rotation(const Model& model, const VecX& q);

/// Turns each free vertex's 3-vector of the columns (free-DOF vectors) by `rotation`; a vertex
/// with some constrained DOFs keeps its entries.
MatX rotate_vertex_vectors(const Model& model, const Mat3& rotation, const MatX& vectors);

/// The paper's rule for both tests: at least half of the column maxima exceed 1 - 0.4.
int columns_passing(const VecX& column_maxima);
bool passes_mode_test(const VecX& column_maxima);

}  // namespace simrun
