#pragma once
/// Escaping of text placed in XML attribute values (array names, file names in VTU and PVD).
#include <string>
#include <string_view>

namespace simrun {

/// Replaces & < > " ' by their XML entities.
std::string xml_escape(std::string_view text);

}  // namespace simrun
