// The Airflow plan's node numbers: every task and mapped group instance of a
// DAG has its own number below plan.nodes, which the writer indexes.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "backends/airflow/dag_plan.h"
#include "test_util.h"

namespace flowc::backends::airflow {
namespace {

using testing::Analyze;

size_t StepIndex(const ir::Flow& flow, const std::string& name) {
  for (size_t s = 0; s < flow.steps.size(); ++s) {
    if (flow.steps[s].name == name) return s;
  }
  FAIL("no step " << name);
  return 0;
}

// The plan of a flow Airflow can run.
Plan PlanOf(const testing::Compiled& compiled) {
  diag::Diagnostics diagnostics;
  diag::Reporter report(diagnostics, *compiled.file);
  Plan plan;
  REQUIRE(MakePlan(*compiled.flow, plan, report));
  return plan;
}

// Numbers every task and group instance of `flow`; checks that they are
// 0..plan.nodes-1, each once, and returns how many tasks there are.
size_t CheckNumbering(const ir::Flow& flow, const Plan& plan) {
  std::set<size_t> nodes;
  size_t count = 0;
  for (size_t s = 0; s < flow.steps.size(); ++s) {
    const std::vector<size_t> unrolled = Unrolled(plan, flow.steps[s].enclosing_foreach);
    for (const Binding& b : Bindings(flow, unrolled, {})) {
      nodes.insert(TaskNode(flow, plan, s, b));
      ++count;
    }
    if (flow.steps[s].foreach && plan.mode[s] == ForeachMode::kMappedGroup) {
      for (const Binding& b : Bindings(flow, unrolled, {})) {
        nodes.insert(GroupNode(flow, plan, s, b));
      }
    }
  }
  CHECK(nodes.size() == plan.nodes);
  CHECK(*nodes.rbegin() == plan.nodes - 1);
  return count;
}

TEST_CASE("airflow plan: the tasks of nested written-out foreaches have their own numbers") {
  // `start` and `outer` are written out (a foreach over a param is inside
  // them), so `mid`, `inner` and `inner2` have a task per pair of elements.
  auto compiled = Analyze(R"(
flow f {
  param regions: list = ["eu", "us"]
  step start { run "s" next outer foreach ["a", "b"] }
  step outer { run "o" next mid foreach ["x", "y", "z"] }
  step mid { run "m" next inner foreach regions }
  step inner { run "i {{item}}" next inner2 }
  step inner2 { run "i2" next mid_join }
  step mid_join { run "mj" next outer_join }
  step outer_join { run "oj" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(compiled->flow, compiled->errors());
  const ir::Flow& flow = *compiled->flow;
  const Plan plan = PlanOf(*compiled);
  // start 1, outer 2, mid 6, inner 6, inner2 6, mid_join 2, outer_join 1, end 1.
  CHECK(CheckNumbering(flow, plan) == 25);
  CHECK(plan.nodes == 25);

  // Each `mid` task leads to the `inner` task of its own pair of elements.
  size_t mid = StepIndex(flow, "mid"), inner = StepIndex(flow, "inner");
  size_t edges = 0;
  for (const Edge& edge : PlanEdges(flow, plan, std::nullopt, {})) {
    if (edge.source < plan.first_task[mid] || edge.source >= plan.first_task[mid] + 6) continue;
    REQUIRE(edge.targets.size() == 1);
    CHECK(edge.targets[0] - plan.first_task[inner] == edge.source - plan.first_task[mid]);
    ++edges;
  }
  CHECK(edges == 6);
}

TEST_CASE("airflow plan: a mapped group's instances follow its first step's tasks") {
  auto compiled = Analyze(R"(
flow f {
  param regions: list = ["eu", "us"]
  step start { run "s" next outer foreach ["a", "b"] }
  step outer { run "o" next mid foreach ["x", "y", "z"] }
  step mid { run "m {{item}}" next mid_join }
  step mid_join { run "mj" next outer_join }
  step outer_join { run "oj" next group foreach regions }
  step group { run "g" next body foreach ["p", "q"] }
  step body { run "b" next body_join }
  step body_join { run "bj" next group_join }
  step group_join { run "gj" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(compiled->flow, compiled->errors());
  const ir::Flow& flow = *compiled->flow;
  const Plan plan = PlanOf(*compiled);
  // Two mapped groups (the foreaches of `start` and `outer_join`); inside
  // them `mid` and `body` are written out: 3 and 2 tasks, and the other 8
  // steps have one each.
  size_t start = StepIndex(flow, "start"), outer_join = StepIndex(flow, "outer_join");
  CHECK(plan.mode[start] == ForeachMode::kMappedGroup);
  CHECK(plan.mode[outer_join] == ForeachMode::kMappedGroup);
  CHECK(CheckNumbering(flow, plan) == 13);
  CHECK(plan.nodes == 15);
  CHECK(GroupNode(flow, plan, start, {}) == plan.first_task[start] + 1);
}

}  // namespace
}  // namespace flowc::backends::airflow
