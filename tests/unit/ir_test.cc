#include <doctest/doctest.h>

#include "compiler/ir/graph_to_ir.h"
#include "compiler/ir/ir_json.h"
#include "test_util.h"

namespace flowc {
namespace {

using testing::Analyze;
using testing::Linear;

const ir::Toleration kNeuron{"aws.amazon.com/neuron", "Exists", "", "NoSchedule", std::nullopt};

TEST_CASE("ir: the Neuron toleration follows the user's, once") {
  auto c = Analyze(Linear(
      "", "@kubernetes(trainium=4, tolerations=[{\"key\": \"d\", \"operator\": \"Exists\"}])"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  const auto& tolerations = c->step("work").pod.tolerations;
  REQUIRE(tolerations.size() == 2);
  CHECK(tolerations[0].key == "d");
  CHECK(tolerations[1] == kNeuron);
  CHECK(c->step("start").pod.tolerations.empty());
}

TEST_CASE("ir: a user toleration that already covers Neuron is not duplicated") {
  auto c = Analyze(Linear("", "@kubernetes(inferentia=1, tolerations=[{\"key\": "
                              "\"aws.amazon.com/neuron\", \"operator\": \"Exists\"}])"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(c->step("work").pod.tolerations.size() == 1);
}

TEST_CASE("ir: Guaranteed QoS repeats requests as limits, before accelerators") {
  auto c = Analyze(Linear("", "@kubernetes(qos=\"Guaranteed\", cpu=2, gpu=1, gpu_vendor=\"amd\", efa=2)"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(c->step("work").pod.resources->limits ==
        ir::KeyValues{{"cpu", "2"}, {"memory", "4096M"}, {"ephemeral-storage", "10240M"},
                      {"amd.com/gpu", "1"}, {"vpc.amazonaws.com/efa", "2"}});
}

TEST_CASE("ir: shared memory, tmpfs and claims become volumes with mounts") {
  auto c = Analyze(Linear("", "@kubernetes(memory=\"8Gi\", shared_memory=512, use_tmpfs=true, "
                              "tmpfs_path=\"/scratch\", persistent_volume_claims={\"data\": \"/data\"})"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  const ir::Pod& pod = c->step("work").pod;
  REQUIRE(pod.volumes.size() == 3);
  CHECK(pod.volumes[0].name == "dshm");
  CHECK(pod.volumes[0].size_limit == "512Mi");
  CHECK(pod.volumes[1].size_limit == "4096Mi");  // half the memory by default
  CHECK(pod.volumes[2].claim_name == "data");
  CHECK(pod.volume_mounts[1].mount_path == "/scratch");
  REQUIRE(pod.env.size() == 1);
  CHECK(pod.env[0].name == "TMPDIR");
  CHECK(pod.env[0].value == "/scratch");
}

TEST_CASE("ir: @parallel pods learn the gang's size, their index and node 0's address") {
  auto c = Analyze(Linear("", "@parallel(nodes=3) @environment(vars={\"A\": \"1\"})"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  const ir::Step& work = c->step("work");
  CHECK(work.parallel->nodes == 3);
  std::vector<std::string> names;
  for (const ir::EnvVar& e : work.pod.env) names.push_back(e.name);
  // flowc's own first: kubelet expands $(VAR) only for a VAR defined before.
  CHECK(names == std::vector<std::string>{"FLOWC_JOBSET_NAME", "FLOWC_NUM_NODES",
                                          "FLOWC_NODE_INDEX", "FLOWC_MAIN_ADDR", "A"});
  CHECK(work.pod.env[3].value == "$(FLOWC_JOBSET_NAME)-work-0-0.$(FLOWC_JOBSET_NAME)");
  CHECK(work.pod.env[2].field_path ==
        "metadata.annotations['batch.kubernetes.io/job-completion-index']");
}

TEST_CASE("ir: gang references become kubelet's $(FLOWC_...) in the run and the env") {
  auto c = Analyze(Linear("",
                          "@parallel(nodes=2) @environment(vars={\"ID\": \"{{main_addr}}:62182\", "
                          "\"P\": \"$$(x) a${{ node_index }}\", \"L\": \"{{run_id}} {{x\"})",
                          "run [\"torchrun\", \"--nnodes={{num_nodes}}\", \"$${{node_index}}\"]"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  const ir::Pod& pod = c->step("work").pod;
  REQUIRE(pod.command.size() == 3);
  // One literal each: no backend ever sees a gang reference.
  for (const ir::Text& arg : pod.command) REQUIRE(arg.segments.size() == 1);
  CHECK(pod.command[1].segments[0].text == "--nnodes=$(FLOWC_NUM_NODES)");
  // `$$` is two dollars, the one before the reference escaped too: `$$$$` + `$(`.
  CHECK(pod.command[2].segments[0].text == "$$$$$(FLOWC_NODE_INDEX)");
  REQUIRE(pod.env.size() == 7);
  CHECK(pod.env[4].name == "ID");
  CHECK(pod.env[4].value == "$(FLOWC_MAIN_ADDR):62182");
  CHECK(pod.env[5].value == "$$$$(x) a$$$(FLOWC_NODE_INDEX)");
  // Only gang references are references in an env value.
  CHECK(pod.env[6].value == "{{run_id}} {{x");
}

TEST_CASE("ir: run strings run in a shell; $ is escaped for kubelet only where it must be") {
  CHECK(ir::EscapeDollars("echo $HOME $(date) $$ $") == "echo $HOME $$(date) $$$ $");
  // Kubelet reads the byte after a lone `$` as a character of its own.
  CHECK(ir::EscapeDollars("$\xc3\xbc $\xe2\x82\xac") == "$$\xc3\xbc $$\xe2\x82\xac");
  auto c = Analyze(Linear("", "", "run \"echo $(hostname) {{run_id}}\""));
  REQUIRE_MESSAGE(c->flow, c->errors());
  const auto& command = c->step("work").pod.command;
  REQUIRE(command.size() == 3);
  CHECK(command[0].ToFlowString() == "/bin/sh");
  CHECK(command[2].ToFlowString() == "echo $$(hostname) {{run_id}}");
}

TEST_CASE("ir: a $ just before a reference is escaped, whatever value comes") {
  auto c = Analyze("flow f {\n param p: str = \"(HOME)\"\n step start { run \"echo ${{p}} $$\" next end }\n"
                   " step end { run \"e\" }\n}\n");
  REQUIRE_MESSAGE(c->flow, c->errors());
  // "$" then the value: kubelet must not see "$(" once the value is in.
  CHECK(c->step("start").pod.command[2].ToFlowString() == "echo $${{p}} $$$");
}

TEST_CASE("ir: steps come in topological order, start first and end last") {
  auto c = Analyze(
      "flow f {\n step end { run \"e\" }\n step b { run \"b\" next end }\n"
      " step start { run \"s\" next a, b }\n step a { run \"a\" next end }\n}\n");
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(c->flow->steps.front().name == "start");
  CHECK(c->flow->steps.back().name == "end");
}

TEST_CASE("ir: the JSON pod has the Kubernetes shape") {
  auto c = Analyze(Linear("", "@kubernetes(port=8080, security_context={\"run_as_user\": 1000})"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  auto pod = ir::PodToJson(c->step("work").pod);
  CHECK(pod["spec"]["containers"][0]["ports"][0]["containerPort"] == 8080);
  CHECK(pod["spec"]["containers"][0]["securityContext"]["runAsUser"] == 1000);
  CHECK(pod["spec"]["containers"][0]["name"] == "main");
}

}  // namespace
}  // namespace flowc
