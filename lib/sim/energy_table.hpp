#pragma once
/// energy.csv rows: step, t, kinetic, one column per potential term name (terms sharing a name,
/// e.g. the elastic energies of several objects, are summed), total, then the linear and
/// angular momentum px, py, pz, lx, ly, lz (Model::momentum: p = M v, L about the origin), and
/// for adaptive runs h (the step's real size) and lambda (the time constraint's multiplier,
/// integrate/adaptive_variational.hpp), for variational integrators discrete_energy (the
/// last step's E_d = -dL_d/dh, Integrator::discrete_energy; NaN in the first row), and with IPC
/// friction friction_dissipated: the energy friction has dissipated since step 0 (the sum of
/// the steps' friction work, stats.csv friction_work), so that total + friction_dissipated is
/// what the run conserves but for the integrator's own dissipation. The `friction` column is
/// the lagged dissipation potential D of the last step, not stored energy (not in total).
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "io/csv_writer.hpp"
#include "model/model.hpp"

namespace simrun {

/// The energies of one state, summed by name in column order, and their total.
struct EnergyRow {
  std::vector<double> values;
  double total = 0.0;
  Momentum momentum;
};

class EnergyTable {
 public:
  /// Writes the header, with the energy columns the model reports at (q, v).
  /// `resume_step` >= 0: continue the file of a run resumed at that step (CsvWriter::resumed).
  EnergyTable(const std::filesystem::path& path, const Model& model, const VecX& q, const VecX& v,
              long resume_step = -1, bool adaptive = false, bool discrete_energy = false);
  /// Evaluates the energies once (the step loop tests the total before writing the row).
  static EnergyRow measure(const Model& model, const VecX& q, const VecX& v);
  /// Appends the row of `step` (h and lambda: written for adaptive tables only; discrete: for
  /// tables with the discrete_energy column only).
  void write(int step, double t, const EnergyRow& energies, double h = 0.0, double lambda = 0.0,
             double discrete = std::numeric_limits<double>::quiet_NaN());
  /// Adds a step's friction work [J] to friction_dissipated (no-op without the column).
  void add_friction_work(double work) { m_friction_dissipated += work; }
  bool has_friction() const { return m_friction; }

 private:
  std::unique_ptr<CsvWriter> m_csv;
  bool m_adaptive = false;
  bool m_discrete = false;
  bool m_friction = false;
  double m_friction_dissipated = 0.0;  ///< carried over from the kept rows when resumed
};

}  // namespace simrun
