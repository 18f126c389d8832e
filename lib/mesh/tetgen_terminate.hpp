#pragma once
/// Works around a double free in Debian's TetGen 1.5.0 when it reports an error.

namespace simrun::detail {

/// True once this file's replacement of TetGen's terminatetetgen() is linked in. Calling it
/// from the code that runs TetGen is what pulls the replacement out of the static library.
bool tetgen_terminate_replaced();

}  // namespace simrun::detail
