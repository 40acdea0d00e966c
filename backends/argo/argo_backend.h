// The Argo target (`flowc compile --target argo`).
#ifndef FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_
#define FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_

#include "backends/backend.h"

namespace flowc::backends::argo {

const Backend& ArgoBackend();

}  // namespace flowc::backends::argo

#endif  // FLOWC_BACKENDS_ARGO_ARGO_BACKEND_H_
