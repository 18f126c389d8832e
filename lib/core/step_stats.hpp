#pragma once
/// What one time step did: named counters that define the columns of stats.csv.
///
/// A new counter is one line in SIMRUN_STEP_COUNTERS: its stats.csv column name (also the member
/// name), how the values of several solves in one step combine, and what it counts. Every counter
/// is a double (counts stay exact far beyond any run length).
#include <array>
#include <string_view>

namespace simrun {

/// How a counter combines over the solves of one step (stages, halved sub-steps).
enum class CounterCombine {
  kSum,   ///< counts: add
  kLast,  ///< state at the end of the step (the last solve's residual)
  kMin,   ///< smallest value seen (distances)
  kMax,   ///< largest value seen
};

// clang-format off
#define SIMRUN_STEP_COUNTERS(X)                                                                    \
  X(newton_iters,      kSum,  "Newton iterations (one linear solve of a Newton system each)")      \
  X(line_search_steps, kSum,  "step-length reductions in Newton line searches")                    \
  X(factorizations,    kSum,  "numeric factorizations (one per factorize call, fallbacks included)") \
  X(solves,            kSum,  "linear solves with a factorization (one per right-hand-side block)") \
  X(ldlt_fallbacks,    kSum,  "factorizations that needed the indefinite fallback (LDL^T or LU)") \
  X(cg_iters,          kSum,  "conjugate-gradient iterations of the iterative linear solver (0 for direct solvers)") \
  X(cg_capped,         kSum,  "iterative solves stopped by solver.max_iterations before reaching solver.tolerance") \
  X(ml_affine_iters,   kSum,  "multilevel solver: block-Jacobi PCG iterations in the objects' affine spaces") \
  X(ml_sms_iters,      kSum,  "multilevel solver: block-Jacobi PCG iterations in the SMS space") \
  X(ml_fine_iters,     kSum,  "multilevel solver: Jacobi-PCG iterations of the full-space polish") \
  X(ml_affine_s,       kSum,  "multilevel solver: wall seconds of the affine level (preconditioner set-up excluded)") \
  X(ml_sms_s,          kSum,  "multilevel solver: wall seconds of the SMS level (preconditioner set-up excluded)") \
  X(ml_fine_s,         kSum,  "multilevel solver: wall seconds of the full-space polish") \
  X(ml_setup_s,        kSum,  "multilevel solver: wall seconds building the block-Jacobi preconditioners (per Newton iteration)") \
  X(ml_lag_refreshes,  kSum,  "multilevel solver: assemblies of the full elastic Hessian for the lagged polish matrix (one per step, more when the line-search step lengths fall; solver.lag_elastic_hessian)") \
  X(ml_lag_s,          kSum,  "multilevel solver: wall seconds of those elastic Hessian assemblies (part of hessian_s)") \
  X(ml_cubature_s,     kSum,  "multilevel solver: wall seconds assembling the cubature elastic Hessian of the subspace levels (part of hessian_s; solver.cubature)") \
  X(gradient_s,        kSum,  "wall seconds evaluating Newton gradients (residuals) at accepted iterates") \
  X(hessian_s,         kSum,  "wall seconds assembling Newton Hessians (PSD-projected ones included)") \
  X(factor_s,          kSum,  "wall seconds in the linear solver's factorizations (symbolic analyses, PCG and multilevel set-ups included)") \
  X(linear_solve_s,    kSum,  "wall seconds in the linear solver's solves (CG iterations, multilevel levels included)") \
  X(line_search_s,     kSum,  "wall seconds in Newton line searches (feasible-step limits such as CCD, trial energies)") \
  X(residual,          kLast, "residual norm at the end of the step's last Newton solve")         \
  X(projected_iters,   kSum,  "Newton iterations that used the PSD-projected Hessian")          \
  X(reused_iters,      kSum,  "Newton iterations that solved with a kept factorization")        \
  X(krylov_substeps,   kSum,  "substeps of Krylov exponential actions (expv's tau)")             \
  X(krylov_vectors,    kSum,  "Krylov vectors built (products with the Jacobian)")               \
  X(eigenpairs,        kLast, "modes in the spectral split (SIERE's s)")                          \
  X(eigen_solves,      kSum,  "partial eigendecompositions computed")                            \
  X(eigen_iters,       kSum,  "Lanczos restarts of those eigendecompositions")                   \
  X(eigen_products,    kSum,  "shift-invert operator products of those eigendecompositions")     \
  X(eigen_s,           kSum,  "wall seconds spent in those eigendecompositions")                  \
  X(obstacle_projections, kSum, "vertices moved out of projected obstacles (spheres) after the step") \
  X(eigenfit_tracked,  kLast, "EigenFit tracking test: fitted modes whose rest mode they follow (|U^T M U_rest| > 0.6)") \
  X(eigenfit_tracking_failed, kSum, "1 when fewer than half of the fitted modes passed the tracking test") \
  X(contacts,          kLast, "IPC contact pairs closer than d_hat at the end of the step (0 without contact)") \
  X(min_distance,      kLast, "smallest contact distance seen in the step's iterates [m] (0 without contact)") \
  X(barrier_stiffness, kLast, "IPC barrier stiffness kappa at the end of the step [J]")          \
  X(ccd_step,          kLast, "smallest CCD-limited line-search step fraction in the step (1: none limited; 0 without contact)") \
  X(lag_updates,       kSum,  "extra updates of the lagged friction quantities that were solved again (contact.lag_updates)") \
  X(contact_pairs_s,   kSum,  "wall seconds finding IPC contact pairs (broad phase and distances)") \
  X(contact_ccd_s,     kSum,  "wall seconds in IPC's CCD-limited feasible steps (broad phase over swept boxes and additive CCD)") \
  X(contact_assembly_s, kSum, "wall seconds evaluating the IPC barrier and friction (energies, gradients, PSD-projected Hessians, lagging)") \
  X(multiplier_updates, kSum, "augmented-Lagrangian multiplier updates of kinematic obstacle vertices, each solved again (0: the penalty met the tolerance)") \
  X(kinematic_lag,     kLast, "largest distance of a moving obstacle's vertex from its scripted position at the step's end [m] (0 without)") \
  X(friction_work,     kSum,  "work of the lagged IPC friction forces over the step [J] (energy dissipated; 0 without friction)")
// clang-format on

struct StepStats {
#define SIMRUN_DECLARE_COUNTER(name, combine, doc) double name = 0.0;
  SIMRUN_STEP_COUNTERS(SIMRUN_DECLARE_COUNTER)
#undef SIMRUN_DECLARE_COUNTER

  struct Counter {
    std::string_view name;
    double StepStats::*member;
    CounterCombine combine;
    std::string_view doc;
  };
#define SIMRUN_COUNTER_INFO(name, combine, doc) \
  Counter{#name, &StepStats::name, CounterCombine::combine, doc},
  static constexpr std::array kCounters = {SIMRUN_STEP_COUNTERS(SIMRUN_COUNTER_INFO)};
#undef SIMRUN_COUNTER_INFO

  /// Folds the counters of a later part of the same step into this one (per CounterCombine).
  void merge(const StepStats& later) {
    for (const Counter& c : kCounters) {
      double& mine = this->*c.member;
      const double theirs = later.*c.member;
      switch (c.combine) {
        case CounterCombine::kSum:
          mine += theirs;
          break;
        case CounterCombine::kLast:
          mine = theirs;
          break;
        case CounterCombine::kMin:
          mine = mine < theirs ? mine : theirs;
          break;
        case CounterCombine::kMax:
          mine = mine > theirs ? mine : theirs;
          break;
      }
    }
  }
};

}  // namespace simrun
