#include <doctest/doctest.h>

#include "compiler/graph/decorator_table.h"
#include "compiler/graph/names.h"
#include "compiler/graph/quantity.h"
#include "compiler/graph/templating.h"
#include "compiler/rules/timezone.h"
#include "test_util.h"

namespace flowc {
namespace {

using testing::Analyze;
using testing::Linear;

std::vector<std::string> StepNames(const ir::Flow& flow) {
  std::vector<std::string> names;
  for (const ir::Step& s : flow.steps) names.push_back(s.name);
  return names;
}

TEST_CASE("graph: a branch is closed by the first step all arms reach") {
  auto c = Analyze(
      "flow f {\n step start { run \"s\" next a, b }\n step a { run \"a\" next a2 }\n"
      " step a2 { run \"a\" next j }\n step b { run \"b\" next j }\n"
      " step j { run \"j\" next end }\n step end { run \"e\" }\n}\n");
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(StepNames(*c->flow) == std::vector<std::string>{"start", "a", "a2", "b", "j", "end"});
  CHECK(c->flow->steps[*c->step("start").join].name == "j");
  CHECK(c->step("j").predecessors.size() == 2);
}

TEST_CASE("graph: nested foreach bodies, joins and {{item}} scope") {
  auto c = Analyze(
      "flow f {\n param xs: list = [\"a\", \"b\"]\n"
      " step start { run \"s\" next outer foreach xs }\n"
      " step outer { run \"o {{item}}\" next inner foreach [1, 2.5, true] }\n"
      " step inner { run \"i {{item}}\" next inner_join }\n"
      " step inner_join { run \"ij {{item}}\" next outer_join }\n"
      " step outer_join { run \"oj\" next end }\n step end { run \"e\" }\n}\n");
  REQUIRE_MESSAGE(c->flow, c->errors());
  const ir::Step& start = c->step("start");
  REQUIRE(start.foreach);
  CHECK(start.foreach->param == "xs");
  CHECK(c->flow->steps[start.foreach->join].name == "outer_join");
  const ir::Step& outer = c->step("outer");
  CHECK(outer.foreach->items == std::vector<std::string>{"1", "2.5", "true"});
  CHECK(c->flow->steps[outer.foreach->join].name == "inner_join");
  CHECK(c->step("inner").enclosing_foreach.size() == 2);
  CHECK(c->step("inner_join").enclosing_foreach.size() == 1);
  CHECK(c->step("outer_join").enclosing_foreach.empty());
}

TEST_CASE("graph: a join may close one split only") {
  auto c = Analyze(
      "flow f {\n step start { run \"s\" next a, b }\n step a { run \"a\" next c, d }\n"
      " step b { run \"b\" next j }\n step c { run \"c\" next j }\n step d { run \"d\" next j }\n"
      " step j { run \"j\" next end }\n step end { run \"e\" }\n}\n");
  CHECK_FALSE(c->flow);
  CHECK(c->errors().find("error: step 'j' closes two splits, at 'a' and at 'start' [E021]") !=
        std::string::npos);
}

TEST_CASE("graph: paths that cross between splits are refused") {
  auto c = Analyze(
      "flow f {\n step start { run \"s\" next a, b }\n step a { run \"a\" next c, d }\n"
      " step b { run \"b\" next d }\n step c { run \"c\" next e }\n step d { run \"d\" next e }\n"
      " step e { run \"j\" next end }\n step end { run \"e\" }\n}\n");
  CHECK_FALSE(c->flow);
  CHECK(c->errors().find("[E021]") != std::string::npos);
}

TEST_CASE("graph: flow decorators are defaults, overridden argument by argument") {
  auto c = Analyze(Linear("@kubernetes(cpu=4, memory=8192, image=\"img:1\", namespace=\"ml\")",
                          "@kubernetes(cpu=0.25)"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  const ir::Pod& work = c->step("work").pod;
  CHECK(work.resources->requests ==
        ir::KeyValues{{"cpu", "250m"}, {"memory", "8192M"}, {"ephemeral-storage", "10240M"}});
  CHECK(work.image == "img:1");
  CHECK(work.namespace_ == "ml");
  CHECK(c->step("start").pod.resources->requests[0].second == "4");
}

TEST_CASE("graph: @resources combines with @kubernetes by the larger value") {
  auto c = Analyze(Linear("@resources(memory=32768, cpu=2)",
                          "@kubernetes(memory=\"64Gi\", cpu=1, gpu=1) @resources(gpu=4)"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  const ir::Pod& work = c->step("work").pod;
  CHECK(work.resources->requests ==
        ir::KeyValues{{"cpu", "2"}, {"memory", "64Gi"}, {"ephemeral-storage", "10240M"}});
  CHECK(work.resources->limits == ir::KeyValues{{"nvidia.com/gpu", "4"}});
  CHECK(c->step("end").pod.resources->requests[1].second == "32768M");
}

TEST_CASE("graph: inferentia is an alias of trainium; gpu excludes both") {
  auto c = Analyze(Linear("", "@kubernetes(inferentia=2)"));
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(c->step("work").pod.resources->limits == ir::KeyValues{{"aws.amazon.com/neuron", "2"}});

  auto both = Analyze(Linear("@kubernetes(gpu=1)", "@kubernetes(trainium=1)"));
  CHECK_FALSE(both->flow);
  CHECK(both->errors().find("error: a step cannot have both 'gpu' and 'trainium' [E037]") !=
        std::string::npos);
  auto alias = Analyze(Linear("", "@kubernetes(trainium=1, inferentia=1)"));
  CHECK(alias->errors().find("[E037]") != std::string::npos);
}

TEST_CASE("graph: a flow-level conflict is reported once, at the flow") {
  auto c = Analyze(Linear("@kubernetes(gpu=1, trainium=1)", ""));
  CHECK(c->diagnostics.error_count() == 1);
}

TEST_CASE("graph: quantities") {
  graph::QuantityError error;
  CHECK(graph::ParseQuantity("16Gi", &error)->bytes == 16.0 * 1073741824);
  CHECK(graph::ParseQuantity("1.5G", &error)->bytes == 1.5e9);
  CHECK_FALSE(graph::ParseQuantity("16GB", &error));
  CHECK(error.help == "write '16G' (10^9 bytes) or '16Gi' (2^30 bytes)");
  CHECK_FALSE(graph::ParseQuantity("16gi", &error));
  CHECK(error.help == "write '16G' (10^9 bytes) or '16Gi' (2^30 bytes)");
  CHECK_FALSE(graph::ParseQuantity("4096", &error));
  CHECK_FALSE(graph::ParseQuantity("1..5Gi", &error));
  CHECK(graph::CpuQuantity(500) == "500m");
  CHECK(graph::CpuQuantity(3000) == "3");
}

TEST_CASE("graph: Kubernetes names") {
  CHECK(graph::KubernetesName("Nightly_Train") == "nightly-train");
  CHECK(graph::CheckDns1123Label("ok-name").empty());
  CHECK_FALSE(graph::CheckDns1123Label("-bad").empty());
  CHECK_FALSE(graph::CheckDns1123Label(std::string(64, 'a')).empty());
  CHECK(graph::CheckQualifiedName("app.kubernetes.io/name").empty());
  CHECK_FALSE(graph::CheckQualifiedName("bad key").empty());
  CHECK_FALSE(graph::CheckLabelValue("no spaces").empty());
}

TEST_CASE("graph: references are split out of run strings") {
  graph::Text t = graph::SplitReferences("a {{x}} {{ item }}{{run_id}} {{ not a ref }} {{.X}}");
  REQUIRE(t.segments.size() == 6);
  CHECK(t.segments[1].kind == graph::Segment::Kind::kParam);
  CHECK(t.segments[1].text == "x");
  CHECK(t.segments[3].kind == graph::Segment::Kind::kItem);
  CHECK(t.segments[4].kind == graph::Segment::Kind::kRunId);
  CHECK(t.segments[5].text == " {{ not a ref }} {{.X}}");
  CHECK(t.ToFlowString() == "a {{x}} {{item}}{{run_id}} {{ not a ref }} {{.X}}");
}

TEST_CASE("graph: gang references are their own kind; in env values the only references") {
  graph::Text t = graph::SplitReferences("--rank={{node_index}} {{ num_nodes }}@{{main_addr}}");
  REQUIRE(t.segments.size() == 6);
  CHECK(t.segments[1].kind == graph::Segment::Kind::kGang);
  CHECK(t.segments[1].text == "node_index");
  CHECK(t.segments[3].kind == graph::Segment::Kind::kGang);
  CHECK(t.segments[3].text == "num_nodes");
  CHECK(t.segments[4].text == "@");
  CHECK(t.segments[5].text == "main_addr");
  CHECK(t.ToFlowString() == "--rank={{node_index}} {{num_nodes}}@{{main_addr}}");

  graph::Text env = graph::SplitGangReferences("{{x}} {{main_addr}}:62182 {{item}}{{run_id}}");
  REQUIRE(env.segments.size() == 3);
  CHECK(env.segments[0].kind == graph::Segment::Kind::kLiteral);
  CHECK(env.segments[0].text == "{{x}} ");
  CHECK(env.segments[1].kind == graph::Segment::Kind::kGang);
  CHECK(env.segments[2].text == ":62182 {{item}}{{run_id}}");
  CHECK(env.segments[2].offset == 19);
  CHECK(env.segments[2].length == 25);
}

TEST_CASE("graph: gang references only in @parallel steps, run and env alike") {
  auto ok = Analyze(Linear("", "@parallel(nodes=2) @environment(vars={\"A\": \"{{main_addr}}\"})",
                           "run \"echo {{node_index}} {{num_nodes}}\""));
  CHECK_MESSAGE(ok->flow, ok->errors());
  auto run = Analyze(Linear("", "", "run \"echo {{node_index}}\""));
  CHECK(run->errors().find("'{{node_index}}' is used in a run, but step 'work' has no "
                           "'@parallel' [E029]") != std::string::npos);
  auto env = Analyze(Linear("@environment(vars={\"A\": \"{{main_addr}}\"})", ""));
  CHECK(env->errors().find("'{{main_addr}}' is used in the flow's '@environment'") !=
        std::string::npos);
  // A step's own @environment replaces the flow's: none of them gets it.
  auto replaced = Analyze(Linear("@environment(vars={\"A\": \"{{main_addr}}\"})",
                                 "@parallel(nodes=2)"));
  CHECK(replaced->errors().find("[E029]") != std::string::npos);
}

TEST_CASE("rules: time zones are the system tz database's names, links included") {
  CHECK(rules::IsTimeZoneName("Europe/Berlin"));
  CHECK(rules::IsTimeZoneName("UTC"));
  CHECK(rules::IsTimeZoneName("US/Eastern"));     // a backward link
  CHECK(rules::IsTimeZoneName("Asia/Calcutta"));  // ditto
  CHECK(!rules::IsTimeZoneName("Mars/Olympus"));
  CHECK(!rules::IsTimeZoneName("europe/berlin"));
  CHECK(!rules::IsTimeZoneName("Local"));
  CHECK(!rules::IsTimeZoneName("localtime"));
  CHECK(!rules::IsTimeZoneName("posix/Europe/Berlin"));
  CHECK(!rules::IsTimeZoneName(""));
  // The search reads only the lines where the text occurs: a part of a name, a rule's
  // name and a word of a zone's line are not names; every name of the full list is.
  CHECK(!rules::IsTimeZoneName("Europe/Berli"));
  CHECK(!rules::IsTimeZoneName("Berlin"));
  CHECK(!rules::IsTimeZoneName("Europe"));
  CHECK(!rules::IsTimeZoneName("d"));    // a rule's name (`R d 1916 ...`)
  CHECK(!rules::IsTimeZoneName("LMT"));  // a word of a zone's line
  const std::vector<std::string>& names = rules::TimeZoneNames();
  CHECK(names.size() > 500);
  for (const std::string& name : names) CHECK_MESSAGE(rules::IsTimeZoneName(name), name);
  auto bad = Analyze(Linear("@schedule(daily=true, timezone=\"Europe/Berln\")", ""));
  CHECK(bad->errors().find("did you mean 'Europe/Berlin'?") != std::string::npos);
}

TEST_CASE("graph: schedules") {
  auto c = Analyze(Linear("@schedule(weekly=true, timezone=\"Europe/Berlin\")", ""));
  REQUIRE_MESSAGE(c->flow, c->errors());
  CHECK(c->flow->schedule->cron == "0 0 * * 0");
  CHECK(c->flow->schedule->timezone == "Europe/Berlin");
  auto bad = Analyze(Linear("@schedule(cron=\"0 24 * * *\")", ""));
  CHECK(bad->errors().find("has '24' in the hour field, outside 0-23") != std::string::npos);
  auto names = Analyze(Linear("@schedule(cron=\"*/15 9-17 * JAN-MAR MON-FRI\")", ""));
  CHECK_MESSAGE(names->flow, names->errors());
}

TEST_CASE("graph: a decorator's arguments are found by name in its index") {
  using namespace graph::decorator_table;
  for (const DecoratorSpec& spec : Table()) {
    CAPTURE(spec.name);
    const ArgIndex& index = IndexOf(spec);
    CHECK(&IndexOf(spec) == &index);
    for (size_t a = 0; a < spec.args.size(); ++a) {
      CHECK(index.Find(spec.args[a].name) == a);
      CHECK(FindArg(spec, spec.args[a].name) == &spec.args[a]);
      CHECK((index.Default(a) != nullptr) == !spec.args[a].default_value.empty());
      std::string name(spec.args[a].name);
      CHECK(index.Find(name + "x") == kNoArg);
      CHECK(index.Find(name.substr(1)) == kNoArg);
    }
    CHECK(index.Find("") == kNoArg);
    CHECK(index.Find("no_such_argument") == kNoArg);
  }
  // A spec not in the table, with a name twice: the first is found.
  DecoratorSpec own{"own", kOnStep, {{"a", ArgType::kInt, 0, 9, "7"}, {"a", ArgType::kBool}}};
  CHECK(ArgPosition(own, "a") == 0);
  REQUIRE(IndexOf(own).Default(0) != nullptr);
  CHECK(IndexOf(own).Default(0)->int_value == 7);
  CHECK(IndexOf(own).Default(1) == nullptr);
}

}  // namespace
}  // namespace flowc
