#pragma once
/// The multilevel solver's precomputation for a whole scene (Trusty et al.
/// Secs. 3.4-3.6): per object a stiffness-aware partition, its SMS weights and one affine handle,
/// assembled into the two bases in the model's free DOFs.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "multilevel/alternative_weights.hpp"
#include "multilevel/multilevel_solver.hpp"

namespace simrun {

/// The scene, as the precomputation needs it (no scene types: the library never reads JSON).
struct MultilevelInput {
  MatX3 rest;
  MatX4i tets;
  VecX youngs;                    ///< per tet [Pa]
  std::vector<int> material;      ///< per tet: material id (for the jump penalty)
  std::vector<int> tet_offset;    ///< object o owns tets [tet_offset[o], tet_offset[o + 1])
  std::vector<bool> fixed;        ///< per vertex: Dirichlet-constrained at the start
  VecX vertex_mass;               ///< per vertex [kg] (the affine handles' centres of mass)
  std::vector<int> full_to_free;  ///< per full DOF: free index or -1
  int num_free = 0;
};

struct MultilevelSetupSettings {
  int partitions = 16;        ///< initial k over the scene, split over objects by tet count
  double jump_penalty = 0.0;  ///< Sec. 3.6.2 factor c (0: off)
  double contrast_cap = 0.0;  ///< PartitionSettings::contrast_cap (0: the plain ratio)
  std::uint64_t seed = 1;     ///< k-means++ seeding
  bool dirichlet_aware = true;
  /// The SMS level's weight functions: the paper's, or an alternative of its Figs. 3-5.
  HandleBasis basis = HandleBasis::kSms;
};

struct MultilevelPrecompute {
  std::shared_ptr<MultilevelBases> bases;
  std::vector<int> element_label;         ///< per tet: its SMS handle (partition), scene-wide
  SpMat phi;                              ///< n_vertices x handles: the SMS weights
  std::vector<int> origin_vertex;         ///< per handle
  HandleBasis basis = HandleBasis::kSms;  ///< the weight functions of the SMS level
  int handles = 0;                        ///< SMS handles (partitions) over all objects
  int objects = 0;                        ///< affine handles
  int zero_sum_vertices = 0;              ///< vertices no clipped weight reached (own handle used)
  int repaired_components = 0;            ///< stray partition pieces merged by the repair
  /// Mean over partitions of the most edge hops from the handle's origin to a vertex of its
  /// partition (BFS inside the partition): the paper's gauge for 20 or 40 polish iterations.
  double mean_hop_radius = 0.0;
  int clamped_partitions = 0;         ///< asked for but not made (an object with few vertices)
  VecX dirichlet_weight;              ///< per vertex, phi_DBC (Eq. 11)
  std::vector<int> object_of_vertex;  ///< per vertex: its affine handle, -1 for none
  double partition_seconds = 0.0, basis_seconds = 0.0;

  /// One line for the run log: handles, DOFs, timings.
  std::string summary() const;
};

/// Partitions every object (partition_tets) and builds its SMS weights (sms_handle_weights):
/// everything but the bases (the expensive part, and what the cache keeps). Objects without tets
/// get no handles (the polish alone moves their DOFs).
MultilevelPrecompute compute_multilevel_weights(const MultilevelInput& input,
                                                const MultilevelSetupSettings& settings);
/// The LBS bases from the weights: U_s and the per-object affine U_a, in the free DOFs.
void assemble_multilevel_bases(const MultilevelInput& input, MultilevelPrecompute& precompute);
/// The paper's automatic polish count (Trusty et al. Sec. 3.7.2): 20 or 40, whichever is closer to
/// the mean hop radius.
int automatic_fine_iterations(const MultilevelPrecompute& precompute);

/// compute_multilevel_weights + assemble_multilevel_bases.
MultilevelPrecompute build_multilevel(const MultilevelInput& input,
                                      const MultilevelSetupSettings& settings);

}  // namespace simrun
