#include "backends/registry.h"

#include "backends/airflow/airflow_backend.h"
#include "backends/argo/argo_backend.h"
#include "backends/jobset/jobset_backend.h"

namespace flowc::backends {

const std::vector<const Backend*>& AllBackends() {
  static const std::vector<const Backend*> backends = {
      &argo::ArgoBackend(),
      &airflow::AirflowBackend(),
      &jobset::JobSetBackend(),
  };
  return backends;
}

const Backend* FindBackend(std::string_view name) {
  for (const Backend* backend : AllBackends()) {
    if (backend->name() == name) return backend;
  }
  return nullptr;
}

}  // namespace flowc::backends
