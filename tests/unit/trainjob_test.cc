#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include "backends/argo/trainjob_template.h"
#include "backends/k8s/objects.h"
#include "backends/k8s/trainjob.h"
#include "test_util.h"

namespace flowc {
namespace {

using testing::Analyze;
using testing::Linear;

class PlainStrings final : public backends::k8s::StringPolicy {
 public:
  std::string Text(const ir::Text& text) const override { return text.ToFlowString(); }
};

YAML::Node TrainJobOf(const ir::Flow& flow, const ir::Step& step) {
  YAML::Emitter out;
  backends::k8s::EmitStepTrainJob(out, flow, step, "f-abcde-work", PlainStrings());
  return YAML::Load(out.c_str());
}

const ir::Object* RuntimeOf(const ir::Flow& flow) {
  for (const ir::Object& o : flow.objects) {
    if (std::holds_alternative<ir::TrainingRuntime>(o.spec)) return &o;
  }
  return nullptr;
}

TEST_CASE(
    "trainjob: without runtime=, a TrainingRuntime carries the pod and the TrainJob "
    "its command") {
  auto c = Analyze(Linear("@kubernetes(namespace=\"ml\")",
                          "@parallel(nodes=4)\n@trainjob(proc_per_node=8)\n@timeout(hours=2)",
                          "run [\"torchrun\", \"t.py\", \"{{run_id}}\"]"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  const ir::Step& step = c->step("work");
  CHECK(step.pod.container_name == "node");
  CHECK(step.pod.env[3].value == "$(FLOWC_JOBSET_NAME)-node-0-0.$(FLOWC_JOBSET_NAME)");
  const ir::Object* runtime = RuntimeOf(*c->flow);
  REQUIRE(runtime != nullptr);
  CHECK(runtime->namespace_ == "ml");
  CHECK(runtime->name.rfind("f-work-", 0) == 0);
  CHECK(runtime->name.size() == std::string("f-work-").size() + 10);
  const auto& content = std::get<ir::TrainingRuntime>(runtime->spec);
  CHECK(content.num_nodes == 4);
  CHECK(content.pod.command.empty());
  CHECK(content.pod.env.size() == step.pod.env.size());
  REQUIRE(step.trainjob);
  CHECK(step.trainjob->runtime_kind == "TrainingRuntime");
  CHECK(step.trainjob->runtime_name == runtime->name);

  YAML::Node trainjob = TrainJobOf(*c->flow, step);
  CHECK(trainjob["spec"]["runtimeRef"]["name"].as<std::string>() == runtime->name);
  CHECK(trainjob["spec"]["trainer"]["command"][2].as<std::string>() == "{{run_id}}");
  CHECK(trainjob["spec"]["trainer"]["numNodes"].as<int>() == 4);
  CHECK(trainjob["spec"]["trainer"]["numProcPerNode"].as<int>() == 8);
  CHECK(!trainjob["spec"]["trainer"]["image"]);
  CHECK(!trainjob["spec"]["runtimePatches"]);
  CHECK(trainjob["spec"]["activeDeadlineSeconds"].as<int>() == 7200);

  YAML::Node doc = YAML::Load(backends::k8s::ObjectYaml(*runtime));
  CHECK(doc["apiVersion"].as<std::string>() == "trainer.kubeflow.org/v1alpha1");
  YAML::Node job = doc["spec"]["template"]["spec"]["replicatedJobs"][0];
  CHECK(job["name"].as<std::string>() == "node");
  CHECK(job["template"]["metadata"]["labels"]["trainer.kubeflow.org/trainjob-ancestor-step"]
            .as<std::string>() == "trainer");
  CHECK(job["template"]["spec"]["template"]["spec"]["containers"][0]["name"].as<std::string>() ==
        "node");
  CHECK(!job["template"]["spec"]["template"]["spec"]["containers"][0]["command"]);
}

TEST_CASE("trainjob: the runtime's name follows its content, not the run") {
  auto a = Analyze(Linear("", "@parallel(nodes=2)\n@trainjob", "run \"a {{run_id}}\""));
  auto b = Analyze(Linear("", "@parallel(nodes=2)\n@trainjob", "run \"b\""));
  auto d = Analyze(Linear("", "@parallel(nodes=3)\n@trainjob", "run \"a\""));
  REQUIRE_MESSAGE(a->flow, a->errors());
  REQUIRE(b->flow);
  REQUIRE(d->flow);
  CHECK(RuntimeOf(*a->flow)->name == RuntimeOf(*b->flow)->name);  // the command is not in it
  CHECK(RuntimeOf(*a->flow)->name != RuntimeOf(*d->flow)->name);
}

TEST_CASE("trainjob: runtime= gives the pod through trainer and one runtime patch") {
  auto c = Analyze(Linear("@kubernetes(service_account=\"sa\", labels={\"team\": \"a\"})",
                          "@kubernetes(gpu=8, shared_memory=1024)\n@parallel(nodes=2)\n"
                          "@trainjob(runtime=\"torch-distributed\")"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(c->flow->objects.empty());
  YAML::Node spec = TrainJobOf(*c->flow, c->step("work"))["spec"];
  CHECK(spec["runtimeRef"]["kind"].as<std::string>() == "ClusterTrainingRuntime");
  CHECK(spec["trainer"]["image"].as<std::string>() == "python:3.12-slim");
  CHECK(spec["trainer"]["env"][0]["name"].as<std::string>() == "FLOWC_JOBSET_NAME");
  CHECK(spec["trainer"]["resourcesPerNode"]["limits"]["nvidia.com/gpu"].as<std::string>() == "8");
  YAML::Node patch = spec["runtimePatches"][0];
  CHECK(patch["manager"].as<std::string>() == "flowc");
  YAML::Node pod = patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"][0]["template"]
                        ["spec"]["template"];
  CHECK(pod["metadata"]["labels"]["team"].as<std::string>() == "a");
  CHECK(pod["spec"]["serviceAccountName"].as<std::string>() == "sa");
  CHECK(pod["spec"]["volumes"][0]["name"].as<std::string>() == "dshm");
  CHECK(pod["spec"]["containers"][0]["name"].as<std::string>() == "node");
  CHECK(pod["spec"]["containers"][0]["volumeMounts"][0]["mountPath"].as<std::string>() ==
        "/dev/shm");
}

TEST_CASE(
    "trainjob: Argo waits on the trainer's job, or the first condition of a referenced "
    "runtime's TrainJob, and fails on any Failed condition") {
  ir::TrainJob own{"TrainingRuntime", "r", 8};
  ir::TrainJob referenced{"ClusterTrainingRuntime", "torch-distributed", std::nullopt};
  CHECK(backends::argo::TrainJobSuccessCondition(own, false) ==
        "status.jobsStatus.0.succeeded == 1");
  CHECK(backends::argo::TrainJobSuccessCondition(own, true) ==
        "status.jobsStatus.0.succeeded == 1");
  CHECK(backends::argo::TrainJobSuccessCondition(referenced, false) ==
        "status.conditions.0.type == Complete");
  // Queued: created suspended, so Suspended stays first and Complete comes second.
  CHECK(backends::argo::TrainJobSuccessCondition(referenced, true) ==
        "status.conditions.1.type == Complete");
  std::string failure = backends::argo::TrainJobFailureCondition();
  CHECK(failure.rfind("status.conditions.0.type == Failed,", 0) == 0);
  CHECK(failure.find("status.conditions.7.type == Failed") != std::string::npos);
  CHECK(failure.find("status.conditions.8.") == std::string::npos);
}

TEST_CASE("trainjob: the pods of the Trainer's JobSet are named after the TrainJob") {
  ir::Step step;
  step.parallel = ir::Parallel{16};
  // `<trainjob>-node-0-15-abcde`
  CHECK(backends::k8s::TrainJobPodNameLength(10, step) == 10 + 5 + 2 + 3 + 6);
}

}  // namespace
}  // namespace flowc
