"""Voxel tet meshes and closed surfaces for the coarsening stand-ins: kharevych_cheese_wheel.py
(Kharevych thesis Fig. 4.8: a wheel with holes in one half) and the organ-like ellipsoid of
benchmarks/coarsening_precompute.py (Fig. 4.1's ~200k-tet precomputation).

Voxels: cubes of edge c on a grid, kept when their centre lies inside the body (and outside
every void); each kept cube is split into 6 tets around its main diagonal (Kuhn), which conforms
across shared faces, and carries a region tag (the Medit reference) from its centre. The
boundary is a staircase. Voids stay closed: at least one voxel layer separates each from the
outer surface, so the coarsening sees it as a cavity (traction-free), not as outer shell.
"""
import math

import numpy as np

# Kuhn split of the unit cube: corners as (i, j, k) bits; 6 tets share the diagonal 000-111, each
# positively oriented (det [b - a, c - a, d - a] = +1).
_KUHN = [[(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)], [(0, 0, 0), (1, 0, 0), (1, 1, 1), (1, 0, 1)],
         [(0, 0, 0), (0, 1, 0), (1, 1, 1), (1, 1, 0)], [(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 1, 1)],
         [(0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1)], [(0, 0, 0), (0, 0, 1), (1, 1, 1), (0, 1, 1)]]


def place_voids(radius, height, void_radius, clamp_half_width, cell):
    """Void centres (x, y, z) packed greedily in the +x half: two layers in y (one when the
    height leaves no room), each void at least one cell from the cylinder's surfaces and from
    the slab |x| < clamp_half_width, and half a cell from the other voids (so neighbouring voids
    can share a voxel edge or, on coarse grids, merge into one cavity)."""
    margin = cell
    layers = [height / 2] if height < 4 * void_radius + 3 * margin else [
        margin + void_radius + 0.5 * cell, height - margin - void_radius - 0.5 * cell]
    centres = []
    step = cell / 4
    for y in layers:
        chosen = []
        for x in np.arange(clamp_half_width + margin + void_radius, radius, step):
            for z in np.arange(-radius, radius, step):
                if math.hypot(x, z) + void_radius > radius - margin:
                    continue
                if all(math.hypot(x - a, z - b) >= 2 * void_radius + 0.5 * margin for a, b in chosen):
                    chosen.append((x, z))
        centres += [(x, y, z) for x, z in chosen]
    return centres


def write_voxel_mesh(path, lower, upper, cell, keep, region=None):
    """Writes the voxel mesh of the cubes of edge `cell` tiling the box [lower, upper] whose
    centres (arrays cx, cy, cz) satisfy keep(cx, cy, cz) (a boolean array), with region tags
    region(cx, cy, cz) (integers; 1 without `region`), as Medit .mesh; returns (vertices N x 3,
    tet count, tet regions)."""
    lower = np.asarray(lower, dtype=float)
    counts = np.round((np.asarray(upper, dtype=float) - lower) / cell).astype(int)
    axes = [lower[d] + (np.arange(counts[d]) + 0.5) * cell for d in range(3)]
    cx, cy, cz = np.meshgrid(*axes, indexing="ij")
    kept = keep(cx, cy, cz)
    tags = region(cx, cy, cz) if region else np.ones(kept.shape, dtype=int)
    cubes = np.argwhere(kept)
    # Vertex ids of the grid corners that kept cubes use.
    corner_used = np.zeros(counts + 1, dtype=bool)
    for a in (0, 1):
        for b in (0, 1):
            for c in (0, 1):
                corner_used[cubes[:, 0] + a, cubes[:, 1] + b, cubes[:, 2] + c] = True
    ids = -np.ones(counts + 1, dtype=np.int64)
    corners = np.argwhere(corner_used)
    ids[corners[:, 0], corners[:, 1], corners[:, 2]] = np.arange(len(corners))
    vertices = lower + corners * cell
    tets = np.empty((6 * len(cubes), 4), dtype=np.int64)
    for t, tet in enumerate(_KUHN):
        for v, (a, b, c) in enumerate(tet):
            tets[t::6, v] = ids[cubes[:, 0] + a, cubes[:, 1] + b, cubes[:, 2] + c]
    tet_regions = np.repeat(tags[cubes[:, 0], cubes[:, 1], cubes[:, 2]], 6)
    write_medit(path, vertices, tets, tet_regions)
    return vertices, len(tets), tet_regions


def write_medit(path, vertices, tets, regions):
    """An ASCII Medit .mesh: vertices (N x 3), 0-based tets (M x 4) with a region tag each (the
    Medit reference simrun's {"region": k} selects)."""
    with open(path, "w") as f:
        f.write(f"MeshVersionFormatted 2\nDimension 3\nVertices\n{len(vertices)}\n")
        np.savetxt(f, np.column_stack([vertices, np.zeros(len(vertices))]), fmt="%.17g %.17g %.17g %d")
        f.write(f"Tetrahedra\n{len(tets)}\n")
        np.savetxt(f, np.column_stack([tets + 1, regions]), fmt="%d")
        f.write("End\n")


def write_wheel_mesh(path, radius, height, cell, voids, void_radius):
    """The wheel (axis y, bottom face at y = 0) with spherical voids; see write_voxel_mesh."""
    def keep(cx, cy, cz):
        inside = np.hypot(cx, cz) < radius
        for x, y, z in voids:
            inside &= (cx - x) ** 2 + (cy - y) ** 2 + (cz - z) ** 2 >= void_radius ** 2
        return inside

    vertices, tets, _ = write_voxel_mesh(path, (-radius, 0.0, -radius), (radius, height, radius), cell, keep)
    return vertices, tets


def write_off(path, vertices, faces):
    with open(path, "w") as f:
        f.write(f"OFF\n{len(vertices)} {len(faces)} 0\n")
        for x, y, z in vertices:
            f.write(f"{x:.9g} {y:.9g} {z:.9g}\n")
        for a, b, c in faces:
            f.write(f"3 {a} {b} {c}\n")


def write_ellipsoid_off(path, centre, semi_axes, subdivisions=1, around=True):
    """A closed, outward-oriented triangulation of the ellipsoid with `semi_axes`: an icosahedron
    subdivided `subdivisions` times (near-equilateral triangles, so TetGen's quality bound adds
    few points), projected to the unit sphere and stretched by the semi-axes. With `around` it is
    first scaled so that its flat facets stay outside the sphere (by 1 / the closest facet
    plane's distance), so it contains the ellipsoid; else its vertices lie on the ellipsoid and
    it lies inside."""
    t = (1.0 + math.sqrt(5.0)) / 2.0
    vertices = [np.array(v, dtype=float) / math.sqrt(1 + t * t) for v in
                [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
                 (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
             (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
             (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(subdivisions):
        midpoint = {}

        def middle(a, b):
            key = (min(a, b), max(a, b))
            if key not in midpoint:
                m = vertices[a] + vertices[b]
                vertices.append(m / np.linalg.norm(m))
                midpoint[key] = len(vertices) - 1
            return midpoint[key]

        refined = []
        for a, b, c in faces:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            refined += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = refined
    # The distance of the closest facet plane to the centre: facets at least this far out.
    closest = min(abs(np.dot(np.cross(vertices[b] - vertices[a], vertices[c] - vertices[a]), vertices[a])) /
                  np.linalg.norm(np.cross(vertices[b] - vertices[a], vertices[c] - vertices[a]))
                  for a, b, c in faces)
    scale = np.asarray(semi_axes, dtype=float) / (closest if around else 1.0)
    points = [tuple(np.asarray(centre) + scale * v) for v in vertices]
    # Outward: the icosahedron's faces above are counter-clockwise seen from outside.
    write_off(path, points, faces)


def write_cylinder_off(path, radius, height, segments, diameter_points=6):
    """The closed surface of the cylinder (a prism over a regular polygon, segments divisible by
    4, circumscribing the circle of `radius`), outward-oriented triangles, for TetGen. Each cap
    carries `diameter_points` vertices on its diameter x = 0, so that a clamp of the plane x = 0
    holds the coarse mesh along a line on each cap, not only at the polygon's two corners there;
    each half cap is a convex polygon, fanned from its corner on the x axis."""
    if segments % 4:
        raise ValueError("segments must be divisible by 4")
    r = radius / math.cos(math.pi / segments)
    quarter = segments // 4
    vertices, faces = [], []
    for y in (0.0, height):
        base = len(vertices)
        vertices += [(r * math.cos(2 * math.pi * s / segments), y, r * math.sin(2 * math.pi * s / segments))
                     for s in range(segments)]
        inner = [(0.0, y, r - 2 * r * (k + 1) / (diameter_points + 1)) for k in range(diameter_points)]
        vertices += inner
        # Ring indices: s = quarter is (0, y, +r), s = 3 quarter is (0, y, -r).
        diameter = [base + quarter] + [base + segments + k for k in range(diameter_points)] + \
            [base + 3 * quarter]  # from z = +r to z = -r
        for apex_s, arc in ((0, [(3 * quarter + k) % segments for k in range(2 * quarter + 1)]),
                            (2 * quarter, [quarter + k for k in range(2 * quarter + 1)])):
            # Half cap polygon: the arc through the apex, then the diameter back.
            ring = [base + s for s in arc]
            polygon = ring + (diameter[1:-1] if apex_s == 0 else diameter[::-1][1:-1])
            apex = polygon.index(base + apex_s)
            polygon = polygon[apex:] + polygon[:apex]
            for a, b in zip(polygon[1:-1], polygon[2:]):
                tri = (polygon[0], a, b)
                faces.append(tri if y == 0.0 else tri[::-1])  # increasing angle: normal -y
    top = segments + diameter_points
    for s in range(segments):
        t = (s + 1) % segments
        faces.append((s, top + s, top + t))  # side, outward
        faces.append((s, top + t, t))
    write_off(path, vertices, faces)
