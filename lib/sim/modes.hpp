#pragma once
/// `simrun modes`: rest-state generalized eigenpairs K u = lambda M u of a model, written as
/// modes.csv (mode,eigenvalue,frequency_hz) and modes/mode_NNN.vtu (displacement = mode shape).
#include <filesystem>

#include "sim/simulation.hpp"
#include "solve/eigen_solver.hpp"

namespace simrun {

/// Computes the `count` smallest modes at rest with `solver` (which keeps its analysis).
GeneralizedEigenResult rest_modes(Model& model, int count, GeneralizedEigenSolver& solver);
/// The same with a CHOLMOD-based solver of its own.
GeneralizedEigenResult rest_modes(Model& model, int count);

/// Writes modes.csv and one VTU per mode into out_dir. Frequencies are sqrt(max(lambda,0))/2pi.
/// `write_shapes` false: modes.csv only.
void write_modes(const std::filesystem::path& out_dir, const Model& model, const FrameData& frames,
                 const GeneralizedEigenResult& modes, bool write_shapes = true);

}  // namespace simrun
