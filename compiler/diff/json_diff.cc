#include "compiler/diff/json_diff.h"

#include <map>
#include <unordered_set>

namespace flowc::diff {
namespace {

// Whether every element of `array` is an object with a string "name", no two the same: such
// arrays are compared name by name, so that one env var added is one leaf, not a shift of all.
bool Named(const Json& array) {
  std::unordered_set<std::string> seen;
  for (const Json& item : array) {
    if (!item.is_object()) return false;
    auto name = item.find("name");
    if (name == item.end() || !name->is_string()) return false;
    if (!seen.insert(name->get<std::string>()).second) return false;
  }
  return true;
}

bool AllScalars(const Json& array) {
  for (const Json& item : array) {
    if (item.is_structured()) return false;
  }
  return true;
}

Path With(const Path& path, PathElement::Type type, std::string text) {
  Path out = path;
  out.push_back({type, std::move(text)});
  return out;
}

void DiffNamed(const Json& a, const Json& b, const Path& path, const std::string& pointer,
               std::vector<Leaf>& out) {
  std::map<std::string, size_t> in_b;
  for (size_t i = 0; i < b.size(); ++i) in_b.emplace(b[i]["name"].get<std::string>(), i);
  std::map<std::string, size_t> in_a;
  for (size_t i = 0; i < a.size(); ++i) in_a.emplace(a[i]["name"].get<std::string>(), i);
  // Removed and changed elements in the old order, then added ones in the new order.
  std::vector<std::string> common_a, common_b;
  for (const Json& item : a) {
    const std::string& name = item["name"].get_ref<const std::string&>();
    auto found = in_b.find(name);
    if (found == in_b.end()) {
      out.push_back({With(path, PathElement::Type::kName, name), item, std::nullopt, pointer});
      continue;
    }
    common_a.push_back(name);
    std::string at = pointer + "/" + std::to_string(found->second);
    DiffJson(item, b[found->second], With(path, PathElement::Type::kName, name), at, out);
  }
  for (size_t i = 0; i < b.size(); ++i) {
    const std::string& name = b[i]["name"].get_ref<const std::string&>();
    if (in_a.count(name) == 0) {
      out.push_back({With(path, PathElement::Type::kName, name), std::nullopt, b[i],
                     pointer + "/" + std::to_string(i)});
    } else {
      common_b.push_back(name);
    }
  }
  // The same elements in another order: the order is part of the pod (env vars refer to earlier
  // ones; volumes mount in order), so it is a change of the whole list's order.
  if (common_a != common_b) {
    Json old_order = Json::array(), new_order = Json::array();
    for (const std::string& name : common_a) old_order.push_back(name);
    for (const std::string& name : common_b) new_order.push_back(name);
    out.push_back({With(path, PathElement::Type::kKey, "(order)"), std::move(old_order),
                   std::move(new_order), pointer});
  }
}

void DiffMultiset(const Json& a, const Json& b, const Path& path, const std::string& pointer,
                  std::vector<Leaf>& out) {
  std::map<std::string, int> count_b;
  for (const Json& item : b) ++count_b[item.dump()];
  std::map<std::string, int> count_a;
  for (const Json& item : a) ++count_a[item.dump()];
  bool differs = false;
  std::map<std::string, int> left = count_b;
  for (const Json& item : a) {
    if (left[item.dump()]-- > 0) continue;
    differs = true;
    out.push_back({With(path, PathElement::Type::kElement, ""), item, std::nullopt, pointer});
  }
  left = count_a;
  for (size_t i = 0; i < b.size(); ++i) {
    if (left[b[i].dump()]-- > 0) continue;
    differs = true;
    out.push_back({With(path, PathElement::Type::kElement, ""), std::nullopt, b[i],
                   pointer + "/" + std::to_string(i)});
  }
  if (!differs) out.push_back({path, a, b, pointer});  // the same elements, reordered
}

}  // namespace

std::string PointerToken(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

void DiffJson(const Json& a, const Json& b, const Path& path, const std::string& pointer,
              std::vector<Leaf>& out) {
  if (a == b) return;
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : a.items()) {
      auto found = b.find(key);
      Path at = With(path, PathElement::Type::kKey, key);
      if (found == b.end()) {
        out.push_back({std::move(at), value, std::nullopt, pointer});
      } else {
        DiffJson(value, *found, at, pointer + "/" + PointerToken(key), out);
      }
    }
    for (const auto& [key, value] : b.items()) {
      if (a.find(key) == a.end()) {
        out.push_back({With(path, PathElement::Type::kKey, key), std::nullopt, value,
                       pointer + "/" + PointerToken(key)});
      }
    }
    return;
  }
  if (a.is_array() && b.is_array() && !(AllScalars(a) && AllScalars(b))) {
    if (Named(a) && Named(b)) return DiffNamed(a, b, path, pointer, out);
    return DiffMultiset(a, b, path, pointer, out);
  }
  out.push_back({path, a, b, pointer});
}

}  // namespace flowc::diff
