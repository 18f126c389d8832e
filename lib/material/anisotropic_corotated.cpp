#include "material/anisotropic_corotated.hpp"

#include <cmath>

#include "material/principal_stretch.hpp"
#include "material/voigt.hpp"

// Derivatives of psi(F) = 1/2 e:C:e, e = S - I, S^2 = F^T F (S symmetric, from the signed SVD).
// Write G = C:e (the symmetric tensor stress_from_voigt(C engineering_strain(e))) and
// L(X) = S X + X S. In the eigenbasis of S = V diag(sigma) V^T, L multiplies entry (i,j) of
// V^T X V by sigma_i + sigma_j, so L^-1 divides by it (singular only where sigma_i + sigma_j = 0;
// bounded there by guarded_sum). L and L^-1 are self-adjoint for A:B = tr(A^T B).
//
// First variation. Differentiating S S = F^T F along dF:
//   S dS + dS S = dF^T F + F^T dF   =>   dS = L^-1(Y),  Y = dF^T F + F^T dF.
// dpsi = G:dS (symmetric G against symmetric dS; the engineering factor 2 on the shears is what
// makes (C e).de equal the tensor contraction) = G:L^-1(Y) = H:Y with H = L^-1(G), symmetric.
// H:(dF^T F) = tr(H dF^T F) = (F H):dF and H:(F^T dF) = (F H):dF, hence
//   P = 2 F H.
// In the SVD frame, with G' = V^T G V and H' = V^T H V (H'_ij = G'_ij / (s_i + s_j)):
//   P = 2 U diag(s) V^T V H' V^T = U K V^T,  K_ij = 2 s_i G'_ij / (s_i + s_j),  K_ii = G'_ii,
// so the diagonal needs no division (P stays finite at s_i = 0). Isotropic check: C:e =
// 2 mu e + lambda tr(e) I is diagonal in V with G'_aa = 2 mu (s_a - 1) + lambda (sum s - 3) =
// psi_a of `corotated`, K = diag(psi_a) and P = U diag(psi_a) V^T, its stress.
//
// Second variation along dFa, dFb. dpsi[dFa] = G:dS_a; differentiate along dFb:
//   d2psi = (C:dS_b):dS_a + G:d2S,
// and differentiating S dS_a + dS_a S = dFa^T F + F^T dFa along dFb:
//   dS_b dS_a + S d2S + d2S S + dS_a dS_b = dFa^T dFb + dFb^T dFa,
//   d2S = L^-1(dFa^T dFb + dFb^T dFa - dS_a dS_b - dS_b dS_a),
// so (L^-1 self-adjoint)
//   d2psi = dS_a:C:dS_b + H:(dFa^T dFb + dFb^T dFa - dS_a dS_b - dS_b dS_a).
// Symmetric in a, b (major symmetry of dP/dF). With H symmetric, H:(X^T) = H:X, so the bracket
// contracts to 2 H:(dFa^T dFb - dS_a dS_b). Evaluated in the SVD frame: dF = U A V^T gives
// dFa^T dFb = V A_a^T A_b V^T, and Y' = V^T Y V = A^T diag(s) + diag(s) A, so
//   dS'_ij = (s_i A_ij + s_j A_ji) / (s_i + s_j),  dS'_ii = A_ii,
//   d2psi = e(V dS'_a V^T) . C e(V dS'_b V^T) + 2 H':(A_a^T A_b - dS'_a dS'_b).
// dP/dF column c = (k,l) is the direction dF = e_k e_l^T, i.e. A = (row k of U)^T (row l of V).

namespace simrun {

namespace {
/// The pieces every derivative needs: the signed SVD of F and G' = V^T (C:e) V.
struct CorotatedFrame {
  SignedSvd svd;
  Vec6 strain;    ///< engineering_strain(S - I)
  Mat3 G_frame;   ///< V^T G V, G = stress_from_voigt(C strain)
  double energy;  ///< 1/2 strain . C strain
};

CorotatedFrame corotated_frame(const Mat3& F, const VoigtTensor& C) {
  CorotatedFrame f;
  f.svd = signed_svd(F);
  const Mat3& V = f.svd.V;
  const Mat3 strain_tensor = V * (f.svd.sigma - Vec3::Ones()).asDiagonal() * V.transpose();
  f.strain = engineering_strain(strain_tensor);
  const Vec6 stress = C * f.strain;
  f.energy = 0.5 * f.strain.dot(stress);
  f.G_frame = V.transpose() * stress_from_voigt(stress) * V;
  return f;
}

/// numerator / (s_i + s_j): entry (i,j) of L^-1 in the SVD frame, bounded by guarded_sum where
/// s_i + s_j = 0 (as corotated.cpp bounds its twist quotients).
double lyapunov_quotient(const Vec3& s, int i, int j, double numerator) {
  return numerator / guarded_sum(s[i], s[j]);
}
}  // namespace

double AnisotropicCorotated::energy_density(const Mat3& F, const MaterialParameters& p) const {
  return corotated_frame(F, required_stiffness(p, name())).energy;
}

Mat3 AnisotropicCorotated::first_piola(const Mat3& F, const MaterialParameters& p) const {
  const CorotatedFrame f = corotated_frame(F, required_stiffness(p, name()));
  const Vec3& s = f.svd.sigma;
  Mat3 K;  // P = U K V^T, K = 2 diag(s) H'
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) {
      K(i, j) = i == j ? f.G_frame(i, i) : lyapunov_quotient(s, i, j, 2.0 * s[i] * f.G_frame(i, j));
    }
  }
  return f.svd.U * K * f.svd.V.transpose();
}

Mat9 AnisotropicCorotated::first_piola_derivative(const Mat3& F,
                                                  const MaterialParameters& p) const {
  const VoigtTensor& C = required_stiffness(p, name());
  const CorotatedFrame f = corotated_frame(F, C);
  const Mat3 &U = f.svd.U, &V = f.svd.V;
  const Vec3& s = f.svd.sigma;

  Mat3 H_frame;  // H' = V^T L^-1(G) V
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) H_frame(i, j) = lyapunov_quotient(s, i, j, f.G_frame(i, j));
  }

  Mat3 A[9], dS[9];
  Eigen::Matrix<double, 6, 9> strain_rate;  // column c: engineering strain of dS_c (world frame)
  for (int c = 0; c < 9; ++c) {
    const int k = c % 3, l = c / 3;
    A[c] = U.row(k).transpose() * V.row(l);
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) {
        dS[c](i, j) =
            i == j ? A[c](i, i) : lyapunov_quotient(s, i, j, s[i] * A[c](i, j) + s[j] * A[c](j, i));
      }
    }
    strain_rate.col(c) = engineering_strain(V * dS[c] * V.transpose());
  }

  // Small fixed sizes: coefficient-wise products (lazyProduct) instead of Eigen's blocked GEMM.
  const Eigen::Matrix<double, 6, 9> stress_rate = C.lazyProduct(strain_rate);
  Mat9 D = strain_rate.transpose().lazyProduct(stress_rate);
  for (int a = 0; a < 9; ++a) {
    for (int b = a; b < 9; ++b) {
      const double geometric =
          2.0 * H_frame.cwiseProduct(A[a].transpose() * A[b] - dS[a] * dS[b]).sum();
      D(a, b) += geometric;
      if (b != a) D(b, a) = D(a, b);
    }
  }
  return D;
}

double AnisotropicCorotated::energy_density_magnitude(const Mat3& F,
                                                      const MaterialParameters& p) const {
  return std::abs(energy_density(F, p)) +
         voigt_row_sum_norm(required_stiffness(p, name())) * F.squaredNorm();
}

}  // namespace simrun
