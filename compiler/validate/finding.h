// A problem `flowc validate` found in one YAML document, before it has a line.
//
// The schema pass (compiler/validate) and the semantic checks (compiler/validate/checks)
// both report Findings against the document as JSON; the validator maps each path back to
// the line and column of the YAML node and renders it through the diagnostics engine.
#ifndef FLOWC_VALIDATE_FINDING_H_
#define FLOWC_VALIDATE_FINDING_H_

#include <functional>
#include <string>

namespace flowc::validate {

struct Finding {
  // Where, in the document: mapping keys joined by '.', list indices as [i], a key that holds
  // '.', '[' or ']' quoted as ["key"]: spec.templates[2].container.resource,
  // metadata.labels["app.kubernetes.io/name"]. Empty for the document itself.
  std::string path;
  std::string message;  // "unknown field \"resource\"", without the path
  std::string help;     // a did-you-mean or a fix; empty when there is none
};

using Report = std::function<void(Finding)>;

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_FINDING_H_
