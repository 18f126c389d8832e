// The scene-wide precomputation: per-object partitions and handles, the cut when more
// partitions are asked for than an object has vertices, and the paper's 20/40 polish rule.
#include "multilevel/multilevel_setup.hpp"

#include <gtest/gtest.h>

#include <set>

#include "mesh/box.hpp"

namespace simrun {
namespace {

/// Two boxes side by side (objects 0 and 1), none fixed, every DOF free.
MultilevelInput two_boxes(int cells) {
  const TetMesh a = make_box(Vec3(1.0, 1.0, 1.0), Eigen::Vector3i(cells, cells, cells), 6);
  MultilevelInput in;
  const int n = a.num_vertices(), t = a.num_tets();
  in.rest.resize(2 * n, 3);
  in.rest.topRows(n) = a.vertices;
  in.rest.bottomRows(n) = a.vertices;
  in.rest.bottomRows(n).col(0).array() += 2.0;
  in.tets.resize(2 * t, 4);
  in.tets.topRows(t) = a.tets;
  in.tets.bottomRows(t) = a.tets.array() + n;
  in.youngs = VecX::Constant(2 * t, 1e6);
  in.tet_offset = {0, t, 2 * t};
  in.fixed.assign(2 * n, false);
  in.vertex_mass = VecX::Ones(2 * n);
  in.full_to_free.resize(6 * n);
  for (int i = 0; i < 6 * n; ++i) in.full_to_free[i] = i;
  in.num_free = 6 * n;
  return in;
}

TEST(MultilevelSetup, EachObjectGetsItsOwnPartitionsAndAffineHandle) {
  const MultilevelInput in = two_boxes(4);
  MultilevelSetupSettings settings;
  settings.partitions = 8;
  const MultilevelPrecompute p = build_multilevel(in, settings);
  EXPECT_EQ(p.objects, 2);
  EXPECT_EQ(p.bases->affine.cols(), 24);
  EXPECT_EQ(p.bases->sms.cols(), 12 * p.handles);
  const int t = in.tet_offset[1];
  std::set<int> first, second;
  for (int e = 0; e < t; ++e) first.insert(p.element_label[e]);
  for (int e = t; e < 2 * t; ++e) second.insert(p.element_label[e]);
  for (int h : first) EXPECT_EQ(second.count(h), 0u) << "handle " << h << " spans both objects";
  // No SMS weight reaches across objects either.
  const int n = static_cast<int>(in.rest.rows()) / 2;
  for (int h = 0; h < p.phi.outerSize(); ++h)
    for (SpMat::InnerIterator it(p.phi, h); it; ++it)
      EXPECT_EQ(it.row() < n, first.count(h) == 1u) << "handle " << h << " vertex " << it.row();
  EXPECT_GE(p.mean_hop_radius, 1.0);
  EXPECT_EQ(automatic_fine_iterations(p), 20);  // a few hops: closer to 20 than to 40
}

TEST(MultilevelSetup, TheAffineLevelIsExactlyInTheSmsSpanWithAndWithoutFixedVertices) {
  // U_s Z = U_a (subspace_basis.hpp affine_in_handles): the SMS PCG's deflation space is each
  // object's affine level, also where Dirichlet-aware weights make it 1 - phi_DBC.
  for (bool fixed : {false, true}) {
    MultilevelInput in = two_boxes(4);
    const int n = static_cast<int>(in.rest.rows());
    if (fixed) {  // the face x = 0 of the first box
      int free = 0;
      for (int v = 0; v < n; ++v) {
        in.fixed[v] = v < n / 2 && in.rest(v, 0) < 1e-9;
        for (int c = 0; c < 3; ++c) in.full_to_free[3 * v + c] = in.fixed[v] ? -1 : free++;
      }
      in.num_free = free;
    }
    MultilevelSetupSettings settings;
    settings.partitions = 8;
    const MultilevelPrecompute p = build_multilevel(in, settings);
    const MultilevelBases& b = *p.bases;
    ASSERT_EQ(b.affine_in_sms.rows(), b.sms.cols());
    ASSERT_EQ(b.affine_in_sms.cols(), b.affine.cols());
    const MatX reproduced = b.sms * b.affine_in_sms;
    const MatX affine = MatX(b.affine);
    // Rounding only: entries are O(1) sums of a few products.
    EXPECT_LT((reproduced - affine).cwiseAbs().maxCoeff(), 1e-12) << "fixed " << fixed;
    EXPECT_GT(affine.cwiseAbs().maxCoeff(), 0.5);
  }
}

TEST(MultilevelSetup, ComparisonBasesGetTheLeastSquaresAffineEmbedding) {
  // RBF and eigenmode weights are no partition of unity, so affine_in_handles' exact embedding
  // does not hold for them; Z is then the least-squares fit, U_s^T (U_s Z - U_a) = 0.
  const MultilevelInput in = two_boxes(4);
  for (HandleBasis basis : {HandleBasis::kRbf, HandleBasis::kEigenmodes}) {
    MultilevelSetupSettings settings;
    settings.partitions = 8;
    settings.basis = basis;
    const MultilevelPrecompute p = build_multilevel(in, settings);
    const MultilevelBases& b = *p.bases;
    const MatX affine = MatX(b.affine);
    const MatX misfit = b.sms * b.affine_in_sms - affine;
    const MatX normal = b.sms.transpose() * misfit;
    EXPECT_LT(normal.norm(), 1e-8 * MatX(b.sms.transpose() * affine).norm())
        << handle_basis_name(basis);
    // Here the affine field lies in both spans, and the fit finds it where the exact formula's
    // Z missed it by more than its own size (eigenmodes): measured 5e-12 and 6e-10 relative.
    EXPECT_LT(misfit.norm(), 1e-8 * affine.norm()) << handle_basis_name(basis);
  }
}

TEST(MultilevelSetup, MorePartitionsThanVerticesAreCutAndSaidSo) {
  const MultilevelInput in = two_boxes(1);  // 8 vertices, 6 tets per box
  MultilevelSetupSettings settings;
  settings.partitions = 1000;
  const MultilevelPrecompute p = build_multilevel(in, settings);
  EXPECT_LE(p.handles, 12);
  EXPECT_GT(p.clamped_partitions, 0);
  EXPECT_NE(p.summary().find("fewer than asked"), std::string::npos) << p.summary();
}

TEST(MultilevelSetup, TheAutomaticPolishCountFollowsThePartitionRadius) {
  MultilevelPrecompute p;
  p.mean_hop_radius = 29.0;
  EXPECT_EQ(automatic_fine_iterations(p), 20);
  p.mean_hop_radius = 31.0;
  EXPECT_EQ(automatic_fine_iterations(p), 40);
}

}  // namespace
}  // namespace simrun
