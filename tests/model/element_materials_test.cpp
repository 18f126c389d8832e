// Per-element material parameters beyond two Lame numbers: a 6x6 Voigt tensor and a damping
// parameter per element reach the material model through ElasticEnergy.
#include <gtest/gtest.h>

#include "material/linear_elastic.hpp"
#include "model_fixture.hpp"

namespace simrun {
namespace {

/// Small-strain energy from a Voigt tensor: psi = 1/2 e^T C e, e = [e11 e22 e33 2e23 2e13 2e12]
/// (the convention of material_parameters.hpp). A test stand-in for the anisotropic model.
class VoigtLinear final : public Material {
 public:
  std::string_view name() const override { return "voigt_linear"; }
  double energy_density(const Mat3& F, const MaterialParameters& p) const override {
    const Eigen::Matrix<double, 6, 1> e = voigt_strain(F);
    return 0.5 * e.dot(*p.stiffness * e);
  }
  Mat3 first_piola(const Mat3&, const MaterialParameters&) const override { return Mat3::Zero(); }
  Mat9 first_piola_derivative(const Mat3&, const MaterialParameters&) const override {
    return Mat9::Zero();
  }
  bool needs_stiffness_tensor() const override { return true; }
  bool allows_inversion() const override { return true; }

 private:
  static Eigen::Matrix<double, 6, 1> voigt_strain(const Mat3& F) {
    const Mat3 eps = 0.5 * (F + F.transpose()) - Mat3::Identity();
    Eigen::Matrix<double, 6, 1> e;
    e << eps(0, 0), eps(1, 1), eps(2, 2), 2 * eps(1, 2), 2 * eps(0, 2), 2 * eps(0, 1);
    return e;
  }
};

/// The isotropic tensor: C = lambda 1 1^T + 2 mu on the normal block, mu on the shear diagonal.
VoigtTensor isotropic_tensor(const LameParameters& p) {
  VoigtTensor C = VoigtTensor::Zero();
  C.topLeftCorner<3, 3>().setConstant(p.lambda);
  for (int i = 0; i < 3; ++i) C(i, i) += 2 * p.mu;
  for (int i = 3; i < 6; ++i) C(i, i) = p.mu;
  return C;
}

TEST(ElementMaterials, TensorsReachTheMaterialPerElement) {
  const TetMesh mesh = make_box(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(2, 1, 1), 6);
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  ElementMaterials table;
  for (int e = 0; e < mesh.num_tets(); ++e) {
    table.lame.push_back(lame_from_young_poisson(1e5 * (1 + e), 0.3));  // differs per element
    table.stiffness.push_back(isotropic_tensor(table.lame.back()));
  }
  table.damping = VecX::LinSpaced(mesh.num_tets(), 0.01, 0.02);
  EXPECT_EQ(table[3].damping, table.damping[3]);
  EXPECT_EQ(table[3].stiffness, &table.stiffness[3]);
  const ElasticEnergy voigt(elements, std::make_shared<VoigtLinear>(), table, mesh.num_vertices());
  const ElasticEnergy linear(elements, std::make_shared<LinearElastic>(), table.lame,
                             mesh.num_vertices());
  VecX x = as_flat(mesh.vertices);
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 0.01 * std::sin(1.7 * i);
  // The same small-strain energy from the tensors as from the Lame pairs, element by element.
  EXPECT_NEAR(voigt.energy(x), linear.energy(x), 1e-12 * linear.energy(x));
}

TEST(ElementMaterials, AModelThatNeedsTensorsRejectsATableWithout) {
  const TetMesh mesh = make_box(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(1, 1, 1), 6);
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  const std::vector<LameParameters> lame(mesh.num_tets(), lame_from_young_poisson(1e5, 0.3));
  EXPECT_THROW(ElasticEnergy(elements, std::make_shared<VoigtLinear>(), lame, mesh.num_vertices()),
               std::invalid_argument);
  EXPECT_THROW(ElasticEnergy(elements, std::make_shared<LinearElastic>(),
                             std::vector<LameParameters>(2), mesh.num_vertices()),
               std::invalid_argument);
}

}  // namespace
}  // namespace simrun
