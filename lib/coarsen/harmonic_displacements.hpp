#pragma once
/// Global harmonic displacements of a heterogeneous linear elastic body (Kharevych thesis
/// Sec. 4.3.5, Eq. 4.3, with Sec. 4.4.2's boundary): for each of the six unit symmetric stresses
/// S_j, the static displacement h_j with div(C : eps(h_j)) = 0 inside and the traction S_j n on
/// the outer boundary (cavities traction-free), made unique by removing its rigid motion. The
/// fields are what numerical coarsening samples to build one anisotropic tensor per coarse tet.
#include <string>
#include <vector>

#include "core/types.hpp"
#include "fem/dof_map.hpp"
#include "fem/tet_elements.hpp"
#include "material/material_parameters.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// The unit symmetric stress of load case j in Voigt order [11 22 33 23 13 12]:
/// S_j = (e_a e_b^T + e_b e_a^T) / 2 for the index pair (a, b) of j.
Mat3 load_case_stress(int j);

/// 6x12 engineering-strain operator of a P1 tet: [e11 e22 e33 2e23 2e13 2e12] = B u for the
/// element's nodal displacements u (vertex-major, 3 per vertex).
Eigen::Matrix<double, 6, 12> voigt_strain_operator(const TetGradients& G);

/// K = sum_e V_e B_e^T C_e B_e (Eq. 2.14, one Voigt tensor per tet) over the free DOFs of `dofs`.
SpMat voigt_stiffness(const TetElements& elements, const std::vector<VoigtTensor>& tensors,
                      const DofMap& dofs);

/// The boundary triangles of a tet mesh grouped into closed shells (connected through shared
/// edges). A shell whose enclosed signed volume (divergence theorem over outward-oriented
/// faces) is positive bounds material from outside: an outer shell. A negative one bounds a
/// cavity.
struct BoundaryShells {
  MatX3i faces;                ///< boundary triangles, outward (mesh/boundary.hpp)
  std::vector<int> shell;      ///< per face: its shell
  std::vector<double> volume;  ///< per shell: enclosed signed volume [m^3]
  bool is_outer(int s) const { return volume[s] > 0.0; }
  int num_shells() const { return static_cast<int>(volume.size()); }
};
BoundaryShells boundary_shells(const TetMesh& mesh);

/// Which normal the Neumann load uses on a fine boundary face (thesis Sec. 4.4.2: "it was
/// beneficial to alter the normal ... to the normal N of the coarse bounding tet"): the face's
/// own, or that of the nearest boundary face of the coarse mesh (by centroid distance).
enum class NeumannNormal { kFine, kCoarse };

struct HarmonicOptions {
  NeumannNormal normal = NeumannNormal::kFine;
  const TetMesh* coarse = nullptr;  ///< required for kCoarse
  /// Vertices held at zero displacement (mixed Dirichlet/Neumann, thesis Sec. 4.3.9). Empty:
  /// pure Neumann, with the load's net force and torque removed and the rigid motion of each
  /// field removed.
  std::vector<int> fixed_vertices;
};

struct HarmonicDisplacements {
  MatX fields;           ///< 3n x 6: column j = h_j (flat, x y z per vertex) [m / Pa]
  MatX loads;            ///< 3n x 6: the nodal loads solved for (after projection) [N / Pa]
  int outer_faces = 0;   ///< loaded boundary triangles
  int cavity_faces = 0;  ///< traction-free boundary triangles (inner shells)
  double max_relative_residual = 0.0;  ///< max_j |K h_j - b_j| / |b_j| over free DOFs
  double removed_load_fraction = 0.0;  ///< |net force/torque part removed| / |b| (coarse normals)
};

/// Solves the six problems with one CHOLMOD factorization of the fine stiffness
/// K = sum_e V_e B_e^T C_e B_e (Eq. 2.14, one Voigt tensor per fine tet). Pure Neumann: six DOFs
/// pinned (rigid_pin_dofs), exact for a self-equilibrated load, and the rigid part removed
/// afterwards with lumped-volume weights. Throws InputError naming `what` for a triangle that is a
/// face of more than two tets (overlapping tets: the only way a tet mesh's boundary is not
/// closed, mesh/boundary.hpp), a mesh without an outer shell, or a singular stiffness.
HarmonicDisplacements solve_harmonic_displacements(const TetMesh& fine, const TetElements& elements,
                                                   const std::vector<VoigtTensor>& tensors,
                                                   const HarmonicOptions& options,
                                                   const std::string& what);

}  // namespace simrun
