// What an Airflow DAG creates in the cluster besides its pods: the objects
// beside the pods (DESIGN.md: ResourceClaimTemplates, ConfigMaps) and the
// gang of each @parallel step. Used by airflow_backend.cc.
//
// Both are embedded in the DAG file as the YAML the shared Kubernetes
// renderer writes (backends/k8s), the same text the argo and jobset targets
// put in their streams, and created at run time by the helper functions of
// templates/airflow (flowc_objects.py, flowc_gang.py). This file decides
// only which task creates what: each object is created by one setup task
// `<step>-objects`, where `<step>` is the first step (in flow order) whose
// pods need it, upstream of every task whose pods need any of its objects.
#ifndef FLOWC_BACKENDS_AIRFLOW_K8S_DELIVERY_H_
#define FLOWC_BACKENDS_AIRFLOW_K8S_DELIVERY_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "backends/airflow/python.h"
#include "backends/backend.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::airflow {

// How much text a writer gathers before it hands it to the OutputSink: the sink's writes
// cost a call each, and the whole DAG need not be held.
inline constexpr size_t kFlushBytes = 64 * 1024;
// Hands `text` to `sink`, and empties it, once it holds kFlushBytes.
void WriteWhenFull(std::string& text, OutputSink& sink);

// One setup task: it runs before `users` and creates `objects`.
struct ObjectSetup {
  size_t step;                  // names the task: the first step needing its objects
  std::vector<size_t> objects;  // indexes into Flow::objects
  std::vector<size_t> users;    // every step whose pods need one of them, in flow order
};

std::vector<ObjectSetup> PlanObjectSetups(const ir::Flow& flow);

// FLOWC_OBJECTS's key of an object: "Kind/namespace/name".
std::string ObjectKey(const ir::Object& object);

// `FLOWC_OBJECTS = {key: yaml, ...}`, with a comment, for every object, written to `out` an
// object at a time.
void WriteObjectsBlock(const ir::Flow& flow, OutputSink& out);

// The gang of a @parallel step: its base name (flowc_gang appends "-" and 8
// hex digits), and its manifest with the commands as Jinja templates.
std::string GangBaseName(const ir::Flow& flow, const ir::Step& step);
inline constexpr size_t kGangSuffixLength = 9;
struct Gang {
  std::string kind;  // "JobSet", or "TrainJob" for a @trainjob step
  std::string yaml;
};
Gang StepGang(const ir::Flow& flow, const ir::Step& step);

// `FLOWC_GANGS = {step: yaml, ...}` and `FLOWC_GANG_ENDS`, how each kind in use shows that
// it has ended, with a comment, for the @parallel steps `steps` (indexes, in the order of
// their names): each gang rendered, written to `out` and freed in turn (a flow may hold
// thousands).
void WriteGangsBlock(const ir::Flow& flow, const std::vector<size_t>& steps, OutputSink& out);

}  // namespace flowc::backends::airflow

#endif  // FLOWC_BACKENDS_AIRFLOW_K8S_DELIVERY_H_
