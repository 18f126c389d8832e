#!/usr/bin/python3
"""Stand-in meshes for the Chen thesis' Table 6.1 / 6.2 (Ch. 6, SIERE), whose meshes are not
available: deterministic generators of conforming tetrahedral meshes of about the thesis' sizes,
written as TetGen .node/.ele files, and one simrun scene per stand-in beside them.

| stand-in  | thesis mesh (Table 6.1)              | ours (default size)                                  |
|-----------|--------------------------------------|------------------------------------------------------|
| rope      | Rope, 12,791 v / 47,279 tets         | helical tube, 4 x 4 hexahedra per section x 492 sections x 6: 12,325 v / 47,232 tets |
| honeycomb | Honeycomb, 3,642 v / 9,850 tets      | sheet with hexagonal holes, triangular prisms x 3: 3,096 v / 10,080 tets |
| tower     | Eiffel Tower, 16,027 v / 69,271 tets | tapered cubic lattice of 3 x 3-cell bars, x 6: 18,576 v / 69,984 tets |
| tree      | Tree, 24,533 v / 79,217 tets         | trunk, 4 branches, 8 twigs as voxelized tapered capsules (1.8 cm cubes), x 6: 19,430 v / 78,114 tets |
| moebius   | Moebius ball, 5,829 v / 16,857 tets  | voxel ball (0.89 cm cubes): a core and a twisted spiral sheet around it, x 6: 5,372 v / 17,268 tets |
| bridge    | Bridge, 30,133 v / 99,455 tets       | voxel girder bridge (3 cm cubes): deck, two piers, two abutments, bearing pads, x 6: 21,968 v / 99,498 tets |

(The ball is scenes/chen_hanging_ball.json, the cuboid scenes/chen_standin_cuboid.json: both are
built by simrun itself.)

Construction. Every mesh is a structured cell complex split into tetrahedra by a rule that
depends only on global vertex numbers, so neighbouring cells split their shared faces the same
way (conforming):
- hexahedra (rope, tower, tree): the Kuhn split of each cell into 6 tets along the diagonal from
  its lowest (i, j, k) corner; the rope's cells follow a curved map of an (i, j, k) grid, the
  tower's cells are the voxels that lie on the lattice bars, the tree's those whose centers lie
  inside one of its tapered capsules.
- prisms (honeycomb): a triangle extruded through the thickness, split into 3 tets with every
  quad face cut from its lowest-numbered vertex.
Tets are written with positive volume; every generator checks conformity (no face shared by
more than two tets, and exactly the cell complex' boundary left as boundary triangles) and keeps
the largest face-connected piece only.

TetGen format (lib/mesh/read_tetgen.cpp): .node "<#points> 3 0 0" then "<i> x y z"; .ele
"<#tets> 4 1" then "<i> a b c d <region>", indices 0-based (the reader accepts 0 or 1). The
region attribute is selected in scenes by {"region": k}.

Scene choices (the thesis gives only material model, Young's moduli, nu = 0.45 and h; sizes,
density, constraints and loads are ours):
- rope: neo-Hookean, E = 1e6, rho = 1000, tube radius 1 cm, coil radius 10 cm, pitch 3 cm,
  4 turns about the x axis; the first section (top of the first turn) fixed, gravity, h = 0.01:
  the coil hangs from one end and uncoils (thesis Sec. 6.4.1, "uncoiling rope").
- honeycomb: neo-Hookean, sheet 0.5 x 0.5 m in x-y with hexagonal holes, 2 cm thick along z
  (the cell axis, the honeycomb's stiff direction), hung by its top edge (+y) under gravity,
  h = 0.01. "Soft core 1e6, stiff edge 1e8" (Sec. 6.4.4) is read as: the wall layer lining each
  hexagonal hole and the sheet's outline (the cell edges, region 2) at the peak E, the rest of
  the walls (region 1) at 1e6.
- tower: StVK, E = 3e7 homogeneous, 2 m high, 0.6 m base tapering to 0.24 m, 2 x 2 bays, 11
  storeys, base fixed, wind 200 Pa along +x with 50 % gusts at 0.5 Hz, h = 0.1 (Sec. 6.4.6,
  "swinging under strong wind"; at this stiffness the top moves by about 5 mm, a sway rather
  than large deformation).
- tree: neo-Hookean, E = 5e7 homogeneous (thesis Sec. 6.4, Fig. 6.15), rho = 1000, 2.5 m high:
  a 2.2 m trunk (radius 11 -> 4 cm), four branches 0.9 m long at 40 deg above horizontal leaving
  it between 0.88 and 1.65 m at golden-angle azimuths (radius down to 2.8 cm), two 0.45 m twigs
  on each (radius down to 2.7 cm); the trunk's foot fixed, gravity, h = 0.01. "Strong varying
  wind" (no magnitude in the thesis) is read as a storm: p0 = TREE_WIND_PA = 1000 Pa (the
  dynamic pressure of a 40 m/s wind) along +x with 50 % gusts at 1 Hz, its direction swinging
  +-45 deg about the vertical at 0.5 Hz. The branch tips move by about 1.2 m.

- moebius (Sec. 6.4.5, Fig. 6.12; "core 1e10, thin spiral sheet 1e8", StVK, h = 0.02): a 10 cm
  ball, a 3 cm core (region 2, the peak E) and a 2-cell (1.8 cm) sheet wound around it in an
  Archimedean spiral about z with 1.8 cm of air between windings, its phase turning by pi from
  bottom to top (a twisted band: our reading of "Moebius"); held on an axle through the core
  (the vertices within 1.5 cells of the centre fixed) and released under gravity (the thesis
  gives no load).
- bridge (Fig. 6.14; "multiscale ARAP, stiffest 1e10, softest 1e6", h = 0.1, strong wind): a 4 m
  deck 0.1 m thick and 0.5 m wide (region 2, 1e8) on bearing pads 5 cm high (region 1, 1e6)
  over two piers 1 m high at x = +-1.2 m and two abutments at the ends (region 3, the peak
  1e10), their feet fixed, gravity, a 1000 Pa cross wind along z with 50 % gusts at 0.5 Hz.

usage: scripts/figures/standin_meshes.py [--out DIR] [--scale F] [rope|honeycomb|tower|tree|moebius|bridge ...]
  writes DIR/<name>.node, .ele, .json and prints vertex/tet counts; --scale < 1 makes smaller
  meshes of the same shape (used by the quick mode of chen_table62.py).
"""
import argparse
import itertools
import json
import math
import os
import sys

import numpy as np

THESIS_SIZES = {"rope": (12791, 47279), "honeycomb": (3642, 9850), "tower": (16027, 69271),
                "tree": (24533, 79217), "moebius": (5829, 16857), "bridge": (30133, 99455)}
# The tree's mean wind pressure [Pa]: the thesis gives only "strong varying wind" (see scene()).
TREE_WIND_PA = 1000.0


class TetMesh:
    """Vertices (n x 3 float), tets (m x 4 int, 0-based) and region tags (m int)."""

    def __init__(self, vertices, tets, regions=None):
        self.vertices = np.asarray(vertices, dtype=float)
        self.tets = np.asarray(tets, dtype=np.int64).reshape(-1, 4)
        self.regions = np.ones(len(self.tets), dtype=np.int64) if regions is None else np.asarray(regions)
        self.fixed = []  # vertex indices a scene fixes (filled by generators that know them)

    def signed_volumes6(self):
        x = self.vertices[self.tets]
        return np.einsum("ij,ij->i", np.cross(x[:, 1] - x[:, 0], x[:, 2] - x[:, 0]), x[:, 3] - x[:, 0])


def orient(mesh):
    """Swap two corners of every negatively oriented tet; fail on degenerate ones."""
    v = mesh.signed_volumes6()
    if np.any(np.abs(v) < 1e-14 * np.abs(v).max()):
        raise ValueError("degenerate tetrahedron")
    neg = v < 0
    mesh.tets[neg, 2], mesh.tets[neg, 3] = mesh.tets[neg, 3].copy(), mesh.tets[neg, 2].copy()
    return mesh


def faces_of(tets):
    """The 4 triangular faces of every tet, each sorted, as an (4m x 3) array."""
    f = np.concatenate([tets[:, [1, 2, 3]], tets[:, [0, 2, 3]], tets[:, [0, 1, 3]], tets[:, [0, 1, 2]]])
    return np.sort(f, axis=1)


def boundary_face_count(tets):
    """Number of triangular faces that belong to one tet only; fails if a face is shared by
    more than two (overlapping cells)."""
    _, counts = np.unique(faces_of(tets), axis=0, return_counts=True)
    if counts.max() > 2:
        raise ValueError("a face is shared by more than two tets")
    return int(np.sum(counts == 1))


def expect_conforming(tets, boundary_triangles, what):
    """A conforming split leaves exactly the cell complex' boundary as boundary triangles; two
    cells cutting a shared quad along different diagonals would add four boundary triangles
    inside the body."""
    found = boundary_face_count(tets)
    if found != boundary_triangles:
        raise ValueError(f"{what}: {found} boundary triangles, expected {boundary_triangles}: "
                         "the split is not conforming")


def largest_piece(mesh):
    """Keep the tets of the largest face-connected piece and drop unused vertices."""
    m = len(mesh.tets)
    f = faces_of(mesh.tets)
    owner = np.tile(np.arange(m), 4)
    order = np.lexsort(f.T[::-1])
    fs, os_ = f[order], owner[order]
    same = np.all(fs[1:] == fs[:-1], axis=1)
    parent = list(range(m))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a
    for a, b in zip(os_[:-1][same], os_[1:][same]):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    roots = np.array([find(a) for a in range(m)])
    keep = roots == np.bincount(roots).argmax()
    return compact(mesh.vertices, mesh.tets[keep], mesh.regions[keep], mesh.fixed)


def compact(vertices, tets, regions, fixed=()):
    used = np.unique(tets)
    new = -np.ones(len(vertices), dtype=np.int64)
    new[used] = np.arange(len(used))
    mesh = TetMesh(vertices[used], new[tets], regions)
    mesh.fixed = [int(new[v]) for v in fixed if new[v] >= 0]
    return mesh


def kuhn_tets(shape, positions, keep, regions=None):
    """Hexahedral cells of an (ni, nj, nk) grid, node (i, j, k) at positions[i, j, k]; keep[i, j, k]
    selects cells. Each kept cell is split into the 6 Kuhn tets along its (0,0,0)-(1,1,1)
    diagonal; every face is then cut along the diagonal from its lowest (i, j, k) corner, so
    neighbours agree."""
    ni, nj, nk = shape
    nid = np.arange((ni + 1) * (nj + 1) * (nk + 1)).reshape(ni + 1, nj + 1, nk + 1)
    cells = np.argwhere(keep)
    tets = []
    for perm in itertools.permutations(range(3)):
        corners = [np.zeros(3, dtype=int)]
        for axis in perm:
            c = corners[-1].copy()
            c[axis] = 1
            corners.append(c)
        tets.append(np.stack([nid[tuple((cells + c).T)] for c in corners], axis=1))
    tets = np.concatenate(tets)
    shared = sum(int(np.sum(np.logical_and(keep[(slice(None),) * ax + (slice(1, None),)],
                                           keep[(slice(None),) * ax + (slice(None, -1),)]))) for ax in range(3))
    expect_conforming(tets, 2 * (6 * len(cells) - 2 * shared), "hexahedra")
    reg = np.tile(regions[tuple(cells.T)] if regions is not None else np.ones(len(cells), dtype=int), 6)
    return compact(positions.reshape(-1, 3), tets, reg)


def prism_tets(bottom_ids, layers, n_plane):
    """Prisms over triangles (t x 3 vertex ids of one layer) stacked `layers` times, layer l's
    vertex v numbered v + l * n_plane. Split: with the triangle's ids sorted a < b < c and tops
    A, B, C, the tets (a b c C), (a b B C), (a A B C) cut every quad face from its lowest
    vertex, so neighbours agree."""
    tri = np.sort(bottom_ids, axis=1)
    out = []
    for layer in range(layers):
        a, b, c = (tri + layer * n_plane).T
        A, B, C = a + n_plane, b + n_plane, c + n_plane
        out += [np.stack(t, axis=1) for t in ((a, b, c, C), (a, b, B, C), (a, A, B, C))]
    return np.concatenate(out)


def disk_section(n):
    """(n+1) x (n+1) nodes of a square grid mapped onto the unit disk (elliptical grid mapping)."""
    u = np.linspace(-1.0, 1.0, n + 1)
    U, V = np.meshgrid(u, u, indexing="ij")
    return U * np.sqrt(1 - V**2 / 2), V * np.sqrt(1 - U**2 / 2)


def helical_rope(scale=1.0, cross=4, tube_radius=0.01, coil_radius=0.1, pitch=0.03, turns=4.0):
    """Solid circular tube swept along a helix about x; cross x cross hexahedra per section,
    sections about as long as a cell is wide (492 segments at scale 1). The first section's
    vertices are `fixed`."""
    segments = max(4, int(round(492 * scale)))
    turns = turns * segments / 492 if scale != 1.0 else turns
    theta = np.linspace(0.0, 2 * math.pi * turns, segments + 1)
    c = pitch / (2 * math.pi)
    center = np.stack([c * theta, coil_radius * np.cos(theta), coil_radius * np.sin(theta)], axis=1)
    tangent = np.stack([np.full_like(theta, c), -coil_radius * np.sin(theta), coil_radius * np.cos(theta)], axis=1)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    normal = np.stack([np.zeros_like(theta), -np.cos(theta), -np.sin(theta)], axis=1)  # toward the axis
    binormal = np.cross(tangent, normal)
    X, Y = disk_section(cross)
    pos = (center[:, None, None, :] + tube_radius * (X[None, :, :, None] * normal[:, None, None, :]
                                                     + Y[None, :, :, None] * binormal[:, None, None, :]))
    pos = np.transpose(pos, (1, 2, 0, 3))  # (i, j, k = along the helix, xyz)
    shape = (cross, cross, segments)
    mesh = kuhn_tets(shape, pos, np.ones(shape, dtype=bool))
    nid = np.arange((cross + 1) ** 2 * (segments + 1)).reshape(cross + 1, cross + 1, segments + 1)
    # kuhn_tets keeps every node here (all cells kept), so the numbering is unchanged.
    mesh.fixed = sorted(int(v) for v in nid[:, :, 0].ravel())
    return mesh


def honeycomb_sheet(scale=1.0, width=0.5, height=0.5, thickness=0.02, layers=2, hole=3, spacing=5):
    """Sheet in the x-y plane with hexagonal holes, thickness along z. Built on a triangular
    lattice of spacing a (axial coordinates (i, j) at a (i + j/2, j sqrt3/2)): a hole is the
    hexagon of lattice hex-radius `hole` around a centre, centres on the sqrt3 sublattice times
    `spacing`, so facing hole edges are (spacing - hole) sqrt3 a apart (the wall). Region 2 =
    triangles touching a hole or the outline (the cell edges), 1 = the rest."""
    n = max(6, int(round(39 * math.sqrt(scale))))  # rows of the lattice
    a = height / (n * math.sqrt(3) / 2)
    jmax = n
    i_lo, i_hi = -n, int(width / a) + n
    ii, jj = np.meshgrid(np.arange(i_lo, i_hi + 1), np.arange(0, jmax + 1), indexing="ij")
    xy = np.stack([a * (ii + jj / 2.0), a * jj * math.sqrt(3) / 2], axis=-1)
    ni, nj = ii.shape
    vid = np.arange(ni * nj).reshape(ni, nj)
    tris, corners = [], []
    up = [(0, 0), (1, 0), (0, 1)]
    down = [(1, 0), (1, 1), (0, 1)]
    for shape_ in (up, down):
        ids = np.stack([vid[d0:ni - 1 + d0, d1:nj - 1 + d1].ravel() for d0, d1 in shape_], axis=1)
        ax = np.stack([np.stack([ii[d0:ni - 1 + d0, d1:nj - 1 + d1].ravel(),
                                 jj[d0:ni - 1 + d0, d1:nj - 1 + d1].ravel()], axis=1) for d0, d1 in shape_], axis=1)
        tris.append(ids)
        corners.append(ax)
    tris, corners = np.concatenate(tris), np.concatenate(corners)  # corners: (t, 3, 2) axial
    centroid = xy.reshape(-1, 2)[tris].mean(axis=1)
    inside = (centroid[:, 0] > 0) & (centroid[:, 0] < width)
    tris, corners = tris[inside], corners[inside]

    # Hole centres: spacing * (m (1, 1) + p (-1, 2)); nearest centre by search over a window.
    def hex_dist(d):
        return np.maximum(np.maximum(np.abs(d[..., 0]), np.abs(d[..., 1])), np.abs(d[..., 0] + d[..., 1]))
    in_hole = np.zeros(len(tris), dtype=bool)
    near_hole = np.zeros(len(tris), dtype=bool)
    ctr = corners.mean(axis=1)
    # Solve for the sublattice coordinates of the centroid and try the nearby centres.
    # (i, j) = s (m - p, m + 2p) => m = (2i + j) / (3s), p = (j - i) / (3s)
    m0 = np.floor((2 * ctr[:, 0] + ctr[:, 1]) / (3 * spacing)).astype(int)
    p0 = np.floor((ctr[:, 1] - ctr[:, 0]) / (3 * spacing)).astype(int)
    for dm in (-1, 0, 1, 2):
        for dp in (-1, 0, 1, 2):
            m, p = m0 + dm, p0 + dp
            cen = np.stack([spacing * (m - p), spacing * (m + 2 * p)], axis=1)
            d = hex_dist(corners - cen[:, None, :])
            in_hole |= np.all(d <= hole, axis=1)
            near_hole |= np.any(d <= hole, axis=1)
    keep = ~in_hole  # holes cut by the outline leave notches, as in a panel cut from a sheet
    region = np.where(near_hole, 2, 1)
    tris, region = tris[keep], region[keep]
    n_plane = ni * nj
    verts2 = xy.reshape(-1, 2)
    z = np.linspace(0.0, thickness, layers + 1)
    vertices = np.concatenate([np.column_stack([verts2, np.full(n_plane, zz)]) for zz in z])
    tets = prism_tets(tris, layers, n_plane)
    edges = np.sort(np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [0, 2]]]), axis=1)
    _, edge_use = np.unique(edges, axis=0, return_counts=True)
    expect_conforming(tets, 2 * len(tris) + 2 * layers * int(np.sum(edge_use == 1)), "prisms")
    regions = np.tile(region, 3 * layers)
    mesh = largest_piece(orient(compact(vertices, tets, regions)))
    # Stiff outline: tets with a vertex on the sheet's bounding edges (the frame of the sheet).
    v = mesh.vertices
    lo, hi = v.min(axis=0), v.max(axis=0)
    on_edge = ((v[:, 0] < lo[0] + a) | (v[:, 0] > hi[0] - a) | (v[:, 1] < lo[1] + 1e-9) | (v[:, 1] > hi[1] - 1e-9))
    mesh.regions = np.where(np.any(on_edge[mesh.tets], axis=1), 2, mesh.regions)
    mesh.fixed = [int(i) for i in np.nonzero(v[:, 1] > hi[1] - 1e-9)[0]]
    return mesh


def lattice_tower(scale=1.0, period=7, bar=3, bays=2, storeys=11, height=2.0, base=0.6, top=0.24):
    """A tapered cubic lattice: a voxel grid of (bays * period + bar) x (storeys * period + bar)
    x (bays * period + bar) cells keeps the cells on the bars (at least two of the three local
    coordinates i mod period, j mod period, k mod period below `bar`): columns, beams and
    joints of box section bar x bar cells. x and z are scaled by a factor going linearly from
    1 at the base to top/base at the top, about the tower's axis. The base (y = 0) is `fixed`."""
    storeys = max(2, int(round(storeys * scale)))
    bays = bays if scale >= 0.5 else 1
    n_xz, n_y = bays * period + bar, storeys * period + bar
    i, j, k = np.meshgrid(np.arange(n_xz), np.arange(n_y), np.arange(n_xz), indexing="ij")
    on = (i % period < bar).astype(int) + (j % period < bar) + (k % period < bar)
    keep = on >= 2
    gi, gj, gk = np.meshgrid(np.arange(n_xz + 1), np.arange(n_y + 1), np.arange(n_xz + 1), indexing="ij")
    y = gj * (height / n_y)
    shrink = 1.0 - (1.0 - top / base) * gj / n_y
    half = n_xz / 2.0
    x = (gi - half) * (base / n_xz) * shrink
    zc = (gk - half) * (base / n_xz) * shrink
    pos = np.stack([x, y, zc], axis=-1)
    mesh = orient(kuhn_tets((n_xz, n_y, n_xz), pos, keep))
    mesh.fixed = [int(v) for v in np.nonzero(mesh.vertices[:, 1] < 1e-12)[0]]
    return largest_piece(mesh)


def tree_segments(trunk=2.2, trunk_radius=(0.11, 0.04), branches=4, branch_length=0.9,
                  branch_radius=(0.05, 0.028), twig_length=0.45, twig_radius=(0.03, 0.027)):
    """The tree's skeleton: (start, end, start radius, end radius) capsules. A vertical trunk,
    `branches` main branches 40 deg above horizontal leaving it between 40 % and 75 % of its
    height at golden-angle azimuths, and two twigs per branch (at 55 % and 80 % of its length,
    +-50 deg in azimuth and 55 deg above horizontal)."""
    def direction(azimuth, elevation):
        return np.array([math.cos(elevation) * math.cos(azimuth), math.sin(elevation),
                         math.cos(elevation) * math.sin(azimuth)])

    def radius_at(radii, t):
        return radii[0] + (radii[1] - radii[0]) * t

    segments = [(np.zeros(3), np.array([0.0, trunk, 0.0]), *trunk_radius)]
    for b in range(branches):
        t = 0.4 + 0.35 * b / max(1, branches - 1)
        azimuth = b * math.radians(137.5)
        start = np.array([0.0, t * trunk, 0.0])
        end = start + branch_length * direction(azimuth, math.radians(40))
        segments.append((start, end, radius_at(trunk_radius, t), branch_radius[1]))
        for s, side in ((0.55, 1), (0.8, -1)):
            root = start + s * (end - start)
            tip = root + twig_length * direction(azimuth + side * math.radians(50), math.radians(55))
            segments.append((root, tip, radius_at(branch_radius, s), twig_radius[1]))
    return segments


def voxel_tree(scale=1.0, cell=0.018):
    """A tree of tapered capsules (tree_segments) voxelized on one grid: a cell is kept when its
    center lies within the capsule radius of a segment (linearly interpolated along it), then
    Kuhn-split. `scale` < 1 coarsens the cells (tets ~ scale). The trunk's foot (y = 0) is
    `fixed`. Branches are staircases of cubes (a stand-in, not a smooth surface). Fails when
    the largest face-connected piece is not the whole tree (a detached twig)."""
    cell = cell / scale ** (1.0 / 3.0)
    # At least 2 cells across, so that coarsened twigs stay face-connected (no-op at scale 1).
    segments = [(a, b, max(ra, cell), max(rb, cell)) for a, b, ra, rb in tree_segments()]
    lo = np.min([np.minimum(a, b) - max(ra, rb) for a, b, ra, rb in segments], axis=0)
    hi = np.max([np.maximum(a, b) + max(ra, rb) for a, b, ra, rb in segments], axis=0)
    lo[1] = 0.0
    origin = np.floor(lo / cell) * cell
    origin[1] = 0.0
    shape = tuple(int(n) for n in np.ceil((hi - origin) / cell))
    keep = np.zeros(shape, dtype=bool)
    for a, b, ra, rb in segments:
        r = max(ra, rb)
        i0 = np.maximum(np.floor((np.minimum(a, b) - r - origin) / cell).astype(int), 0)
        i1 = np.minimum(np.ceil((np.maximum(a, b) + r - origin) / cell).astype(int), shape)
        idx = np.stack(np.meshgrid(*[np.arange(i0[d], i1[d]) for d in range(3)], indexing="ij"), -1)
        centers = origin + (idx + 0.5) * cell
        ab = b - a
        t = np.clip(((centers - a) @ ab) / (ab @ ab), 0.0, 1.0)
        dist = np.linalg.norm(centers - (a + t[..., None] * ab), axis=-1)
        inside = dist <= ra + (rb - ra) * t
        sub = keep[i0[0]:i1[0], i0[1]:i1[1], i0[2]:i1[2]]
        sub |= inside
    grid = np.stack(np.meshgrid(*[origin[d] + cell * np.arange(shape[d] + 1) for d in range(3)],
                                indexing="ij"), -1)
    mesh = orient(kuhn_tets(shape, grid, keep))
    mesh.fixed = [int(v) for v in np.nonzero(mesh.vertices[:, 1] < 1e-12)[0]]
    tree = largest_piece(mesh)
    if len(tree.tets) != len(mesh.tets):
        raise ValueError(f"tree at scale {scale:g}: {len(mesh.tets) - len(tree.tets)} tets detached")
    return tree


def voxel_grid(lo, hi, cell):
    """Cell centers and node positions of a voxel grid covering [lo, hi] with cubes of `cell`."""
    shape = tuple(int(n) for n in np.ceil((np.asarray(hi) - lo) / cell))
    axes = [lo[d] + cell * np.arange(shape[d] + 1) for d in range(3)]
    nodes = np.stack(np.meshgrid(*axes, indexing="ij"), -1)
    centers = np.stack(np.meshgrid(*[a[:-1] + 0.5 * cell for a in axes], indexing="ij"), -1)
    return shape, nodes, centers


def moebius_ball(scale=1.0, radius=0.1, core=0.03, cell=0.0089, sheet=2, gap=2, twist=math.pi):
    """A ball of radius `radius` made of a stiff core (radius `core`, region 2) and a thin sheet
    wound around it in an Archimedean spiral about the z axis (region 1), `sheet` cells thick
    with `gap` cells of air between its windings; the spiral's phase turns by `twist` from the
    bottom to the top of the ball, so the sheet is a twisted band (the thesis' "thin spiral
    sheet"; its exact geometry is not given). The vertices within 1.5 cells of the centre are
    `fixed` (an axle through the core)."""
    cell = cell / scale ** (1.0 / 3.0)
    shape, nodes, c = voxel_grid(np.full(3, -radius), np.full(3, radius), cell)
    r = np.linalg.norm(c[..., :2], axis=-1)
    theta = np.arctan2(c[..., 1], c[..., 0])
    pitch = (sheet + gap) * cell
    # Distance along r to the spiral r = core + pitch (theta + twist z / (2 radius)) / (2 pi).
    phase = (r - core) / pitch - (theta + twist * c[..., 2] / (2 * radius)) / (2 * math.pi)
    on_sheet = (phase - np.floor(phase)) < sheet / (sheet + gap)
    in_ball = np.linalg.norm(c, axis=-1) <= radius
    is_core = np.linalg.norm(c, axis=-1) <= core
    keep = in_ball & (is_core | (on_sheet & (r >= core - cell)))
    regions = np.where(is_core, 2, 1)
    mesh = orient(kuhn_tets(shape, nodes, keep, regions))
    mesh.fixed = [int(v) for v in np.nonzero(np.linalg.norm(mesh.vertices, axis=1) <= 1.5 * cell)[0]]
    return largest_piece(mesh)


def bridge(scale=1.0, cell=0.0303):
    """A two-pier girder bridge of three materials on one voxel grid: a deck 4 x 0.1 x 0.5 m
    (region 2), two piers 0.2 x 1.0 x 0.3 m at x = +-1.2 m and two end abutment blocks (region
    3, the stiffest), and elastomeric bearing pads 0.05 m high between them and the deck
    (region 1, the softest). The piers' and abutments' feet (y = 0) are `fixed`."""
    cell = cell / scale ** (1.0 / 3.0)
    shape, nodes, c = voxel_grid(np.array([-2.0, 0.0, -0.25]), np.array([2.0, 1.2, 0.25]), cell)
    x, y, z = c[..., 0], c[..., 1], c[..., 2]
    pier_top, pad_top = 1.0, 1.05
    under = np.zeros(shape, dtype=bool)
    for x0, half in ((-1.2, 0.1), (1.2, 0.1), (-1.9, 0.1), (1.9, 0.1)):  # piers, abutments
        under |= (np.abs(x - x0) <= half) & (np.abs(z) <= 0.15)
    support = under & (y < pier_top)
    pads = under & (y >= pier_top) & (y < pad_top)
    deck = (y >= pad_top) & (y < pad_top + 0.1)
    keep = support | pads | deck
    regions = np.where(support, 3, np.where(pads, 1, 2))
    mesh = orient(kuhn_tets(shape, nodes, keep, regions))
    mesh.fixed = [int(v) for v in np.nonzero(mesh.vertices[:, 1] < 1e-12)[0]]
    whole = largest_piece(mesh)
    if len(whole.tets) != len(mesh.tets):
        raise ValueError(f"bridge at scale {scale:g}: {len(mesh.tets) - len(whole.tets)} tets detached")
    return whole


def scene(name, mesh_file, mesh):
    """The simrun scene of a stand-in (see the module docstring for the choices)."""
    fixed = [{"select": {"vertices": mesh.fixed}}]
    if name == "rope":
        obj = {"material": {"model": "neohookean", "E": 1e6, "nu": 0.45, "density": 1000}}
        dt = 0.01
        extra = {}
    elif name == "honeycomb":
        obj = {"material": {"model": "neohookean", "E": 1e6, "nu": 0.45, "density": 1000},
               "regions": [{"select": {"region": 2}, "E": 1e8}]}
        dt = 0.01
        extra = {}
    elif name == "tower":
        obj = {"material": {"model": "stvk", "E": 3e7, "nu": 0.45, "density": 1000}}
        dt = 0.1
        extra = {"wind": {"pressure": 200.0, "direction": [1, 0, 0], "gust": {"amplitude": 0.5, "frequency": 0.5}}}
    elif name == "tree":
        obj = {"material": {"model": "neohookean", "E": 5e7, "nu": 0.45, "density": 1000}}
        dt = 0.01
        extra = {"wind": {"pressure": TREE_WIND_PA, "direction": [1, 0, 0],
                          "gust": {"amplitude": 0.5, "frequency": 1.0},
                          "sway": {"axis": [0, 1, 0], "angle_deg": 45, "frequency": 0.5}}}
    elif name == "moebius":
        # StVK (thesis Sec. 6.4.5); the core at the peak E (/objects/0/regions/0/E), the sheet
        # at 1e8. The thesis gives no load: held on an axle through the core and released
        # under gravity, whose sudden onset sets the sheet's windings swinging (a twisted
        # start puts the thin windings under compression: buckling modes with large negative
        # eigenvalues, which SIERE integrates exactly and which then grow by e^(h sqrt(-lambda))).
        obj = {"material": {"model": "stvk", "E": 1e8, "nu": 0.45, "density": 1000},
               "regions": [{"select": {"region": 2}, "E": 1e10}]}
        dt = 0.02
        extra = {}
    elif name == "bridge":
        # ARAP (thesis Fig. 6.14: multiscale, stiffest 1e10, softest 1e6): piers and abutments
        # at the peak E (/objects/0/regions/1/E), the deck at 1e8, the bearing pads at 1e6, in a
        # strong gusty cross wind along z.
        obj = {"material": {"model": "arap", "E": 1e8, "nu": 0.45, "density": 1000},
               "regions": [{"select": {"region": 1}, "E": 1e6}, {"select": {"region": 3}, "E": 1e10}]}
        dt = 0.1
        extra = {"wind": {"pressure": 1000.0, "direction": [0, 0, 1],
                          "gust": {"amplitude": 0.5, "frequency": 0.5}}}
    else:
        raise ValueError(name)
    return {"name": f"chen_standin_{name}", "format": 1, "time": {"dt": dt, "steps": 100},
            "objects": [dict({"name": name, "mesh": {"file": mesh_file}}, **obj,
                             dirichlet=fixed if mesh.fixed else [])],
            "gravity": [0, -9.81, 0], "mass": "lumped", **extra,
            "integrator": {"type": "siere", "modes": 1 if name == "rope" else 5},
            "output": {"dir": f"out/chen_standin_{name}", "every": 5}}


GENERATORS = {"rope": helical_rope, "honeycomb": honeycomb_sheet, "tower": lattice_tower, "tree": voxel_tree,
              "moebius": moebius_ball, "bridge": bridge}


def write_tetgen(mesh, stem):
    with open(stem + ".node", "w") as f:
        f.write(f"# {os.path.basename(stem)}: written by scripts/figures/standin_meshes.py\n")
        f.write(f"{len(mesh.vertices)} 3 0 0\n")
        for i, x in enumerate(mesh.vertices):
            f.write(f"{i} {x[0]:.9g} {x[1]:.9g} {x[2]:.9g}\n")
    with open(stem + ".ele", "w") as f:
        f.write(f"# {os.path.basename(stem)}: region 1 soft, 2 stiff (where the scene says so)\n")
        f.write(f"{len(mesh.tets)} 4 1\n")
        for i, (t, r) in enumerate(zip(mesh.tets, mesh.regions)):
            f.write(f"{i} {t[0]} {t[1]} {t[2]} {t[3]} {r}\n")


def build(name, out, scale=1.0):
    """Generate, check and write one stand-in; returns (scene path, mesh)."""
    mesh = GENERATORS[name](scale=scale)
    orient(mesh)
    boundary_face_count(mesh.tets)
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, f"chen_standin_{name}" + ("" if scale == 1.0 else f"_x{scale:g}"))
    write_tetgen(mesh, stem)
    path = stem + ".json"
    with open(path, "w") as f:
        json.dump(scene(name, os.path.basename(stem) + ".node", mesh), f, indent=1)
    return path, mesh


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="rope, honeycomb, tower, tree, moebius, bridge (default: all)")
    parser.add_argument("--out", default=os.path.join("out", "figures", "standin_meshes"))
    parser.add_argument("--scale", type=float, default=1.0, help="relative size (tets scale about linearly)")
    args = parser.parse_args()
    for name in args.names or list(GENERATORS):
        if name not in GENERATORS:
            parser.error(f"unknown stand-in {name!r}, expected one of {list(GENERATORS)}")
        path, mesh = build(name, args.out, args.scale)
        nv, nt = THESIS_SIZES[name]
        stiff = int(np.sum(mesh.regions == 2))
        print(f"{name:>10}: {len(mesh.vertices):>6} vertices {len(mesh.tets):>6} tets "
              f"(thesis {nv} / {nt}), region-2 tets {stiff}, fixed vertices {len(mesh.fixed)} -> {path}")


if __name__ == "__main__":
    sys.exit(main())
