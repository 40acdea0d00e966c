// The Kubernetes CEL libraries' functions on strings and lists, the optional type's, and the
// UTF-8 helpers they and size() share. functions.cc's Call hands them what it does not
// evaluate itself.
#ifndef FLOWC_CEL_LIBRARY_H_
#define FLOWC_CEL_LIBRARY_H_

#include <string>
#include <vector>

#include "compiler/cel/functions.h"
#include "compiler/cel/value.h"

namespace flowc::cel {

Value CallLibrary(Fn fn, const std::vector<Value>& args);

// CEL strings are sequences of code points: size() and indexes count those, not bytes.
size_t CodePoints(const std::string& utf8);
bool ValidUtf8(const std::string& bytes);

}  // namespace flowc::cel

#endif  // FLOWC_CEL_LIBRARY_H_
