#pragma once
/// Hyperelastic material model: energy density psi(F), first Piola-Kirchhoff stress P = dpsi/dF
/// and its derivative dP/dF. Stateless; per-element parameters are passed in, so one instance
/// serves heterogeneous bodies.
///
/// dP/dF is a 9x9 matrix acting on vec(F) in column-major order (entry F(i,j) at i + 3 j), the
/// same layout as Eigen's Mat3 storage.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "material/material_parameters.hpp"

namespace simrun {

/// The value negative eigenvalues of dP/dF are clamped to by first_piola_derivative_psd
/// (Teran et al. 2005 clamp). Zero keeps the projection the nearest PSD matrix in the Frobenius
/// norm; eigenvalues >= 0, among them the rigid-rotation zeros, are never changed. The element
/// Hessian V B^T D B is then PSD too. (Chen et al. 2019 (EigenFit), Sec. 3.3.1, uses 1e-3 to
/// make the global K definite; callers that need that pass it to project_psd.)
inline constexpr double kPsdEpsilon = 0.0;

class Material {
 public:
  virtual ~Material() = default;
  /// The scene name of the model ("linear", ...).
  virtual std::string_view name() const = 0;
  /// Energy per unit rest volume [J/m^3].
  virtual double energy_density(const Mat3& F, const MaterialParameters& p) const = 0;
  /// P = dpsi/dF [Pa].
  virtual Mat3 first_piola(const Mat3& F, const MaterialParameters& p) const = 0;
  /// dP/dF, 9x9 on column-major vec(F).
  virtual Mat9 first_piola_derivative(const Mat3& F, const MaterialParameters& p) const = 0;
  /// dP/dF projected to the positive semidefinite cone: negative eigenvalues become kPsdEpsilon.
  /// The default clamps the eigenvalues of the 9x9 matrix (see project_psd); models with
  /// analytic eigensystems override it with the same result.
  virtual Mat9 first_piola_derivative_psd(const Mat3& F, const MaterialParameters& p) const;
  /// Both at once (EigenFit's projected stiffness beside the integrator's): D = dP/dF and
  /// D_psd = its projection, and true when the projection changed something (false when D is
  /// positive semidefinite already, or undefined: all NaN where the model is). Models with an
  /// analytic eigensystem share the decomposition; the default makes the two calls.
  virtual bool first_piola_derivative_pair(const Mat3& F, const MaterialParameters& p, Mat9& D,
                                           Mat9& D_psd) const;
  /// True when dP/dF does not depend on F (psi quadratic in F): assembled Hessians are constant.
  virtual bool is_quadratic() const { return false; }
  /// Scale of the rounding error of energy_density(F) over eps [J/m^3]: the size of the parts it
  /// sums. The models compute psi as differences of parts of size (mu + |lambda|) |F|^2 (for
  /// example mu/2 (tr F^T F - 3), which cancels to 0 at rest), so the default is
  /// |psi| + (mu + |lambda|) |F|_F^2 (model/elastic_energy.cpp adds the rounding of F itself).
  virtual double energy_density_magnitude(const Mat3& F, const MaterialParameters& p) const;
  /// True when the model reads MaterialParameters::stiffness (a 6x6 tensor per element).
  virtual bool needs_stiffness_tensor() const { return false; }
  /// True when psi is finite for inverted elements (det F <= 0). Models that return false give
  /// +inf energy there, which line searches reject and the step loop reports as divergence.
  virtual bool allows_inversion() const = 0;
};

/// Symmetric eigenvalue clamp: eigenvalues below zero become `epsilon` (>= 0). Eigenvalues at or
/// above zero are kept, so exact zero modes (rigid rotations of the element) stay zero.
Mat9 project_psd(const Mat9& A, double epsilon = 0.0);

/// The model registered under `name`; throws InputError (with the known names) otherwise.
std::unique_ptr<Material> make_material(std::string_view name);

/// Every name make_material accepts, in registration order.
std::vector<std::string> material_names();

}  // namespace simrun
