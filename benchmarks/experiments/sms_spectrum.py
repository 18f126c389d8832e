#!/usr/bin/python3
"""Spectrum of the block-Jacobi-preconditioned SMS matrix, from the files a binary built with
sms_spectrum_dump.patch writes (SIMRUN_DUMP_SMS=PREFIX: PREFIX_k.txt and PREFIX_k.txt.Z per SMS
solve; run it with "sms_deflation": "affine" and "sms_ritz_vectors": 0, so Z is each object's
affine field in SMS coefficients). Per solve: the condition of B A (B the blocks' inverse), its
lowest eigenvalues, the same for the deflated operator B P A (P = I - A Z (Z^T A Z)^-1 Z^T), the
share of the right-hand side in span Z, and the iterations of plain and deflated PCG to the
solver's relative tolerance 1e-4 (Saad et al. 2000).

usage: benchmarks/experiments/sms_spectrum.py PREFIX_0.txt [PREFIX_5.txt ...]
"""
import sys

import numpy as np


def load(path):
    v = np.loadtxt(path)
    n = int(v[0])
    A = v[1:1 + n * n].reshape(n, n)
    B = v[1 + n * n:1 + 2 * n * n].reshape(n, n)
    b = v[1 + 2 * n * n:]
    with open(path + ".Z") as f:
        rows, cols = map(int, f.readline().split())
        Z = np.loadtxt(f).reshape(rows, cols)
    return (A + A.T) / 2, (B + B.T) / 2, b, Z


def pcg(A, B, b, Z=None, tol=1e-4):
    x = np.zeros(len(b))
    if Z is not None:
        W = A @ Z
        Einv = np.linalg.pinv(Z.T @ W)
        x = Z @ (Einv @ (Z.T @ b))
    r = b - A @ x

    def direction(res):
        z = B @ res
        return z - Z @ (Einv @ (W.T @ z)) if Z is not None else z

    z = direction(r)
    p, rz, k = z.copy(), r @ z, 0
    while np.linalg.norm(r) > tol * np.linalg.norm(b) and k < 5000:
        w = A @ p
        alpha = rz / (p @ w)
        x += alpha * p
        r -= alpha * w
        z = direction(r)
        rz_next = r @ z
        p = z + (rz_next / rz) * p
        rz = rz_next
        k += 1
    return k


for path in sys.argv[1:]:
    A, B, b, Z = load(path)
    w, V = np.linalg.eigh(B)
    half = V * np.sqrt(np.maximum(w, 0.0))
    plain = np.sort(np.linalg.eigvalsh(half.T @ A @ half))
    P = np.eye(len(b)) - (A @ Z) @ np.linalg.pinv(Z.T @ A @ Z) @ Z.T
    deflated = np.sort(np.linalg.eigvals(B @ P @ A).real)
    deflated = deflated[np.abs(deflated) > 1e-9 * deflated.max()]
    Q, _ = np.linalg.qr(Z)
    print(f"{path}: {len(b)} SMS DOFs")
    print(f"  plain:    condition {plain[-1] / plain[0]:.3g}, lowest {' '.join(f'{x:.2e}' for x in plain[:8])}, "
          f"largest {plain[-1]:.3g}")
    print(f"  deflated: condition {deflated[-1] / deflated[0]:.3g}, lowest {' '.join(f'{x:.2e}' for x in deflated[:8])}")
    print(f"  |Q^T b| / |b| = {np.linalg.norm(Q.T @ b) / np.linalg.norm(b):.2e} (Q: orthonormal basis of span Z)")
    print(f"  PCG iterations to 1e-4: plain {pcg(A, B, b)}, deflated {pcg(A, B, b, Z)}")
