#pragma once
/// Numerical coarsening of one scene object (docs/coarsening.md; Kharevych thesis Ch. 4): its
/// reference mesh is the fine, heterogeneous body (the object's material, regions and E field
/// sampled on it); its own mesh gets one anisotropic tensor per tet and a mass-conserving
/// density. Used by the factory for runs and by `simrun coarsen` for the report and files.
#include <string>
#include <vector>

#include "coarsen/harmonic_displacements.hpp"
#include "coarsen/homogenized_tensors.hpp"
#include "scene/object_pieces.hpp"

namespace simrun {

struct ObjectCoarsening {
  ObjectPieces fine;                 ///< the reference mesh's pieces (object numbering)
  HarmonicDisplacements harmonic;    ///< method harmonic only (the mixed fields when mixed)
  HomogenizedTensors homogenized;    ///< method harmonic: the report per coarse tet
  int overlap_pairs = 0;             ///< nonzero |T_p ∩ T_q|
  std::vector<VoigtTensor> tensors;  ///< per coarse tet (harmonic, average_lame)
  SpMat galerkin;        ///< galerkin: K_c = P^T K_f P over the coarse vertices (3N x 3N)
  VecX density;          ///< per coarse tet: sum_p rho_p |T_p ∩ T_q| / |T_q|
  VecX youngs, poisson;  ///< per coarse tet: overlap-averaged (cell data only)
  double uncovered_fine_fraction = 0.0;  ///< fine volume outside the coarse mesh / fine volume
  bool mixed_boundary = false;           ///< harmonic problems with fixed vertices
  int neumann_fallbacks = 0;  ///< mixed: coarse tets with a singular G_q (Neumann tensor kept)
  double harmonic_seconds = 0.0, overlap_seconds = 0.0, tensor_seconds = 0.0;
  std::vector<std::string> notes;  ///< summary lines and warnings (ill-conditioned tets)
};

/// Coarsens object `index` (its "coarsening" and "reference") onto `coarse`, the object's own
/// pieces. Throws InputError naming the object's pointer when the coarse mesh leaves more than
/// 0.1 % of the fine volume uncovered, or a coarse tensor is not positive definite (the tets
/// listed); ill-conditioned coarse tets (cond G_q > 1e4, e.g. slivers) are a warning in notes.
/// With `reuse_cache`, results cached by an earlier run with identical inputs
/// (scene/coarsening_cache.hpp) are read instead of recomputed; fresh results are always cached
/// when the cache folder is writable.
ObjectCoarsening coarsen_object(const ObjectConfig& object, size_t index,
                                const std::string& scene_file, double dt,
                                const ObjectPieces& coarse, bool reuse_cache = true);

/// Puts the tensors, the density and the averaged E and nu into the coarse pieces.
void apply_coarsening(const ObjectCoarsening& coarsening, ObjectPieces& coarse);

}  // namespace simrun
