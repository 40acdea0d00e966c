// The Airflow target (`flowc compile --target airflow`): one Python file
// that Airflow 2.9+ and 3 load as a DAG, every step a KubernetesPodOperator
// (provider apache-airflow-providers-cncf-kubernetes 10+) whose pod is the
// step's ir::Pod, rendered into `k8s.V1...` objects by one function.
//
// How the flow's constructs map (see docs/airflow.md):
//   - params: DAG `params` of `Param(default, type=...)`; refs become Jinja.
//   - foreach: dynamic task mapping (`.partial(...).expand(...)`) for a
//     one-step body, a mapped task group for a longer one. Airflow cannot map
//     inside a mapped task group, so a foreach over a literal list nested in
//     one runs once per element as written-out tasks; a foreach over a list
//     param nested in another is error E050.
//   - @parallel: a sensor in reschedule mode that creates the JobSet
//     `--target jobset` emits for the step (for a @trainjob step, the
//     TrainJob `--target argo` creates), one per try, waits for its end
//     without holding a worker slot and deletes it, and a teardown task
//     that deletes what a step ended any other way left.
//   - objects beside the pods (claim templates, ConfigMaps): created by setup
//     tasks before the tasks that need them (k8s_delivery.h).
// The registry (backends/registry.cc) lists AirflowBackend().
#ifndef FLOWC_BACKENDS_AIRFLOW_AIRFLOW_BACKEND_H_
#define FLOWC_BACKENDS_AIRFLOW_AIRFLOW_BACKEND_H_

#include "backends/backend.h"

namespace flowc::backends::airflow {

const Backend& AirflowBackend();

}  // namespace flowc::backends::airflow

#endif  // FLOWC_BACKENDS_AIRFLOW_AIRFLOW_BACKEND_H_
