// The memory guard of the deflated SMS PCG (scene/multilevel_factory.hpp): its dense coarse
// blocks U Z and H U Z grow with DOFs x (12 per object + Ritz vectors).
#include <gtest/gtest.h>

#include "scene/multilevel_factory.hpp"

namespace simrun {
namespace {

/// Bases of `dofs` rows, one handle, `objects` affine fields (only the sizes matter here).
MultilevelBases bases_of(Eigen::Index dofs, int objects) {
  MultilevelBases bases;
  bases.sms.resize(dofs, 12);
  bases.affine_in_sms = MatX::Zero(12, 12 * objects);
  return bases;
}

TEST(DeflationMemory, ManyObjectsOnALargeMeshTurnDeflationOffWithTheEstimate) {
  MultilevelSolverSettings solver;  // matrix-free, affine deflation, 16 Ritz vectors
  std::vector<std::string> notes;
  // 100 objects over 3e5 DOFs: 2 x 3e5 x 1216 doubles, 5566 MB.
  limit_deflation_memory(bases_of(300000, 100), solver, notes);
  EXPECT_EQ(solver.sms_deflation, MultilevelSolverSettings::SmsDeflation::kNone);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("sms_deflation off"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("5566 MB"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("1216 columns over 300000 DOFs"), std::string::npos) << notes[0];
}

TEST(DeflationMemory, OneObjectOnALargeMeshKeepsDeflationSilently) {
  MultilevelSolverSettings solver;
  std::vector<std::string> notes;
  // One object over 3e5 DOFs: 2 x 3e5 x 28 doubles, 128 MB.
  limit_deflation_memory(bases_of(300000, 1), solver, notes);
  EXPECT_EQ(solver.sms_deflation, MultilevelSolverSettings::SmsDeflation::kAffine);
  EXPECT_TRUE(notes.empty());
}

TEST(DeflationMemory, TheAssembledSolveAndThePlainPcgNeedNoBlocks) {
  std::vector<std::string> notes;
  MultilevelSolverSettings assembled;
  assembled.products = MultilevelSolverSettings::Products::kAssembled;
  limit_deflation_memory(bases_of(300000, 100), assembled, notes);
  EXPECT_EQ(assembled.sms_deflation, MultilevelSolverSettings::SmsDeflation::kAffine);
  MultilevelSolverSettings plain;
  plain.sms_deflation = MultilevelSolverSettings::SmsDeflation::kNone;
  limit_deflation_memory(bases_of(300000, 100), plain, notes);
  EXPECT_TRUE(notes.empty());
}

}  // namespace
}  // namespace simrun
