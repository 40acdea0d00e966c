// Unit tests of what an Airflow DAG creates besides its pods (backends/airflow/
// k8s_delivery.h): which setup task creates which object and which tasks it
// runs before, the FLOWC_OBJECTS keys, and the gang's kind and end rules.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "backends/airflow/k8s_delivery.h"
#include "test_util.h"

namespace flowc::backends::airflow {
namespace {

using testing::Analyze;

// Step names of `indexes`, for readable comparisons.
std::vector<std::string> Names(const ir::Flow& flow, const std::vector<size_t>& indexes) {
  std::vector<std::string> out;
  for (size_t i : indexes) out.push_back(flow.steps[i].name);
  return out;
}

TEST_CASE("airflow: each object is created by one setup task, before every step needing it") {
  auto c = Analyze(R"(@kubernetes(namespace="ml")
flow f {
  step start { run "s" next a, b }
  @neuron(devices=4) step a { run "a" next c }
  @neuron(devices=4) step b { run "b" next c }
  @neuron(devices=8) step c { run "c" next d }
  @neuron(devices=4) step d { run "d" next e }
  @neuron(template="admin") step e { run "e" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(c->flow, c->errors());
  const ir::Flow& flow = *c->flow;
  REQUIRE(flow.objects.size() == 2);
  std::vector<ObjectSetup> setups = PlanObjectSetups(flow);
  REQUIRE(setups.size() == 2);
  // The 4-device template: first needed by a, also by b and d; the admin's is not flowc's.
  CHECK(flow.steps[setups[0].step].name == "a");
  CHECK(setups[0].objects == std::vector<size_t>{0});
  CHECK(Names(flow, setups[0].users) == std::vector<std::string>{"a", "b", "d"});
  CHECK(flow.steps[setups[1].step].name == "c");
  CHECK(Names(flow, setups[1].users) == std::vector<std::string>{"c"});
  CHECK(ObjectKey(flow.objects[0]) ==
        "ResourceClaimTemplate/ml/" + flow.objects[0].name);
}

TEST_CASE("airflow: a flow without objects has no setup task") {
  auto c = Analyze(testing::Linear("", ""));
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(PlanObjectSetups(*c->flow).empty());
}

TEST_CASE("airflow: a gang and its end rules") {
  auto c = Analyze(testing::Linear("", "@parallel(nodes=2)"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  Gang gang = StepGang(*c->flow, c->step("work"));
  CHECK(gang.kind == "JobSet");
  CHECK(gang.yaml.rfind("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\n", 0) == 0);
  CHECK(GangBaseName(*c->flow, c->step("work")) == "f-work");
  StringSink sink;
  size_t work = 0;
  while (c->flow->steps[work].name != "work") ++work;
  WriteGangsBlock(*c->flow, {work}, sink);
  std::string block = sink.Take();
  CHECK(block.find("FLOWC_GANG_ENDS = {\n    \"JobSet\": {\n        \"failed\": [{\"field\": "
                   "\"terminalState\", \"value\": \"Failed\"}],\n        \"succeeded\": "
                   "[{\"field\": \"terminalState\", \"value\": \"Completed\"}],\n    },\n}\n") !=
        std::string::npos);
  CHECK(block.find("FLOWC_GANG_SENSOR = {\"mode\": \"reschedule\", \"poke_interval\": 60, "
                   "\"timeout\": 31536000}\n") != std::string::npos);
}

}  // namespace
}  // namespace flowc::backends::airflow
