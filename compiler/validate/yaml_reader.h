// Reading a YAML stream for `flowc validate`: every document as JSON, with the position of
// every node kept beside it.
//
// The API server never sees YAML: kubectl turns each document into JSON with sigs.k8s.io/yaml,
// which reads YAML 1.1 scalars (`yes` and `on` are booleans, `0755` is octal, a timestamp stays
// a string) and rejects a duplicate key. The reader does the same with yaml-cpp's event parser,
// so the schema pass and the semantic checks work on JSON alone; a Finding's path is then
// mapped back to the line and column of its node here (Locate). validate.cc and the fuzz target
// tests/fuzz/fuzz_validate.cc are its users.
#ifndef FLOWC_VALIDATE_YAML_READER_H_
#define FLOWC_VALIDATE_YAML_READER_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/validate/path.h"

namespace flowc::validate {

// Where a node of a document is: the node itself, and for a mapping's member the key too.
struct NodePosition {
  diag::SourceRange node;
  diag::SourceRange key;  // invalid for the document and for list items
  std::vector<std::pair<std::string, uint32_t>> members;  // mapping: key -> position index
  std::vector<uint32_t> items;                            // sequence: position indices
};

// A problem of the YAML itself (duplicate key, a key that is not a scalar), found while reading.
struct YamlProblem {
  Path path;
  diag::SourceRange range;
  std::string message;
};

struct YamlDocument {
  int number = 0;  // 1-based, in the stream
  diag::SourceRange start;
  nlohmann::json value;
  std::vector<NodePosition> positions;  // [0] is the document's root
  std::vector<YamlProblem> problems;

  // The position a Finding at `path` points at: the key of a mapping member, the node of a
  // list item; for a path that leaves the document (a required field that is missing), the
  // deepest node it reaches.
  diag::SourceRange Locate(const Path& path) const;
};

struct YamlStream {
  std::vector<YamlDocument> documents;  // null documents (a bare `---`) are left out
  // A syntax error or bytes that are not UTF-8 end the stream: the documents before it are kept.
  std::optional<std::pair<diag::SourceRange, std::string>> error;
};

// Reads every document of `file`. Never throws.
YamlStream ReadYamlStream(const diag::SourceFile& file);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_YAML_READER_H_
