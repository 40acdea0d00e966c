#include "compiler/diff/classify.h"

#include <cctype>
#include <string_view>

namespace flowc::diff {
namespace {

struct Rule {
  // Keys from the step's root; "*" matches any one element (a container's name).
  std::vector<std::string_view> prefix;
  Section section;
};

// The four sections (docs/diff.md, "What it reports"). The first rule whose prefix
// matches wins, so a longer prefix comes before a shorter one.
const std::vector<Rule>& StepRules() {
  static const std::vector<Rule> rules = {
      // 1. What decides where and whether a pod runs.
      {{"pod", "spec", "containers", "*", "resources"}, Section::kScheduling},
      {{"pod", "spec", "tolerations"}, Section::kScheduling},
      {{"pod", "spec", "nodeSelector"}, Section::kScheduling},
      {{"pod", "spec", "affinity"}, Section::kScheduling},
      {{"pod", "spec", "serviceAccountName"}, Section::kScheduling},
      {{"pod", "spec", "resourceClaims"}, Section::kScheduling},
      {{"pod", "metadata", "namespace"}, Section::kScheduling},
      {{"queue"}, Section::kScheduling},
      {{"parallel", "exclusive_topology"}, Section::kScheduling},
      // 2. The graph: edges, foreach sources, joins, gangs.
      {{"next"}, Section::kGraph},
      {{"join"}, Section::kGraph},
      {{"foreach"}, Section::kGraph},
      {{"parallel"}, Section::kGraph},
      {{"trainjob"}, Section::kGraph},
      // 4. The flow's labels and annotations, which every pod carries.
      {{"pod", "metadata", "labels"}, Section::kFlow},
      {{"pod", "metadata", "annotations"}, Section::kFlow},
      // 3. The pod and its control: everything else, the rest of the pod included.
      {{"retry"}, Section::kPod},
      {{"timeout_seconds"}, Section::kPod},
      {{"pod"}, Section::kPod},
  };
  return rules;
}

Section Classify(const Path& path, const std::vector<Rule>& rules, Section otherwise) {
  for (const Rule& rule : rules) {
    if (rule.prefix.size() > path.size()) continue;
    bool match = true;
    for (size_t i = 0; i < rule.prefix.size() && match; ++i) {
      match = rule.prefix[i] == "*" || rule.prefix[i] == path[i].text;
    }
    if (match) return rule.section;
  }
  return otherwise;
}

bool PlainWord(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '(' &&
        c != ')') {
      return false;
    }
  }
  return true;
}

// A key or name as the report writes it: a JSON string when it is not a plain word, so no
// character of it (a '.', a newline, an escape) can pass for the report's own.
std::string Quoted(const std::string& text) {
  if (PlainWord(text)) return text;
  return Json(text).dump(-1, ' ', true, nlohmann::detail::error_handler_t::replace);
}

}  // namespace

Section ClassifyStepPath(const Path& path) { return Classify(path, StepRules(), Section::kPod); }

Section ClassifyFlowPath(const Path& path) {
  if (!path.empty() && path[0].text == "queue") return Section::kScheduling;
  return Section::kFlow;
}

std::string FieldName(const Path& path) {
  size_t start = 0;
  std::string out;
  if (path.size() >= 4 && path[0].text == "pod" && path[1].text == "spec" &&
      path[2].text == "containers" && path[3].type == PathElement::Type::kName) {
    out = "container";
    start = 4;
  } else if (path.size() >= 2 && path[0].text == "pod" &&
             (path[1].text == "spec" || path[1].text == "metadata")) {
    out = "pod";
    start = 2;
  }
  for (size_t i = start; i < path.size(); ++i) {
    const PathElement& e = path[i];
    switch (e.type) {
      case PathElement::Type::kKey:
        if (PlainWord(e.text)) {
          if (!out.empty()) out += '.';
          out += e.text;
        } else {
          out += '[' + Quoted(e.text) + ']';
        }
        break;
      case PathElement::Type::kName:
        out += '[' + Quoted(e.text) + ']';
        break;
      case PathElement::Type::kElement:
        out += "[]";
        break;
    }
  }
  return out;
}

Change ChangeOf(const Leaf& leaf, std::string step) {
  Change change;
  change.step = std::move(step);
  change.field = FieldName(leaf.path);
  change.kind = !leaf.old_value   ? Kind::kAdded
                : !leaf.new_value ? Kind::kRemoved
                                  : Kind::kChanged;
  change.old_value = leaf.old_value;
  change.new_value = leaf.new_value;
  change.raw_path = leaf.pointer;
  return change;
}

bool IgnoredStepMember(const std::string& key) {
  return key == "line" || key == "k8s_name" || key == "predecessors" ||
         key == "enclosing_foreach" || key == "name" || key == "objects";
}

}  // namespace flowc::diff
