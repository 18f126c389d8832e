#pragma once
/// On-disk cache of numerical coarsening results (docs/coarsening.md): the tensors, the coarse
/// density and the harmonic fields of one object, keyed by a hash of everything they depend on
/// (both meshes, the fine material fields, the method and its options), so a run whose inputs
/// are unchanged skips the overlaps and the six harmonic solves.
#include <cstdint>
#include <filesystem>
#include <optional>

#include "scene/object_coarsening.hpp"

namespace simrun {

/// 64-bit FNV-1a hash of the inputs of coarsen_object for this object and of the build
/// (cache_build_id: results of another version are not reused).
std::uint64_t coarsening_key(const CoarseningConfig& config, const ObjectPieces& fine,
                             const TetMesh& coarse, const std::vector<int>& fixed_vertices);

/// The cache file of a key inside `dir`.
std::filesystem::path coarsening_cache_file(const std::filesystem::path& dir, std::uint64_t key);

/// Writes the results (tensors, density, youngs, poisson, the coarse and fine harmonic fields,
/// and the notes that are warnings) with the key; false when the folder cannot be written (the
/// run goes on without a cache).
bool write_coarsening_cache(const std::filesystem::path& file, std::uint64_t key,
                            const ObjectCoarsening& coarsening);

/// Reads a cache file into `coarsening` when it exists, has this key and the expected sizes
/// (num_coarse_tets tensors, the fields' rows); false otherwise (a damaged or stale file is
/// ignored, not trusted). The stored warnings are appended to coarsening.notes, each marked
/// "(from the cache)", so a run that reuses the results says what the computation warned.
bool read_coarsening_cache(const std::filesystem::path& file, std::uint64_t key,
                           int num_coarse_tets, int num_coarse_vertices, int num_fine_vertices,
                           ObjectCoarsening& coarsening);

}  // namespace simrun
