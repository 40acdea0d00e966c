// A path into a JSON document, and its text form in a Finding (finding.h): mapping keys joined
// by '.', list indices as [i], a key holding '.', '[', ']' or '"' (or empty) as ["key"].
//
// The schema pass builds paths as it walks a document; the semantic checks hand theirs over as
// text; both end in YamlDocument::Locate (yaml_reader.h), which needs the parsed form.
#ifndef FLOWC_VALIDATE_PATH_H_
#define FLOWC_VALIDATE_PATH_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flowc::validate {

struct PathElement {
  std::string key;   // a mapping key, when !is_index
  size_t index = 0;  // a list index, when is_index
  bool is_index = false;
};

using Path = std::vector<PathElement>;

inline PathElement Key(std::string key) { return PathElement{std::move(key), 0, false}; }
inline PathElement Index(size_t index) { return PathElement{{}, index, true}; }

// "spec.templates[2].container", metadata.labels["app.kubernetes.io/name"]; "" for the root.
std::string FormatPath(const Path& path);

// Appends one element to a path's text form, as FormatPath writes it (the semantic checks build
// their paths as text: checks/internal.h).
void AppendPathElement(std::string& text, const PathElement& element);

// The inverse of FormatPath; nullopt for text that is not a path in that form.
std::optional<Path> ParsePath(std::string_view text);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_PATH_H_
