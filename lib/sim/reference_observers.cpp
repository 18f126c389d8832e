#include "sim/reference_observers.hpp"

#include <cmath>
#include <numbers>
#include <string>

namespace simrun {

namespace {

double frequency_hz(double lambda) {
  return std::isnan(lambda) ? NAN : std::sqrt(std::max(lambda, 0.0)) / (2 * std::numbers::pi);
}

}  // namespace

void RatiosCsvObserver::begin(const Simulation&, const StepRecord& initial) {
  const std::vector<std::string> columns = {"t",
                                            "mode",
                                            "rigid",
                                            "lambda_coarse",
                                            "lambda_fine",
                                            "ratio",
                                            "frequency_coarse_hz",
                                            "frequency_fine_hz",
                                            "compatibility"};
  m_written = 0;
  if (initial.resumed) {
    // The file holds the ratios up to the checkpoint; those computed again while resuming
    // (at the start, at a release already passed) are not written twice.
    m_csv = std::make_unique<CsvWriter>(CsvWriter::resumed(m_path, columns, initial.t));
    m_written = m_log->entries.size();
    return;
  }
  m_csv = std::make_unique<CsvWriter>(m_path, columns);
  write_new_entries();
}

void RatiosCsvObserver::after_step(const Simulation&, const StepRecord&) { write_new_entries(); }

void RatiosCsvObserver::write_new_entries() {
  for (; m_written < m_log->entries.size(); ++m_written) {
    const auto& [t, rows] = m_log->entries[m_written];
    for (size_t i = 0; i < rows.size(); ++i) {
      const RatioRow& r = rows[i];
      m_csv->row({t, static_cast<double>(i + 1), r.rigid ? 1.0 : 0.0, r.lambda_coarse,
                  r.lambda_fine, r.ratio, frequency_hz(r.lambda_coarse),
                  frequency_hz(r.lambda_fine), r.compatibility});
    }
  }
}

void EigenvaluesCsvObserver::after_step(const Simulation&, const StepRecord& record) {
  const VecX& lambda = m_modes->eigenvalues();
  if (lambda.size() == 0) return;
  if (!m_csv) {
    std::vector<std::string> columns = {"step", "t"};
    for (Eigen::Index i = 0; i < lambda.size(); ++i)
      columns.push_back("lambda_" + std::to_string(i + 1));
    m_columns = static_cast<size_t>(lambda.size());
    m_csv = std::make_unique<CsvWriter>(
        m_resume_step >= 0 ? CsvWriter::resumed(m_path, std::move(columns), m_resume_step)
                           : CsvWriter(m_path, std::move(columns)));
  }
  // The columns are those of the first step; a release that frees the body puts its 6 rigid
  // modes in front and s grows: the row then holds the first columns' worth (NaN-padded when
  // fewer).
  std::vector<double> row = {static_cast<double>(record.step), record.t};
  for (size_t i = 0; i < m_columns; ++i)
    row.push_back(
        static_cast<Eigen::Index>(i) < lambda.size() ? lambda[static_cast<Eigen::Index>(i)] : NAN);
  m_csv->row(row);
}

void ReferenceErrorObserver::begin(const Simulation& simulation, const StepRecord& initial) {
  std::vector<std::string> columns = {"step",         "t",           "max_pos_err",
                                      "mean_pos_err", "max_vel_err", "mean_vel_err"};
  for (const char* prefix : {"", "ref_"})
    for (int i : m_tracked)
      for (const char* axis : {"x", "y", "z"})
        columns.push_back(std::string(prefix) + axis + "_" + std::to_string(i));
  if (m_map->has_display_map()) {
    columns.push_back("map_max_pos_err");
    columns.push_back("map_mean_pos_err");
  }
  // Rest offsets (B X_c)_i - X_f,i: zero for every fine vertex the embedding reproduces at rest
  // (inside the coarse mesh, or extrapolated affinely), nonzero for the clamped ones, whose rest
  // offset would otherwise count as error on every frame.
  const SimulatedSystem& coarse = simulation.primary();
  const VecX coarse_rest = as_flat(coarse.frames().mesh.vertices);
  const VecX fine_rest =
      as_flat(simulation.companions()[static_cast<size_t>(m_reference)].frames().mesh.vertices);
  m_rest_offset =
      m_map->embedding().interpolate_flat(coarse.frames().mesh, coarse_rest) - fine_rest;
  if (m_map->has_display_map()) m_map_rest_offset = m_map->positions(coarse_rest) - fine_rest;
  if (initial.resumed) {
    m_csv = std::make_unique<CsvWriter>(
        CsvWriter::resumed(m_path, std::move(columns), static_cast<double>(initial.step)));
    return;
  }
  m_csv = std::make_unique<CsvWriter>(m_path, std::move(columns));
  write(simulation, initial);
}

void ReferenceErrorObserver::after_step(const Simulation& simulation, const StepRecord& record) {
  write(simulation, record);
}

void ReferenceErrorObserver::write(const Simulation& simulation, const StepRecord& record) {
  const SimulatedSystem& coarse = simulation.primary();
  const SimulatedSystem& fine = simulation.companions()[static_cast<size_t>(m_reference)];
  const TetMesh& mesh = coarse.frames().mesh;
  const Embedding& embedding = m_map->embedding();
  const VecX x = embedding.interpolate_flat(mesh, coarse.full_positions());
  const VecX v = embedding.interpolate_flat(mesh, coarse.full_velocities());
  const VecX xf = fine.full_positions(), vf = fine.full_velocities();
  const int n = embedding.num_points();
  double max_p = 0, sum_p = 0, max_v = 0, sum_v = 0;
  for (int i = 0; i < n; ++i) {
    const double ep =
        (x.segment<3>(3 * i) - m_rest_offset.segment<3>(3 * i) - xf.segment<3>(3 * i)).norm();
    const double ev = (v.segment<3>(3 * i) - vf.segment<3>(3 * i)).norm();
    max_p = std::max(max_p, ep);
    max_v = std::max(max_v, ev);
    sum_p += ep;
    sum_v += ev;
  }
  std::vector<double> row = {
      static_cast<double>(record.step), record.t, max_p, sum_p / n, max_v, sum_v / n};
  for (const VecX* positions : {&x, &xf})
    for (int i : m_tracked)
      for (int k = 0; k < 3; ++k) row.push_back((*positions)[3 * i + k]);
  if (m_map->has_display_map()) {
    const VecX mapped = m_map->positions(coarse.full_positions());
    double max_m = 0, sum_m = 0;
    for (int i = 0; i < n; ++i) {
      const double e =
          (mapped.segment<3>(3 * i) - m_map_rest_offset.segment<3>(3 * i) - xf.segment<3>(3 * i))
              .norm();
      max_m = std::max(max_m, e);
      sum_m += e;
    }
    row.push_back(max_m);
    row.push_back(sum_m / n);
  }
  m_csv->row(row);
}

}  // namespace simrun
