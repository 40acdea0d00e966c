// What an object beside the pods holds, as a key: two objects have the same
// key exactly when their content (kind and spec; not name, namespace or
// source range) is the same. ContentHashes uses it in the lowering so that
// the content hash in an object's name (ObjectContentHash) is computed once
// per distinct content, not once per step that asks for it; the Airflow
// backend uses it to render each distinct content once (k8s_delivery.cc).
//
// A key spells every field of the content, each string with its length
// first, so that no two different contents share one. content_key.cc holds
// a size check per struct that fails to compile when a field is added to
// ir.h without being added here.
#ifndef FLOWC_IR_CONTENT_KEY_H_
#define FLOWC_IR_CONTENT_KEY_H_

#include <string>
#include <unordered_map>

#include "compiler/ir/ir.h"

namespace flowc::ir {

std::string ObjectContentKey(const Object& object);

// ObjectContentHash of objects, once per distinct content.
class ContentHashes {
 public:
  // The content hash of `object`, whose name and namespace are empty (the
  // hash is over the content alone).
  const std::string& Of(const Object& object);

 private:
  std::unordered_map<std::string, std::string> by_key_;
};

}  // namespace flowc::ir

#endif  // FLOWC_IR_CONTENT_KEY_H_
