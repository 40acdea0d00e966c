// The dispatch: which families of checks a document gets, by apiVersion and kind, and where its
// pod specs are. Then the checks that span a stream (CheckStream).
#include "compiler/validate/checks/checks.h"

#include <fmt/format.h>

#include <map>

#include "compiler/diag/suggest.h"
#include "compiler/validate/checks/internal.h"

namespace flowc::validate {
namespace {

using checks::Get;
using checks::Items;
using checks::Json;
using checks::NameSet;
using checks::Path;
using checks::Sink;
using checks::Str;
using checks::StrOr;

std::string_view Group(std::string_view api_version) {
  size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

// Where a kind keeps its pod specs, as a path of keys with "[]" for every item of a list.
std::vector<std::string_view> PodSpecPaths(std::string_view group, std::string_view kind) {
  if (group.empty() && kind == "Pod") return {"spec"};
  if (group.empty() && kind == "PodTemplate") return {"template", "spec"};
  if (group == "batch" && kind == "Job") return {"spec", "template", "spec"};
  if (group == "batch" && kind == "CronJob") {
    return {"spec", "jobTemplate", "spec", "template", "spec"};
  }
  if (group == "apps" && (kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" ||
                          kind == "ReplicaSet")) {
    return {"spec", "template", "spec"};
  }
  if (group == "jobset.x-k8s.io" && kind == "JobSet") {
    return {"spec", "replicatedJobs", "[]", "template", "spec", "template", "spec"};
  }
  if (group == "trainer.kubeflow.org" &&
      (kind == "TrainingRuntime" || kind == "ClusterTrainingRuntime")) {
    return {"spec", "template", "spec", "replicatedJobs", "[]", "template",
            "spec", "template", "spec"};
  }
  return {};
}

template <typename Visit>
void Walk(const Json& node, const Path& at, const std::vector<std::string_view>& keys, size_t k,
          Visit& visit) {
  if (k == keys.size()) {
    if (node.is_object()) visit(node, at);
    return;
  }
  if (keys[k] == "[]") {
    const Json::array_t& items = Items(&node);
    for (size_t i = 0; i < items.size(); ++i) Walk(items[i], at.Index(i), keys, k + 1, visit);
  } else if (const Json* next = Get(node, keys[k])) {
    Walk(*next, at.Key(keys[k]), keys, k + 1, visit);
  }
}

// Volumes a controller adds to the pods: a StatefulSet's volumeClaimTemplates, a JobSet's
// volumeClaimPolicies. nullopt: the mounts are not checked (the Trainer's MPI plugin mounts
// volumes of its own).
std::optional<NameSet> InjectedVolumes(const Json& doc, std::string_view group,
                                       std::string_view kind) {
  NameSet names;
  const Json* spec = Get(doc, "spec");
  auto add_metadata_names = [&names](const Json* list) {
    for (const Json& t : Items(list)) {
      if (const std::string* n = Str(Get(Get(t, "metadata"), "name"))) names.insert(*n);
    }
  };
  if (group == "apps" && kind == "StatefulSet")
    add_metadata_names(Get(spec, "volumeClaimTemplates"));
  const Json* jobset = nullptr;
  if (group == "jobset.x-k8s.io") jobset = spec;
  if (group == "trainer.kubeflow.org") {
    if (Get(Get(spec, "mlPolicy"), "mpi") != nullptr) return std::nullopt;
    jobset = Get(Get(spec, "template"), "spec");
  }
  for (const Json& policy : Items(Get(jobset, "volumeClaimPolicies"))) {
    add_metadata_names(Get(policy, "templates"));
  }
  return names;
}

}  // namespace

void CheckSemantics(const nlohmann::json& doc, bool cluster_scoped, const Report& report) {
  if (!doc.is_object()) return;
  Sink sink(report);
  std::string_view api_version = StrOr(&doc, "apiVersion");
  std::string_view kind = StrOr(&doc, "kind");
  std::string_view group = Group(api_version);
  // A v1 List (`kubectl get -o yaml`) is no object of its own: the validator checks each item.
  if (api_version == "v1" && kind == "List") return;
  bool argo = group == "argoproj.io";
  bool flat = api_version == "resource.k8s.io/v1beta1";
  checks::CheckObjectMeta(sink, doc, kind, cluster_scoped);
  for (const auto& [key, value] : doc.items()) {
    if (key != "metadata" && value.is_structured()) {
      checks::CheckNestedMetadata(sink, value, Path().Key(key), argo);
    }
  }
  std::vector<std::string_view> pod_path = PodSpecPaths(group, kind);
  if (!pod_path.empty()) {
    std::optional<NameSet> injected = InjectedVolumes(doc, group, kind);
    auto visit = [&](const Json& spec, const Path& at) {
      checks::CheckPodSpec(sink, spec, at, injected ? &*injected : nullptr);
    };
    Walk(doc, Path(), pod_path, 0, visit);
  }
  if (argo && (kind == "Workflow" || kind == "WorkflowTemplate" ||
               kind == "ClusterWorkflowTemplate" || kind == "CronWorkflow")) {
    checks::CheckArgo(sink, doc, kind);
  } else if (group == "jobset.x-k8s.io" && kind == "JobSet") {
    checks::CheckJobSet(sink, doc);
  } else if (group == "trainer.kubeflow.org" && kind == "TrainJob") {
    checks::CheckTrainJob(sink, doc);
  } else if (group == "resource.k8s.io" && kind == "ResourceClaimTemplate") {
    if (const Json* spec = Get(Get(doc, "spec"), "spec")) {
      checks::CheckResourceClaimSpec(sink, *spec, Path().Key("spec").Key("spec"), flat);
    }
  } else if (group == "resource.k8s.io" && kind == "ResourceClaim") {
    if (const Json* spec = Get(doc, "spec")) {
      checks::CheckResourceClaimSpec(sink, *spec, Path().Key("spec"), flat);
    }
  }
}

namespace {

// The templates of each WorkflowTemplate and ClusterWorkflowTemplate in a stream, by kind and
// name.
using TemplateIndex = std::map<std::pair<std::string, std::string>, NameSet, std::less<>>;

// argo-workflows validateTemplateHolder: a templateRef's template must be one of the target's
// ("template reference %s.%s not found").
void CheckTemplateRefs(const Sink& sink, const Json& node, const Path& at,
                       const TemplateIndex& index) {
  if (node.is_object()) {
    if (const Json* ref = Get(node, "templateRef"); ref != nullptr && ref->is_object()) {
      const std::string* name = Str(Get(ref, "name"));
      const std::string* tmpl = Str(Get(ref, "template"));
      const Json* cluster = Get(ref, "clusterScope");
      bool cluster_scope = cluster != nullptr && cluster->is_boolean() && cluster->get<bool>();
      auto target =
          name == nullptr
              ? index.end()
              : index.find(std::make_pair(
                    std::string(cluster_scope ? "ClusterWorkflowTemplate" : "WorkflowTemplate"),
                    *name));
      if (target != index.end() && tmpl != nullptr && !checks::IsTemplated(*tmpl) &&
          target->second.count(*tmpl) == 0) {
        sink.Add(at.Key("templateRef").Key("template"),
                 fmt::format("template reference {}.{} not found", *name, *tmpl),
                 diag::DidYouMean(*tmpl, std::vector<std::string_view>(target->second.begin(),
                                                                       target->second.end())));
      }
    }
    for (const auto& [key, value] : node.items()) {
      if (value.is_structured()) CheckTemplateRefs(sink, value, at.Key(key), index);
    }
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) {
      if (node[i].is_structured()) CheckTemplateRefs(sink, node[i], at.Index(i), index);
    }
  }
}

}  // namespace

void CheckStream(const std::vector<const nlohmann::json*>& docs,
                 const std::function<Report(size_t doc)>& report_for) {
  TemplateIndex templates;
  std::map<std::pair<std::string, std::string>, const Json*, std::less<>> runtimes;
  for (const Json* doc : docs) {
    if (doc == nullptr || !doc->is_object()) continue;
    std::string_view group = Group(StrOr(doc, "apiVersion"));
    std::string kind(StrOr(doc, "kind"));
    std::string name(StrOr(Get(doc, "metadata"), "name"));
    if (group == "argoproj.io" &&
        (kind == "WorkflowTemplate" || kind == "ClusterWorkflowTemplate")) {
      NameSet& names = templates[{kind, name}];
      for (const Json& t : Items(Get(Get(doc, "spec"), "templates"))) {
        if (const std::string* n = Str(Get(t, "name"))) names.insert(*n);
      }
    }
    if (group == "trainer.kubeflow.org" &&
        (kind == "TrainingRuntime" || kind == "ClusterTrainingRuntime")) {
      runtimes[{kind, name}] = doc;
    }
  }
  for (size_t i = 0; i < docs.size(); ++i) {
    const Json* doc = docs[i];
    if (doc == nullptr || !doc->is_object()) continue;
    std::string_view group = Group(StrOr(doc, "apiVersion"));
    std::string_view kind = StrOr(doc, "kind");
    if (group == "argoproj.io" && !templates.empty()) {
      Path at;
      if (const Json* wf = checks::ArgoWorkflowSpec(*doc, kind, &at)) {
        Report report = report_for(i);
        CheckTemplateRefs(Sink(report), *wf, at, templates);
      }
    }
    if (group == "trainer.kubeflow.org" && kind == "TrainJob") {
      // A TrainJob's JobSet takes its name and the runtime's replicated jobs; the runtime's
      // "node" job runs numNodes pods (the Trainer's torch and plain plugins set its
      // completions).
      const Json* ref = Get(Get(doc, "spec"), "runtimeRef");
      std::string_view ref_kind = StrOr(ref, "kind");
      auto runtime = runtimes.find(
          std::make_pair(std::string(ref_kind.empty() ? "ClusterTrainingRuntime" : ref_kind),
                         std::string(StrOr(ref, "name"))));
      if (runtime == runtimes.end()) continue;
      std::string_view name = StrOr(Get(doc, "metadata"), "name");
      const Json* nodes = Get(Get(Get(doc, "spec"), "trainer"), "numNodes");
      Report report = report_for(i);
      Sink sink(report);
      for (Json rjob : Items(
               Get(Get(Get(Get(runtime->second, "spec"), "template"), "spec"), "replicatedJobs"))) {
        if (nodes != nullptr && nodes->is_number_integer() && StrOr(&rjob, "name") == "node" &&
            rjob["template"].is_object() && rjob["template"]["spec"].is_object()) {
          rjob["template"]["spec"]["completions"] = *nodes;
        }
        checks::CheckGeneratedNames(sink, name, rjob, Path().Key("metadata").Key("name"),
                                    "TrainJob's name");
      }
    }
  }
}

}  // namespace flowc::validate
