#include "mesh/tetrahedralize.hpp"

#include <tetgen.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "mesh/orient.hpp"
#include "mesh/surface_check.hpp"
#include "mesh/tetgen_terminate.hpp"

namespace simrun {
namespace {

// Meaning of the int TetGen throws from terminatetetgen() (tetgen.h, TETLIBRARY build).
std::string tetgen_error(int code) {
  switch (code) {
    case 1:
      return "out of memory";
    case 2:
      return "internal error";
    case 3:
      return "the surface intersects itself";
    case 4:
      return "a very small input feature size was detected";
    case 5:
      return "two very close input facets were detected";
    case 10:
      return "TetGen rejected the input";
    default:
      return "error code " + std::to_string(code);
  }
}

/// The refinement parameters TetGen can take.
void require_tetgen_parameters(double quality_ratio, double max_volume, int target_tets,
                               const std::string& source_name) {
  // TetGen's Delaunay refinement need not terminate for radius-edge bounds below 1.
  require(quality_ratio == 0.0 || (quality_ratio >= 1.0 && std::isfinite(quality_ratio)),
          source_name + ": TetGen quality: expected 0 (off) or a radius-edge ratio >= 1, found " +
              std::to_string(quality_ratio));
  require(std::isfinite(max_volume) && max_volume >= 0.0,
          source_name +
              ": TetGen max_volume: expected a finite value >= 0 (0 = unbounded), found " +
              std::to_string(max_volume));
  require(target_tets >= 0, source_name + ": TetGen target_tets: expected >= 0, found " +
                                std::to_string(target_tets));
}

/// The surface as TetGen's input: its points and one triangle facet per face.
void set_surface_input(const SurfaceMesh& surface, tetgenio& in) {
  in.firstnumber = 0;
  in.numberofpoints = surface.num_vertices();
  in.pointlist = new REAL[3 * in.numberofpoints];
  for (int i = 0; i < in.numberofpoints; ++i)
    for (int c = 0; c < 3; ++c) in.pointlist[3 * i + c] = surface.vertices(i, c);
  in.numberoffacets = surface.num_faces();
  in.facetlist = new tetgenio::facet[in.numberoffacets];
  in.facetmarkerlist = nullptr;
  for (int f = 0; f < in.numberoffacets; ++f) {
    tetgenio::facet& facet = in.facetlist[f];
    tetgenio::init(&facet);
    facet.numberofpolygons = 1;
    facet.polygonlist = new tetgenio::polygon[1];
    tetgenio::init(&facet.polygonlist[0]);
    facet.polygonlist[0].numberofvertices = 3;
    facet.polygonlist[0].vertexlist = new int[3];
    for (int c = 0; c < 3; ++c) facet.polygonlist[0].vertexlist[c] = surface.faces(f, c);
  }
}

/// Runs TetGen on `in` into `out`, after its check for self-intersections; its errors as
/// InputError.
void run_tetgen(tetgenbehavior& behavior, tetgenio& in, tetgenio& out,
                const std::string& source_name) {
  // Links the fix for TetGen 1.5.0's double free on errors (see tetgen_terminate.cpp).
  require(detail::tetgen_terminate_replaced(), "TetGen error handler not installed");
  try {
    // TetGen 1.5.0 meshes some self-intersecting surfaces into a failed assertion (an abort,
    // not an error code: two closed components that overlap, tests/mesh/tetrahedralize_test.cpp),
    // so its intersection detection (-d: reports the intersecting triangles, meshes nothing)
    // runs first.
    tetgenbehavior detect;
    char detect_switches[] = "pdzQ";
    if (!detect.parse_commandline(detect_switches))
      throw InputError(source_name + ": TetGen rejected the switches 'pdzQ'");
    tetgenio intersecting;
    ::tetrahedralize(&detect, &in, &intersecting);
    if (intersecting.numberoftrifaces > 0)
      throw InputError(
          source_name + ": TetGen failed to tetrahedralize the surface: " + tetgen_error(3) + " (" +
          std::to_string(intersecting.numberoftrifaces) + " of its triangles cross others)");
    ::tetrahedralize(&behavior, &in, &out);
  } catch (int code) {
    throw InputError(source_name +
                     ": TetGen failed to tetrahedralize the surface: " + tetgen_error(code));
  }
}

/// TetGen's output as a mesh (vertices, tets, regions from the first attribute).
TetMesh mesh_from_tetgen(const tetgenio& out) {
  TetMesh mesh;
  mesh.vertices.resize(out.numberofpoints, 3);
  for (int i = 0; i < out.numberofpoints; ++i)
    for (int c = 0; c < 3; ++c) mesh.vertices(i, c) = out.pointlist[3 * i + c];
  mesh.tets.resize(out.numberoftetrahedra, 4);
  for (int t = 0; t < out.numberoftetrahedra; ++t)
    for (int c = 0; c < 4; ++c) mesh.tets(t, c) = out.tetrahedronlist[4 * t + c];
  if (out.numberoftetrahedronattributes > 0) {
    mesh.regions.resize(out.numberoftetrahedra);
    for (int t = 0; t < out.numberoftetrahedra; ++t) {
      mesh.regions[t] = static_cast<int>(
          std::lround(out.tetrahedronattributelist[t * out.numberoftetrahedronattributes]));
    }
  }
  return mesh;
}

}  // namespace

TetMesh tetrahedralize(const SurfaceMesh& surface, double quality_ratio, double max_volume,
                       int target_tets, const std::string& source_name) {
  require_closed_manifold(surface, source_name);
  require_tetgen_parameters(quality_ratio, max_volume, target_tets, source_name);
  if (target_tets > 0) max_volume = enclosed_volume(surface) / target_tets;

  tetgenio in;  // its destructor frees every list allocated with new[]
  set_surface_input(surface, in);

  // Numbers are set on tetgenbehavior directly, after parsing placeholders, so that they reach
  // TetGen exactly (its switch parser reads digits by hand).
  std::string switches = "pzAQ";
  if (quality_ratio > 0) switches += "q2";
  if (max_volume > 0) switches += "a1";
  tetgenbehavior behavior;
  std::vector<char> buf(switches.begin(), switches.end());
  buf.push_back('\0');
  if (!behavior.parse_commandline(buf.data()))
    throw InputError(source_name + ": TetGen rejected the switches '" + switches + "'");
  if (quality_ratio > 0) behavior.minratio = quality_ratio;
  if (max_volume > 0) behavior.maxvolume = max_volume;

  tetgenio out;
  run_tetgen(behavior, in, out, source_name);
  require(out.numberoftetrahedra > 0 && out.numberofcorners == 4,
          source_name + ": expected TetGen to produce linear tetrahedra, found " +
              std::to_string(out.numberoftetrahedra));

  TetMesh mesh = mesh_from_tetgen(out);
  orient_tets(mesh, source_name + " (TetGen output)");
  return mesh;
}

}  // namespace simrun
