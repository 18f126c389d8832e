#pragma once
/// What `simrun coarsen` writes for one coarsened object (docs/coarsening.md): the tensors, one
/// row per coarse tet, the harmonic displacements on the fine mesh as VTU (thesis Fig. 4.3), the
/// coarse mesh with its homogenized stiffness, and a report.
#include <filesystem>
#include <string>

#include "scene/object_coarsening.hpp"

namespace simrun {

/// Writes into out_dir: <name>_tensors.csv (tet, covered_fraction, condition, min/max
/// eigenvalue, density, volume, C11 C12 ... C66: the 21 upper-triangle entries of the Voigt tensor
/// in the order [11 22 33 23 13 12], engineering shear), <name>_harmonic.vtu (fine mesh, point
/// vectors h_11 h_22 h_33 h_23 h_13 h_12 [m/Pa]), <name>_coarse.vtu (coarse mesh, cell data
/// C11, C22, C33, min_eigenvalue, covered_fraction) and appends the notes to report.txt.
void write_coarsening_files(const std::filesystem::path& out_dir, const std::string& name,
                            const ObjectCoarsening& coarsening, const TetMesh& coarse);

}  // namespace simrun
