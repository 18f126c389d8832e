#pragma once
/// The barrier and friction tests' scene: a 1 x 0.5 x 1 box (2 x 1 x 2 cells) and a smaller box
/// above it, turned (0.3 rad about y, 0.2 rad about x) so that edges cross (edge-edge pairs) and
/// corners face faces, its lowest point `gap` above the first box's top face (y = 0.5).
#include <Eigen/Geometry>
#include <vector>

#include "core/types.hpp"
#include "mesh/box.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun::testing {

struct TurnedBoxes {
  TetMesh mesh;
  std::vector<int> tet_object;  ///< 0 for the lower box, 1 for the turned one
  VecX x;                       ///< the vertices, flat
};

inline TurnedBoxes turned_boxes(double gap) {
  const TetMesh a = make_box(Vec3(1.0, 0.5, 1.0), Eigen::Vector3i(2, 1, 2), 6);
  const TetMesh b = make_box(Vec3(0.6, 0.4, 0.6), Eigen::Vector3i(1, 1, 1), 6);
  const Mat3 turn = Eigen::AngleAxisd(0.3, Vec3::UnitY()).toRotationMatrix() *
                    Eigen::AngleAxisd(0.2, Vec3::UnitX()).toRotationMatrix();
  MatX3 turned(b.num_vertices(), 3);
  for (int v = 0; v < b.num_vertices(); ++v)
    turned.row(v) = (turn * (b.vertices.row(v).transpose() - Vec3(0.3, 0.2, 0.3))).transpose();
  const double lowest = turned.col(1).minCoeff();
  for (int v = 0; v < b.num_vertices(); ++v)
    turned.row(v) += Eigen::RowVector3d(0.5, 0.5 + gap - lowest, 0.5);
  TurnedBoxes out;
  out.mesh.vertices.resize(a.num_vertices() + b.num_vertices(), 3);
  out.mesh.vertices << a.vertices, turned;
  out.mesh.tets.resize(a.num_tets() + b.num_tets(), 4);
  out.mesh.tets << a.tets, (b.tets.array() + a.num_vertices()).matrix();
  out.tet_object.assign(a.num_tets(), 0);
  out.tet_object.insert(out.tet_object.end(), b.num_tets(), 1);
  out.x = VecX(Eigen::Map<const VecX>(out.mesh.vertices.data(), out.mesh.vertices.size()));
  return out;
}

}  // namespace simrun::testing
