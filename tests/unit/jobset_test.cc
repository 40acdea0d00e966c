// Unit tests of the JobSet builder (backends/k8s/jobset.h) and the JobSet
// target (backends/jobset): shape, names, dependencies, params, retries, and
// the diagnostics for flows one JobSet cannot hold. Flows are built by hand
// so these tests need no front end.
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include "backends/backend.h"
#include "backends/jobset/jobset_backend.h"
#include "backends/k8s/jobset.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/graph/templating.h"
#include "compiler/ir/graph_to_ir.h"

namespace flowc::backends {
namespace {

class PlainStrings : public k8s::StringPolicy {
 public:
  std::string Text(const ir::Text& text) const override { return text.ToFlowString(); }
};

// Source text whose line N is where step N of a test flow is "declared", so
// diagnostics have somewhere to point.
const char* kSource =
    "flow f {\n"
    "  step start {}\n"
    "  step a {}\n"
    "  step b {}\n"
    "  step c {}\n"
    "  step d {}\n"
    "  step e {}\n"
    "  step g {}\n"
    "  step end {}\n"
    "}\n";

ir::Step MakeStep(const diag::SourceFile& file, std::string name, size_t line) {
  ir::Step step;
  step.k8s_name = name;
  for (char& c : step.k8s_name) c = c == '_' ? '-' : c;
  step.name = std::move(name);
  std::string_view text = file.Line(static_cast<uint32_t>(line));
  size_t column = text.find(step.name);
  uint32_t offset = static_cast<uint32_t>(text.data() - file.text().data() + column);
  step.range = file.RangeAt(offset, static_cast<uint32_t>(step.name.size()));
  step.pod.namespace_ = "ml";
  step.pod.image = "busybox";
  step.pod.command = {graph::SplitReferences("/bin/sh"), graph::SplitReferences("-c"),
                      graph::SplitReferences("echo " + step.name)};
  return step;
}

// start -> end, or start -> (arms...) -> end when `arms` > 0.
ir::Flow MakeFlow(const diag::SourceFile& file, std::string name, size_t arms) {
  ir::Flow flow;
  flow.name = name;
  flow.k8s_name = name;
  flow.steps.push_back(MakeStep(file, "start", 2));
  const char* arm_names[] = {"a", "b", "c", "d", "e", "g"};
  for (size_t i = 0; i < arms; ++i) {
    flow.steps.push_back(MakeStep(file, arm_names[i], 3 + i));
    flow.steps[0].next.push_back(i + 1);
    flow.steps.back().predecessors = {0};
  }
  flow.steps.push_back(MakeStep(file, "end", 9));
  size_t end = flow.steps.size() - 1;
  if (arms == 0) {
    flow.steps[0].next = {end};
    flow.steps[end].predecessors = {0};
  } else {
    flow.steps[0].join = end;
    for (size_t i = 1; i < end; ++i) {
      flow.steps[i].next = {end};
      flow.steps[end].predecessors.push_back(i);
    }
  }
  return flow;
}

struct Compiled {
  bool ok;
  std::string yaml;
  std::string diagnostics;
};

Compiled Compile(const diag::SourceFile& file, const ir::Flow& flow) {
  diag::Diagnostics diagnostics;
  diag::Reporter report(diagnostics, file);
  StringSink sink;
  const Backend& backend = jobset::JobSetBackend();
  bool ok =
      CheckCapabilities(flow, backend, report) && backend.Emit(flow, EmitOptions{}, sink, report);
  CHECK(ok == !diagnostics.HasErrors());
  return {ok, sink.text(), diag::RenderText(diagnostics.all())};
}

// Kubelet's reading of a command argument (k8s.io/kubernetes
// third_party/forked/golang/expansion): `$$` is `$`, `$(NAME)` a reference
// (shown here as <NAME>), any other `$` itself; a `$` that ends the text is
// copied as it is. With `bytewise`, as an older expansion.go reads the byte
// after a lone `$` (tryReadVariableName: `string(operator) +
// string(input[0])`, a Go conversion of that byte to a rune): a non-ASCII
// byte becomes the UTF-8 of U+0080..U+00FF.
std::string Kubelet(std::string_view s, bool bytewise = false) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char next = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
    if (s[i] != '$' || i + 1 == s.size()) {
      out += s[i];
    } else if (next == '$') {
      out += '$';
      ++i;
    } else if (next == '(' && s.find(')', i + 2) != std::string_view::npos) {
      size_t close = s.find(')', i + 2);
      out += "<" + std::string(s.substr(i + 2, close - i - 2)) + ">";
      i = close;
    } else if (bytewise && next >= 0x80) {
      out += '$';
      out += static_cast<char>(0xC0 | (next >> 6));
      out += static_cast<char>(0x80 | (next & 0x3F));
      ++i;
    } else {
      out += '$';
    }
  }
  return out;
}

TEST_CASE("a @parallel step's JobSet: N indexed pods, DNS hostnames, restarts, deadline") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "train_flow", 1);
  ir::Step& step = flow.steps[1];
  step.parallel = ir::Parallel{4};
  step.retry = ir::Retry{2, 5};
  step.timeout_seconds = 21600;
  step.pod.labels = {{"team", "ml"}};
  step.pod.annotations = {{"note", "yes"}};

  PlainStrings strings;
  YAML::Emitter out;
  k8s::EmitStepJobSet(out, flow, step, "train-flow-a", strings);
  YAML::Node js = YAML::Load(out.c_str());
  CHECK(js["apiVersion"].as<std::string>() == "jobset.x-k8s.io/v1alpha2");
  CHECK(js["kind"].as<std::string>() == "JobSet");
  CHECK(js["metadata"]["name"].as<std::string>() == "train-flow-a");
  CHECK(js["metadata"]["namespace"].as<std::string>() == "ml");
  CHECK(js["spec"]["network"]["enableDNSHostnames"].as<bool>() == true);
  CHECK(!js["spec"]["network"]["subdomain"]);  // defaults to the JobSet's name
  // @retry belongs to the engine that creates this JobSet (Argo, Airflow),
  // which waits between attempts; JobSet restarts on top would multiply them.
  CHECK(!js["spec"]["failurePolicy"]);
  REQUIRE(js["spec"]["replicatedJobs"].size() == 1);
  YAML::Node rjob = js["spec"]["replicatedJobs"][0];
  CHECK(rjob["name"].as<std::string>() == "a");
  CHECK(rjob["replicas"].as<int>() == 1);
  CHECK(!rjob["dependsOn"]);
  YAML::Node job = rjob["template"]["spec"];
  CHECK(job["completionMode"].as<std::string>() == "Indexed");
  CHECK(job["parallelism"].as<int>() == 4);
  CHECK(job["completions"].as<int>() == 4);
  CHECK(job["backoffLimit"].as<int>() == 0);
  CHECK(job["activeDeadlineSeconds"].as<int>() == 21600);
  YAML::Node pod = job["template"];
  CHECK(pod["metadata"]["labels"]["team"].as<std::string>() == "ml");
  CHECK(pod["metadata"]["annotations"]["note"].as<std::string>() == "yes");
  CHECK(pod["spec"]["restartPolicy"].as<std::string>() == "Never");
  CHECK(pod["spec"]["containers"][0]["name"].as<std::string>() == "main");
}

TEST_CASE("a step without @retry or @timeout has no failurePolicy or deadline") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 0);
  PlainStrings strings;
  YAML::Emitter out;
  k8s::EmitStepJobSet(out, flow, flow.steps[0], "f-start", strings);
  YAML::Node js = YAML::Load(out.c_str());
  CHECK(!js["spec"]["failurePolicy"]);
  YAML::Node job = js["spec"]["replicatedJobs"][0]["template"]["spec"];
  CHECK(!job["activeDeadlineSeconds"]);
  CHECK(job["parallelism"].as<int>() == 1);
  CHECK(job["completions"].as<int>() == 1);
}

TEST_CASE("JobSet pod names: computed as the webhook does, 63 characters at most") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 1);
  ir::Step step = flow.steps[1];
  step.k8s_name = std::string(40, 's');
  // <12>-<40>-0-0-abcde = 12 + 1 + 40 + 2 + 2 + 6 = 63
  CHECK(k8s::JobSetPodNameLength(12, step) == 63);
  step.parallel = ir::Parallel{10};
  CHECK(k8s::JobSetPodNameLength(12, step) == 63);  // pod index 9: one digit
  step.parallel = ir::Parallel{11};
  CHECK(k8s::JobSetPodNameLength(12, step) == 64);  // pod index 10

  diag::Diagnostics diagnostics;
  diag::Reporter report(diagnostics, file);
  step.parallel.reset();
  flow.k8s_name = std::string(12, 'f');
  CHECK(k8s::CheckJobSetNames(flow, step, {12, 1, 0, "<flow>"}, report));
  CHECK(!diagnostics.HasErrors());
  flow.k8s_name = std::string(13, 'f');
  CHECK(!k8s::CheckJobSetNames(flow, step, {13, 1, 0, "<flow>"}, report));
  REQUIRE(diagnostics.all().size() == 1);
  const diag::Diagnostic& d = diagnostics.all()[0];
  CHECK(d.code == diag::Code::kNameTooLong);
  CHECK(d.range.line == 3);
  CHECK(d.message ==
        "the pods of step 'a' would have 64-character names in a JobSet; Kubernetes allows at "
        "most 63");
  // 13 + 40 characters of names and 11 of the JobSet's own: either name can give the one.
  CHECK(d.help ==
        "shorten the step name 'a' to at most 39 characters, or the flow name 'f' to at most 12 "
        "characters");
}

TEST_CASE("JobSet pod names: a step name the JobSet's name repeats counts twice") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 1);
  ir::Step step = flow.steps[1];
  step.parallel = ir::Parallel{4};
  flow.k8s_name = std::string(52, 'f');
  step.k8s_name = std::string(63, 's');
  diag::Diagnostics diagnostics;
  diag::Reporter report(diagnostics, file);
  // Argo, scheduled: '<flow>-<10-digit time>-<step>', then '-<step>-0-3-abcde': 201 characters,
  // 23 of them Argo's and JobSet's own, so flow + 2 x step may have 40 and has 178. Neither
  // name alone can give the 138 characters.
  const size_t jobset = 52 + 11 + 1 + 63;
  CHECK(k8s::JobSetPodNameLength(jobset, step) == 201);
  CHECK(!k8s::CheckJobSetNames(flow, step, {jobset, 1, 1, "<flow>-<10-digit time>-<step>"},
                               report));
  REQUIRE(diagnostics.all().size() == 1);
  CHECK(diagnostics.all()[0].help ==
        "shorten both names: the flow name plus twice the step name come to 178 characters, and "
        "at most 40 fit");
  // A 20-character flow: the step alone can go to (63 - 23 - 20) / 2 = 10 characters.
  flow.k8s_name = std::string(20, 'f');
  CHECK(!k8s::CheckJobSetNames(flow, step, {20 + 11 + 1 + 63, 1, 1, "<flow>"}, report));
  REQUIRE(diagnostics.all().size() == 2);
  CHECK(diagnostics.all()[1].help == "shorten the step name 'a' to at most 10 characters");
}

TEST_CASE("the flow JobSet: one replicated Job per step, dependsOn, successPolicy on end") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "my_flow", 2);
  flow.k8s_name = "my-flow";
  flow.steps[1].parallel = ir::Parallel{3};
  Compiled result = Compile(file, flow);
  REQUIRE(result.ok);
  CHECK(result.yaml.back() == '\n');
  YAML::Node js = YAML::Load(result.yaml);
  CHECK(js["metadata"]["name"].as<std::string>() == "my-flow");
  CHECK(js["metadata"]["namespace"].as<std::string>() == "ml");
  CHECK(js["spec"]["successPolicy"]["operator"].as<std::string>() == "All");
  REQUIRE(js["spec"]["successPolicy"]["targetReplicatedJobs"].size() == 1);
  CHECK(js["spec"]["successPolicy"]["targetReplicatedJobs"][0].as<std::string>() == "end");
  CHECK(!js["spec"]["failurePolicy"]);
  YAML::Node rjobs = js["spec"]["replicatedJobs"];
  REQUIRE(rjobs.size() == 4);
  CHECK(rjobs[0]["name"].as<std::string>() == "start");
  CHECK(!rjobs[0]["dependsOn"]);
  CHECK(rjobs[1]["name"].as<std::string>() == "a");
  CHECK(rjobs[1]["dependsOn"][0]["name"].as<std::string>() == "start");
  CHECK(rjobs[1]["dependsOn"][0]["status"].as<std::string>() == "Complete");
  CHECK(rjobs[1]["template"]["spec"]["parallelism"].as<int>() == 3);
  CHECK(rjobs[3]["name"].as<std::string>() == "end");
  REQUIRE(rjobs[3]["dependsOn"].size() == 2);
  CHECK(rjobs[3]["dependsOn"][0]["name"].as<std::string>() == "a");
  CHECK(rjobs[3]["dependsOn"][1]["name"].as<std::string>() == "b");
}

TEST_CASE("the flow JobSet is deterministic") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 3);
  CHECK(Compile(file, flow).yaml == Compile(file, flow).yaml);
}

TEST_CASE("params become their defaults and run_id the JobSet's name, $ kept literal") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 0);
  flow.params = {{"epochs", ir::Param::Type::kInt, "3", {}},
                 {"who", ir::Param::Type::kStr, "\"$(USER) \\\"q\\\" {{x}}\"", {}},
                 {"shards", ir::Param::Type::kList, "[\"a\",\"b\"]", {}},
                 {"rate", ir::Param::Type::kFloat, "0.0002", {}},
                 {"dry", ir::Param::Type::kBool, "false", {}}};
  flow.steps[0].pod.command = {
      graph::SplitReferences("run"),
      graph::SplitReferences("--epochs={{epochs}} --who={{ who }} {{shards}} {{rate}} {{dry}}"),
      graph::SplitReferences("--run {{run_id}} $$HOME")};
  Compiled result = Compile(file, flow);
  REQUIRE(result.ok);
  YAML::Node command = YAML::Load(result.yaml)["spec"]["replicatedJobs"][0]["template"]["spec"]
                                              ["template"]["spec"]["containers"][0]["command"];
  REQUIRE(command.size() == 3);
  CHECK(command[0].as<std::string>() == "run");
  CHECK(Kubelet(command[1].as<std::string>()) ==
        "--epochs=3 --who=$(USER) \"q\" {{x}} [\"a\",\"b\"] 0.0002 false");
  CHECK(command[2].as<std::string>() == "--run f $$HOME");
}

TEST_CASE("a spliced param never forms a kubelet reference with the text around it") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 0);
  flow.params = {{"open", ir::Param::Type::kStr, "\"(HOME)\"", {}},
                 {"dollar", ir::Param::Type::kStr, "\"a$\"", {}},
                 {"dollars", ir::Param::Type::kStr, "\"$$x$(Y)\"", {}}};
  // The flow's text, escaped as the lowering escapes it, then what the
  // container must receive.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"cost: ${{open}}", "cost: $(HOME)"}, {"cost: $${{open}}", "cost: $$(HOME)"},
      {"{{dollar}}(HOME)", "a$(HOME)"},     {"${{dollars}}", "$$$x$(Y)"},
      {"$({{open}}", "$((HOME)"},           {"{{open}}{{dollar}}{{open}}", "(HOME)a$(HOME)"},
  };
  for (const auto& test_case : cases) {
    // Named copies: clang's C++17 cannot capture structured bindings (CAPTURE).
    const std::string& flow_text = test_case.first;
    const std::string& received = test_case.second;
    graph::Text text = graph::SplitReferences(flow_text);
    for (graph::Segment& segment : text.segments) {
      if (segment.kind == graph::Segment::Kind::kLiteral) {
        segment.text = ir::EscapeDollars(segment.text);
      }
    }
    flow.steps[0].pod.command = {text};
    Compiled result = Compile(file, flow);
    REQUIRE(result.ok);
    std::string arg = YAML::Load(result.yaml)["spec"]["replicatedJobs"][0]["template"]["spec"]
                                             ["template"]["spec"]["containers"][0]["command"][0]
                                                 .as<std::string>();
    CAPTURE(flow_text);
    CAPTURE(arg);
    CHECK(Kubelet(arg) == received);
  }
}

TEST_CASE("a param default's last `$` reaches the container byte for byte, whatever follows") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 0);
  flow.params = {{"price", ir::Param::Type::kStr, "\"5$\"", {}},
                 {"utf8", ir::Param::Type::kStr, "\"\u00e9$\u00e9\"", {}}};
  // The flow's text (no literal `$`, so escaping leaves it), then what the
  // container must receive.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{{price}}", "5$"},
      {"{{price}} and", "5$ and"},
      {"{{price}}x", "5$x"},
      {"{{price}}\u20ac", "5$\u20ac"},
      {"{{price}}{{utf8}}", "5$\u00e9$\u00e9"},
      {"{{utf8}}", "\u00e9$\u00e9"},
  };
  for (const auto& test_case : cases) {
    const std::string& flow_text = test_case.first;
    const std::string& received = test_case.second;
    flow.steps[0].pod.command = {graph::SplitReferences(flow_text)};
    Compiled result = Compile(file, flow);
    REQUIRE(result.ok);
    std::string arg = YAML::Load(result.yaml)["spec"]["replicatedJobs"][0]["template"]["spec"]
                                             ["template"]["spec"]["containers"][0]["command"][0]
                                                 .as<std::string>();
    CAPTURE(flow_text);
    CAPTURE(arg);
    CHECK(Kubelet(arg, /*bytewise=*/true) == received);
  }
}

TEST_CASE("a required param used by a step is a diagnostic at the step, once per param") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 1);
  flow.params = {{"ds", ir::Param::Type::kStr, std::nullopt, file.RangeAt(0, 4)},
                 {"unused", ir::Param::Type::kStr, std::nullopt, file.RangeAt(0, 4)}};
  flow.steps[1].pod.command = {graph::SplitReferences("echo {{ds}}"),
                               graph::SplitReferences("{{ds}}")};
  Compiled result = Compile(file, flow);
  CHECK(!result.ok);
  CHECK(result.yaml.empty());
  CHECK(result.diagnostics ==
        "f.flow:3:8: error: step 'a' uses param 'ds', which has no default; target 'jobset' has "
        "no run-time parameters and substitutes defaults at compile time [E050]\n"
        "  step a {}\n"
        "       ^\n"
        "f.flow:1:1: note: 'ds' is declared here\n"
        "flow f {\n"
        "^~~~\n"
        "help: give 'ds' a default, or compile with --target argo\n");
}

TEST_CASE("a join of more than five steps is E052 at the join") {
  diag::SourceFile file("f.flow", kSource);
  CHECK(Compile(file, MakeFlow(file, "f", 5)).ok);
  Compiled result = Compile(file, MakeFlow(file, "f", 6));
  CHECK(!result.ok);
  CHECK(result.diagnostics.find("f.flow:9:8: error: step 'end' joins 6 steps; a JobSet job can "
                                "depend on at most 5 [E052]") == 0);
}

TEST_CASE("steps in different namespaces are a diagnostic") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 1);
  flow.steps[1].pod.namespace_ = "";
  Compiled result = Compile(file, flow);
  CHECK(!result.ok);
  CHECK(result.diagnostics.find(
            "f.flow:3:8: error: step 'a' runs in the default namespace but step 'start' in "
            "namespace 'ml'; target 'jobset' puts the whole flow in one namespace [E050]") == 0);
}

TEST_CASE("@retry: one restart budget; steps without retries fail the JobSet") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 2);
  flow.steps[1].retry = ir::Retry{2, 5};
  flow.steps[2].retry = ir::Retry{2, 1};
  flow.steps[3].retry = ir::Retry{0, 2};
  Compiled result = Compile(file, flow);
  REQUIRE(result.ok);
  YAML::Node policy = YAML::Load(result.yaml)["spec"]["failurePolicy"];
  CHECK(policy["maxRestarts"].as<int>() == 2);
  REQUIRE(policy["rules"].size() == 1);
  CHECK(policy["rules"][0]["action"].as<std::string>() == "FailJobSet");
  YAML::Node targets = policy["rules"][0]["targetReplicatedJobs"];
  REQUIRE(targets.size() == 2);
  CHECK(targets[0].as<std::string>() == "start");
  CHECK(targets[1].as<std::string>() == "end");

  flow.steps[2].retry = ir::Retry{1, 1};
  result = Compile(file, flow);
  CHECK(!result.ok);
  CHECK(result.diagnostics.find("f.flow:4:8: error: step 'b' retries 1 time but step 'a' 2 "
                                "times; target 'jobset' has one restart budget for the whole "
                                "flow [E050]") != std::string::npos);
  // The delay between retries cannot be kept: said once, at the first step.
  CHECK(result.diagnostics.find("f.flow:3:8: warning: target 'jobset' restarts at once: the wait "
                                "of 5 minutes between retries of step 'a' is not honoured [W004]") == 0);
}

TEST_CASE("foreach and schedule are refused through the capabilities") {
  diag::SourceFile file("f.flow", kSource);
  ir::Flow flow = MakeFlow(file, "f", 1);
  flow.steps[0].foreach = ir::Foreach{"shards", {}, 1, 2};
  Compiled result = Compile(file, flow);
  CHECK(!result.ok);
  CHECK(result.diagnostics.find("cannot be expressed by target 'jobset'") != std::string::npos);
  CHECK(result.diagnostics.find("[E050]") != std::string::npos);
}

}  // namespace
}  // namespace flowc::backends
