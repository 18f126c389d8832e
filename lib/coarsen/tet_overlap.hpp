#pragma once
/// Exact overlap volumes |T_p ∩ T_q| between the tets of a fine and a coarse mesh of one object,
/// the weights of numerical coarsening's energy average (Kharevych thesis Sec. 4.3.7, the
/// <G^T C G> of Eq. 4.5): the meshes need not conform and the coarse boundary may stick out of
/// the fine one.
#include <array>
#include <vector>

#include "core/types.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

/// Volume of the intersection of two tets, either orientation (Kharevych thesis Sec. 4.3.7): tet
/// `a` as a convex polyhedron (vertex graph of degree 3) clipped by the four half-spaces of `b`,
/// then its volume by the divergence theorem. Exact up to roundoff: shared faces, edges and
/// vertices, coplanar faces and identical tets need no special case (a vertex on a plane counts
/// as inside). A degenerate (zero-volume) tet gives 0. Allocates nothing.
double tet_intersection_volume(const std::array<Vec3, 4>& a, const std::array<Vec3, 4>& b);

/// Signed volume of the tet (a, b, c, d): positive when (b - a, c - a, d - a) is right-handed.
double signed_tet_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// The four rest positions of tet t of `mesh`.
std::array<Vec3, 4> tet_corners(const TetMesh& mesh, int t);

/// Overlaps below this fraction of the smaller tet's volume are dropped as roundoff: two tets
/// that only touch (a shared face of conforming pieces) clip to a sliver of roundoff thickness.
inline constexpr double kOverlapRoundoffFraction = 1e-13;

/// Coordinate list of the nonzero overlaps: entry i says fine tet fine[i] and coarse tet
/// coarse[i] share volume[i] [m^3]. Sorted by coarse tet, then fine tet.
struct TetOverlaps {
  std::vector<int> fine, coarse;
  std::vector<double> volume;

  int size() const { return static_cast<int>(volume.size()); }
};

/// Every pair (fine tet p, coarse tet q) with |T_p ∩ T_q| > 0 at rest positions: candidates from
/// a uniform grid whose cells list the coarse tets that may overlap them (queried with each fine
/// tet's box), a box test and an exact face-plane test (rejecting, or accepting a fine tet wholly
/// inside with its own volume), then tet_intersection_volume() for the tets that cross a face
/// (pairs below kOverlapRoundoffFraction of the smaller tet are left out). Runs over blocks of
/// fine tets on thread_count() threads; the output does not depend on the thread count.
TetOverlaps tet_overlaps(const TetMesh& fine, const TetMesh& coarse);

/// Per fine tet, the volume the coarse mesh covers, sum_q |T_p ∩ T_q| (equal to |T_p| where the
/// coarse mesh covers the tet; the shortfall is fine volume outside the coarse mesh).
std::vector<double> fine_covered_volume(const TetOverlaps& overlaps, int num_fine_tets);

/// Per coarse tet, the volume of the fine mesh inside it, sum_p |T_p ∩ T_q| = |T_q ∩ D| (less
/// than |T_q| for a coarse tet sticking out of the object or over a hole).
std::vector<double> coarse_covered_volume(const TetOverlaps& overlaps, int num_coarse_tets);

}  // namespace simrun
