#pragma once
/// A table of named factories (integrators, materials, linear solvers): one lookup for all of
/// them, whose error names the alternatives and suggests the nearest one on a typo.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace simrun {

/// "unknown <what> '<name>' (available: a, b, c); did you mean 'b'?" (the suggestion only when
/// a known name is a plausible typo of `name`, core/string_distance.hpp).
std::string unknown_name_message(std::string_view what, std::string_view name,
                                 const std::vector<std::string>& known);

template <class Factory>
class NameRegistry {
 public:
  struct Entry {
    std::string name;
    Factory make;
  };

  /// `what` names the kind of thing in errors ("integrator", "material model", ...).
  NameRegistry(std::string what, std::vector<Entry> entries)
      : m_what(std::move(what)), m_entries(std::move(entries)) {}

  /// The registered names, in registration order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    out.reserve(m_entries.size());
    for (const Entry& entry : m_entries) out.push_back(entry.name);
    return out;
  }

  /// The factory registered as `name`; an InputError naming the alternatives otherwise.
  const Factory& find(std::string_view name) const {
    for (const Entry& entry : m_entries) {
      if (entry.name == name) return entry.make;
    }
    throw InputError(unknown_name_message(m_what, name, names()));
  }

 private:
  std::string m_what;
  std::vector<Entry> m_entries;
};

}  // namespace simrun
