#include "io/pvd_writer.hpp"

#include <utility>

#include "io/atomic_file.hpp"
#include "io/number_format.hpp"
#include "io/xml_escape.hpp"

namespace simrun {

PvdCollection::PvdCollection(std::filesystem::path pvd_path) : m_path(std::move(pvd_path)) {
  write();
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
  m_entries.push_back({time, relative.lexically_normal().generic_string(), part});
  write();
}

std::string PvdCollection::document() const {
  std::string xml;
  xml += "<?xml version=\"1.0\"?>\n";
  xml += "<VTKFile type=\"Collection\" version=\"0.1\">\n";
  xml += "  <Collection>\n";
  for (const Entry& entry : m_entries) {
    xml += "    <DataSet timestep=\"";
    append_double(xml, entry.time);
    xml += "\" group=\"\" part=\"" + std::to_string(entry.part) + "\" file=\"";
    xml += xml_escape(entry.file);
    xml += "\"/>\n";
  }
  xml += "  </Collection>\n";
  xml += "</VTKFile>\n";
  return xml;
}

void PvdCollection::write() const { write_file_atomically(m_path, document()); }

}  // namespace simrun
