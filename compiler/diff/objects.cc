#include "compiler/diff/objects.h"

#include "compiler/diff/classify.h"
#include "compiler/diff/json_diff.h"

namespace flowc::diff {
namespace {

const Json& Member(const Json& object, const char* key) {
  static const Json null;
  if (!object.is_object()) return null;
  auto found = object.find(key);
  return found == object.end() ? null : *found;
}

std::string KindOf(const Json& object) {
  const Json& kind = Member(object, "kind");
  return kind.is_string() ? kind.get<std::string>() : "";
}

// How the report names an object of a step: by what it is to the step.
std::string FieldOf(const std::string& kind) {
  if (kind == "ConfigMap") return "code";
  if (kind == "ResourceClaimTemplate") return "resourceClaimTemplate";
  if (kind == "TrainingRuntime") return "trainingRuntime";
  return "object";
}

Section SectionOf(const std::string& kind) {
  return kind == "ResourceClaimTemplate" ? Section::kScheduling : Section::kPod;
}

// A ConfigMap's files: path -> [content (data) or base64 (binaryData), mode].
std::map<std::string, Json> Files(const Json& object) {
  std::map<std::string, Json> out;
  const Json& map = Member(object, "configMap");
  const Json& items = Member(map, "items");
  if (!items.is_array()) return out;
  for (const Json& item : items) {
    const Json& key = Member(item, "key");
    const Json& path = Member(item, "path");
    if (!key.is_string() || !path.is_string()) continue;
    Json content;
    for (const char* where : {"data", "binaryData"}) {
      const Json& in = Member(map, where);
      if (in.is_object() && in.contains(key.get<std::string>())) {
        content = Json::array({where, in[key.get<std::string>()]});
      }
    }
    out[path.get<std::string>()] = Json::array({content, Member(item, "mode")});
  }
  return out;
}

std::vector<std::string> Names(const Json& step) {
  std::vector<std::string> out;
  const Json& objects = Member(step, "objects");
  if (!objects.is_array()) return out;
  for (const Json& name : objects) {
    if (name.is_string()) out.push_back(name.get<std::string>());
  }
  return out;
}

}  // namespace

ObjectComparer::ObjectComparer(const Json& old_doc, const Json& new_doc) {
  auto index = [](const Json& doc, std::map<std::string, Entry>& out) {
    const Json& objects = Member(doc, "objects");
    if (!objects.is_array()) return;
    for (size_t i = 0; i < objects.size(); ++i) {
      const Json& name = Member(objects[i], "name");
      if (name.is_string()) out.emplace(name.get<std::string>(), Entry{&objects[i], i});
    }
  };
  index(old_doc, old_);
  index(new_doc, new_);
}

void ObjectComparer::ComparePair(const Entry& o, const Entry& n, const std::string& field,
                                 const std::string& step, std::vector<Change>& out) {
  const std::string kind = KindOf(*n.json);
  const std::string pointer = "/objects/" + std::to_string(n.index);
  Json a = *o.json, b = *n.json;
  a.erase("name");
  b.erase("name");
  if (kind == "ConfigMap" && KindOf(a) == "ConfigMap") {
    std::map<std::string, Json> before = Files(a), after = Files(b);
    std::vector<std::string> files;
    for (const auto& [path, content] : before) {
      auto found = after.find(path);
      if (found == after.end() || found->second != content) files.push_back(path);
    }
    for (const auto& [path, content] : after) {
      if (!before.count(path)) files.push_back(path);
    }
    if (!files.empty() || Member(*o.json, "name") != Member(*n.json, "name")) {
      Change change{Section::kPod,          step, field, Kind::kChanged, Member(*o.json, "name"),
                    Member(*n.json, "name")};
      change.files = std::move(files);
      change.raw_path = pointer;
      out.push_back(std::move(change));
    }
    // The files are reported above: what else the ConfigMap holds is compared leaf by leaf.
    for (Json* side : {&a, &b}) {
      if (side->contains("configMap") && (*side)["configMap"].is_object()) {
        for (const char* key : {"data", "binaryData", "items"}) (*side)["configMap"].erase(key);
      }
    }
  }
  // Another content is another name (a hash of it): the name the pods now refer to.
  if (kind != "ConfigMap" && Member(*o.json, "name") != Member(*n.json, "name")) {
    Change change{SectionOf(kind),        step, field, Kind::kChanged, Member(*o.json, "name"),
                  Member(*n.json, "name")};
    change.raw_path = pointer;
    out.push_back(std::move(change));
  }
  std::vector<Leaf> leaves;
  DiffJson(a, b, {{PathElement::Type::kKey, field}}, pointer, leaves);
  for (Leaf& leaf : leaves) {
    Change change = ChangeOf(leaf, step);
    change.section = SectionOf(kind);
    // A TrainingRuntime holds the step's pod: its fields are classified as the step's are, and
    // its node count is the gang's.
    if (kind == "TrainingRuntime" && leaf.path.size() >= 3 &&
        leaf.path[1].text == "trainingRuntime") {
      Path inner(leaf.path.begin() + 2, leaf.path.end());
      if (inner[0].text == "pod") {
        change.section = ClassifyStepPath(inner);
      } else if (inner[0].text == "numNodes") {
        change.section = Section::kGraph;
      } else if (inner[0].text == "exclusiveTopology") {
        change.section = Section::kScheduling;
      }
    }
    out.push_back(std::move(change));
  }
}

std::map<std::string, std::string> ObjectComparer::CompareStepObjects(const Json& old_step,
                                                                      const Json& new_step,
                                                                      const std::string& name,
                                                                      const std::string& pointer,
                                                                      std::vector<Change>& out) {
  std::map<std::string, std::string> renamed;
  std::vector<std::string> a = Names(old_step), b = Names(new_step);
  for (const std::string& n : a) old_used_.insert(n);
  for (const std::string& n : b) new_used_.insert(n);
  if (a == b) {
    // The same names: the same content, unless a document was edited by hand.
    for (const std::string& n : a) {
      auto o = old_.find(n), m = new_.find(n);
      if (o != old_.end() && m != new_.end() && *o->second.json != *m->second.json) {
        ComparePair(o->second, m->second, FieldOf(KindOf(*m->second.json)), name, out);
      }
    }
    return renamed;
  }
  // Pairs: the same name, then the same kind in order.
  std::vector<bool> a_done(a.size()), b_done(b.size());
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t j = 0; j < b.size(); ++j) {
      if (!b_done[j] && a[i] == b[j]) {
        a_done[i] = b_done[j] = true;
        pairs.emplace_back(i, j);
        break;
      }
    }
  }
  auto kind_of = [](const std::map<std::string, Entry>& index, const std::string& n) {
    auto found = index.find(n);
    return found == index.end() ? std::string() : KindOf(*found->second.json);
  };
  for (size_t i = 0; i < a.size(); ++i) {
    if (a_done[i]) continue;
    for (size_t j = 0; j < b.size(); ++j) {
      if (!b_done[j] && kind_of(old_, a[i]) == kind_of(new_, b[j])) {
        a_done[i] = b_done[j] = true;
        pairs.emplace_back(i, j);
        break;
      }
    }
  }
  for (auto [i, j] : pairs) {
    auto o = old_.find(a[i]), m = new_.find(b[j]);
    if (o == old_.end() || m == new_.end()) continue;
    if (a[i] != b[j]) renamed[a[i]] = b[j];
    if (*o->second.json != *m->second.json) {
      ComparePair(o->second, m->second, FieldOf(KindOf(*m->second.json)), name, out);
    }
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a_done[i]) continue;
    std::string kind = kind_of(old_, a[i]);
    Change change{SectionOf(kind), name, FieldOf(kind), Kind::kRemoved, Json(a[i]), std::nullopt};
    change.raw_path = pointer + "/objects";
    out.push_back(std::move(change));
  }
  for (size_t j = 0; j < b.size(); ++j) {
    if (b_done[j]) continue;
    std::string kind = kind_of(new_, b[j]);
    Change change{SectionOf(kind), name, FieldOf(kind), Kind::kAdded, std::nullopt, Json(b[j])};
    change.raw_path = pointer + "/objects";
    out.push_back(std::move(change));
  }
  return renamed;
}

void ObjectComparer::ReportUnreferenced(std::vector<Change>& out) {
  for (const auto& [name, entry] : old_) {
    if (old_used_.count(name)) continue;
    auto m = new_.find(name);
    if (m == new_.end()) {
      std::string kind = KindOf(*entry.json);
      Change change{SectionOf(kind), "", FieldOf(kind), Kind::kRemoved, Json(name), std::nullopt};
      change.raw_path = "/objects";
      out.push_back(std::move(change));
    } else if (!new_used_.count(name) && *entry.json != *m->second.json) {
      ComparePair(entry, m->second, FieldOf(KindOf(*m->second.json)), "", out);
    }
  }
  for (const auto& [name, entry] : new_) {
    if (new_used_.count(name) || (old_.count(name) && !old_used_.count(name))) continue;
    if (old_.count(name) && *old_.at(name).json == *entry.json) continue;
    std::string kind = KindOf(*entry.json);
    Change change{SectionOf(kind), "", FieldOf(kind), Kind::kAdded, std::nullopt, Json(name)};
    change.raw_path = "/objects/" + std::to_string(entry.index);
    out.push_back(std::move(change));
  }
}

}  // namespace flowc::diff
