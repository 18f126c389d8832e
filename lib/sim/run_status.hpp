#pragma once
/// How a run ended: run.json's "status", the closing line of simrun.log and the exit code's
/// reason (interface contract: "finished" | "diverged" | "failed" | "interrupted").
#include <optional>
#include <ostream>
#include <string_view>

namespace simrun {

enum class RunStatus {
  kFinished,     ///< every requested step taken
  kDiverged,     ///< energy blow-up or non-finite values (a step past its stability limit)
  kFailed,       ///< a solver did not converge or hit a cap
  kInterrupted,  ///< stopped by a signal or a time limit, with a consistent state
};

/// The name run.json and the log use.
constexpr std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::kFinished:
      return "finished";
    case RunStatus::kDiverged:
      return "diverged";
    case RunStatus::kFailed:
      return "failed";
    case RunStatus::kInterrupted:
      return "interrupted";
  }
  return "failed";
}

/// The status a run.json names, if it names one of the four.
inline std::optional<RunStatus> run_status_from_string(std::string_view name) {
  for (RunStatus s :
       {RunStatus::kFinished, RunStatus::kDiverged, RunStatus::kFailed, RunStatus::kInterrupted})
    if (to_string(s) == name) return s;
  return std::nullopt;
}

inline std::ostream& operator<<(std::ostream& out, RunStatus status) {
  return out << to_string(status);
}

}  // namespace simrun
