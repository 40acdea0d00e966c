// The list of targets, written out in one place (flatbuffers' flatc_main):
// adding a backend means adding one line to registry.cc.
#ifndef FLOWC_BACKENDS_REGISTRY_H_
#define FLOWC_BACKENDS_REGISTRY_H_

#include <string_view>
#include <vector>

#include "backends/backend.h"

namespace flowc::backends {

// Every backend, in the order `--help` lists them.
const std::vector<const Backend*>& AllBackends();
// The backend named `name`, or nullptr.
const Backend* FindBackend(std::string_view name);

}  // namespace flowc::backends

#endif  // FLOWC_BACKENDS_REGISTRY_H_
