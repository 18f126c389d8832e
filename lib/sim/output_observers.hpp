#pragma once
/// The observers that write a run's output folder: energy.csv, stats.csv and the frames
/// (frames/*.vtu + frames.pvd, surface/*.obj).
#include <filesystem>
#include <functional>
#include <memory>

#include "io/csv_writer.hpp"
#include "sim/energy_table.hpp"
#include "sim/frame_writer.hpp"
#include "sim/simulation.hpp"

namespace simrun {

/// energy.csv: step, t, kinetic, one column per potential term, total.
class EnergyCsvObserver final : public StepObserver {
 public:
  explicit EnergyCsvObserver(std::filesystem::path path) : m_path(std::move(path)) {}
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation& simulation, const StepRecord& record) override;

 private:
  std::filesystem::path m_path;
  std::unique_ptr<EnergyTable> m_table;
};

/// stats.csv: step, t, wall_s, one column per named counter (core/step_stats.hpp), then dt.
class StatsCsvObserver final : public StepObserver {
 public:
  explicit StatsCsvObserver(std::filesystem::path path) : m_path(std::move(path)) {}
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation& simulation, const StepRecord& record) override;

 private:
  std::filesystem::path m_path;
  std::unique_ptr<CsvWriter> m_csv;
};

/// Frames of the primary system at step 0, at the output steps (every N steps, or whenever t
/// passes a multiple of the interval) and at the last step.
class FrameObserver final : public StepObserver {
 public:
  /// Full positions and velocities of the frames' mesh at the simulation's current state.
  using Source = std::function<void(const Simulation&, VecX& x, VecX& v)>;

  /// Frames in `out_dir` as `settings` ask (format, every N steps or an interval).
  FrameObserver(const std::filesystem::path& out_dir, const RunSettings& settings);
  /// Frames of another mesh (`frames`) whose state `source` gives: a companion system, or a
  /// finer mesh driven by the primary one through an embedding.
  FrameObserver(const std::filesystem::path& out_dir, const RunSettings& settings, FrameData frames,
                Source source);
  void begin(const Simulation& simulation, const StepRecord& initial) override;
  void after_step(const Simulation& simulation, const StepRecord& record) override;
  void finish(const Simulation& simulation, RunResult& result) override;

 private:
  bool is_output_step(const StepRecord& record) const;
  /// Whether the uninterrupted run writes a frame at a resumed run's first step.
  bool resume_step_is_output(const StepRecord& initial) const;
  /// Interval output: whether a multiple of the interval lies in (t_previous, t], steps of h.
  bool interval_passed(double t_previous, double t, double h) const;
  void write(const Simulation& simulation, const StepRecord& record);

  std::filesystem::path m_out_dir;
  FrameFormat m_format;
  int m_every;
  double m_interval;
  double m_last_t = 0.0;                ///< time of the previous accepted step
  long m_last_written = -1;             ///< step of the last frame written
  std::unique_ptr<FrameData> m_frames;  ///< another mesh's frame data (with a source)
  Source m_source;
  std::unique_ptr<FrameWriter> m_writer;
};

/// Adds the three output observers that settings ask for (energy.csv and stats.csv always).
void add_output_observers(Simulation& simulation, const RunSettings& settings);

}  // namespace simrun
