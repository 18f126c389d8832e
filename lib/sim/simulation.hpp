#pragma once
/// The step loop as a stepper: begin(), step() until it returns false, finish(). A Simulation
/// advances a primary SimulatedSystem, and companion systems (the same objects on other meshes,
/// for EigenFit and coarsening comparisons) by the same steps; after each accepted step it tells
/// its observers, which write the outputs. A step that fails or diverges (non-finite or blown-up
/// energy) ends the run with every system back at the last good step, which every output
/// already holds.
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/divergence_monitor.hpp"
#include "sim/frame_writer.hpp"
#include "sim/run_status.hpp"
#include "sim/simulated_system.hpp"
#include "sim/step_clock.hpp"
#include "sim/step_observer.hpp"

namespace simrun {

struct RunSettings {
  double dt = 0.01;
  long steps = 0;  ///< step cap; < 0: none (then end_time bounds the run)
  double end_time = std::numeric_limits<double>::infinity();  ///< [s]
  /// Kharevych time adaptivity: the integrator chooses each step (dt is its fictitious step)
  /// and sets the time; the run ends with the first step that reaches end_time (or the cap).
  bool adaptive = false;
  std::filesystem::path out_dir;
  int output_every = 1;          ///< a frame every N steps (when output_interval is 0)
  double output_interval = 0.0;  ///< or whenever t passes a multiple of it [s]
  bool write_vtu = true;
  bool write_surface = false;
  bool compress_frames = true;  ///< zlib-compressed VTU arrays
  bool rest_points = false;     ///< VTU points at rest, warped by "displacement" (FrameFormat)
  /// Diverged when total energy rises above its start by this many times the energy scale
  /// (sim/divergence_monitor.hpp).
  double blowup_factor = 1e3;

  FrameFormat frame_format() const {
    return {write_vtu, write_surface, compress_frames, rest_points};
  }
  /// The clock of a run whose initial state is at t0.
  StepClock clock(double t0 = 0.0) const { return StepClock(dt, steps, end_time, t0); }
};

struct RunResult {
  RunStatus status = RunStatus::kFinished;
  std::string message;  ///< why it stopped early
  long steps_done = 0;
  double t_end = 0.0;  ///< time of the last accepted state [s]
  double seconds_total = 0.0, seconds_stepping = 0.0, seconds_output = 0.0;
  int frames_written = 0;
  std::vector<std::string> warnings;  ///< what observers found doubtful (e.g. linear strain)
};

class Simulation {
 public:
  explicit Simulation(SimulatedSystem primary);
  // Observers keep references into the systems (frame data): a Simulation stays where it is.
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;
  Simulation(Simulation&&) = delete;
  Simulation& operator=(Simulation&&) = delete;

  /// A system stepped alongside the primary one with the same step sizes.
  void add_companion(SimulatedSystem system);
  void add_observer(std::unique_ptr<StepObserver> observer);

  /// Starts a run: the model at t0, the divergence monitor, the observers' step 0. With
  /// `resume`, continues a run from its checkpoint instead (the systems at the checkpoint's
  /// state, the observers told to append to the files of the steps up to it).
  void begin(const RunSettings& settings, const Checkpoint* resume = nullptr);
  /// The run's state after the last accepted step (see sim/checkpoint.hpp).
  Checkpoint checkpoint() const;
  /// Takes one step; false when the run is over (finished, or stopped: see result()).
  bool step();
  /// Stops the run after the step in progress with status "interrupted" (`why`: e.g. "SIGINT");
  /// the state stays at the last accepted step, which finish() gives the observers.
  void interrupt(const std::string& why);
  /// Ends the run: the observers' finish, the timings. Returns the result.
  RunResult finish();
  /// begin, step until done (calling on_step(step) after each; it may call interrupt()), finish.
  RunResult run(const RunSettings& settings, const std::function<void(long)>& on_step = {},
                const Checkpoint* resume = nullptr);

  SimulatedSystem& primary() { return m_primary; }
  const SimulatedSystem& primary() const { return m_primary; }
  const std::vector<SimulatedSystem>& companions() const { return m_companions; }
  const Model& model() const { return m_primary.model(); }
  const State& state() const { return m_primary.state(); }
  const RunSettings& settings() const { return m_settings; }
  const RunResult& result() const { return m_result; }

 private:
  /// True when no step is due after `steps_done` steps at time t.
  bool finished(long steps_done, double t) const;
  /// Stops the run with `status` and a message naming the step.
  void stop(RunStatus status, long step, const std::string& why);

  SimulatedSystem m_primary;
  std::vector<SimulatedSystem> m_companions;
  std::vector<std::unique_ptr<StepObserver>> m_observers;
  RunSettings m_settings;
  StepClock m_clock{0.01, 0};
  std::unique_ptr<DivergenceMonitor> m_monitor;
  RunResult m_result;
  double m_begin_seconds = 0.0;  ///< wall clock at begin()
  double m_t0 = 0.0;             ///< the run's start time (the clock's origin)
  bool m_running = false;
};

}  // namespace simrun
