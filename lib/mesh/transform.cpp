#include "mesh/transform.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/error.hpp"
#include "mesh/orient.hpp"

namespace simrun {

void transform_vertices(MatX3& x, const Vec3& scale, const Vec3& rotate_axis, double rotate_deg,
                        const Vec3& translate) {
  for (int d = 0; d < 3; ++d) {
    if (!(std::isfinite(scale(d)) && scale(d) != 0.0)) {
      std::ostringstream s;
      s << "transform scale[" << d << "]: expected a finite non-zero factor, found " << scale(d);
      throw InputError(s.str());
    }
  }
  require(translate.allFinite() && std::isfinite(rotate_deg) && rotate_axis.allFinite(),
          "transform: expected finite rotation and translation");
  Mat3 rotation = Mat3::Identity();
  if (rotate_deg != 0.0) {
    require(rotate_axis.norm() > 0.0,
            "transform rotate_axis: expected a non-zero axis, found [0, 0, 0]");
    rotation = Eigen::AngleAxisd(rotate_deg * std::numbers::pi / 180.0, rotate_axis.normalized())
                   .toRotationMatrix();
  }
  const Mat3 linear = rotation * scale.asDiagonal();
  // Rows are points: x_i^T <- x_i^T A^T + t^T.
  x = (x * linear.transpose()).rowwise() + translate.transpose();
}

int transform_mesh(TetMesh& mesh, const Vec3& scale, const Vec3& rotate_axis, double rotate_deg,
                   const Vec3& translate) {
  transform_vertices(mesh.vertices, scale, rotate_axis, rotate_deg, translate);
  return orient_tets(mesh, "transformed mesh");
}

}  // namespace simrun
