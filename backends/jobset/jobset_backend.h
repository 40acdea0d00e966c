// The JobSet target (`flowc compile FILE --target jobset`): the whole flow as
// one JobSet (jobset.x-k8s.io/v1alpha2) named after the flow, each step a
// replicated Job that dependsOn its predecessors, built with backends/k8s.
// Listed in backends/registry.cc; the driver finds it by name.
#ifndef FLOWC_BACKENDS_JOBSET_JOBSET_BACKEND_H_
#define FLOWC_BACKENDS_JOBSET_JOBSET_BACKEND_H_

#include "backends/backend.h"

namespace flowc::backends::jobset {

const Backend& JobSetBackend();

}  // namespace flowc::backends::jobset

#endif  // FLOWC_BACKENDS_JOBSET_JOBSET_BACKEND_H_
