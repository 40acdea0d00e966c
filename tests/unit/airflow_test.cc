// Unit tests of the Airflow target: the one Python-literal escaping function,
// the one Jinja translator, the expression printer, and the DAG the backend
// writes (structure, foreach plans, diagnostics). Where /usr/bin/python3 is
// there, strings are also read back by Python itself (and rendered by jinja2
// when it is installed), byte for byte.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "backends/airflow/airflow_backend.h"
#include "backends/airflow/python.h"
#include "backends/backend.h"
#include "compiler/graph/templating.h"
#include "test_util.h"

namespace flowc::backends::airflow {
namespace {

using testing::Analyze;

constexpr const char* kPython = "/usr/bin/python3";

// Runs `script` with /usr/bin/python3; its stdout, or nullopt when Python (or
// a module the script needs, signalled by exit status 3) is missing.
std::optional<std::string> RunPython(const std::string& script) {
  if (std::FILE* probe = std::fopen(kPython, "r")) {
    std::fclose(probe);
  } else {
    return std::nullopt;
  }
  const std::string path = "/tmp/flowc_airflow_test_" + std::to_string(getpid()) + ".py";
  std::ofstream(path, std::ios::binary) << script;
  std::FILE* pipe = popen((std::string(kPython) + " " + path + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  int status = pclose(pipe);
  std::remove(path.c_str());
  if (WEXITSTATUS(status) == 3) return std::nullopt;
  REQUIRE_MESSAGE(status == 0, "python failed:\n" << out);
  return out;
}

std::string Hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// Strings built to break quoting: every ASCII byte, quotes of every kind,
// backslashes before quotes and at the end, templating delimiters, line
// breaks of every kind, non-ASCII and invisible characters, and code.
std::vector<std::string> HostileStrings() {
  std::vector<std::string> out = {
      "",
      "plain",
      "\"",
      "'",
      "\"\"\"",
      "'''",
      "\"\"\"\"\"\"\"",
      "ends with a quote\"",
      "ends with a backslash\\",
      "\\\"",
      "\\\\\"\"\"",
      "{{ x }} {% if %} {# c #} {{{ }}} {%- raw %}{% endraw %} {{'{{'}}",
      "{",
      "{{",
      "x{",
      "\n",
      "\r",
      "\r\n",
      "a\nb\n",
      "a\n\n",
      "\t\v\f\b\a",
      "\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x9a\x80",
      "\xe2\x80\xae\xe2\x80\xa8\xe2\x80\xa9\xef\xbb\xbf\xc2\x85",
      "__import__('os').system('id'); \"\"\" + ''' # $HOME $(x) $$",
      "\xff\xfe not UTF-8",
  };
  std::string all;
  for (int c = 1; c < 128; ++c) all += static_cast<char>(c);
  out.push_back(all);
  return out;
}

TEST_CASE("airflow: PythonString escapes exactly what Python or a reader would misread") {
  CHECK(PythonString("plain") == "\"plain\"");
  CHECK(PythonString("a\"b\\c'd") == "\"a\\\"b\\\\c'd\"");
  CHECK(PythonString("l1\nl2\r\t") == "\"l1\\nl2\\r\\t\"");
  CHECK(PythonString(std::string("\x01\x7f\x00", 3)) == "\"\\x01\\x7f\\x00\"");
  CHECK(PythonString("\xc3\xa9\xf0\x9f\x9a\x80") == "\"\xc3\xa9\xf0\x9f\x9a\x80\"");
  CHECK(PythonString("\xe2\x80\xae") == "\"\\u202e\"");     // right-to-left override
  CHECK(PythonString("\xc2\x85") == "\"\\x85\"");           // C1 next line
  CHECK(PythonString("\xff") == "\"\\udcff\"");             // not UTF-8: surrogateescape
  CHECK(PythonString("\xc0\xaf") == "\"\\udcc0\\udcaf\"");  // overlong '/'
  CHECK(PythonString("'''") == "\"'''\"");

  // Block style: the text's own lines; only quotes that could close it, and
  // backslashes, are escaped.
  CHECK(PythonString("a: 1\nb: \"x\"\n", StringStyle::kBlock) ==
        "\"\"\"\\\na: 1\nb: \"x\"\n\"\"\"");
  CHECK(PythonString("x\"\"\"y\"", StringStyle::kBlock) == "\"\"\"\\\nx\\\"\\\"\"y\\\"\"\"\"");
  CHECK(PythonString("c:\\dir\r\n", StringStyle::kBlock) == "\"\"\"\\\nc:\\\\dir\\r\n\"\"\"");
}

TEST_CASE("airflow: every string reads back from Python byte for byte") {
  std::string script = "import sys\nvalues = [\n";
  std::string expected;
  for (const std::string& s : HostileStrings()) {
    for (StringStyle style : {StringStyle::kInline, StringStyle::kBlock}) {
      script += "    " + PythonString(s, style) + ",\n";
      expected += Hex(s) + "\n";
    }
  }
  script += "]\nfor v in values:\n    print(v.encode('utf-8', 'surrogateescape').hex())\n";
  std::optional<std::string> out = RunPython(script);
  if (!out) {
    MESSAGE("no /usr/bin/python3: read-back skipped");
    return;
  }
  CHECK(*out == expected);
}

ir::Text Split(std::string_view text) { return graph::SplitReferences(text); }

std::vector<ir::Param> TestParams() {
  std::vector<ir::Param> params(4);
  params[0].name = "epochs";
  params[0].type = ir::Param::Type::kInt;
  params[1].name = "shards";
  params[1].type = ir::Param::Type::kList;
  params[2].name = "dry_run";
  params[2].type = ir::Param::Type::kBool;
  params[3].name = "items";  // a dict method's name: subscripted
  return params;
}

TEST_CASE("airflow: the Jinja translator") {
  std::vector<ir::Param> params = TestParams();
  JinjaScope scope;
  scope.params = &params;

  CHECK(JinjaLiteral("plain } }} %}") == "plain } }} %}");
  CHECK(JinjaLiteral("{{x}} {%y%} {#z#}") == "{{ '{{' }}x}} {{ '{%' }}y%} {{ '{#' }}z#}");
  CHECK(JinjaLiteral("{{{") == "{{ '{{' }}{");
  CHECK(JinjaLiteral("a\r\nb\n") == "a{{ '\\r' }}\nb{{ '\\n' }}");
  CHECK(JinjaLiteral("a\n\n") == "a\n{{ '\\n' }}");

  // Every param renders through flowc_text: the IR's text for its type, `$` doubled.
  CHECK(JinjaText(Split("--epochs {{epochs}} --run {{ run_id }}"), scope) ==
        "--epochs {{ params.epochs | flowc_text }} --run {{ run_id }}");
  CHECK(JinjaText(Split("{{shards}} {{dry_run}} {{items}}"), scope) ==
        "{{ params.shards | flowc_text }} {{ params.dry_run | flowc_text }} "
        "{{ params['items'] | flowc_text }}");
  // A literal `{` before a tag would open `{{{`; a newline before one is safe.
  CHECK(JinjaText(Split("x{{{epochs}}"), scope) == "x{{ '{' }}{{ params.epochs | flowc_text }}");
  CHECK(JinjaText(Split("x\n{{epochs}}"), scope) == "x\n{{ params.epochs | flowc_text }}");
  CHECK(JinjaText(Split("{{epochs}}\n"), scope) == "{{ params.epochs | flowc_text }}{{ '\\n' }}");

  scope.item = JinjaScope::Item::kVariable;
  CHECK(JinjaText(Split("--shard {{item}}"), scope) == "--shard {{ item }}");
  scope.item = JinjaScope::Item::kConstant;
  scope.item_value = "{{ '\n";
  CHECK(JinjaText(Split("--shard {{item}}"), scope) == "--shard {{ '{{' }} '{{ '\\n' }}");
  // A known element is written as flowc_text would render it.
  scope.item_value = "$(HOME) $$";
  CHECK(JinjaText(Split("{{item}}"), scope) == "$$(HOME) $$$$");

  scope.item = JinjaScope::Item::kNone;
  auto parts = JinjaParts(Split("a{{{item}}{{item}}b{ {{epochs}}\n"), scope);
  REQUIRE(parts.size() == 4);
  CHECK(*parts[0] == "a{");  // each piece is a template of its own
  CHECK(!parts[1]);
  CHECK(!parts[2]);
  CHECK(*parts[3] == "b{ {{ params.epochs | flowc_text }}{{ '\\n' }}");
}

TEST_CASE("airflow: Jinja renders every translated string back to the text") {
  std::string script =
      "import sys\n"
      "try:\n"
      "    import jinja2, jinja2.sandbox\n"
      "except ImportError:\n"
      "    sys.exit(3)\n"
      // As Airflow's: sandboxed, StrictUndefined, trailing newline not kept.
      "env = jinja2.sandbox.SandboxedEnvironment(undefined=jinja2.StrictUndefined)\n"
      "for t in [\n";
  std::string expected;
  for (const std::string& s : HostileStrings()) {
    if (s.find('\xff') != std::string::npos) continue;  // not text: Jinja takes str
    script += "    " + PythonString(JinjaLiteral(s)) + ",\n";
    expected += Hex(s) + "\n";
    ir::Text text;
    text.segments = {{ir::Segment::Kind::kLiteral, s},
                     {ir::Segment::Kind::kRunId, ""},
                     {ir::Segment::Kind::kLiteral, s}};
    script += "    " + PythonString(JinjaText(text, JinjaScope{})) + ",\n";
    expected += Hex(s + "RUN" + s) + "\n";
  }
  script += "]:\n    print(env.from_string(t).render(run_id='RUN').encode().hex())\n";
  std::optional<std::string> out = RunPython(script);
  if (!out) {
    MESSAGE("no python3-jinja2: rendering skipped");
    return;
  }
  CHECK(*out == expected);
}

TEST_CASE("airflow: PyExpr breaks only lines that would pass 100 columns") {
  PyExpr short_call = PyExpr::Call("f", {PyExpr::Int(1)}, {{"k", PyExpr::Str("v")}});
  CHECK(short_call.FormatAt(0, 0, 0) == "f(1, k=\"v\")");
  PyExpr::Exprs items;
  for (int i = 0; i < 12; ++i) items.push_back(PyExpr::Str("element-" + std::to_string(i)));
  PyExpr call = PyExpr::Call("g", {}, {{"items", PyExpr::List(items)}});
  std::string text = call.FormatAt(4, 4, 0);
  CHECK(text.rfind("g(\n        items=[\n            \"element-0\",\n", 0) == 0);
  const std::string tail = "\"element-11\",\n        ],\n    )";
  CHECK(text.substr(text.size() - tail.size()) == tail);
  PyExpr chained =
      PyExpr::Call(PyExpr::Attr(PyExpr::Call("K.partial", {}, {{"a", PyExpr::Int(1)}}), "expand"),
                   {}, {{"cmds", PyExpr::Code("x")}});
  CHECK(chained.Flat() == "K.partial(a=1).expand(cmds=x)");
}

// Compiles `source` for Airflow; the DAG text, or "" with the diagnostics in
// `errors`.
std::string Compile(const std::string& source, std::string* errors = nullptr) {
  auto c = Analyze(source);
  REQUIRE_MESSAGE(c->flow, c->errors());
  diag::Reporter report(c->diagnostics, *c->file);
  StringSink sink;
  bool ok = AirflowBackend().Emit(*c->flow, EmitOptions{}, sink, report);
  if (errors) *errors = c->errors();
  CHECK(ok == !c->diagnostics.HasErrors());
  if (!ok) CHECK(sink.text().empty());
  return sink.text();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("airflow: one KubernetesPodOperator per step, carrying the IR's pod") {
  std::string dag = Compile(R"(
@schedule(cron="0 3 * * *", timezone="Europe/Berlin")
@kubernetes(namespace="ml", image="python:3.12")
flow nightly {
  param epochs: int = 3
  param note: str = "x"
  step start { run "train {{epochs}} {{run_id}}" next end }
  @kubernetes(trainium=1, shared_memory=64, secrets=["s1"], port=8080,
              security_context={"run_as_user": 1000}, image_pull_secrets=["pull"])
  @retry(times=2, minutes_between_retries=5)
  @timeout(minutes=10)
  @environment(vars={"A": "{{b}}"})
  step end { run ["echo", "done"] }
}
)");
  CHECK(Contains(dag,
                 "    dag_id=\"nightly\",\n    schedule=\"0 3 * * *\",\n"
                 "    start_date=pendulum.datetime(2024, 1, 1, tz=\"Europe/Berlin\"),\n"
                 "    catchup=False,\n"));
  CHECK(Contains(dag,
                 "params={\"epochs\": Param(3, type=\"integer\"), \"note\": Param(\"x\", "
                 "type=\"string\")}"));
  CHECK(Contains(dag,
                 "cmds=[\"/bin/sh\", \"-c\", \"train {{ params.epochs | flowc_text }} "
                 "{{ run_id }}\"]"));
  CHECK(Contains(dag, "base_container_name=\"main\""));
  CHECK(Contains(dag, "k8s.V1EnvVar(name=\"A\", value=\"{{ '{{' }}b}}\")"));
  CHECK(Contains(dag, "k8s.V1EnvFromSource(secret_ref=k8s.V1SecretEnvSource(name=\"s1\"))"));
  CHECK(Contains(dag,
                 "k8s.V1Toleration(key=\"aws.amazon.com/neuron\", operator=\"Exists\", "
                 "effect=\"NoSchedule\")"));
  CHECK(Contains(dag, "\"aws.amazon.com/neuron\": \"1\""));
  CHECK(Contains(dag, "k8s.V1EmptyDirVolumeSource(medium=\"Memory\", size_limit=\"64Mi\")"));
  CHECK(Contains(dag, "k8s.V1VolumeMount(name=\"dshm\", mount_path=\"/dev/shm\")"));
  CHECK(Contains(dag, "ports=[k8s.V1ContainerPort(container_port=8080)]"));
  CHECK(Contains(dag, "container_security_context=k8s.V1SecurityContext(run_as_user=1000)"));
  CHECK(Contains(dag, "image_pull_secrets=[k8s.V1LocalObjectReference(name=\"pull\")]"));
  CHECK(Contains(dag,
                 "retries=2,\n        retry_delay=datetime.timedelta(minutes=5),\n"
                 "        execution_timeout=datetime.timedelta(seconds=600),\n"));
  CHECK(Contains(dag, "\n    start >> end\n"));
  // Only the imports it needs.
  CHECK(Contains(dag, "import datetime\nimport json\n\nimport pendulum\n"));
  CHECK(!Contains(dag, "import yaml"));
  CHECK(!Contains(dag, "task_group"));
  CHECK(Contains(dag, "\ndef flowc_text(value):"));  // the filter of {{ params.epochs }}
  CHECK(Compile(R"(
flow nightly { step start { run "a" next end } step end { run "b" } }
)") != dag);
}

TEST_CASE("airflow: the same flow gives the same bytes") {
  const char* source = R"(
flow f {
  param xs: list = ["a", "b"]
  step start { run "s" next a foreach xs }
  @parallel(nodes=2)
  step a { run "echo {{item}}" next b }
  step b { run "b" next end }
  step end { run "e" }
}
)";
  CHECK(Compile(source) == Compile(source));
}

TEST_CASE("airflow: foreach as a mapped task, a mapped group, or written out") {
  std::string dag = Compile(R"(
flow f {
  param regions: list = ["eu", "us"]
  step start { run "s" next one foreach ["a", "{{b"] }
  step one { run "echo {{item}}" next join_one }
  step join_one { run "j" next outer foreach regions }
  step outer { run "o {{item}}" next inner foreach ["x", "y"] }
  step inner { run "i {{item}}" next inner_join }
  step inner_join { run "ij {{item}}" next outer_join }
  step outer_join { run "oj" next end }
  step end { run "e" }
}
)");
  // One-step body: the KubernetesPodOperator itself is mapped; its commands
  // come from a task, an XCom, which Airflow does not render (a literal
  // expand() argument it would).
  CHECK(Contains(dag,
                 "one_argv = task(task_id=\"one-argv\")(flowc_argvs)(\n"
                 "        argv=[\"/bin/sh\", \"-c\", [\"echo \", None]],\n"
                 "        items=[\"a\", \"{{ '{{' }}b\"],\n"));
  CHECK(Contains(dag, ").expand(cmds=one_argv)"));
  // Longer body: a mapped task group over the list param...
  CHECK(Contains(dag, "    @task_group(group_id=\"outer\")\n    def outer_foreach(item):\n"));
  CHECK(Contains(dag,
                 "outer_group_items = task(task_id=\"outer-items\")(flowc_items)"
                 "(param=\"regions\")\n"));
  CHECK(Contains(dag, "outer_group = outer_foreach.expand(item=outer_group_items)\n"));
  // ...in which the literal inner foreach is written out, one task per element.
  CHECK(Contains(dag, "task_id=\"inner-0\""));
  CHECK(Contains(dag, "\"/bin/sh\", \"-c\", \"i x\""));
  CHECK(Contains(dag, "\"/bin/sh\", \"-c\", \"i y\""));
  CHECK(Contains(dag, "        outer >> [inner_0, inner_1]\n"));
  CHECK(Contains(dag, "        inner_0 >> inner_join\n        inner_1 >> inner_join\n"));
  CHECK(Contains(dag, "    join_one >> outer_group\n    outer_group >> outer_join\n"));
}

TEST_CASE("airflow: literal items are escaped where Airflow renders them, and only there") {
  std::string dag = Compile(R"(
flow f {
  step start { run "s" next gang foreach ["{{ ds }}", "{% raw %}"] }
  @parallel(nodes=2)
  step gang { run "g {{item}}" next gang_join }
  step gang_join { run "j" next outer foreach ["{{ ds }}", "{#"] }
  step outer { run "o {{item}}" next inner foreach ["x"] }
  step inner { run "i" next inner_join }
  step inner_join { run "ij" next outer_join }
  step outer_join { run "oj" next end }
  step end { run "e" }
}
)");
  // A mapped sensor's literal expand() argument lands in op_kwargs, which
  // Airflow renders: escaped.
  CHECK(Contains(dag,
                 ".partial(step=\"gang\").expand(\n"
                 "        item=[\"{{ '{{' }} ds }}\", \"{{ '{%' }} raw %}\"],\n"));
  // A mapped task group's argument is resolved, never rendered: as it is.
  CHECK(Contains(dag, "outer_group = outer_foreach.expand(item=[\"{{ ds }}\", \"{#\"])\n"));
}

TEST_CASE("airflow: a pod's DRA claims name the claim model the installed client has") {
  std::string dag = Compile(R"(
@kubernetes(namespace="ml")
flow f {
  step start { run "s" next end }
  @neuron(devices=4, connected=true, instance_type="trn2.48xlarge")
  step end { run "e" }
}
)");
  CHECK(Contains(dag, "claims=[FLOWC_RESOURCE_CLAIM(name=\"neurons\")]"));
  CHECK(Contains(dag,
                 "\nFLOWC_RESOURCE_CLAIM = flowc_model(\"CoreV1ResourceClaim\", "
                 "\"V1ResourceClaim\")\n"));
  CHECK(!Contains(dag, "k8s.V1ResourceClaim"));
  // Without claims, no helper for them.
  CHECK(!Contains(Compile(R"(
flow f { step start { run "s" next end } step end { run "e" } }
)"),
                  "flowc_model"));
}

TEST_CASE("airflow: what Airflow cannot run is an error at the step, and no output") {
  std::string errors;
  std::string dag = Compile(R"(flow f {
  param xs: list = ["a"]
  param ys: list = ["b"]
  step start { run "s" next a foreach xs }
  step a { run "a" next b foreach ys }
  step b { run "b {{item}}" next c }
  step c { run "c" next d }
  step d { run "d" next end }
  step end { run "e" }
}
)",
                            &errors);
  CHECK(dag.empty());
  CHECK(errors ==
        "t.flow:5:8: error: the foreach of step 'a' over list param 'ys' is nested in the "
        "foreach of step 'start', and Airflow cannot map tasks inside a mapped task group "
        "[E050]\n"
        "  step a { run \"a\" next b foreach ys }\n"
        "       ^\n"
        "help: iterate one of the two over a literal list, which the airflow target writes out "
        "as one task per element\n");

  dag = Compile(R"(@schedule(hourly=true)
flow f {
  param day: str
  step start { run "echo {{day}}" next end }
  step end { run "e" }
}
)",
                &errors);
  CHECK(dag.empty());
  CHECK(Contains(errors,
                 "t.flow:3:9: error: param 'day' has no default, and Airflow cannot "
                 "schedule a DAG with a required param [E050]"));
}

TEST_CASE("airflow: a @parallel step creates the JobSet the jobset target would") {
  std::string dag = Compile(R"(
flow f {
  param p: bool = true
  step start { run "s" next train }
  @parallel(nodes=4)
  @kubernetes(trainium=16)
  step train { run "torchrun {{p}} {{run_id}}" next end }
  step end { run "e" }
}
)");
  // A sensor that holds no worker slot while it waits, and a teardown that
  // deletes the gang however the step ends.
  CHECK(Contains(dag,
                 "    train = task.sensor(**FLOWC_GANG_SENSOR, task_id=\"train\")"
                 "(flowc_gang)(step=\"train\")\n"));
  CHECK(Contains(dag,
                 "    train_teardown = task(task_id=\"train-teardown\")"
                 "(flowc_gang_teardown)(step=\"train\").as_teardown()\n"));
  CHECK(Contains(dag,
                 "FLOWC_GANGS = {\n    \"train\": \"\"\"\\\napiVersion: "
                 "jobset.x-k8s.io/v1alpha2\nkind: JobSet\n"));
  CHECK(Contains(dag, "name: f-train\n"));
  CHECK(Contains(dag, "torchrun {{ params.p | flowc_text }} {{ run_id }}"));
  CHECK(Contains(dag, "user_defined_filters={\"flowc_text\": flowc_text}"));
  CHECK(Contains(dag, "import yaml\n"));
}

TEST_CASE("airflow: step names that Python or the file already uses get other variables") {
  std::string dag = Compile(R"(
flow f {
  step start { run "s" next k8s }
  step k8s { run "a" next task }
  step task { run "b" next class }
  step class { run "c" next end }
  step end { run "e" }
}
)");
  CHECK(Contains(dag, "    k8s_ = KubernetesPodOperator(\n        task_id=\"k8s\",\n"));
  CHECK(Contains(dag, "    task_ = KubernetesPodOperator(\n        task_id=\"task\",\n"));
  CHECK(Contains(dag, "    class_ = KubernetesPodOperator(\n        task_id=\"class\",\n"));
  CHECK(Contains(dag, "    start >> k8s_\n    k8s_ >> task_\n    task_ >> class_\n"));
  std::optional<std::string> out =
      RunPython("compile(" + PythonString(dag) + ", 'dag.py', 'exec')\nprint('ok')\n");
  if (out) CHECK(*out == "ok\n");
}

TEST_CASE("airflow: a hand-built IR flow") {
  // No front end: the backend needs only ir::Flow.
  diag::SourceFile file("hand.flow", "flow hand {}\n");
  diag::Diagnostics diagnostics;
  diag::Reporter report(diagnostics, file);
  ir::Flow flow;
  flow.name = "hand";
  flow.k8s_name = "hand";
  for (const char* name : {"start", "end"}) {
    ir::Step step;
    step.name = name;
    step.k8s_name = name;
    step.pod.image = "busybox";
    step.pod.command = {Split("echo"), Split("'''\"\"\"\\ {% x")};
    step.pod.annotations = {{"a", "{#"}};
    flow.steps.push_back(step);
  }
  flow.steps[0].next = {1};
  flow.steps[1].predecessors = {0};
  StringSink sink;
  REQUIRE(AirflowBackend().Emit(flow, EmitOptions{}, sink, report));
  CHECK(Contains(sink.text(), "cmds=[\"echo\", \"'''\\\"\\\"\\\"\\\\ {{ '{%' }} x\"]"));
  CHECK(Contains(sink.text(), "annotations={\"a\": \"{{ '{#' }}\"}"));
  CHECK(Contains(sink.text(), "params={},\n"));
  CHECK(Contains(sink.text(), "    start >> end\n"));
  CHECK(AirflowBackend().extension() == ".py");
}

TEST_CASE("airflow: a float param default prints with the fewest digits, as the IR's") {
  // nlohmann's dump gives 9.999999999999999e+22 for 1e23 (tests/unit/ir_float_test.cc).
  std::string dag = Compile(R"(
flow f {
  param big: float = 1e23
  param small: float = 0.1
  step start { run "echo {{big}} {{small}}" next end }
  step end { run "true" }
}
)");
  CHECK(Contains(dag, "\"big\": Param(1e+23, type=\"number\")"));
  CHECK(Contains(dag, "\"small\": Param(0.1, type=\"number\")"));
}

}  // namespace
}  // namespace flowc::backends::airflow
