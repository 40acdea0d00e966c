#include "backends/k8s/jobset.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/k8s/yaml_record.h"

namespace flowc::backends::k8s {
namespace {

// Kubernetes object names that are also DNS labels (Jobs, pods, the
// JobSet's headless Service) are at most 63 characters (RFC 1035).
constexpr size_t kMaxNameLength = 63;
// Stand-in for the 5 random characters (and their dash) that the Job
// controller appends to a pod's name; the JobSet webhook uses "-abcde".
constexpr std::string_view kPodNameSuffix = "-abcde";

constexpr const char* kExclusiveTopology = "alpha.jobset.sigs.k8s.io/exclusive-topology";

int64_t PodCount(const ir::Step& step) { return step.parallel ? step.parallel->nodes : 1; }

size_t DecimalDigits(int64_t n) { return fmt::formatted_size("{}", n); }

std::string Characters(size_t n) { return fmt::format("{} character{}", n, n == 1 ? "" : "s"); }

std::string_view Times(size_t n) { return n == 1 ? "" : n == 2 ? "twice " : "thrice "; }

// What to shorten so that a pod name of `length` characters fits: the step's
// name alone, the flow's alone, or both. Each character of a name counts
// once per copy of it in the pod name (the step's twice where the JobSet is
// named after the step too), and the target's own characters cannot shrink;
// nor can the names 'start' and 'end', which the language fixes.
std::string ShortenHelp(const ir::Flow& flow, const ir::Step& step, const JobSetName& name,
                        size_t length) {
  const size_t flow_uses = name.flow_uses;
  const size_t step_uses = name.step_uses + 1;  // and the replicated Job's name
  const size_t flow_part = flow_uses * flow.k8s_name.size();
  const size_t step_part = step_uses * step.k8s_name.size();
  const size_t budget = kMaxNameLength - std::min(kMaxNameLength, length - flow_part - step_part);
  const bool step_renamable = step.name != "start" && step.name != "end";
  std::vector<std::string> options;
  if (step_renamable && flow_part + step_uses <= budget) {
    options.push_back(fmt::format("the step name '{}' to at most {}", step.name,
                                  Characters((budget - flow_part) / step_uses)));
  }
  if (flow_uses > 0 && step_part + flow_uses <= budget) {
    options.push_back(fmt::format("the flow name '{}' to at most {}", flow.name,
                                  Characters((budget - step_part) / flow_uses)));
  }
  if (!options.empty()) return fmt::format("shorten {}", fmt::join(options, ", or "));
  if (step_renamable && flow_uses + step_uses <= budget) {
    return fmt::format("shorten both names: the flow name plus {}the step name come to {}, and "
                       "at most {} fit",
                       Times(step_uses), Characters(flow_part + step_part), budget);
  }
  return fmt::format("the rest of the pod name takes {}: even one-character names would not fit",
                     Characters(length - flow_part - step_part));
}

// A replicated job's `template`: the Job's spec and its pod.
void EmitJobTemplate(YamlRecord& out, const ir::Step& step, const StringPolicy& strings) {
  const int64_t pods = PodCount(step);
  out << YAML::BeginMap;
  if (step.parallel && !step.parallel->exclusive_topology.empty()) {
    // One Job per node-label value: the JobSet controller copies this
    // annotation of the replicated job's template to the Job and its pods,
    // and its pod webhook makes the follower pods follow the leader's
    // topology domain (kubernetes-sigs/jobset
    // pkg/controllers/jobset_controller.go, labelAndAnnotateObject).
    Key(out, "metadata");
    out << YAML::Value << YAML::BeginMap;
    Key(out, "annotations");
    out << YAML::Value << YAML::BeginMap;
    Key(out, kExclusiveTopology);
    out << YAML::Value;
    EmitString(out, step.parallel->exclusive_topology);
    out << YAML::EndMap << YAML::EndMap;
  }
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "completionMode");
  ValueScalar(out, "Indexed");
  // completions is always written: without it the JobSet webhook skips its
  // pod-name length check.
  Key(out, "parallelism");
  out << YAML::Value << pods;
  Key(out, "completions");
  out << YAML::Value << pods;
  // A failed pod fails the Job at once; @retry restarts the JobSet instead
  // (failurePolicy), so a retry always means the whole gang again.
  Key(out, "backoffLimit");
  out << YAML::Value << 0;
  if (step.timeout_seconds) {
    Key(out, "activeDeadlineSeconds");
    out << YAML::Value << *step.timeout_seconds;
  }
  Key(out, "template");
  out << YAML::Value;
  EmitPodTemplate(out, step.pod, strings);
  out << YAML::EndMap;  // spec
  out << YAML::EndMap;
}

}  // namespace

void EmitReplicatedJob(YAML::Emitter& out, const ir::Step& step,
                       const std::vector<std::string>& depends_on, const StringPolicy& strings) {
  out << YAML::BeginMap;
  Key(out, "name");
  out << YAML::Value;
  EmitString(out, step.k8s_name);
  // One Job per step: the step's N nodes are the N indexes of that Job, so
  // FLOWC_NODE_INDEX is the completion index and node 0 has a stable name.
  Key(out, "replicas");
  out << YAML::Value << 1;
  if (!depends_on.empty()) {
    Key(out, "dependsOn");
    out << YAML::Value << YAML::BeginSeq;
    for (const std::string& name : depends_on) {
      out << YAML::BeginMap;
      Key(out, "name");
      out << YAML::Value;
      EmitString(out, name);
      Key(out, "status");
      ValueScalar(out, "Complete");
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  Key(out, "template");
  out << YAML::Value;
  // The same step shapes recur through a flow: yaml-cpp writes each distinct template once.
  YamlRecord job;
  EmitJobTemplate(job, step, strings);
  EmitRecordedMap(out, job);
  out << YAML::EndMap;
}

void EmitStepJobSet(YAML::Emitter& out, const ir::Flow& /*flow*/, const ir::Step& step,
                    std::string_view jobset_name, const StringPolicy& strings) {
  BeginObject(out, kJobSetApiVersion, "JobSet");
  Key(out, "metadata");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "name");
  out << YAML::Value;
  EmitString(out, jobset_name);
  if (!step.pod.namespace_.empty()) {
    Key(out, "namespace");
    out << YAML::Value;
    EmitString(out, strings.Literal(step.pod.namespace_));
  }
  // The gang's JobSet is what Kueue admits, whole (its jobset integration); its pods are not
  // queued again (kueue site/content/en/docs/tasks/run/jobsets.md).
  if (step.queue) EmitLabels(out, step.queue->labels, strings);
  out << YAML::EndMap;
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  EmitJobSetNetwork(out);
  Key(out, "replicatedJobs");
  out << YAML::Value << YAML::BeginSeq;
  EmitReplicatedJob(out, step, {}, strings);
  out << YAML::EndSeq;
  out << YAML::EndMap;  // spec
  out << YAML::EndMap;
}

void EmitJobSetNetwork(YAML::Emitter& out) {
  // DNS hostnames give node 0 the stable name FLOWC_MAIN_ADDR spells out,
  // `<jobset>-<step>-0-0.<subdomain>`. The subdomain is left to its default,
  // the JobSet's own name, which the IR's FLOWC_MAIN_ADDR relies on.
  Key(out, "network");
  out << YAML::Value << YAML::BeginMap;
  Key(out, "enableDNSHostnames");
  out << YAML::Value << true;
  out << YAML::EndMap;
}

size_t JobSetPodNameLength(size_t jobset_name_length, const ir::Step& step) {
  // `<jobset>-<rjob>-<job index>-<pod index>-<5 random>`; one Job per step,
  // so the job index is 0 and the longest pod index is N-1.
  return jobset_name_length + 1 + step.k8s_name.size() + 1 + DecimalDigits(0) + 1 +
         DecimalDigits(PodCount(step) - 1) + kPodNameSuffix.size();
}

bool CheckJobSetNames(const ir::Flow& flow, const ir::Step& step, const JobSetName& name,
                      diag::Reporter& report) {
  // The pod name extends the Job name (`<jobset>-<rjob>-0`), so checking the
  // pod name checks both.
  const size_t length = JobSetPodNameLength(name.length, step);
  if (length <= kMaxNameLength) return true;
  report(diag::Code::kNameTooLong, step.range,
         fmt::format("the pods of step '{}' would have {}-character names in a JobSet; "
                     "Kubernetes allows at most {}",
                     step.name, length, kMaxNameLength))
      .AddNote(fmt::format("a JobSet names each pod '<jobset>-<step>-0-<pod index>-<5 random "
                           "characters>', and this one is named '{}'",
                           name.form))
      .SetHelp(ShortenHelp(flow, step, name, length));
  return false;
}

}  // namespace flowc::backends::k8s
