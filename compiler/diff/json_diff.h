// The structural difference of two JSON values, leaf by leaf, for compare.cc.
//
// An object is compared key by key; an array whose elements are objects with distinct "name"s
// (env, volumes, mounts, claims, params, containers) name by name; an array of other objects
// (tolerations, items) as a multiset, each element missing on one side being one leaf; an array
// of scalars (command, next) as one value. Every difference becomes a Leaf, so nothing the IR
// holds can differ unreported.
#ifndef FLOWC_DIFF_JSON_DIFF_H_
#define FLOWC_DIFF_JSON_DIFF_H_

#include <optional>
#include <string>
#include <vector>

#include "compiler/diff/diff.h"

namespace flowc::diff {

struct PathElement {
  enum class Type { kKey, kName, kElement };  // .key, [name], [] (a multiset's element)
  Type type;
  std::string text;  // the key or the name; "" for kElement
};
using Path = std::vector<PathElement>;

struct Leaf {
  Path path;
  std::optional<Json> old_value;
  std::optional<Json> new_value;
  // A JSON pointer to the leaf in the new value (to its nearest existing parent when the new
  // side has none), relative to the values compared.
  std::string pointer;
};

// Appends the leaves where `a` and `b` differ to `out`, each path starting with `path` and
// each pointer with `pointer`.
void DiffJson(const Json& a, const Json& b, const Path& path, const std::string& pointer,
              std::vector<Leaf>& out);

// A JSON pointer's escaping of one reference token (RFC 6901: '~' is "~0", '/' is "~1").
std::string PointerToken(const std::string& key);

}  // namespace flowc::diff

#endif  // FLOWC_DIFF_JSON_DIFF_H_
