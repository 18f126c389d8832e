"""The organ stand-in for Kharevych thesis Fig. 4.1 (a liver with stiff vessels), shared by
scripts/figures/kharevych_organ.py (the drop) and benchmarks/coarsening_precompute.py (the
precomputation at ~188k tets): an ellipsoid with semi-axes 0.12 x 0.06 x 0.08 m, its bottom 5 mm
above y = 0, and a vessel tree (a trunk along x and two branches to the +x end) of 9 mm tubes.
The fine mesh is TetGen's (through simrun) on a subdivided icosahedron with its vertices on the
ellipsoid, so it lies inside it; tets whose centroid lies within a tube carry Medit reference 2."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import simrun  # noqa: E402
import voxel_meshes  # noqa: E402

SEMI_AXES = (0.12, 0.06, 0.08)
CENTRE = (0.0, 0.065, 0.0)  # bottom 5 mm above the floor
VESSEL_RADIUS = 0.009
# Vessel tree: (start, end) segments; the two branches end near the surface on the +x side.
VESSELS = [((-0.095, 0.065, 0.0), (0.02, 0.065, 0.0)), ((0.02, 0.065, 0.0), (0.085, 0.085, 0.035)),
           ((0.02, 0.065, 0.0), (0.085, 0.045, -0.035))]


def vessel_region(points):
    """Per point (N x 3): 2 within VESSEL_RADIUS of a vessel segment, else 1."""
    near = np.zeros(len(points), dtype=bool)
    for start, end in VESSELS:
        a, b = np.asarray(start), np.asarray(end)
        t = np.clip((points - a) @ (b - a) / np.dot(b - a, b - a), 0.0, 1.0)
        near |= np.linalg.norm(points - (a + t[:, None] * (b - a)), axis=1) < VESSEL_RADIUS
    return np.where(near, 2, 1)


def fine_mesh(binary, work, target_tets, subdivisions, timeout=None):
    """simrun runs TetGen on the inscribed ellipsoid surface and writes its rest frame; the tets,
    vessel tets tagged 2, go to WORK/organ_fine.mesh. Returns (path, vertices, tets, regions)."""
    surface = os.path.join(work, "organ_fine.off")
    voxel_meshes.write_ellipsoid_off(surface, CENTRE, SEMI_AXES, subdivisions, around=False)
    scene = {"name": "organ_fine_mesh", "format": 1, "time": {"dt": 1e-3, "steps": 1},
             "objects": [{"name": "organ", "mesh": {"file": surface, "tetgen": {"target_tets": target_tets}},
                          "material": {"model": "linear", "E": 1e4, "nu": 0.4, "density": 1000}}],
             "gravity": [0, 0, 0], "output": {"every": 1, "compress": False}}
    scene_file = os.path.join(work, "organ_fine_mesh.json")
    with open(scene_file, "w") as f:
        json.dump(scene, f)
    out = os.path.join(work, "organ_fine_mesh")
    simrun.run(scene_file, out, threads=1, binary=binary, timeout=timeout,
               env={"SIMRUN_CACHE_DIR": os.path.join(work, "mesh_cache")})
    frame = simrun.read_vtu(os.path.join(out, "frames", "000000.vtu"))
    vertices, tets = frame.points, frame.tets
    regions = vessel_region(vertices[tets].mean(axis=1))
    path = os.path.join(work, "organ_fine.mesh")
    voxel_meshes.write_medit(path, vertices, tets, regions)
    return path, vertices, tets, regions
