#pragma once
/// Exit codes of the interface contract.
namespace simrun::app {
inline constexpr int kExitFinished = 0;
inline constexpr int kExitBadInput = 1;  ///< scene, mesh or option problem; nothing simulated
inline constexpr int kExitDiverged = 2;  ///< diverged or a solver failed; outputs kept
inline constexpr int kExitInternal = 3;  ///< a bug
}  // namespace simrun::app
