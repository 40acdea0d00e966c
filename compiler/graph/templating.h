// References in user text: `{{name}}`, `{{item}}`, `{{run_id}}` (docs/language.md
// "References in strings") and the gang references `{{num_nodes}}`,
// `{{node_index}}`, `{{main_addr}}` (docs/language.md "Gang references").
//
// A run string is split once, here, into literal text and references; every
// backend translates the references into its own templating and escapes the
// literal text (including any literal `{{`) for its target. Gang references
// never reach a backend: the IR lowering turns each into kubelet's
// `$(FLOWC_...)` reference to the pod's own variable, which every target
// carries as literal text.
#ifndef FLOWC_GRAPH_TEMPLATING_H_
#define FLOWC_GRAPH_TEMPLATING_H_

#include <string>
#include <string_view>
#include <vector>

namespace flowc::graph {

struct Segment {
  enum class Kind { kLiteral, kParam, kItem, kRunId, kGang };
  Kind kind;
  std::string text;   // kLiteral: the text; kParam: the param name; kGang: its name
  size_t offset = 0;  // where the segment starts in the decoded string
  size_t length = 0;  // its length there: "{{ x }}" is 7

  bool operator==(const Segment& o) const { return kind == o.kind && text == o.text; }
};

// A string that may hold references.
struct Text {
  std::vector<Segment> segments;

  bool has_references() const;
  // Whether a segment of `kind` ({{item}}, a param, ...) is in the text.
  bool refers(Segment::Kind kind) const;
  // Back to the flow language's own spelling: "{{epochs}}", "{{item}}".
  std::string ToFlowString() const;
  bool operator==(const Text& o) const { return segments == o.segments; }
};

// Splits `text` into literals and references. A reference is `{{`, optional
// spaces, an identifier, optional spaces, `}}`; any other `{{` is literal.
// `item`, `run_id` and the gang names have their own kinds; any other
// identifier becomes kParam, unresolved.
Text SplitReferences(std::string_view text);

// Splits an @environment value: only gang references are references there;
// any other `{{...}}` is literal text, as it always was in env values.
Text SplitGangReferences(std::string_view text);

// `num_nodes`, `node_index` or `main_addr`: the references that only a
// @parallel step's pods can resolve.
bool IsGangReferenceName(std::string_view name);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_TEMPLATING_H_
