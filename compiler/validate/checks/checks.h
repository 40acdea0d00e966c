// The checks `flowc validate` makes that a schema cannot express: the API server's own
// validation of names, labels and pod specs, and the checks Argo, JobSet, Trainer and DRA make
// when an object is submitted (references between templates and tasks, cron schedules,
// generated-name limits, request references).
//
// The validator (compiler/validate) calls CheckSemantics on every document whose apiVersion and
// kind it knows, after the schema pass, and CheckStream once on the whole stream. Both report
// Findings (finding.h); neither stops at the first problem. Each rule's source is cited where it
// is written: names.cc, pod.cc, argo.cc, cron.cc, jobset.cc, dra.cc.
//
// One complaint per field: the conformance kit drops a check's finding at a path where the
// schema has already reported one (the schema's wins). The validator should do the same, so
// that a bad quantity or a bad template name is reported once.
#ifndef FLOWC_VALIDATE_CHECKS_CHECKS_H_
#define FLOWC_VALIDATE_CHECKS_CHECKS_H_

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "compiler/validate/finding.h"

namespace flowc::validate {

// The checks of one document, chosen by its apiVersion and kind; a kind without checks of its
// own still gets the metadata checks (name, namespace, labels, annotations). `doc` is the
// document as JSON (any shape: a field of the wrong type is the schema's to report and is
// skipped here). A v1 List gets no checks: call this on each of its items, with the items[i]
// prefix added to the findings' paths. `cluster_scoped`: the kind's scope, as its schema says
// (a CRD's spec.scope; the Kubernetes API's for a built-in kind).
void CheckSemantics(const nlohmann::json& doc, bool cluster_scoped, const Report& report);

// The checks that span documents, over a whole YAML stream in order: an Argo `templateRef` to a
// WorkflowTemplate or ClusterWorkflowTemplate of the same stream must name one of its
// templates. A target that is not in the stream is not checked (the cluster may hold it).
// `report_for(i)` is the Report of docs[i]; a null entry in `docs` (a document that is not a
// mapping) is skipped. This adds to CheckSemantics, which the validator still calls per
// document.
void CheckStream(const std::vector<const nlohmann::json*>& docs,
                 const std::function<Report(size_t doc)>& report_for);

}  // namespace flowc::validate

#endif  // FLOWC_VALIDATE_CHECKS_CHECKS_H_
