#include "scene/merged_objects.hpp"

#include <algorithm>

namespace simrun {

MergedObjects merge_objects(const std::vector<ObjectPieces>& objects) {
  int n_vertices = 0, n_tets = 0;
  for (const ObjectPieces& p : objects) {
    n_vertices += p.mesh.num_vertices();
    n_tets += p.mesh.num_tets();
  }
  MergedObjects m;
  m.mesh.vertices.resize(n_vertices, 3);
  m.mesh.tets.resize(n_tets, 4);
  m.initial_positions.resize(n_vertices, 3);
  m.youngs.resize(n_tets);
  m.poisson.resize(n_tets);
  m.density.resize(n_tets);
  m.point_mass = VecX::Zero(3 * n_vertices);
  for (const ObjectPieces& p : objects)
    if (!p.stiffness.empty()) m.stiffness.assign(n_tets, VoigtTensor::Zero());
  std::vector<double> spring_stiffness;
  int v0 = 0, t0 = 0;
  for (size_t i = 0; i < objects.size(); ++i) {
    const ObjectPieces& p = objects[i];
    m.vertex_offset.push_back(v0);
    m.tet_offset.push_back(t0);
    const int nv = p.mesh.num_vertices(), nt = p.mesh.num_tets();
    m.mesh.vertices.middleRows(v0, nv) = p.mesh.vertices;
    m.initial_positions.middleRows(v0, nv) = p.initial_positions;
    m.mesh.tets.middleRows(t0, nt) = p.mesh.tets.array() + v0;
    m.mesh.regions.insert(m.mesh.regions.end(), p.mesh.regions.begin(), p.mesh.regions.end());
    m.material_region.insert(m.material_region.end(), p.material_region.begin(),
                             p.material_region.end());
    if (nt > 0) {
      m.youngs.segment(t0, nt) = p.youngs;
      m.poisson.segment(t0, nt) = p.poisson;
      m.density.segment(t0, nt) = p.density;
    }
    std::copy(p.stiffness.begin(), p.stiffness.end(), m.stiffness.begin() + t0);
    m.galerkin_stiffness.push_back(p.galerkin_stiffness);
    for (size_t s = 0; s < p.mesh.edges.size(); ++s) {
      const auto& edge = p.mesh.edges[s];
      m.springs.push_back({edge[0] + v0, edge[1] + v0});
      spring_stiffness.push_back(p.spring_stiffness[static_cast<Eigen::Index>(s)]);
      m.mesh.edges.push_back(m.springs.back());
    }
    if (!p.mesh.edges.empty())
      for (int v = 0; v < nv; ++v)
        m.point_mass.segment<3>(3 * (v0 + v)).setConstant(p.particle_mass[v]);
    for (DirichletGroup group : p.groups) {
      for (int& v : group.vertices) v += v0;
      m.groups.push_back(std::move(group));
    }
    v0 += nv;
    t0 += nt;
  }
  m.vertex_offset.push_back(v0);
  m.tet_offset.push_back(t0);
  m.spring_stiffness = Eigen::Map<const VecX>(spring_stiffness.data(),
                                              static_cast<Eigen::Index>(spring_stiffness.size()));
  return m;
}

}  // namespace simrun
