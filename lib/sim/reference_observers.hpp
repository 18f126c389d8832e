#pragma once
/// Outputs of a run on a coarse mesh with a finer reference mesh of the same objects
/// (docs/eigenfit.md): ratios.csv (EigenFit's eigenvalue ratios) and error.csv (the fine
/// vertices driven by the run, x_f = B x_c, against the reference run).
#include <filesystem>
#include <memory>
#include <utility>
#include <vector>

#include "coarsen/display_map.hpp"
#include "coarsen/eigenfit_correction.hpp"
#include "io/csv_writer.hpp"
#include "mesh/embedding.hpp"
#include "sim/simulation.hpp"

namespace simrun {

/// One row per fitted mode, written when the run begins.
struct RatioRow {
  bool rigid = false;                             ///< a rigid mode of a free body (held at ratio 1)
  double lambda_coarse = 0.0, lambda_fine = 0.0;  ///< NaN when not computed (manual ratios)
  double ratio = 1.0;
  double compatibility = 0.0;  ///< largest |(B u_c)^T M_f u_f| of the mode (NaN: not tested)
};

/// The ratios in force from time t on: at rest (t = 0) and after every release.
struct RatioLog {
  std::vector<std::pair<double, std::vector<RatioRow>>> entries;
};

/// ratios.csv: t,mode,rigid (1/0),lambda_coarse,lambda_fine,ratio,frequency_coarse_hz,
/// frequency_fine_hz,compatibility; the rest-state rows (t = 0) when the run begins, and the
/// rows of every recomputation (a release at time t) after the step that made them.
class RatiosCsvObserver final : public StepObserver {
 public:
  RatiosCsvObserver(std::filesystem::path path, std::shared_ptr<const RatioLog> log)
      : m_path(std::move(path)), m_log(std::move(log)) {}
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation& simulation, const StepRecord& record) override;

 private:
  void write_new_entries();

  std::filesystem::path m_path;
  std::shared_ptr<const RatioLog> m_log;
  std::unique_ptr<CsvWriter> m_csv;
  size_t m_written = 0;
};

/// eigenvalues.csv: step,t,lambda_1..lambda_s: the s lowest eigenvalues of the current stiffness
/// that EigenFit corrected in the step (EigenFit paper Fig. 5; constant for linear materials), or
/// nothing for a step whose modes were not computed. `modes` is shared with the integrator.
class EigenvaluesCsvObserver final : public StepObserver {
 public:
  EigenvaluesCsvObserver(std::filesystem::path path,
                         std::shared_ptr<const EigenFitCorrection> modes)
      : m_path(std::move(path)), m_modes(std::move(modes)) {}
  void begin(const Simulation&, const StepRecord& initial) override {
    m_resume_step = initial.resumed ? initial.step : -1;
  }
  void after_step(const Simulation& simulation, const StepRecord& record) override;

 private:
  std::filesystem::path m_path;
  long m_resume_step = -1;  ///< >= 0: continue the file of a run resumed there
  std::shared_ptr<const EigenFitCorrection> m_modes;
  std::unique_ptr<CsvWriter> m_csv;
  size_t m_columns = 0;  ///< eigenvalue columns (the first step's s)
};

/// error.csv: step,t,max_pos_err,mean_pos_err,max_vel_err,mean_vel_err over the reference
/// mesh's vertices, comparing the primary system embedded (B x_c, B v_c: the map's barycentric
/// part) with the companion `reference` (a Simulation companion index); positions compare
/// displacements from rest, |B x_c - B X_c - (x_f - X_f)|, which is the position error wherever
/// the embedding reproduces the fine rest positions (all but clamped vertices); then, per tracked
/// reference vertex i, x_i,y_i,z_i (embedded run) and ref_x_i,ref_y_i,ref_z_i; then, when the map
/// has coarsened tets, map_max_pos_err,map_mean_pos_err of the coarse-to-fine display map
/// (coarsen/display_map.hpp, Kharevych Eqs. 4.6-4.7).
class ReferenceErrorObserver final : public StepObserver {
 public:
  ReferenceErrorObserver(std::filesystem::path path, std::shared_ptr<const CoarseToFineMap> map,
                         int reference, std::vector<int> tracked)
      : m_path(std::move(path)),
        m_map(std::move(map)),
        m_reference(reference),
        m_tracked(std::move(tracked)) {}
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation& simulation, const StepRecord& record) override;

 private:
  void write(const Simulation& simulation, const StepRecord& record);

  std::filesystem::path m_path;
  std::shared_ptr<const CoarseToFineMap> m_map;
  int m_reference;
  std::vector<int> m_tracked;
  std::unique_ptr<CsvWriter> m_csv;
  VecX m_rest_offset;      ///< (B X_c)_i - X_f,i, flat
  VecX m_map_rest_offset;  ///< the display map's rest positions - X_f, flat
};

}  // namespace simrun
