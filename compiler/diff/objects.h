// The objects beside the pods (ResourceClaimTemplates, the ConfigMaps of @code,
// TrainingRuntimes) compared for each pair of steps that use them: compare.cc's helper.
//
// An object's name holds a hash of its content, so a changed object has a new name. The objects
// a step uses are paired by name, then by kind in order; a paired ConfigMap is reported as one
// change of the step's "code" (old and new hash, the files that differ), a ResourceClaimTemplate
// (section 1) and a TrainingRuntime leaf by leaf. The old names of paired objects are mapped to
// the new ones so that the pod's references to them are not reported again.
#ifndef FLOWC_DIFF_OBJECTS_H_
#define FLOWC_DIFF_OBJECTS_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/diff/diff.h"

namespace flowc::diff {

class ObjectComparer {
 public:
  ObjectComparer(const Json& old_doc, const Json& new_doc);

  // Reports the changes of the objects `old_step` and `new_step` use into `out`, under the
  // step `name`, whose JSON pointer in the new document is `pointer`. Returns the old names of
  // paired objects that were renamed, with their new names.
  std::map<std::string, std::string> CompareStepObjects(const Json& old_step, const Json& new_step,
                                                        const std::string& name,
                                                        const std::string& pointer,
                                                        std::vector<Change>& out);

  // Objects no step of their document uses, added, removed or changed by name (a document the
  // compiler wrote has none; a hand-edited one may).
  void ReportUnreferenced(std::vector<Change>& out);

 private:
  struct Entry {
    const Json* json;
    size_t index;
  };
  void ComparePair(const Entry& o, const Entry& n, const std::string& field,
                   const std::string& step, std::vector<Change>& out);

  std::map<std::string, Entry> old_, new_;
  std::set<std::string> old_used_, new_used_;
};

}  // namespace flowc::diff

#endif  // FLOWC_DIFF_OBJECTS_H_
