// Which section of the report a changed field of a step belongs to, and how the field is
// written in the report: the one table of compare.cc (classify.cc). A path the table does not
// know is still reported, in section 3 (pod and control).
#ifndef FLOWC_DIFF_CLASSIFY_H_
#define FLOWC_DIFF_CLASSIFY_H_

#include <string>

#include "compiler/diff/diff.h"
#include "compiler/diff/json_diff.h"

namespace flowc::diff {

// The section of a leaf of a step's IR JSON (its path starts at the step: "pod", "retry", ...).
Section ClassifyStepPath(const Path& path);

// The section of a leaf of the flow's own members ("flow", "params", "schedule", "queue").
Section ClassifyFlowPath(const Path& path);

// The path as the report writes it: keys joined by '.', a name in brackets, a key or name that
// is not a plain word quoted as a JSON string; "pod.spec.containers[main]" shortened to
// "container", and "pod.spec" and "pod.metadata" to "pod".
std::string FieldName(const Path& path);

// The change a leaf is: its field named by FieldName, with the leaf's values. The
// section is the caller's to set (a step's, the flow's or an object's table).
Change ChangeOf(const Leaf& leaf, std::string step);

// Whether a member of a step's IR JSON is left out of the comparison because it is derived
// from others or is a position in the source, not part of the pod: "line" (a comment moves
// it), "k8s_name" (the name's), "predecessors" (the other steps' "next"), "enclosing_foreach"
// (the foreach steps' bodies) and "name" and "objects", which Compare pairs itself.
bool IgnoredStepMember(const std::string& key);

}  // namespace flowc::diff

#endif  // FLOWC_DIFF_CLASSIFY_H_
