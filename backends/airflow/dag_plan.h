// How each foreach of a flow runs on Airflow (the plan the DAG writer follows).
//
// Airflow maps one level deep: a mapped task, or the tasks of a mapped task
// group, but nothing mapped inside a mapped group. MakePlan decides, for every
// foreach step, whether it is a mapped task, a mapped task group or written
// out once per element, and reports what Airflow cannot express. Used by
// airflow_backend.cc.
#ifndef FLOWC_BACKENDS_AIRFLOW_DAG_PLAN_H_
#define FLOWC_BACKENDS_AIRFLOW_DAG_PLAN_H_

#include <map>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::airflow {

// Every other foreach runs once per element of its literal list as tasks
// written out in the file.
enum class ForeachMode { kMappedTask, kMappedGroup, kUnrolled };

struct Plan {
  std::map<size_t, ForeachMode> mode;          // by the foreach step's index
  std::map<size_t, std::vector<size_t>> body;  // the body's steps, in flow order
};

// Which element of which unrolled foreach an instance of a step runs for,
// outermost first.
using Binding = std::vector<std::pair<size_t, size_t>>;

inline bool IsDynamic(ForeachMode mode) { return mode != ForeachMode::kUnrolled; }

// Fills `plan`; false (with diagnostics) when a foreach cannot run on Airflow.
bool MakePlan(const ir::Flow& flow, Plan& plan, diag::Reporter& report);

}  // namespace flowc::backends::airflow

#endif  // FLOWC_BACKENDS_AIRFLOW_DAG_PLAN_H_
