// Replacement for TetGen's terminatetetgen(tetgenmesh*, int).
//
// Why: in TetGen 1.5.0 (libtet1.5, tetgen.h) the TETLIBRARY build of terminatetetgen() calls
// m->freememory() and then throws the error code. freememory() deletes its pools without
// resetting the pointers, and the local tetgenmesh in tetrahedralize() runs freememory() again
// from its destructor while the exception unwinds: a double free that crashes the process on
// every TetGen error (self-intersection, tiny features, ...). libtet calls terminatetetgen()
// through the PLT (an exported weak symbol), so this strong definition, linked into the
// executable, takes its place for the whole process; it only throws and leaves the freeing to
// the destructor, which then runs exactly once.
//
// This file must not include tetgen.h, whose inline definition this replaces.

#include "mesh/tetgen_terminate.hpp"

class tetgenmesh;

void terminatetetgen(tetgenmesh* /*m*/, int code) { throw code; }

namespace simrun::detail {

bool tetgen_terminate_replaced() { return true; }

}  // namespace simrun::detail
