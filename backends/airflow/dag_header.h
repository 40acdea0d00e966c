// What a DAG file's top holds: its comment, its imports and the fixed Python
// it embeds (templates/airflow), each only when the body uses it.
//
// The top comes before the body, so what the body uses is decided first,
// from the flow and its plan (PlanUses), and the body streams to the sink
// after it. airflow_backend.cc checks, once the body is written, that it
// used exactly that.
#ifndef FLOWC_BACKENDS_AIRFLOW_DAG_HEADER_H_
#define FLOWC_BACKENDS_AIRFLOW_DAG_HEADER_H_

#include <vector>

#include "backends/airflow/dag_plan.h"
#include "backends/backend.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::airflow {

struct DagUses {
  bool datetime = false;      // datetime.timedelta in a task's control kwargs
  bool task = false;          // @task: setup, argv, items and gang tasks
  bool task_group = false;    // a mapped task group
  bool pod_operator = false;  // a KubernetesPodOperator
  bool objects = false;       // objects beside the pods, created by setup tasks
  bool text = false;          // flowc_text
  bool argv = false;          // flowc_argv
  bool argvs = false;         // flowc_argvs
  bool items = false;         // flowc_items
  bool claims = false;        // FLOWC_RESOURCE_CLAIM (flowc_models): a pod's DRA claims
  std::vector<size_t> gangs;  // the @parallel steps, in the order of their names

  bool operator==(const DagUses& other) const;
};

// What the DAG of `flow` run as `plan` uses. Every step becomes at least one
// task (MakePlan refuses a written-out foreach over an empty list).
DagUses PlanUses(const ir::Flow& flow, const Plan& plan);

// The file up to the DAG: comment, imports, helpers, the objects' and gangs'
// YAML, and the two blank lines before `with DAG(`.
void WriteHeader(const ir::Flow& flow, const DagUses& uses, OutputSink& out);

}  // namespace flowc::backends::airflow

#endif  // FLOWC_BACKENDS_AIRFLOW_DAG_HEADER_H_
