#pragma once
/// The independent check of IPC's guarantee over frames (issue 14, evidence), shared by the
/// contact frame tests: simrun's uncompressed VTU frames are read back, every frame's surfaces
/// (objects and mesh obstacles) go through the exact face-face intersection test
/// (contact/intersection.hpp) and every tet is checked for a positive signed volume.
#include <gtest/gtest.h>

#include <Eigen/LU>  // determinant
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/cli.hpp"
#include "app/contact_scenes.hpp"
#include "contact/collision_mesh_build.hpp"
#include "contact/intersection.hpp"
#include "io/base64.hpp"
#include "mesh/read_surface.hpp"
#include "mesh/tet_mesh.hpp"

namespace cli {

/// `scene` writing an uncompressed VTU frame every step (what check_frames reads).
inline nlohmann::json with_raw_frames(nlohmann::json scene) {
  scene["output"] = {{"frames", {"vtu"}}, {"compress", false}, {"every", 1}};
  return scene;
}

/// ContactCli's drop scene (contact_scenes.hpp), writing an uncompressed VTU every step.
inline nlohmann::json framed_drop_scene(const std::string& integrator) {
  return with_raw_frames(contact_drop_scene(integrator));
}

/// ContactCli's two-box collision, writing an uncompressed VTU every step.
inline nlohmann::json framed_pair_scene() { return with_raw_frames(contact_pair_scene()); }

/// The raw bytes of the uncompressed inline-binary DataArray named `name` (io/vtu_writer.hpp:
/// base64 over a UInt64 byte count and the data).
inline std::vector<std::uint8_t> vtu_data_array(const std::string& xml, const std::string& name) {
  const size_t tag = xml.find("Name=\"" + name + "\"");
  if (tag == std::string::npos) throw std::runtime_error("no DataArray " + name);
  const size_t open = xml.find('>', tag) + 1;
  const size_t close = xml.find("</DataArray>", open);
  std::vector<std::uint8_t> bytes = simrun::base64_decode(xml.substr(open, close - open));
  std::uint64_t count = 0;
  std::memcpy(&count, bytes.data(), sizeof count);
  if (bytes.size() != sizeof count + count) throw std::runtime_error("bad size of " + name);
  bytes.erase(bytes.begin(), bytes.begin() + sizeof count);
  return bytes;
}

/// Points and tets of one of our uncompressed VTU frames.
inline simrun::TetMesh read_frame(const std::filesystem::path& file) {
  const std::string xml = read_file(file);
  if (xml.find("compressor=") != std::string::npos) throw std::runtime_error("compressed frame");
  const auto points = vtu_data_array(xml, "Points");
  const auto connectivity = vtu_data_array(xml, "connectivity");
  simrun::TetMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(points.size() / 24), 3);
  std::memcpy(mesh.vertices.data(), points.data(), points.size());
  std::vector<std::int64_t> ids(connectivity.size() / 8);
  std::memcpy(ids.data(), connectivity.data(), connectivity.size());
  mesh.tets.resize(static_cast<Eigen::Index>(ids.size() / 4), 4);
  for (size_t i = 0; i < ids.size(); ++i) mesh.tets.data()[i] = static_cast<int>(ids[i]);
  return mesh;
}

/// The mesh obstacles a run wrote (OUT/obstacles/obstacle_<k>.obj), in obstacle order.
inline std::vector<simrun::SurfaceMesh> obstacle_surfaces(const std::filesystem::path& out) {
  std::vector<std::pair<int, std::filesystem::path>> files;
  if (std::filesystem::exists(out / "obstacles"))
    for (const auto& entry : std::filesystem::directory_iterator(out / "obstacles")) {
      const std::string stem = entry.path().stem().string();
      if (entry.path().extension() == ".obj" && stem.rfind("obstacle_", 0) == 0)
        files.emplace_back(std::stoi(stem.substr(9)), entry.path());
    }
  std::sort(files.begin(), files.end());
  std::vector<simrun::SurfaceMesh> surfaces;
  for (const auto& [index, file] : files) surfaces.push_back(simrun::read_surface(file));
  return surfaces;
}

/// A frame's tet surface as one self-contact object (only adjacent faces are skipped).
inline simrun::CollisionMesh frame_surface(const simrun::TetMesh& mesh) {
  return simrun::build_collision_mesh(
      mesh, std::vector<int>(static_cast<size_t>(mesh.num_tets()), 0), {true});
}

/// Whether two faces of the frame at `file` intersect.
inline bool frame_surfaces_intersect(const std::filesystem::path& file) {
  const simrun::TetMesh mesh = read_frame(file);
  return simrun::surfaces_intersect(frame_surface(mesh), simrun::as_flat(mesh.vertices));
}

/// Checks every frame in out/frames: no two surface faces intersect (adjacent faces excepted)
/// and every tet has a positive signed volume. Returns the number of frames checked.
inline int check_frames(const std::filesystem::path& out, const std::string& what) {
  int frames = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out / "frames")) {
    if (entry.path().extension() != ".vtu") continue;
    const simrun::TetMesh mesh = read_frame(entry.path());
    // One object with self contact: faces of different boxes never share a vertex, so only
    // adjacent faces of one box are skipped.
    simrun::CollisionMesh surface = frame_surface(mesh);
    // Mesh obstacles: their vertices are the frame's last points, in obstacle order.
    const auto obstacles = obstacle_surfaces(out);
    int first = mesh.num_vertices();
    for (const auto& o : obstacles) first -= o.num_vertices();
    for (const auto& o : obstacles) {
      simrun::append_static_surface(surface, o.faces.array() + first, mesh.vertices);
      first += o.num_vertices();
    }
    std::string which;
    EXPECT_FALSE(simrun::surfaces_intersect(surface, simrun::as_flat(mesh.vertices), &which))
        << what << " " << entry.path().filename() << ": " << which;
    int inverted = 0;
    for (int e = 0; e < mesh.num_tets(); ++e) {
      const simrun::Vec3 x0 = mesh.vertices.row(mesh.tets(e, 0)).transpose();
      simrun::Mat3 edges;
      for (int k = 0; k < 3; ++k)
        edges.col(k) = mesh.vertices.row(mesh.tets(e, k + 1)).transpose() - x0;
      if (!(edges.determinant() > 0.0)) ++inverted;
    }
    EXPECT_EQ(inverted, 0) << what << " " << entry.path().filename();
    ++frames;
  }
  return frames;
}

}  // namespace cli
