#pragma once
/// Counts what a linear solver does during a scope into a step's counters, so that
/// `factorizations`, `solves`, `ldlt_fallbacks` and `cg_iters` mean the same for every integrator:
/// the solver's own count of factorize() and solve() calls.
#include "core/step_stats.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

class SolverMeter {
 public:
  SolverMeter(const LinearSolver& solver, StepStats& stats)
      : m_solver(solver), m_stats(stats), m_before(solver.stats()) {}
  ~SolverMeter() {
    const LinearSolverStats& after = m_solver.stats();
    m_stats.factorizations += after.factorizations - m_before.factorizations;
    m_stats.solves += after.solves - m_before.solves;
    m_stats.ldlt_fallbacks += after.ldlt_fallbacks - m_before.ldlt_fallbacks;
    m_stats.cg_iters += after.iterations - m_before.iterations;
    m_stats.cg_capped += after.capped_solves - m_before.capped_solves;
    m_stats.factor_s += after.symbolic_seconds + after.factor_seconds - m_before.symbolic_seconds -
                        m_before.factor_seconds;
    m_stats.linear_solve_s += after.solve_seconds - m_before.solve_seconds;
    m_stats.ml_affine_iters += after.level_iterations[0] - m_before.level_iterations[0];
    m_stats.ml_sms_iters += after.level_iterations[1] - m_before.level_iterations[1];
    m_stats.ml_fine_iters += after.level_iterations[2] - m_before.level_iterations[2];
    m_stats.ml_affine_s += after.level_seconds[0] - m_before.level_seconds[0];
    m_stats.ml_sms_s += after.level_seconds[1] - m_before.level_seconds[1];
    m_stats.ml_fine_s += after.level_seconds[2] - m_before.level_seconds[2];
    m_stats.ml_setup_s += after.level_setup_seconds - m_before.level_setup_seconds;
  }
  SolverMeter(const SolverMeter&) = delete;
  SolverMeter& operator=(const SolverMeter&) = delete;

 private:
  const LinearSolver& m_solver;
  StepStats& m_stats;
  LinearSolverStats m_before;
};

}  // namespace simrun
