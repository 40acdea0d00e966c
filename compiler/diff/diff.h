// `flowc diff`: what a change to a flow does to every step's pod (docs/diff.md).
//
// The door compares two IR documents, the JSON `flowc compile --target ir` prints
// (ir::FlowToJson), because that document is the reference pod and control block of every
// step: a field the IR gains is compared without a line here, and reported (section 3, "pod
// and control", when the classification table in classify.cc does not know it). Compare pairs
// the steps by name (a step whose pod is unchanged under another name is a rename), the objects
// beside the pods by the steps that use them, and reports each differing JSON leaf as a Change
// naming its step and field. The driver (compiler/driver/diff_command.cc) runs the stages, then
// Compare, then one of report.h's formats.
#ifndef FLOWC_DIFF_DIFF_H_
#define FLOWC_DIFF_DIFF_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace flowc::diff {

using Json = nlohmann::ordered_json;

// The report's sections, in the order it prints them (the 1 to 4), then what a
// target renders (--target).
enum class Section { kScheduling, kGraph, kPod, kFlow, kTarget };
const char* SectionName(Section section);   // "scheduling", ... (the JSON schema's words)
const char* SectionTitle(Section section);  // "Scheduling", ... (text and Markdown headings)

enum class Kind { kChanged, kAdded, kRemoved, kRenamed };
const char* KindName(Kind kind);  // "changed", "added", "removed", "renamed"

// The step every step's identical change is reported under once (Collapse).
inline constexpr const char* kEveryStep = "*";

struct Change {
  Section section;
  // The step's name (the new one for a rename), kEveryStep, or "" for the flow itself.
  std::string step;
  // The field, as a path into the step's IR JSON made readable ("container.image",
  // "pod.tolerations[]", `container.resources.limits["aws.amazon.com/neuron"]`); "" for a
  // step added, removed or renamed.
  std::string field;
  Kind kind = Kind::kChanged;
  std::optional<Json> old_value;  // absent for an addition
  std::optional<Json> new_value;  // absent for a removal
  // The files of a @code ConfigMap whose content changed, added or removed, by path.
  std::vector<std::string> files{};
  // The raw path of the leaf in the step's (or the flow's) IR JSON, for the mutation test.
  std::string raw_path{};
};

// What a target rendered from one side: its text and its warnings, each as
// "W031: message" (the line left out: a comment added above a step moves it).
struct Rendered {
  std::string target;
  std::string text;
  std::vector<std::string> warnings;
};

// One side of a comparison: the IR document, or none for a flow that does not exist on that
// side (--git: added or removed).
struct Side {
  std::optional<Json> ir;
  std::vector<Rendered> rendered;  // --target: one per target, in the order given
};

// The changes from `old_side` to `new_side`, in report order: by section, then by step (the
// new flow's order, removed steps after), then by field. Empty when nothing differs.
std::vector<Change> Compare(const Side& old_side, const Side& new_side);

}  // namespace flowc::diff

#endif  // FLOWC_DIFF_DIFF_H_
