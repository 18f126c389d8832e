#include "io/obj_writer.hpp"

#include <stdexcept>

#include "io/atomic_file.hpp"
#include "io/number_format.hpp"

namespace simrun {

std::string obj_document(const MatX3& positions, const MatX3i& faces) {
  if (faces.rows() > 0 && (faces.minCoeff() < 0 || faces.maxCoeff() >= positions.rows())) {
    throw std::invalid_argument("obj: a face refers to a vertex outside 0.." +
                                std::to_string(positions.rows() - 1));
  }
  std::string text;
  text.reserve(static_cast<std::size_t>(40 * positions.rows() + 24 * faces.rows()));
  for (Eigen::Index i = 0; i < positions.rows(); ++i) {
    text += 'v';
    for (int k = 0; k < 3; ++k) {
      text += ' ';
      append_double(text, positions(i, k));
    }
    text += '\n';
  }
  for (Eigen::Index f = 0; f < faces.rows(); ++f) {
    // OBJ indices start at 1.
    text += "f " + std::to_string(faces(f, 0) + 1) + ' ' + std::to_string(faces(f, 1) + 1) + ' ' +
            std::to_string(faces(f, 2) + 1) + '\n';
  }
  return text;
}

void write_obj(const std::filesystem::path& path, const MatX3& positions, const MatX3i& faces) {
  write_file_atomically(path, obj_document(positions, faces));
}

}  // namespace simrun
