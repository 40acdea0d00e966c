// References in user text: `{{name}}`, `{{item}}`, `{{run_id}}` (DSL.md
// "References in strings").
//
// A run string is split once, here, into literal text and references; every
// backend translates the references into its own templating and escapes the
// literal text (including any literal `{{`) for its target.
#ifndef FLOWC_GRAPH_TEMPLATING_H_
#define FLOWC_GRAPH_TEMPLATING_H_

#include <string>
#include <string_view>
#include <vector>

namespace flowc::graph {

struct Segment {
  enum class Kind { kLiteral, kParam, kItem, kRunId };
  Kind kind;
  std::string text;  // kLiteral: the text; kParam: the param name
  size_t offset = 0;  // where the segment starts in the decoded string
  size_t length = 0;  // its length there: "{{ x }}" is 7

  bool operator==(const Segment& o) const { return kind == o.kind && text == o.text; }
};

// A string that may hold references.
struct Text {
  std::vector<Segment> segments;

  bool has_references() const;
  // Back to the flow language's own spelling: "{{epochs}}", "{{item}}".
  std::string ToFlowString() const;
  bool operator==(const Text& o) const { return segments == o.segments; }
};

// Splits `text` into literals and references. A reference is `{{`, optional
// spaces, an identifier, optional spaces, `}}`; any other `{{` is literal.
// Identifiers other than `item` and `run_id` become kParam, unresolved.
Text SplitReferences(std::string_view text);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_TEMPLATING_H_
