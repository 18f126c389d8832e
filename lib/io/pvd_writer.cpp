#include "io/pvd_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "io/atomic_file.hpp"
#include "io/number_format.hpp"
#include "io/xml_escape.hpp"

namespace simrun {

namespace {

constexpr const char* kHeader =
    "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
constexpr const char* kFooter = "  </Collection>\n</VTKFile>\n";

std::string entry_line(const PvdCollection::Entry& entry) {
  std::string xml = "    <DataSet timestep=\"";
  xml += format_time(entry.time);
  xml += "\" group=\"\" part=\"" + std::to_string(entry.part) + "\" file=\"";
  xml += xml_escape(entry.file);
  xml += "\"/>\n";
  return xml;
}

}  // namespace

PvdCollection::PvdCollection(std::filesystem::path pvd_path) : m_path(std::move(pvd_path)) {
  write_file_atomically(m_path, document());
  m_fd = ::open(m_path.c_str(), O_WRONLY | O_CLOEXEC);
  if (m_fd < 0)
    throw std::runtime_error("cannot open " + m_path.string() + ": " + std::strerror(errno));
  m_footer_offset = static_cast<long long>(std::string(kHeader).size());
}

bool PvdCollection::write_at(const std::string& text, long long offset) const {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::pwrite(m_fd, text.data() + done, text.size() - done,
                               static_cast<off_t>(offset + static_cast<long long>(done)));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::vector<PvdCollection::Entry> PvdCollection::read_entries(
    const std::filesystem::path& pvd_path) {
  std::vector<Entry> entries;
  std::ifstream in(pvd_path);
  std::string line;
  const auto attribute = [](const std::string& text, const std::string& name) {
    const std::size_t at = text.find(" " + name + "=\"");
    if (at == std::string::npos) return std::string();
    const std::size_t begin = at + name.size() + 3;
    return text.substr(begin, text.find('"', begin) - begin);
  };
  while (std::getline(in, line)) {
    if (line.find("<DataSet") == std::string::npos) continue;
    entries.push_back({std::strtod(attribute(line, "timestep").c_str(), nullptr),
                       attribute(line, "file"), std::atoi(attribute(line, "part").c_str())});
  }
  return entries;
}

PvdCollection::~PvdCollection() {
  if (m_fd >= 0) ::close(m_fd);
}

void PvdCollection::add(double time, const std::filesystem::path& file, int part) {
  std::filesystem::path relative = file;
  const std::filesystem::path folder = m_path.parent_path();
  if (file.is_absolute()) {
    const std::filesystem::path base =
        folder.empty() ? std::filesystem::current_path() : std::filesystem::absolute(folder);
    relative = file.lexically_normal().lexically_relative(base.lexically_normal());
  } else if (!folder.empty()) {
    // "out/frames/f.vtu" given with the pvd at "out/frames.pvd" -> "frames/f.vtu".
    const std::filesystem::path inside = file.lexically_relative(folder);
    if (!inside.empty() && *inside.begin() != "..") relative = inside;
  }
  Entry entry{time, relative.lexically_normal().generic_string(), part};
  const std::string line = entry_line(entry);
  if (!write_at(line + kFooter, m_footer_offset)) {
    const std::string why = std::strerror(errno);
    // Put the closing tags back where they were: the file stays the collection it was.
    write_at(kFooter, m_footer_offset);
    throw std::runtime_error("cannot add a frame to " + m_path.string() + ": " + why);
  }
  m_footer_offset += static_cast<long long>(line.size());
  m_entries.push_back(std::move(entry));
}

std::string PvdCollection::document() const {
  std::string xml = kHeader;
  for (const Entry& entry : m_entries) xml += entry_line(entry);
  return xml + kFooter;
}

}  // namespace simrun
