#pragma once
/// ParaView collection (frames.pvd) indexing the frame files with their times. The file is
/// created atomically with an empty collection; each added frame is then one write(2) at the
/// position of the closing tags, of the new entry followed by the closing tags, so adding a frame
/// costs the same at the thousandth frame as at the first, and a run that dies between writes
/// (or during one: a single write to a regular file is not split by a signal) leaves a valid
/// collection of exactly the frames written so far.
#include <filesystem>
#include <string>
#include <vector>

namespace simrun {

class PvdCollection {
 public:
  struct Entry {
    double time;       ///< simulation time [s]
    std::string file;  ///< path relative to the .pvd's folder, '/' separated
    int part;          ///< piece index when several files share one time step (e.g. objects)
  };

  /// Starts an empty collection at `pvd_path` and writes it at once (a run that fails before
  /// its first frame still leaves a loadable, empty collection). Throws like
  /// write_file_atomically: InputError naming the path when it cannot be created;
  /// std::runtime_error when it cannot be opened for the later writes.
  explicit PvdCollection(std::filesystem::path pvd_path);
  ~PvdCollection();
  PvdCollection(const PvdCollection&) = delete;
  PvdCollection& operator=(const PvdCollection&) = delete;

  /// Adds a frame to the file. Throws std::runtime_error when the write fails (a full disk); the
  /// file then still holds the frames added before. `file` is taken relative to the .pvd's folder;
  /// an absolute path (or one starting with the .pvd's folder) is made relative to that folder
  /// first, so a collection can be moved with its frames.
  void add(double time, const std::filesystem::path& file, int part = 0);

  const std::vector<Entry>& entries() const { return m_entries; }
  const std::filesystem::path& path() const { return m_path; }

  /// The collection as text (what is on disk after the last add).
  std::string document() const;

  /// The entries of the collection file at `pvd_path` (as this class writes it); empty when
  /// the file does not exist. Times keep their written digits (shortest round trip).
  static std::vector<Entry> read_entries(const std::filesystem::path& pvd_path);

 private:
  /// pwrite of all of `text` at `offset` (retrying partial writes); false with errno on failure.
  bool write_at(const std::string& text, long long offset) const;

  std::filesystem::path m_path;
  std::vector<Entry> m_entries;
  int m_fd = -1;                  ///< the open file
  long long m_footer_offset = 0;  ///< where the closing tags start
};

}  // namespace simrun
