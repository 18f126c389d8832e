#include "contact/distance.hpp"

#include "contact/distance_chain.hpp"

namespace simrun {

using distance_detail::to_slots;

DistanceDerivatives point_triangle_distance2(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                             const Vec3& t2, PointTriangleType type, bool hessian) {
  // Slots: p = 0, t0 = 1, t1 = 2, t2 = 3; edge k = (t_k, t_{k+1 mod 3}).
  switch (type) {
    case PointTriangleType::kP_T0:
      return to_slots<2>(point_point_distance2(p, t0, hessian), {0, 1}, hessian);
    case PointTriangleType::kP_T1:
      return to_slots<2>(point_point_distance2(p, t1, hessian), {0, 2}, hessian);
    case PointTriangleType::kP_T2:
      return to_slots<2>(point_point_distance2(p, t2, hessian), {0, 3}, hessian);
    case PointTriangleType::kP_E0:
      return to_slots<3>(point_edge_distance2(p, t0, t1, hessian), {0, 1, 2}, hessian);
    case PointTriangleType::kP_E1:
      return to_slots<3>(point_edge_distance2(p, t1, t2, hessian), {0, 2, 3}, hessian);
    case PointTriangleType::kP_E2:
      return to_slots<3>(point_edge_distance2(p, t2, t0, hessian), {0, 3, 1}, hessian);
    case PointTriangleType::kP_T:
      break;
  }
  return point_triangle_plane_distance2(p, t0, t1, t2, hessian);
}

DistanceDerivatives point_triangle_distance2(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                             const Vec3& t2, bool hessian) {
  return point_triangle_distance2(p, t0, t1, t2, point_triangle_type(p, t0, t1, t2), hessian);
}

DistanceDerivatives edge_edge_distance2(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                        const Vec3& eb1, EdgeEdgeType type, bool hessian) {
  // Slots: ea0 = 0, ea1 = 1, eb0 = 2, eb1 = 3.
  switch (type) {
    case EdgeEdgeType::kEA0_EB0:
      return to_slots<2>(point_point_distance2(ea0, eb0, hessian), {0, 2}, hessian);
    case EdgeEdgeType::kEA0_EB1:
      return to_slots<2>(point_point_distance2(ea0, eb1, hessian), {0, 3}, hessian);
    case EdgeEdgeType::kEA1_EB0:
      return to_slots<2>(point_point_distance2(ea1, eb0, hessian), {1, 2}, hessian);
    case EdgeEdgeType::kEA1_EB1:
      return to_slots<2>(point_point_distance2(ea1, eb1, hessian), {1, 3}, hessian);
    case EdgeEdgeType::kEA_EB0:
      return to_slots<3>(point_edge_distance2(eb0, ea0, ea1, hessian), {2, 0, 1}, hessian);
    case EdgeEdgeType::kEA_EB1:
      return to_slots<3>(point_edge_distance2(eb1, ea0, ea1, hessian), {3, 0, 1}, hessian);
    case EdgeEdgeType::kEA0_EB:
      return to_slots<3>(point_edge_distance2(ea0, eb0, eb1, hessian), {0, 2, 3}, hessian);
    case EdgeEdgeType::kEA1_EB:
      return to_slots<3>(point_edge_distance2(ea1, eb0, eb1, hessian), {1, 2, 3}, hessian);
    case EdgeEdgeType::kEA_EB:
      break;
  }
  return line_line_distance2(ea0, ea1, eb0, eb1, hessian);
}

DistanceDerivatives edge_edge_distance2(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                        const Vec3& eb1, bool hessian) {
  return edge_edge_distance2(ea0, ea1, eb0, eb1, edge_edge_type(ea0, ea1, eb0, eb1), hessian);
}

}  // namespace simrun
