// JobSet's admission checks, after kubernetes-sigs/jobset pkg/webhooks/jobset_webhook.go
// (ValidateCreate): the Job and Pod names the controller will generate must be DNS-1035 labels
// (placement.GenJobName "<jobset>-<replicatedJob>-<index>", and for an Indexed Job the pod name
// "<job>-<completion index>-" plus a five-character suffix), the network subdomain must be a
// DNS-1123 subdomain and, being a Service's name too, a DNS-1035 label; dependsOn names an
// earlier replicated job; successPolicy, failurePolicy and coordinator name existing ones.
// A TrainJob becomes a JobSet of its name (kubeflow/trainer
// pkg/runtime/framework/plugins/jobset), so the same limits apply to it with the runtime's
// replicated jobs; checks.cc applies them when the runtime is in the stream.
#include <fmt/format.h>

#include "compiler/diag/suggest.h"
#include "compiler/validate/checks/internal.h"

namespace flowc::validate::checks {
namespace {

std::vector<std::string_view> Names(const std::vector<std::string>& names) {
  return std::vector<std::string_view>(names.begin(), names.end());
}

// The replicated jobs so far, in order (for a did-you-mean) and as a set (to look up: a
// JobSet of 10,000 jobs each depending on the one before is a workload flowc writes).
struct Jobs {
  std::vector<std::string> order;
  NameSet set;
  bool Contains(std::string_view name) const { return set.count(name) > 0; }
  void Add(std::string name) {
    set.insert(name);
    order.push_back(std::move(name));
  }
};

void TargetExists(const Sink& sink, const Json& target, const Path& at, const Jobs& jobs) {
  const std::string* name = Str(&target);
  if (name == nullptr || jobs.Contains(*name)) return;
  sink.Add(at,
           fmt::format("Not found: {}: invalid replicatedJob name '{}' does not appear in "
                       ".spec.replicatedJobs",
                       Quote(*name), *name),
           diag::DidYouMean(*name, Names(jobs.order)));
}

}  // namespace

void CheckGeneratedNames(const Sink& sink, std::string_view jobset, const Json& replicated_job,
                         const Path& at, std::string_view what) {
  const std::string* name = Str(Get(replicated_job, "name"));
  if (name == nullptr || jobset.empty()) return;
  long long replicas = Int(Get(replicated_job, "replicas")).value_or(1);
  std::string job = fmt::format("{}-{}-{}", jobset, *name, std::max(replicas - 1, 0LL));
  std::string help = fmt::format("shorten the {} or the replicated job's name", what);
  for (const std::string& e : IsDns1035Label(job)) {
    sink.Add(at, fmt::format("Invalid value: {}: generated Job name {}", Quote(job), e), help);
  }
  const Json* job_spec = Get(Get(replicated_job, "template"), "spec");
  std::optional<long long> completions = Int(Get(job_spec, "completions"));
  // The JobSet defaulting webhook makes a Job without a completionMode Indexed.
  std::string_view mode = StrOr(job_spec, "completionMode");
  if (completions && (mode.empty() || mode == "Indexed")) {
    std::string pod = fmt::format("{}-{}-abcde", job, std::max(*completions - 1, 0LL));
    for (const std::string& e : IsDns1035Label(pod)) {
      sink.Add(at, fmt::format("Invalid value: {}: generated Pod name {}", Quote(pod), e), help);
    }
  }
}

void CheckJobSet(const Sink& sink, const Json& doc) {
  std::string_view name = StrOr(Get(doc, "metadata"), "name");
  const Json* spec = Get(doc, "spec");
  Path at = Path().Key("spec");
  const Json::array_t& rjobs = Items(Get(spec, "replicatedJobs"));
  Jobs seen;
  for (size_t i = 0; i < rjobs.size(); ++i) {
    Path here = at.Key("replicatedJobs").Index(i);
    const std::string* rname = Str(Get(rjobs[i], "name"));
    CheckGeneratedNames(sink, name, rjobs[i], here.Key("name"), "JobSet's name");
    if (const std::string* group = Str(Get(rjobs[i], "groupName"))) {
      ReportInvalid(sink, here.Key("groupName"), *group, IsDns1035Label(*group));
    }
    const Json::array_t& deps = Items(Get(rjobs[i], "dependsOn"));
    if (!deps.empty() && i == 0) {
      sink.Add(here.Key("dependsOn"),
               "Invalid value: dependsOn can't be set for the first ReplicatedJob",
               "the first replicated job starts first: move dependsOn to a later one");
    } else {
      for (size_t j = 0; j < deps.size(); ++j) {
        const std::string* dep = Str(Get(deps[j], "name"));
        if (dep == nullptr || seen.Contains(*dep)) continue;
        sink.Add(here.Key("dependsOn").Index(j).Key("name"),
                 fmt::format("Invalid value: {}: replicatedJob {} cannot depend on replicatedJob "
                             "{}: it must be an earlier replicatedJob",
                             Quote(*dep), Quote(rname != nullptr ? *rname : ""), Quote(*dep)),
                 diag::DidYouMean(*dep, Names(seen.order)));
      }
    }
    seen.Add(rname != nullptr ? *rname : "");
  }
  const Json::array_t& targets = Items(Get(Get(spec, "successPolicy"), "targetReplicatedJobs"));
  for (size_t j = 0; j < targets.size(); ++j) {
    TargetExists(sink, targets[j], at.Key("successPolicy").Key("targetReplicatedJobs").Index(j),
                 seen);
  }
  const Json::array_t& rules = Items(Get(Get(spec, "failurePolicy"), "rules"));
  for (size_t r = 0; r < rules.size(); ++r) {
    const Json::array_t& list = Items(Get(rules[r], "targetReplicatedJobs"));
    for (size_t j = 0; j < list.size(); ++j) {
      TargetExists(
          sink, list[j],
          at.Key("failurePolicy").Key("rules").Index(r).Key("targetReplicatedJobs").Index(j), seen);
    }
  }
  if (const Json* coordinator = Get(Get(spec, "coordinator"), "replicatedJob")) {
    TargetExists(sink, *coordinator, at.Key("coordinator").Key("replicatedJob"), seen);
  }
  if (const std::string* sub = Str(Get(Get(spec, "network"), "subdomain"));
      sub != nullptr && !sub->empty()) {
    std::vector<std::string> errors = IsDns1123Subdomain(*sub);
    for (std::string& e : IsDns1035Label(*sub)) errors.push_back(std::move(e));
    ReportInvalid(sink, at.Key("network").Key("subdomain"), *sub, errors);
  }
}

void CheckTrainJob(const Sink& sink, const Json& doc) {
  const Json* trainer = Get(Get(doc, "spec"), "trainer");
  if (const Json* resources = Get(trainer, "resourcesPerNode")) {
    CheckResources(sink, *resources, Path().Key("spec").Key("trainer").Key("resourcesPerNode"),
                   PodScope{});
  }
}

}  // namespace flowc::validate::checks
