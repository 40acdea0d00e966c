// Unit tests of `@queue` (compiler/graph/queue.h) and warning W005 (compiler/graph/capacity.h):
// how a flow's and a step's @queue merge, where each target writes the queue labels (on the
// object Kueue admits, never on the pods a JobSet or TrainJob owns), and each W005 case as
// its whole rendered diagnostic.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <string>

#include "backends/airflow/airflow_backend.h"
#include "backends/argo/argo_backend.h"
#include "backends/backend.h"
#include "backends/jobset/jobset_backend.h"
#include "test_util.h"

namespace flowc {
namespace {

using testing::Analyze;
using testing::Linear;

constexpr const char* kQueueLabel = "kueue.x-k8s.io/queue-name";
constexpr const char* kPriorityLabel = "kueue.x-k8s.io/priority-class";

// A flow's output for one target; "" with the diagnostics in `errors` when it is refused.
std::string Emit(const backends::Backend& backend, const std::string& source,
                 std::string* errors = nullptr) {
  auto c = Analyze(source);
  REQUIRE_MESSAGE(c->flow, c->errors());
  diag::Reporter report(c->diagnostics, *c->file);
  backends::StringSink sink;
  bool ok = backend.Emit(*c->flow, backends::EmitOptions{}, sink, report);
  if (errors != nullptr) *errors = c->errors();
  return ok ? sink.text() : "";
}

size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

YAML::Node ArgoTemplate(const std::string& yaml, const std::string& name) {
  for (const YAML::Node& doc : YAML::LoadAll(yaml)) {
    if (doc["kind"].as<std::string>() != "WorkflowTemplate") continue;
    for (const YAML::Node& t : doc["spec"]["templates"]) {
      if (t["name"].as<std::string>() == name) return t;
    }
  }
  FAIL("no template " << name);
  return {};
}

const char* kFlowAndStep =
    "@queue(name=\"ml-cpu\", priority=\"batch-low\")\n"
    "flow f {\n"
    "  step start { run \"s\" next work }\n"
    "  @queue(priority=\"train-high\")\n"
    "  @parallel(nodes=2)\n"
    "  step work { run \"w\" next end }\n"
    "  @queue(name=\"ml-other\")\n"
    "  step end { run \"e\" }\n"
    "}\n";

TEST_CASE("queue: a step's @queue overrides the flow's argument by argument") {
  auto c = Analyze(kFlowAndStep);
  REQUIRE_MESSAGE(c->flow, c->errors());
  REQUIRE(c->flow->queue);
  CHECK(c->flow->queue->name == "ml-cpu");
  const ir::Queue& start = *c->step("start").queue;
  CHECK(start.name == "ml-cpu");
  CHECK(start.priority == "batch-low");
  const ir::Queue& work = *c->step("work").queue;
  CHECK(work.name == "ml-cpu");
  CHECK(work.priority == "train-high");
  CHECK(work.labels == ir::KeyValues{{kQueueLabel, "ml-cpu"}, {kPriorityLabel, "train-high"}});
  const ir::Queue& end = *c->step("end").queue;
  CHECK(end.labels == ir::KeyValues{{kQueueLabel, "ml-other"}, {kPriorityLabel, "batch-low"}});
  // The pod's own labels stay the step's: the queue labels are not a pod field.
  CHECK(c->step("start").pod.labels.empty());
  // A flow's priority alone, for steps that name their queues, labels nothing itself.
  auto priority = Analyze(Linear("@queue(priority=\"p\")\n@kubernetes(cpu=1)", "",
                                 "run \"w\""));
  CHECK(!priority->flow);  // `start` and `end` name no queue
  auto named = Analyze(
      "@queue(priority=\"p\")\nflow f {\n  @queue(name=\"a\")\n  step start { run \"s\" next "
      "end }\n  @queue(name=\"b\")\n  step end { run \"e\" }\n}\n");
  REQUIRE_MESSAGE(named->flow, named->errors());
  CHECK(named->flow->queue->priority == "p");
  CHECK(named->flow->queue->labels.empty());
  CHECK(named->step("end").queue->labels ==
        ir::KeyValues{{kQueueLabel, "b"}, {kPriorityLabel, "p"}});
  auto none = Analyze(Linear("", ""));
  REQUIRE(none->flow);
  CHECK(!none->flow->queue);
  CHECK(!none->step("work").queue);
}

TEST_CASE("queue: argo labels a plain step's pod and a gang's JobSet, not the gang's pods") {
  std::string yaml = Emit(backends::argo::ArgoBackend(), kFlowAndStep);
  REQUIRE(!yaml.empty());
  YAML::Node start = ArgoTemplate(yaml, "start");
  CHECK(start["metadata"]["labels"][kQueueLabel].as<std::string>() == "ml-cpu");
  CHECK(start["metadata"]["labels"][kPriorityLabel].as<std::string>() == "batch-low");
  YAML::Node work = ArgoTemplate(yaml, "work");
  CHECK(!work["metadata"]);
  YAML::Node jobset = YAML::Load(work["resource"]["manifest"].as<std::string>());
  CHECK(jobset["metadata"]["labels"][kQueueLabel].as<std::string>() == "ml-cpu");
  CHECK(jobset["metadata"]["labels"][kPriorityLabel].as<std::string>() == "train-high");
  YAML::Node pod = jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["template"];
  CHECK(!pod["metadata"]);
  CHECK(Count(work["resource"]["manifest"].as<std::string>(), "kueue.x-k8s.io") == 2);
}

TEST_CASE("queue: argo waits for a queued TrainJob's Complete after its Suspended") {
  const std::string flow =
      "flow f {\n  step start { run \"s\" next work }\n"
      "  @queue(name=\"ml\")\n  @parallel(nodes=2)\n  @trainjob(runtime=\"torch-distributed\")\n"
      "  step work { run \"w\" next end }\n  step end { run \"e\" }\n}\n";
  std::string yaml = Emit(backends::argo::ArgoBackend(), flow);
  REQUIRE(!yaml.empty());
  YAML::Node work = ArgoTemplate(yaml, "work");
  CHECK(work["resource"]["successCondition"].as<std::string>() ==
        "status.conditions.1.type == Complete");
  YAML::Node trainjob = YAML::Load(work["resource"]["manifest"].as<std::string>());
  CHECK(trainjob["metadata"]["labels"][kQueueLabel].as<std::string>() == "ml");
  CHECK(trainjob["spec"]["suspend"].as<bool>());
  CHECK(Count(work["resource"]["manifest"].as<std::string>(), "kueue.x-k8s.io") == 1);
  // Unqueued: not suspended, Complete first.
  std::string plain =
      Emit(backends::argo::ArgoBackend(),
           "flow f {\n  step start { run \"s\" next work }\n  @parallel(nodes=2)\n"
           "  @trainjob(runtime=\"torch-distributed\")\n  step work { run \"w\" next end }\n"
           "  step end { run \"e\" }\n}\n");
  YAML::Node unqueued = ArgoTemplate(plain, "work");
  CHECK(unqueued["resource"]["successCondition"].as<std::string>() ==
        "status.conditions.0.type == Complete");
  CHECK(!YAML::Load(unqueued["resource"]["manifest"].as<std::string>())["spec"]["suspend"]);
}

TEST_CASE("queue: airflow labels a plain step's pod, lets it wait, labels a gang's JobSet") {
  std::string dag = Emit(backends::airflow::AirflowBackend(), kFlowAndStep);
  REQUIRE(!dag.empty());
  CHECK(Count(dag, "\"kueue.x-k8s.io/queue-name\": \"ml-cpu\"") == 1);    // the pod of `start`
  CHECK(Count(dag, "\"kueue.x-k8s.io/queue-name\": \"ml-other\"") == 1);  // and of `end`
  // A year without @timeout, where the operator's 120 s would fail a queued pod.
  CHECK(Count(dag, "startup_timeout_seconds=31536000") == 2);
  // The gang's JobSet, in FLOWC_GANGS: its metadata only.
  CHECK(Count(dag, "kueue.x-k8s.io/queue-name: ml-cpu") == 1);
  CHECK(Count(dag, "kueue.x-k8s.io/priority-class: train-high") == 1);
  std::string timed = Emit(backends::airflow::AirflowBackend(),
                           Linear("@queue(name=\"q\")", "@timeout(minutes=5)"));
  CHECK(Count(timed, "startup_timeout_seconds=300") == 1);
  CHECK(Count(Emit(backends::airflow::AirflowBackend(), Linear("", "")), "startup_timeout") == 0);
}

TEST_CASE("queue: the jobset target labels its one JobSet with the flow's queue") {
  std::string yaml =
      Emit(backends::jobset::JobSetBackend(),
           Linear("@queue(name=\"ml-cpu\", priority=\"batch-low\")", "@queue(name=\"ml-cpu\")"));
  REQUIRE(!yaml.empty());
  YAML::Node jobset = YAML::Load(yaml);
  CHECK(jobset["metadata"]["labels"][kQueueLabel].as<std::string>() == "ml-cpu");
  CHECK(jobset["metadata"]["labels"][kPriorityLabel].as<std::string>() == "batch-low");
  CHECK(Count(yaml, "kueue.x-k8s.io") == 2);
}

TEST_CASE("queue: the jobset target refuses a step queued apart from the flow") {
  std::string errors;
  CHECK(Emit(backends::jobset::JobSetBackend(),
             Linear("@queue(name=\"ml-cpu\")", "@queue(priority=\"high\")"), &errors)
            .empty());
  CHECK(errors ==
        "t.flow:4:1: error: step 'work' has queue 'ml-cpu' with priority 'high' but the flow "
        "has queue 'ml-cpu'; target 'jobset' runs the whole flow as one Kueue workload [E050]\n"
        "@queue(priority=\"high\")\n"
        "^~~~~~~~~~~~~~~~~~~~~~~\n"
        "note: Kueue admits the flow's one JobSet at once, for the sum of its steps' requests, "
        "in the queue on its own labels\n"
        "t.flow:1:1: note: the flow's '@queue' is written here\n"
        "@queue(name=\"ml-cpu\")\n"
        "^~~~~~~~~~~~~~~~~~~~~\n"
        "help: write '@queue' on the flow alone, or compile with --target argo or --target "
        "airflow, where each step waits in its own queue\n");
}

// --- W005 -----------------------------------------------------------------------------------

std::string Warnings(const std::string& flow_decorators, const std::string& step_decorators) {
  auto c = Analyze(Linear(flow_decorators, step_decorators));
  REQUIRE_MESSAGE(c->flow, c->errors());
  return c->errors();
}

TEST_CASE("W005: more Neuron devices than the named instance type has") {
  CHECK(Warnings("",
                 "@kubernetes(trainium=8, node_selector={\"node.kubernetes.io/"
                 "instance-type\": \"trn1.2xlarge\"})") ==
        "t.flow:4:22: warning: the step asks for 8 Neuron devices, but one trn1.2xlarge node "
        "has 1 Neuron device [W005]\n"
        "@kubernetes(trainium=8, node_selector={\"node.kubernetes.io/instance-type\": "
        "\"trn1.2xlarge\"})\n"
        "                     ^\n"
        "t.flow:4:76: note: the instance type 'trn1.2xlarge' is named here\n"
        "@kubernetes(trainium=8, node_selector={\"node.kubernetes.io/instance-type\": "
        "\"trn1.2xlarge\"})\n"
        "                                                                           "
        "^~~~~~~~~~~~~~\n"
        "help: ask for fewer, or spread the work over a gang with @parallel(nodes=N); these "
        "figures are the instance's capacity, and a node's allocatable is less (kubelet and "
        "system reservations)\n");
}

TEST_CASE("W005: more memory than the named instance type has, and a request that fits") {
  std::string out = Warnings("",
                             "@neuron(devices=16, instance_type=\"trn2.48xlarge\")\n"
                             "@kubernetes(memory=\"3Ti\", cpu=192, efa=16)");
  CHECK(out ==
        "t.flow:5:20: warning: the step asks for 3Ti of memory, but one trn2.48xlarge node has "
        "2048 GiB of memory [W005]\n"
        "@kubernetes(memory=\"3Ti\", cpu=192, efa=16)\n"
        "                   ^~~~~\n"
        "t.flow:4:35: note: the instance type 'trn2.48xlarge' is named here\n"
        "@neuron(devices=16, instance_type=\"trn2.48xlarge\")\n"
        "                                  ^~~~~~~~~~~~~~~\n"
        "help: ask for less; these figures are the instance's capacity, and a node's "
        "allocatable is less (kubelet and system reservations)\n");
  // Exactly one node's figures: no warning.
  CHECK(Warnings("",
                 "@neuron(devices=16, instance_type=\"trn2.48xlarge\")\n"
                 "@kubernetes(memory=\"2Ti\", cpu=192, efa=16)") == "");
  CHECK(Warnings("",
                 "@kubernetes(inferentia=12, cpu=192, memory=\"768Gi\", node_selector="
                 "\"node.kubernetes.io/instance-type=inf2.48xlarge\")") == "");
}

TEST_CASE("W005: the wrong Neuron family, EFA and CPUs, unknown types") {
  CHECK(Warnings("",
                 "@kubernetes(trainium=1, node_selector={\"node.kubernetes.io/"
                 "instance-type\": \"inf2.xlarge\"})") ==
        "t.flow:4:22: warning: the step asks for Trainium devices, but inf2.xlarge has "
        "Inferentia devices [W005]\n"
        "@kubernetes(trainium=1, node_selector={\"node.kubernetes.io/instance-type\": "
        "\"inf2.xlarge\"})\n"
        "                     ^\n"
        "t.flow:4:76: note: the instance type 'inf2.xlarge' is named here\n"
        "@kubernetes(trainium=1, node_selector={\"node.kubernetes.io/instance-type\": "
        "\"inf2.xlarge\"})\n"
        "                                                                           "
        "^~~~~~~~~~~~~\n"
        "help: write 'inferentia' to run on inf2.xlarge, or name a Trainium instance type\n");
  std::string efa = Warnings("",
                             "@kubernetes(trainium=16, efa=16, cpu=129, node_selector="
                             "\"node.kubernetes.io/instance-type=trn1.32xlarge\")");
  CHECK(Count(efa, "[W005]") == 2);
  CHECK(Count(efa,
              "the step asks for 16 EFA interfaces, but one trn1.32xlarge node has 8 EFA "
              "interfaces [W005]") == 1);
  CHECK(Count(efa,
              "the step asks for 129 CPUs, but one trn1.32xlarge node has 128 vCPUs "
              "[W005]") == 1);
  // trn1.2xlarge has no EFA (the Neuron multi-node setup page), trn1n.32xlarge 16; inf2's
  // figure is not checked.
  CHECK(Count(Warnings("",
                       "@kubernetes(trainium=1, efa=1, node_selector=\"node.kubernetes.io/"
                       "instance-type=trn1.2xlarge\")"),
              "the step asks for 1 EFA interface, but one trn1.2xlarge node has 0 EFA "
              "interfaces [W005]") == 1);
  CHECK(Warnings("",
                 "@kubernetes(trainium=16, efa=16, node_selector=\"node.kubernetes.io/"
                 "instance-type=trn1n.32xlarge\")") == "");
  CHECK(Warnings("",
                 "@kubernetes(inferentia=12, efa=32, node_selector=\"node.kubernetes.io/"
                 "instance-type=inf2.48xlarge\")") == "");
  // An instance type flowc has no figures for; memory alone, without Neuron devices.
  CHECK(Warnings("",
                 "@kubernetes(trainium=64, memory=\"9Ti\", node_selector={\"node."
                 "kubernetes.io/instance-type\": \"trn3.96xlarge\"})") == "");
  std::string memory = Warnings("",
                                "@kubernetes(memory=\"64Gi\", node_selector={\"node."
                                "kubernetes.io/instance-type\": \"inf2.xlarge\"})");
  CHECK(Count(memory,
              "the step asks for 64Gi of memory, but one inf2.xlarge node has 16 GiB "
              "of memory [W005]") == 1);
  CHECK(Count(memory, "[W005]") == 1);
}

TEST_CASE("W005: what the flow alone asks is warned once, at the flow") {
  auto c = Analyze(
      "@kubernetes(trainium=32, node_selector={\"node.kubernetes.io/instance-type\": "
      "\"trn1.32xlarge\"})\n"
      "flow f {\n  step start { run \"s\" next end }\n  step end { run \"e\" }\n}\n");
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(Count(c->errors(), "[W005]") == 1);
  CHECK(Count(c->errors(), "t.flow:1:22: warning: the step asks for 32 Neuron devices") == 1);
  // A step's own request under the flow's type: at the step.
  auto d =
      Analyze(Linear("@kubernetes(node_selector={\"node.kubernetes.io/instance-type\": "
                     "\"inf2.8xlarge\"})",
                     "@kubernetes(inferentia=2)"));
  REQUIRE(d->flow);
  CHECK(Count(d->errors(),
              "t.flow:4:24: warning: the step asks for 2 Neuron devices, but one "
              "inf2.8xlarge node has 1 Neuron device [W005]") == 1);
  CHECK(Count(d->errors(), "[W005]") == 1);
}

}  // namespace
}  // namespace flowc
