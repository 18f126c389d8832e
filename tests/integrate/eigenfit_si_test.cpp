// SI with EigenFit (digest 003 Sec. 7) against the dense formula: with the s lowest modes of
// (K(q), M), Y = M U (R - I), Z = M U Lambda,
//   (M + h D' + h^2 K') dv = -h (g' + D' v + h K' v),  K' = K + Y Z^T,  D' = D + beta Y Z^T,
//   g' = g + Y U^T g_elastic (the correction leaves gravity alone),
// on a small bar with gravity, Rayleigh damping and consistent mass: linear (the constant path,
// factorization and Woodbury setup kept over steps) and neo-Hookean away from rest.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <random>

#include "integrate/integrator.hpp"
#include "material/material.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"
#include "model/gravity_energy.hpp"

namespace simrun {
namespace {

struct Body {
  TetMesh mesh;
  std::unique_ptr<Model> model;
  const EnergyTerm* elastic = nullptr;  ///< the elastic term alone (owned by the model)

  /// Rest positions displaced by N(0, noise^2) [m], velocities N(0, 0.2^2) [m/s].
  State perturbed(double noise, unsigned seed) const {
    const VecX rest = model->restrict_vector(model->rest_positions());
    State s{rest, VecX::Zero(rest.size()), 0.0};
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal;
    for (Eigen::Index i = 0; i < rest.size(); ++i) {
      s.q[i] += noise * normal(rng);
      s.v[i] = 0.2 * normal(rng);
    }
    return s;
  }

  /// The elastic gradient over free DOFs, straight from the term.
  VecX elastic_gradient(const VecX& q) const {
    VecX full = VecX::Zero(3 * mesh.num_vertices());
    elastic->add_gradient(model->full_positions(q), full);
    return model->restrict_vector(full);
  }

  explicit Body(const std::string& material) {
    mesh = make_box(Vec3(0.4, 0.1, 0.1), Eigen::Vector3i(4, 1, 1), 6);
    const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
    std::vector<std::unique_ptr<EnergyTerm>> terms;
    auto elastic_term = std::make_unique<ElasticEnergy>(
        elements, std::shared_ptr<Material>(make_material(material)),
        std::vector<LameParameters>(mesh.num_tets(), lame_from_young_poisson(1e5, 0.3)),
        mesh.num_vertices());
    elastic = elastic_term.get();
    terms.push_back(std::move(elastic_term));
    VecX lumped = VecX::Constant(3 * mesh.num_vertices(), 0.1);
    terms.push_back(
        std::make_unique<GravityEnergy>(Vec3(0, -9.81, 0), lumped, VecX(as_flat(mesh.vertices))));
    std::vector<int> fixed;
    for (int v = 0; v < mesh.num_vertices(); ++v)
      if (mesh.vertices(v, 0) == 0.0) fixed.push_back(v);
    model = std::make_unique<Model>(mesh.vertices, elements, VecX::Constant(mesh.num_tets(), 1000),
                                    /*lumped_mass=*/false, DofMap(mesh.num_vertices(), fixed),
                                    std::move(terms), RayleighDamping{0.3, 0.01, true});
  }
};

MatX dense(const SpMat& lower) { return MatX(SpMat(lower.selfadjointView<Eigen::Lower>())); }

/// One SI step with EigenFit by the dense formula.
State dense_step(const Body& body, const State& s, double h, const VecX& ratios) {
  Model& model = *body.model;
  const Eigen::Index n = s.q.size();
  const int k = static_cast<int>(ratios.size());
  SpMat Ks, Krest;
  model.stiffness(s.q, Ks, false);
  model.stiffness(model.restrict_vector(model.rest_positions()), Krest, false);
  const MatX K = dense(Ks), M = dense(model.mass());
  const double alpha = model.damping().mass, beta = model.damping().stiffness;
  const MatX D = alpha * M + beta * dense(Krest);
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(K, M);
  const MatX U = eig.eigenvectors().leftCols(k);
  const VecX lambda = eig.eigenvalues().head(k);
  const MatX Y = M * U * (ratios.array() - 1.0).matrix().asDiagonal();
  const MatX Z = M * U * lambda.asDiagonal();
  const MatX Kc = K + Y * Z.transpose(), Dc = D + beta * Y * Z.transpose();
  VecX g;
  model.potential_gradient(s.q, g);
  const VecX g_el = body.elastic_gradient(s.q);
  const VecX gc = g + Y * (U.transpose() * g_el);
  const MatX A = M + h * Dc + h * h * Kc;
  const VecX dv = A.lu().solve(-h * (gc + Dc * s.v + h * Kc * s.v));
  State out = s;
  out.v += dv;
  out.q += h * out.v;
  out.t += h;
  (void)n;
  return out;
}

void expect_matches_dense(const std::string& material, double noise, int steps) {
  Body body(material);
  Model& model = *body.model;
  State s = body.perturbed(noise, 3);
  const VecX rest = model.restrict_vector(model.rest_positions());
  const VecX ratios = (VecX(4) << 0.5, 0.7, 0.65, 0.9).finished();
  IntegratorSettings settings;
  EigenFitSettings fit;
  fit.ratios = ratios;
  SpMat Krest;
  model.stiffness(rest, Krest, false);
  fit.rest_modes = smallest_generalized_eigenpairs(Krest, model.mass(), 4).vectors;
  settings.eigenfit = std::make_shared<EigenFitCorrection>(fit, make_cholmod_solver);
  auto si = make_integrator("si", settings);
  const double h = 0.01;
  for (int step = 0; step < steps; ++step) {
    const State expected = dense_step(body, s, h, ratios);
    StepStats stats;
    ASSERT_EQ(si->step(model, s, h, stats), Status::kSuccess);
    // Round-off of two solves of the same 36-DOF system (sparse Cholesky + Woodbury vs dense
    // LU; condition ~1e5): ~1e-11 relative in v, which h = 0.01 scales down in q.
    EXPECT_LT((s.q - expected.q).norm(), 1e-10 * expected.q.norm()) << "step " << step;
    EXPECT_LT((s.v - expected.v).norm(), 1e-8 * (1.0 + expected.v.norm())) << "step " << step;
    EXPECT_EQ(stats.eigenpairs, 4);
  }
}

TEST(EigenFitSi, LinearMatchesDenseFormulaOverSteps) { expect_matches_dense("linear", 0.003, 3); }

TEST(EigenFitSi, NeoHookeanAwayFromRestMatchesDenseFormula) {
  expect_matches_dense("neohookean", 0.01, 2);
}

TEST(EigenFitSi, UnitRatiosAreSi) {
  Body a("neohookean"), b("neohookean");
  const VecX rest = a.model->restrict_vector(a.model->rest_positions());
  State s1{rest, VecX::Constant(rest.size(), 0.1), 0.0}, s2 = s1;
  IntegratorSettings with;
  EigenFitSettings fit;
  fit.ratios = VecX::Ones(3);
  with.eigenfit = std::make_shared<EigenFitCorrection>(fit, make_cholmod_solver);
  auto plain = make_integrator("si", IntegratorSettings{});
  auto fitted = make_integrator("si", with);
  StepStats stats;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(plain->step(*a.model, s1, 0.01, stats), Status::kSuccess);
    ASSERT_EQ(fitted->step(*b.model, s2, 0.01, stats), Status::kSuccess);
  }
  EXPECT_LT((s1.q - s2.q).norm(), 1e-13 * s1.q.norm());
  EXPECT_LT((s1.v - s2.v).norm(), 1e-11 * (1.0 + s1.v.norm()));
}

}  // namespace
}  // namespace simrun

namespace simrun {
namespace {

/// tau |M_lumped^-1 R(x)| for IM's stage with EigenFit's corrected force, modes of K(q_lin)
/// by a dense eigensolver (corrected_stage.hpp).
double dense_im_residual(const Body& body, const State& start, const State& end, double h,
                         const VecX& ratios) {
  Model& model = *body.model;
  const double tau = 0.5 * h;
  const VecX q_lin = start.q + tau * start.v;
  const VecX x = 0.5 * (start.q + end.q);
  SpMat Ks, Krest;
  model.stiffness(q_lin, Ks, false);
  model.stiffness(model.restrict_vector(model.rest_positions()), Krest, false);
  const MatX K = dense(Ks), M = dense(model.mass());
  const double beta = model.damping().stiffness;
  const MatX D = model.damping().mass * M + beta * dense(Krest);
  const Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(K, M);
  const int k = static_cast<int>(ratios.size());
  const MatX U = eig.eigenvectors().leftCols(k);
  const MatX Y = M * U * (ratios.array() - 1.0).matrix().asDiagonal();
  const MatX Z = M * U * eig.eigenvalues().head(k).asDiagonal();
  VecX g;
  model.potential_gradient(x, g);
  const VecX g_el = body.elastic_gradient(x);
  const VecX predicted = start.q + tau * start.v, dc = x - start.q;
  const VecX R = M * (x - predicted) / (tau * tau) + g + Y * (U.transpose() * g_el) +
                 (D + beta * Y * Z.transpose()) * dc / tau;
  return tau * R.cwiseQuotient(model.lumped_mass()).norm();
}

void expect_im_solves_dense_stage(const std::string& material, double noise, double max_iters) {
  Body body(material);
  Model& model = *body.model;
  State s = body.perturbed(noise, 5);
  const VecX ratios = (VecX(3) << 0.5, 0.8, 0.6).finished();
  IntegratorSettings settings;
  settings.newton.tolerance = 1e-10;
  EigenFitSettings fit;
  fit.ratios = ratios;
  settings.eigenfit = std::make_shared<EigenFitCorrection>(fit, make_cholmod_solver);
  auto im = make_integrator("im", settings);
  for (int step = 0; step < 3; ++step) {
    const State start = s;
    StepStats stats;
    ASSERT_EQ(im->step(model, s, 0.01, stats), Status::kSuccess);
    EXPECT_LE(stats.newton_iters, max_iters) << "step " << step;
    // Newton stops at the residual tolerance 1e-10 (same norm); 1e-9 leaves room for the dense
    // and sparse eigenvectors' round-off in Y, Z.
    EXPECT_LT(dense_im_residual(body, start, s, 0.01, ratios), 1e-9) << "step " << step;
  }
}

TEST(EigenFitIm, LinearSolvesTheCorrectedStageInOneIteration) {
  expect_im_solves_dense_stage("linear", 0.003, 1);
}

TEST(EigenFitIm, NeoHookeanSolvesTheCorrectedStageWithFrozenModes) {
  expect_im_solves_dense_stage("neohookean", 0.005, 8);
}

TEST(EigenFitIm, UnitRatiosAreImplicitMidpoint) {
  Body a("neohookean"), b("neohookean");
  const VecX rest = a.model->restrict_vector(a.model->rest_positions());
  State s1{rest, VecX::Constant(rest.size(), 0.1), 0.0}, s2 = s1;
  IntegratorSettings plain_settings, with;
  plain_settings.newton.tolerance = with.newton.tolerance = 1e-11;
  EigenFitSettings fit;
  fit.ratios = VecX::Ones(3);
  with.eigenfit = std::make_shared<EigenFitCorrection>(fit, make_cholmod_solver);
  auto plain = make_integrator("im", plain_settings);
  auto fitted = make_integrator("im", with);
  StepStats stats;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(plain->step(*a.model, s1, 0.01, stats), Status::kSuccess);
    ASSERT_EQ(fitted->step(*b.model, s2, 0.01, stats), Status::kSuccess);
  }
  EXPECT_LT((s1.q - s2.q).norm(), 1e-10 * s1.q.norm());
  EXPECT_LT((s1.v - s2.v).norm(), 1e-7 * (1.0 + s1.v.norm()));
}

}  // namespace
}  // namespace simrun
