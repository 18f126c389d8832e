#pragma once
/// Outputs of a run on a coarse mesh with a finer reference mesh of the same objects
/// (docs/eigenfit.md): ratios.csv (EigenFit's eigenvalue ratios) and error.csv (the fine
/// vertices driven by the run, x_f = B x_c, against the reference run).
#include <filesystem>
#include <memory>
#include <vector>

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

/// ratios.csv: mode,rigid (1/0),lambda_coarse,lambda_fine,ratio,frequency_coarse_hz,
/// frequency_fine_hz,compatibility.
class RatiosCsvObserver final : public StepObserver {
 public:
  RatiosCsvObserver(std::filesystem::path path, std::vector<RatioRow> rows)
      : m_path(std::move(path)), m_rows(std::move(rows)) {}
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation&, const StepRecord&) override {}

 private:
  std::filesystem::path m_path;
  std::vector<RatioRow> m_rows;
};

/// error.csv: step,t,max_pos_err,mean_pos_err,max_vel_err,mean_vel_err over the reference
/// mesh's vertices, comparing the primary system embedded (B x_c, B v_c) with the companion
/// `reference` (a Simulation companion index); then, per tracked reference vertex i,
/// x_i,y_i,z_i (embedded run) and ref_x_i,ref_y_i,ref_z_i.
class ReferenceErrorObserver final : public StepObserver {
 public:
  ReferenceErrorObserver(std::filesystem::path path, Embedding embedding, int reference,
                         std::vector<int> tracked)
      : m_path(std::move(path)),
        m_embedding(std::move(embedding)),
        m_reference(reference),
        m_tracked(std::move(tracked)) {}
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation& simulation, const StepRecord& record) override;

 private:
  void write(const Simulation& simulation, const StepRecord& record);

  std::filesystem::path m_path;
  Embedding m_embedding;
  int m_reference;
  std::vector<int> m_tracked;
  std::unique_ptr<CsvWriter> m_csv;
};

}  // namespace simrun
