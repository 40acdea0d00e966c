// Compare: the steps paired by name or as renames, their objects beside the pods paired, every
// differing leaf classified (classify.h), and a change every step shares reported once.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "compiler/diff/classify.h"
#include "compiler/diff/diff.h"
#include "compiler/diff/json_diff.h"
#include "compiler/diff/objects.h"

namespace flowc::diff {

const char* SectionName(Section section) {
  switch (section) {
    case Section::kScheduling:
      return "scheduling";
    case Section::kGraph:
      return "graph";
    case Section::kPod:
      return "pod";
    case Section::kFlow:
      return "flow";
    case Section::kTarget:
      return "target";
  }
  return "pod";
}

const char* SectionTitle(Section section) {
  switch (section) {
    case Section::kScheduling:
      return "Scheduling";
    case Section::kGraph:
      return "Graph";
    case Section::kPod:
      return "Pod and control";
    case Section::kFlow:
      return "Flow";
    case Section::kTarget:
      return "Rendered output";
  }
  return "Pod and control";
}

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kChanged:
      return "changed";
    case Kind::kAdded:
      return "added";
    case Kind::kRemoved:
      return "removed";
    case Kind::kRenamed:
      return "renamed";
  }
  return "changed";
}

namespace {

const Json kEmptyArray = Json::array();

const Json& Member(const Json& object, const char* key) {
  static const Json null;
  auto found = object.find(key);
  return found == object.end() ? null : *found;
}

// The string `text` with every occurrence of `from` replaced by `to`.
std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The step's pod as it would be under the name `k8s_name`: flowc writes a @parallel step's
// Kubernetes name into its env (FLOWC_MAIN_ADDR, "$(FLOWC_JOBSET_NAME)-train-0-0...") and
// nowhere else in the pod, so only the env's values are rewritten: a command that mentions
// the name is the user's and stays.
Json PodUnderName(const Json& step, const std::string& k8s_name) {
  Json pod = Member(step, "pod");
  const Json& old_name = Member(step, "k8s_name");
  if (!old_name.is_string() || !pod.is_object()) return pod;
  const std::string from = "-" + old_name.get<std::string>() + "-", to = "-" + k8s_name + "-";
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) return pod;
  auto containers = spec->find("containers");
  if (containers == spec->end() || !containers->is_array()) return pod;
  for (Json& container : *containers) {
    auto env = container.is_object() ? container.find("env") : container.end();
    if (env == container.end() || !env->is_array()) continue;
    for (Json& var : *env) {
      auto value = var.is_object() ? var.find("value") : var.end();
      if (value != var.end() && value->is_string()) {
        *value = ReplaceAll(value->get<std::string>(), from, to);
      }
    }
  }
  return pod;
}

// Replaces, in the graph members of an old step, the names of renamed steps by their new
// names, so that a rename is not also reported as a change of every edge to it.
void RenameReferences(Json& step, const std::map<std::string, std::string>& renames) {
  auto rename = [&](Json& value) {
    if (!value.is_string()) return;
    auto found = renames.find(value.get<std::string>());
    if (found != renames.end()) value = found->second;
  };
  if (step.contains("next") && step["next"].is_array()) {
    for (Json& name : step["next"]) rename(name);
  }
  if (step.contains("join")) rename(step["join"]);
  if (step.contains("foreach") && step["foreach"].is_object()) {
    Json& f = step["foreach"];
    if (f.contains("body")) rename(f["body"]);
    if (f.contains("join")) rename(f["join"]);
  }
}

// Replaces every string value equal to a key of `names` by its value (objects renamed with
// their content: a ConfigMap's hash in a pod's volume), so the object's change is reported
// once, by the object, and not again by every reference to it.
void RenameObjects(Json& value, const std::map<std::string, std::string>& names) {
  if (names.empty()) return;
  if (value.is_string()) {
    auto found = names.find(value.get_ref<const std::string&>());
    if (found != names.end()) value = found->second;
  } else if (value.is_structured()) {
    for (Json& item : value) RenameObjects(item, names);
  }
}

struct StepRef {
  const Json* json;
  size_t index;  // in the document's "steps"
};

class Comparer {
 public:
  Comparer(const Json& old_doc, const Json& new_doc, std::vector<Change>& out)
      : old_(old_doc), new_(new_doc), objects_(old_doc, new_doc), out_(out) {}

  void Run() {
    CompareFlowMembers();
    CompareSteps();
    objects_.ReportUnreferenced(out_);
  }

 private:
  void CompareFlowMembers() {
    std::set<std::string> skip = {"steps", "objects", "k8s_name"};
    std::vector<std::string> keys;
    for (const auto& [key, value] : old_.items()) {
      if (!skip.count(key)) keys.push_back(key);
    }
    for (const auto& [key, value] : new_.items()) {
      if (!skip.count(key) && !old_.contains(key)) keys.push_back(key);
    }
    std::vector<Leaf> leaves;
    for (const std::string& key : keys) {
      const Json& a = Member(old_, key.c_str());
      const Json& b = Member(new_, key.c_str());
      Path path = {{PathElement::Type::kKey, key == "flow" ? "name" : key}};
      if (a.is_null() || b.is_null()) {
        leaves.push_back({path, a.is_null() ? std::nullopt : std::optional<Json>(a),
                          b.is_null() ? std::nullopt : std::optional<Json>(b),
                          "/" + PointerToken(key)});
        continue;
      }
      DiffJson(a, b, path, "/" + PointerToken(key), leaves);
    }
    for (Leaf& leaf : leaves) {
      Change change = ChangeOf(leaf, "");
      change.section = ClassifyFlowPath(leaf.path);
      out_.push_back(std::move(change));
    }
  }

  static std::map<std::string, StepRef> ByName(const Json& doc) {
    std::map<std::string, StepRef> out;
    const Json& steps = Member(doc, "steps");
    if (!steps.is_array()) return out;
    for (size_t i = 0; i < steps.size(); ++i) {
      const Json& name = Member(steps[i], "name");
      if (name.is_string()) out.emplace(name.get<std::string>(), StepRef{&steps[i], i});
    }
    return out;
  }

  void CompareSteps() {
    std::map<std::string, StepRef> old_steps = ByName(old_), new_steps = ByName(new_);
    const Json& new_list = Member(new_, "steps");
    const Json& old_list = Member(old_, "steps");
    // Renames: a step only on the old side whose pod is a new-only step's pod.
    std::vector<const Json*> old_only, new_only;
    for (const Json& step : old_list.is_array() ? old_list : kEmptyArray) {
      if (!new_steps.count(Member(step, "name").get<std::string>())) old_only.push_back(&step);
    }
    for (const Json& step : new_list.is_array() ? new_list : kEmptyArray) {
      if (!old_steps.count(Member(step, "name").get<std::string>())) new_only.push_back(&step);
    }
    std::map<std::string, std::string> renames;       // old name -> new name
    std::map<std::string, const Json*> renamed_from;  // new name -> old step
    for (const Json* n : new_only) {
      const std::string k8s_name = Member(*n, "k8s_name").get<std::string>();
      for (const Json*& o : old_only) {
        if (o != nullptr && PodUnderName(*o, k8s_name) == Member(*n, "pod")) {
          renames[Member(*o, "name").get<std::string>()] = Member(*n, "name").get<std::string>();
          renamed_from[Member(*n, "name").get<std::string>()] = o;
          o = nullptr;
          break;
        }
      }
    }
    size_t paired = 0;
    std::vector<Change> steps_out;
    for (size_t i = 0; new_list.is_array() && i < new_list.size(); ++i) {
      const Json& n = new_list[i];
      const std::string name = Member(n, "name").get<std::string>();
      std::string pointer = "/steps/" + std::to_string(i);
      auto same = old_steps.find(name);
      auto renamed = renamed_from.find(name);
      if (same != old_steps.end()) {
        ++paired;
        CompareStep(*same->second.json, n, name, pointer, renames, steps_out);
      } else if (renamed != renamed_from.end()) {
        ++paired;
        Change change;
        change.section = Section::kGraph;
        change.step = name;
        change.kind = Kind::kRenamed;
        change.old_value = Member(*renamed->second, "name");
        change.new_value = name;
        change.raw_path = pointer;
        steps_out.push_back(std::move(change));
        Json old_step = *renamed->second;
        old_step["pod"] = PodUnderName(old_step, Member(n, "k8s_name").get<std::string>());
        CompareStep(old_step, n, name, pointer, renames, steps_out);
      } else {
        Change change;
        change.section = Section::kGraph;
        change.step = name;
        change.kind = Kind::kAdded;
        change.raw_path = pointer;
        steps_out.push_back(std::move(change));
      }
    }
    for (const Json* o : old_only) {
      if (o == nullptr) continue;
      Change change;
      change.section = Section::kGraph;
      change.step = Member(*o, "name").get<std::string>();
      change.kind = Kind::kRemoved;
      change.raw_path = "/steps";
      steps_out.push_back(std::move(change));
    }
    Collapse(steps_out, paired);
  }

  void CompareStep(const Json& old_step, const Json& new_step, const std::string& name,
                   const std::string& pointer, const std::map<std::string, std::string>& renames,
                   std::vector<Change>& out) {
    std::map<std::string, std::string> object_names =
        objects_.CompareStepObjects(old_step, new_step, name, pointer, out);
    // The common case, a step nothing touched, costs one comparison.
    if (renames.empty() && object_names.empty() && old_step == new_step) return;
    Json a = old_step;
    RenameReferences(a, renames);
    RenameObjects(a, object_names);
    std::vector<Leaf> leaves;
    for (const auto& [key, value] : a.items()) {
      if (IgnoredStepMember(key)) continue;
      auto found = new_step.find(key);
      Path path = {{PathElement::Type::kKey, key}};
      if (found == new_step.end()) {
        leaves.push_back({path, value, std::nullopt, pointer});
      } else {
        DiffJson(value, *found, path, pointer + "/" + PointerToken(key), leaves);
      }
    }
    for (const auto& [key, value] : new_step.items()) {
      if (!IgnoredStepMember(key) && !a.contains(key)) {
        leaves.push_back({{{PathElement::Type::kKey, key}},
                          std::nullopt,
                          value,
                          pointer + "/" + PointerToken(key)});
      }
    }
    for (Leaf& leaf : leaves) {
      Section section = ClassifyStepPath(leaf.path);
      Change change = ChangeOf(leaf, name);
      change.section = section;
      out.push_back(std::move(change));
    }
  }

  // A change every paired step has alike (an image or a label set for the whole flow) is
  // reported once, under kEveryStep, where it first came.
  void Collapse(std::vector<Change>& changes, size_t paired) {
    auto key = [](const Change& c) {
      std::string k = std::string(SectionName(c.section)) + '\n' + c.field + '\n' +
                      KindName(c.kind) + '\n' + (c.old_value ? c.old_value->dump() : "") + '\n' +
                      (c.new_value ? c.new_value->dump() : "");
      for (const std::string& f : c.files) k += '\n' + f;
      return k;
    };
    std::unordered_map<std::string, std::set<std::string>> steps;
    bool any = false;
    if (paired >= 2) {
      for (const Change& c : changes) {
        if (c.field.empty()) continue;
        steps[key(c)].insert(c.step);
      }
      for (const auto& [k, s] : steps) any = any || s.size() == paired;
    }
    std::set<std::string> written;
    for (Change& c : changes) {
      if (!any || c.field.empty()) {
        out_.push_back(std::move(c));
        continue;
      }
      std::string k = key(c);
      if (steps[k].size() != paired) {
        out_.push_back(std::move(c));
      } else if (written.insert(k).second) {
        c.step = kEveryStep;
        out_.push_back(std::move(c));
      }
    }
  }

  const Json& old_;
  const Json& new_;
  ObjectComparer objects_;
  std::vector<Change>& out_;
};

// The lines of `before` that `after` lacks and those `after` adds, as two JSON arrays of
// strings in `change`'s old and new values (a multiset: a moved line is no change).
void LineChanges(const std::string& before, const std::string& after, Change* change) {
  auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      out.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    return out;
  };
  std::vector<std::string> a = lines(before), b = lines(after);
  std::multiset<std::string> in_a(a.begin(), a.end()), in_b(b.begin(), b.end());
  Json removed = Json::array(), added = Json::array();
  for (const std::string& line : a) {
    auto found = in_b.find(line);
    if (found == in_b.end()) {
      removed.push_back(line);
    } else {
      in_b.erase(found);
    }
  }
  for (const std::string& line : b) {
    auto found = in_a.find(line);
    if (found == in_a.end()) {
      added.push_back(line);
    } else {
      in_a.erase(found);
    }
  }
  change->old_value = std::move(removed);
  change->new_value = std::move(added);
}

void CompareRendered(const Side& old_side, const Side& new_side, std::vector<Change>& out) {
  for (const Rendered& n : new_side.rendered) {
    auto o = std::find_if(old_side.rendered.begin(), old_side.rendered.end(),
                          [&](const Rendered& r) { return r.target == n.target; });
    if (o == old_side.rendered.end()) continue;
    std::multiset<std::string> old_warnings(o->warnings.begin(), o->warnings.end());
    std::multiset<std::string> new_warnings(n.warnings.begin(), n.warnings.end());
    for (const std::string& w : o->warnings) {
      if (!new_warnings.count(w)) {
        out.push_back({Section::kTarget, "", n.target + ".warnings[]", Kind::kRemoved, Json(w),
                       std::nullopt});
      }
    }
    for (const std::string& w : n.warnings) {
      if (!old_warnings.count(w)) {
        out.push_back(
            {Section::kTarget, "", n.target + ".warnings[]", Kind::kAdded, std::nullopt, Json(w)});
      }
    }
    if (o->text != n.text) {
      Change change{Section::kTarget, "",           n.target + ".output",
                    Kind::kChanged,   std::nullopt, std::nullopt};
      LineChanges(o->text, n.text, &change);
      out.push_back(std::move(change));
    }
  }
}

}  // namespace

std::vector<Change> Compare(const Side& old_side, const Side& new_side) {
  std::vector<Change> out;
  if (!old_side.ir && !new_side.ir) return out;
  if (!old_side.ir || !new_side.ir) {
    const Json& doc = old_side.ir ? *old_side.ir : *new_side.ir;
    Change change{Section::kFlow, "",          "", old_side.ir ? Kind::kRemoved : Kind::kAdded,
                  std::nullopt,   std::nullopt};
    (old_side.ir ? change.old_value : change.new_value) = Member(doc, "flow");
    out.push_back(std::move(change));
    return out;
  }
  Comparer(*old_side.ir, *new_side.ir, out).Run();
  CompareRendered(old_side, new_side, out);
  std::stable_sort(out.begin(), out.end(), [](const Change& a, const Change& b) {
    return static_cast<int>(a.section) < static_cast<int>(b.section);
  });
  return out;
}

}  // namespace flowc::diff
