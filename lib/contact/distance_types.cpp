#include "contact/distance_types.hpp"

namespace simrun {
namespace {

/// Where the closest point of segment (e0, e1) to p lies, and its squared distance.
enum class SegmentPart { kStart, kInterior, kEnd };
struct SegmentClosest {
  SegmentPart part;
  double distance2;
};

/// Parameter t = (p - e0).u / |u|^2 of p's projection onto the line e0 + t u, u = e1 - e0,
/// clamped to [0, 1]; a zero-length segment is its start point.
SegmentClosest closest_on_segment(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 u = e1 - e0;
  const Vec3 r = p - e0;
  const double uu = u.squaredNorm();
  const double ru = r.dot(u);
  if (uu <= 0.0 || ru <= 0.0) return {SegmentPart::kStart, r.squaredNorm()};
  if (ru >= uu) return {SegmentPart::kEnd, (p - e1).squaredNorm()};
  return {SegmentPart::kInterior, (r - (ru / uu) * u).squaredNorm()};
}

}  // namespace

PointTriangleType point_triangle_type(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                      const Vec3& t2) {
  const Vec3 a = t1 - t0;
  const Vec3 b = t2 - t0;
  const Vec3 n = a.cross(b);
  const double nn = n.squaredNorm();
  if (nn > kParallelSin2 * a.squaredNorm() * b.squaredNorm()) {
    // Barycentric coordinates of p's projection p' = t0 + s a + t b onto the plane: with
    // r = p - t0, s = ((r x b).n) / |n|^2 and t = ((a x r).n) / |n|^2 (Cramer's rule on the
    // in-plane components).
    const Vec3 r = p - t0;
    const double s = r.cross(b).dot(n) / nn;
    const double t = a.cross(r).dot(n) / nn;
    if (s >= 0.0 && t >= 0.0 && s + t <= 1.0) return PointTriangleType::kP_T;
  }
  // Outside the face's prism (or a degenerate triangle): the nearest edge segment decides.
  const SegmentClosest edges[3] = {closest_on_segment(p, t0, t1), closest_on_segment(p, t1, t2),
                                   closest_on_segment(p, t2, t0)};
  int best = 0;
  for (int k = 1; k < 3; ++k)
    if (edges[k].distance2 < edges[best].distance2) best = k;
  switch (edges[best].part) {
    case SegmentPart::kInterior:
      return static_cast<PointTriangleType>(static_cast<int>(PointTriangleType::kP_E0) + best);
    case SegmentPart::kStart:
      return static_cast<PointTriangleType>(best);  // edge k starts at t_k
    case SegmentPart::kEnd:
      break;
  }
  return static_cast<PointTriangleType>((best + 1) % 3);  // edge k ends at t_{k+1}
}

EdgeEdgeType edge_edge_type(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  const Vec3 a = ea1 - ea0;
  const Vec3 b = eb1 - eb0;
  const double aa = a.squaredNorm();
  const double bb = b.squaredNorm();
  const double nn = a.cross(b).squaredNorm();
  if (nn > kParallelSin2 * aa * bb) {
    // Minimizer of |w + s a - t b|^2, w = ea0 - eb0: the normal equations
    //   aa s - ab t = -a.w,   ab s - bb t = -b.w,   determinant ab^2 - aa bb = -|a x b|^2,
    // give s = (ab b.w - bb a.w) / |n|^2 and t = (aa b.w - ab a.w) / |n|^2.
    const Vec3 w = ea0 - eb0;
    const double ab = a.dot(b);
    const double aw = a.dot(w);
    const double bw = b.dot(w);
    const double s = (ab * bw - bb * aw) / nn;
    const double t = (aa * bw - ab * aw) / nn;
    if (s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0) return EdgeEdgeType::kEA_EB;
  }
  // The minimum over [0,1]^2 is on its boundary: each endpoint against the other segment.
  const SegmentClosest candidates[4] = {
      closest_on_segment(ea0, eb0, eb1), closest_on_segment(ea1, eb0, eb1),
      closest_on_segment(eb0, ea0, ea1), closest_on_segment(eb1, ea0, ea1)};
  int best = 0;
  for (int k = 1; k < 4; ++k)
    if (candidates[k].distance2 < candidates[best].distance2) best = k;
  const SegmentPart part = candidates[best].part;
  switch (best) {
    case 0:  // ea0 against eb
      return part == SegmentPart::kInterior ? EdgeEdgeType::kEA0_EB
             : part == SegmentPart::kStart  ? EdgeEdgeType::kEA0_EB0
                                            : EdgeEdgeType::kEA0_EB1;
    case 1:  // ea1 against eb
      return part == SegmentPart::kInterior ? EdgeEdgeType::kEA1_EB
             : part == SegmentPart::kStart  ? EdgeEdgeType::kEA1_EB0
                                            : EdgeEdgeType::kEA1_EB1;
    case 2:  // eb0 against ea
      return part == SegmentPart::kInterior ? EdgeEdgeType::kEA_EB0
             : part == SegmentPart::kStart  ? EdgeEdgeType::kEA0_EB0
                                            : EdgeEdgeType::kEA1_EB0;
    default:  // eb1 against ea
      return part == SegmentPart::kInterior ? EdgeEdgeType::kEA_EB1
             : part == SegmentPart::kStart  ? EdgeEdgeType::kEA0_EB1
                                            : EdgeEdgeType::kEA1_EB1;
  }
}

const char* type_name(PointTriangleType type) {
  static constexpr const char* kNames[] = {"P_T0", "P_T1", "P_T2", "P_E0", "P_E1", "P_E2", "P_T"};
  return kNames[static_cast<int>(type)];
}

const char* type_name(EdgeEdgeType type) {
  static constexpr const char* kNames[] = {"EA0_EB0", "EA0_EB1", "EA1_EB0", "EA1_EB1", "EA_EB0",
                                           "EA_EB1",  "EA0_EB",  "EA1_EB",  "EA_EB"};
  return kNames[static_cast<int>(type)];
}

}  // namespace simrun
