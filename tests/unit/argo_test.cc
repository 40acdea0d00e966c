// Unit tests of the Argo target: the escaping of literal braces and the
// spelling of references (backends/argo/templating.h), checked against a
// small model of Argo's substitution, and the documents the backend writes
// for nested foreach bodies, branches, @parallel steps and the diagnostics.
// (tests/py/argo_model.py models Argo over whole workflows.)
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "backends/argo/argo_backend.h"
#include "backends/argo/split.h"
#include "backends/argo/templating.h"
#include "backends/backend.h"
#include "compiler/driver/driver.h"
#include "compiler/graph/templating.h"
#include "tests/unit/test_util.h"

namespace flowc::backends::argo {
namespace {

using Values = std::map<std::string, std::string>;

// The expressions the Argo target writes, evaluated as expr-lang would with
// the few sprig functions they use; nullopt when a variable is not known in
// this pass (Argo then writes the tag back). Strings only: sprig.fromJson
// and toJson on the element, which holds no character JSON escapes here.
class Expression {
 public:
  Expression(const std::string& text, const Values& values) : text_(text), values_(values) {}

  std::optional<std::string> Evaluate() {
    std::optional<std::string> value = Sum();
    REQUIRE_MESSAGE(at_ == text_.size(), "unexpected expression: " << text_);
    return value;
  }

 private:
  std::optional<std::string> Sum() {
    std::optional<std::string> value = Term();
    while (Skip(" + ")) {
      std::optional<std::string> more = Term();
      if (!value || !more) value.reset();
      if (value) *value += *more;
    }
    return value;
  }

  std::optional<std::string> Term() {
    if (text_[at_] == '\'') {
      size_t close = text_.find('\'', at_ + 1);
      std::string literal = text_.substr(at_ + 1, close - at_ - 1);
      at_ = close + 1;
      return literal;
    }
    const std::pair<const char*, const char*> variables[] = {
        {"inputs.parameters.item", "inputs.parameters.item"},
        {"workflow.parameters['p']", "workflow.parameters.p"}};
    for (const auto& [spelling, key] : variables) {
      if (Skip(spelling)) {
        auto found = values_.find(key);
        if (found == values_.end()) return std::nullopt;
        return found->second;
      }
    }
    size_t paren = text_.find('(', at_);
    REQUIRE_MESSAGE(paren != std::string::npos, "unexpected expression: " << text_);
    std::string name = text_.substr(at_, paren - at_);
    at_ = paren + 1;
    std::vector<std::optional<std::string>> args;
    while (!Skip(")")) {
      Skip(", ");
      args.push_back(Sum());
    }
    for (const auto& arg : args) {
      if (!arg) return std::nullopt;
    }
    if (name == "sprig.replace") return Replace(*args[2], *args[0], *args[1]);
    if (name == "sprig.squote") return "'" + *args[0] + "'";
    if (name == "toJson") return "\"" + *args[0] + "\"";
    if (name == "sprig.fromJson") return args[0]->substr(1, args[0]->size() - 2);
    FAIL("unknown function " << name);
    return std::nullopt;
  }

  static std::string Replace(const std::string& src, const std::string& old,
                             const std::string& with) {
    std::string out;
    for (size_t i = 0; i < src.size();) {
      if (src.compare(i, old.size(), old) == 0) {
        out += with;
        i += old.size();
      } else {
        out += src[i++];
      }
    }
    return out;
  }

  bool Skip(std::string_view token) {
    if (text_.compare(at_, token.size(), token) != 0) return false;
    at_ += token.size();
    return true;
  }

  const std::string& text_;
  const Values& values_;
  size_t at_ = 0;
};

// One pass of Argo's util/template over one string: fasttemplate's scan (a
// tag runs from `{{` to the first `}}`), expressions evaluated, simple tags
// looked up trimmed and then as the nested tag after the last `{{`, anything
// unresolved written back.
std::string ArgoPass(const std::string& text, const Values& values) {
  auto trim = [](std::string s) {
    size_t b = s.find_first_not_of(" \t\n\r");
    if (b == std::string::npos) return std::string();
    return s.substr(b, s.find_last_not_of(" \t\n\r") - b + 1);
  };
  std::string out;
  size_t i = 0;
  while (true) {
    size_t start = text.find("{{", i);
    size_t end = start == std::string::npos ? start : text.find("}}", start + 2);
    if (end == std::string::npos) return out + text.substr(i);
    out += text.substr(i, start - i);
    std::string tag = text.substr(start + 2, end - start - 2);
    i = end + 2;
    if (!tag.empty() && tag[0] == '=') {
      // Only flowc's own expressions are evaluated; any other is text here.
      bool ours = tag.rfind("='", 0) == 0 || tag.rfind("=sprig.", 0) == 0;
      std::optional<std::string> value =
          ours ? Expression(tag.substr(1), values).Evaluate() : std::nullopt;
      out += value ? *value : "{{" + tag + "}}";
      continue;
    }
    auto found = values.find(trim(tag));
    if (found != values.end()) {
      out += found->second;
      continue;
    }
    size_t nested = tag.rfind("{{");
    if (nested != std::string::npos && nested > 0 && values.count(tag.substr(nested + 2))) {
      out += "{{" + tag.substr(0, nested) + values.at(tag.substr(nested + 2));
      continue;
    }
    out += "{{" + tag + "}}";
  }
}

// Argo's three passes for a container's strings (3.x: globals, inputs,
// the pod), with every variable a literal could collide with defined. The
// element is carried encoded (EncodeItem).
std::string ArgoPasses(const std::string& text) {
  Values globals = {{"workflow.name", "wf-1"},
                    {"workflow.parameters.p", "P"},
                    {"workflow.uid", "u-1"},
                    {"pod.name", "wf-1-x-1"}};
  Values inputs = {{"inputs.parameters.item", EncodeItem("I")}};
  Values all = globals;
  all.insert(inputs.begin(), inputs.end());
  return ArgoPass(ArgoPass(ArgoPass(text, globals), inputs), all);
}

ir::Text Flow(const std::string& text) { return graph::SplitReferences(text); }

bool UsesItem(const ir::Text& text) {
  for (const graph::Segment& segment : text.segments) {
    if (segment.kind == graph::Segment::Kind::kItem) return true;
  }
  return false;
}

RefContext Container(const ir::Text& text) { return {RefStyle::kContainer, UsesItem(text)}; }

// The flow text with its references replaced as ArgoPasses replaces them.
std::string Expected(const ir::Text& text) {
  std::string out;
  for (const graph::Segment& segment : text.segments) {
    switch (segment.kind) {
      case graph::Segment::Kind::kLiteral: out += segment.text; break;
      case graph::Segment::Kind::kGang: out += "$(G)"; break;
      case graph::Segment::Kind::kParam: out += "P"; break;
      case graph::Segment::Kind::kItem: out += "I"; break;
      case graph::Segment::Kind::kRunId: out += "wf-1"; break;
    }
  }
  return out;
}

TEST_CASE("argo: literal braces are written as expressions that yield them") {
  CHECK(EscapeLiteral("") == "");
  CHECK(EscapeLiteral("echo hi") == "echo hi");
  CHECK(EscapeLiteral("a{b}c") == "a{b}c");
  CHECK(EscapeLiteral("}}") == "}}");
  CHECK(EscapeLiteral("{{") == "{{='{{'}}");
  CHECK(EscapeLiteral("x{{{y") == "x{{='{{{'}}y");
  CHECK(EscapeLiteral("{{.State}} {{") == "{{='{{'}}.State}} {{='{{'}}");
  CHECK(EscapeLiteral("a{") == "a{");
  CHECK(EscapeLiteral("a{", /*tag_follows=*/true) == "a{{='{'}}");
}

TEST_CASE("argo: references in a container and in a manifest") {
  const std::string p = "sprig.replace('$', '$$', workflow.parameters['epochs'])";
  const std::string item =
      "sprig.replace('$', '$$', sprig.fromJson(sprig.replace('x', inputs.parameters.item, "
      "toJson('x'))))";
  const std::string hide = "sprig.replace('{', '{' + '{=' + sprig.squote('{') + '}' + '}', ";
  CHECK(TranslateText(Flow("--epochs {{epochs}} --run {{run_id}}"),
                      {RefStyle::kContainer, false}) ==
        "--epochs {{=" + p + "}} --run {{workflow.name}}");
  // With the element, a param's braces are hidden from the pass that decodes it.
  CHECK(TranslateText(Flow("{{epochs}} {{ item }}"), {RefStyle::kContainer, true}) ==
        "{{=" + hide + p + ")}} {{=" + item + "}}");
  CHECK(TranslateText(Flow("{{in}}/{{item}}"), {RefStyle::kManifest, true}) ==
        "{{=" + hide +
            "sprig.regexReplaceAll('^.|.$', toJson(sprig.replace('$', '$$', "
            "workflow.parameters['in'])), ''))}}/{{=sprig.regexReplaceAll('^.|.$', toJson(" +
            item + "), '')}}");
  // Braces right before a value go into its expression.
  CHECK(TranslateText(Flow("{{{epochs}}}"), {RefStyle::kContainer, false}) ==
        "{{='{' + " + p + "}}}");
  CHECK(TranslateText(Flow("x{{{item}}}"), {RefStyle::kContainer, true}) ==
        "x{{='{' + " + item + "}}}");
  CHECK(TranslateText(Flow("{{{{item}}"), {RefStyle::kContainer, true}) ==
        "{{='{{' + " + item + "}}");
  // A brace right before the run id, resolved in the same pass.
  CHECK(TranslateText(Flow("{{{run_id}}"), {RefStyle::kContainer, false}) ==
        "{{='{'}}{{workflow.name}}");
}

TEST_CASE("argo: an element travels as the body of its JSON string literal") {
  CHECK(EncodeItem("plain") == "plain");
  CHECK(EncodeItem("{{ds}} $x") == R"(\u007b\u007bds\u007d\u007d $x)");
  CHECK(EncodeItem("say \"hi\"\n\\") == R"(say \"hi\"\n\\)");
  CHECK(EncodeItem("\x7f\x01 \xc3\xbc") == "\\u007f\\u0001 \xc3\xbc");
  // Each JSON string and number of the param's text marked before fromJson (which reads
  // every number as a float64), a string element unmarked, any other element as JSON with
  // its numbers' own text; tests/py/test_runtime_values.py runs it through the model.
  CHECK(ItemsOfParam("xs") ==
        R"({{=toJson(map(sprig.fromJson(sprig.regexReplaceAll()"
        R"('\x22((?:[^\x22\\\\]|\\\\.)*)\x22|(-?[0-9][-+.0-9eE]*)', workflow.parameters['xs'], )"
        R"('\x22\\u0002$1\\u0000$2\x22')), sprig.replace('\x7f', '\\u007f', )"
        R"(sprig.replace('}', '\\u007d', sprig.replace('{', '\\u007b', )"
        R"(sprig.regexReplaceAll('^.|.$', toJson(sprig.kindIs('string', #) && )"
        R"(sprig.hasSuffix('\x00', #) ? sprig.trimPrefix('\x02', sprig.trimSuffix('\x00', #)) : )"
        R"(sprig.replace('\x03', '\\\\', sprig.replace('\\u2029', '\u2029', )"
        R"(sprig.replace('\\u2028', '\u2028', sprig.replace('\\\\', '\x03', )"
        R"(sprig.regexReplaceAll('\x22\\\\u0002((?:[^\x22\\\\]|\\\\.)*)\\\\u0000\x22', )"
        R"(sprig.regexReplaceAll('\x22\\\\u0002\\\\u0000(-?[0-9][-+.0-9eE]*)\x22', )"
        R"(sprig.toRawJson(#), '$1'), '\x22$1\x22')))))), ''))))))}})");
}

TEST_CASE("argo: hostile strings reach the container through Argo's three passes") {
  const char* hostile[] = {
      "docker inspect --format '{{.State.Running}}' web",
      "{{ user.name }} {{",
      "}}{{",
      "{{{ {% {# #} %} }}}",
      "{{'{{'}}",
      "{{-x}} {{ 1 }}",
      "x{{{item}}}",
      "{{{{item}}}}",
      "{{item}}{",
      "${{item}} {{p}}{{item}} {{{p}}}",
      "'\"\"\"''' \\ \r\n{",
      "{{run_id}}{{{run_id}}}",
      "{{ a.b }} {{item}} {{ c.d }}",
  };
  for (const char* text : hostile) {
    CAPTURE(text);
    ir::Text flow = Flow(text);
    REQUIRE(LiteralsArgoWouldRead(flow, Container(flow)).empty());
    CHECK(ArgoPasses(TranslateText(flow, Container(flow))) == Expected(flow));
  }
}

TEST_CASE("argo: literal text Argo would read as its own tag is found") {
  using V = std::vector<std::string>;
  CHECK(LiteralsArgoWouldRead("echo {{workflow.name}} and {{=1+1}}") ==
        V{"{{workflow.name}}", "{{=1+1}}"});
  CHECK(LiteralsArgoWouldRead("{{ pod.name }}") == V{"{{ pod.name }}"});
  CHECK(LiteralsArgoWouldRead("{{ x {{inputs.parameters.y}}") ==
        V{"{{ x {{inputs.parameters.y}}"});
  CHECK(LiteralsArgoWouldRead("{{ foo.bar }} {{.Values}} {{ item }} }}{{").empty());
  // The element is decoded by an expression, which Argo does not evaluate
  // inside another tag; nor the hidden braces of a param next to it.
  CHECK(LiteralsArgoWouldRead(Flow("{{ab {{item}}"), {RefStyle::kContainer, true}) ==
        V{"{{ab {{item}}"});
  CHECK(LiteralsArgoWouldRead(Flow("{{ab {{p}} }} {{item}}"), {RefStyle::kContainer, true}) ==
        V{"{{ab {{p}} }}"});
  CHECK(LiteralsArgoWouldRead(Flow("{{ab {{p}} }}"), {RefStyle::kContainer, false}).empty());
  // An unclosed `{{` runs on into the rest of the template's text: unsafe
  // when an expression of the element's pass follows, here or later.
  CHECK(LiteralsArgoWouldRead("echo '{{'").empty());
  CHECK(LiteralsArgoWouldRead("echo '{{'", /*pending_after=*/true) == V{"{{'"});
  CHECK(LiteralsArgoWouldRead(Flow("'{{' {{item}}"), {RefStyle::kContainer, true}) ==
        V{"{{' {{item}}"});
  CHECK(LiteralsArgoWouldRead(Flow("'{{' {{p}}"), {RefStyle::kContainer, true}) ==
        V{"{{' {{p}}"});
  CHECK(LiteralsArgoWouldRead(Flow("'{{' {{p}}"), {RefStyle::kContainer, false}).empty());
  CHECK(LiteralsArgoWouldRead(Flow("{{item}} '{{'"), {RefStyle::kContainer, true}).empty());
  CHECK(LiteralsArgoWouldRead(Flow("{{item}} '{{'"), {RefStyle::kContainer, true},
                              /*pending_after=*/true) == V{"{{'"});
  CHECK(HasPendingReference(Flow("{{p}}"), {RefStyle::kContainer, true}));
  CHECK(!HasPendingReference(Flow("{{p}} {{run_id}}"), {RefStyle::kContainer, false}));
}

// Property: over strings built from tokens that make tags, every string
// whose literal braces are not reported survives the three passes exactly.
TEST_CASE("argo: escaping survives Argo's passes for every string it accepts") {
  const std::vector<std::string> tokens = {"{", "}", "=", " ", "x", "'", ".", "{{item}}",
                                           "{{p}}", "{{run_id}}", "workflow.name", "pod.name",
                                           "inputs.parameters.item"};
  std::mt19937 random(20261122);
  int accepted = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    size_t length = 1 + random() % 7;
    for (size_t i = 0; i < length; ++i) text += tokens[random() % tokens.size()];
    ir::Text flow = Flow(text);
    if (!LiteralsArgoWouldRead(flow, Container(flow)).empty()) continue;
    ++accepted;
    CAPTURE(text);
    REQUIRE(ArgoPasses(TranslateText(flow, Container(flow))) == Expected(flow));
  }
  CHECK(accepted > 10000);
}

// --- the backend ------------------------------------------------------------

struct Emitted {
  std::unique_ptr<testing::Compiled> compiled;
  bool ok = false;
  std::string yaml;
  std::vector<YAML::Node> docs;

  std::string errors() const { return compiled->errors(); }
  YAML::Node Template(const std::string& name) const {
    for (const YAML::Node& t : docs[0]["spec"]["templates"]) {
      if (t["name"].as<std::string>() == name) return t;
    }
    FAIL("no template " << name);
    return {};
  }
  YAML::Node Task(const std::string& dag, const std::string& name) const {
    for (const YAML::Node& t : Template(dag)["dag"]["tasks"]) {
      if (t["name"].as<std::string>() == name) return t;
    }
    FAIL("no task " << name << " in " << dag);
    return {};
  }
};

Emitted Emit(const std::string& source) {
  Emitted out;
  out.compiled = testing::Analyze(source);
  REQUIRE_MESSAGE(out.compiled->flow.has_value(), out.compiled->errors());
  diag::Reporter report(out.compiled->diagnostics, *out.compiled->file);
  StringSink sink;
  out.ok = ArgoBackend().Emit(*out.compiled->flow, EmitOptions{}, sink, report);
  out.yaml = sink.text();
  if (out.ok) out.docs = YAML::LoadAll(out.yaml);
  return out;
}

std::string Names(const YAML::Node& seq, const char* key = "name") {
  std::string out;
  for (const YAML::Node& n : seq) out += (out.empty() ? "" : ",") + n[key].as<std::string>();
  return out;
}

// A flow refused for its size is not rendered, but the literals its pods'
// strings hold are reported all the same: a container's and a gang's.
TEST_CASE("argo: a flow over Argo's limits reports every literal Argo would read") {
  std::string source = "@kubernetes(namespace=\"ml\", image=\"busybox\")\nflow big {\n";
  auto name = [](int i) {
    return i == 0 ? std::string("start") : i == 200 ? std::string("end") : fmt::format("s{}", i);
  };
  for (int i = 0; i <= 200; ++i) {
    if (i == 7) source += "  @environment(vars={\"X\": \"{{workflow.name}}\"})\n";
    if (i == 9) source += "  @parallel(nodes=2)\n  @environment(vars={\"Y\": \"{{=1+1}}\"})\n";
    source += fmt::format("  step {} {{\n    run \"echo {}\"\n", name(i), i);
    if (i < 200) source += fmt::format("    next {}\n", name(i + 1));
    source += "  }\n";
  }
  source += "}\n";
  Emitted e = Emit(source);
  CHECK(!e.ok);
  CHECK(e.yaml.empty());
  std::vector<std::string> messages;
  for (const diag::Diagnostic& d : e.compiled->diagnostics.all()) messages.push_back(d.message);
  // 201 steps are split, not refused (backends/argo/split.h): only the literals are reported.
  REQUIRE(messages.size() == 2);
  CHECK(messages[0].find("step 's7' has the text '{{workflow.name}}'") != std::string::npos);
  CHECK(messages[1].find("step 's9' has the text '{{=1+1}}'") != std::string::npos);
}

TEST_CASE("argo: a nested foreach is a DAG in a DAG, each with its element") {
  Emitted e = Emit(R"(
@kubernetes(namespace="ml", image="busybox")
flow sweep {
  param regions: list = ["a", "b"]
  step start { run "s" next region foreach regions }
  step region { run "r {{item}}" next bench foreach ["small", "large"] }
  step bench { run "b {{item}}" next summarize }
  step summarize { run "m {{item}}" next compare }
  step compare { run "c" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(e.ok, e.errors());
  CHECK(e.docs.size() == 1);
  YAML::Node spec = e.docs[0]["spec"];
  CHECK(spec["entrypoint"].as<std::string>() == "main");
  CHECK(Names(spec["templates"]) ==
        "main,region-foreach,bench-foreach,start,region,bench,summarize,compare,end");
  CHECK(Names(e.Template("main")["dag"]["tasks"]) == "start,region-foreach,compare,end");

  YAML::Node outer = e.Task("main", "region-foreach");
  CHECK(outer["depends"].as<std::string>() == "start");
  CHECK(outer["withParam"].as<std::string>() == ItemsOfParam("regions"));
  CHECK(outer["arguments"]["parameters"][0]["value"].as<std::string>() == "{{item}}");
  CHECK(e.Task("main", "compare")["depends"].as<std::string>() == "region-foreach");

  YAML::Node body = e.Template("region-foreach");
  CHECK(body["inputs"]["parameters"][0]["name"].as<std::string>() == "item");
  CHECK(Names(body["dag"]["tasks"]) == "region,bench-foreach,summarize");
  CHECK(!e.Task("region-foreach", "region")["depends"]);
  CHECK(e.Task("region-foreach", "region")["arguments"]["parameters"][0]["value"]
            .as<std::string>() == "{{inputs.parameters.item}}");
  YAML::Node inner = e.Task("region-foreach", "bench-foreach");
  CHECK(inner["depends"].as<std::string>() == "region");
  CHECK(inner["withItems"].size() == 2);
  CHECK(inner["withItems"][1].as<std::string>() == "large");
  CHECK(e.Task("region-foreach", "summarize")["depends"].as<std::string>() == "bench-foreach");
  CHECK(Names(e.Template("bench-foreach")["dag"]["tasks"]) == "bench");

  // Pod fields are on the leaves only.
  CHECK(!e.Template("main")["serviceAccountName"]);
  CHECK(e.Template("bench")["container"]["command"][2].as<std::string>() ==
        "b " + ItemRef({RefStyle::kContainer, true}));
  CHECK(e.Template("bench")["inputs"]["parameters"][0]["name"].as<std::string>() == "item");
  CHECK(!e.Template("compare")["inputs"]);
}

TEST_CASE("argo: a branch's join waits for every arm; names never collide") {
  Emitted e = Emit(R"(
flow f {
  step start { run "s" next main, other }
  step main { run "a" next join }
  step other { run "b" next main_foreach }
  step main_foreach { run "c" next join }
  step join { run "j" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(e.ok, e.errors());
  CHECK(e.docs[0]["spec"]["entrypoint"].as<std::string>() == "main-2");
  CHECK(e.Task("main-2", "join")["depends"].as<std::string>() == "main && main-foreach");
  CHECK(!e.docs[0]["metadata"]["namespace"]);
}

TEST_CASE("argo: a @parallel step creates its JobSet; one per element and attempt") {
  Emitted e = Emit(R"(
@kubernetes(namespace="ml", image="busybox")
flow train {
  param lr: float = 0.1
  step start { run "s" next gang foreach ["a", "b"] }
  @parallel(nodes=4)
  @retry(times=2, minutes_between_retries=5)
  step gang { run ["torchrun", "--lr={{lr}}", "{{item}}"] next done }
  step done { run "d" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(e.ok, e.errors());
  YAML::Node resource = e.Template("gang")["resource"];
  CHECK(resource["action"].as<std::string>() == "create");
  CHECK(resource["setOwnerReference"].as<bool>());
  CHECK(resource["successCondition"].as<std::string>() == "status.terminalState == Completed");
  CHECK(resource["failureCondition"].as<std::string>() == "status.terminalState == Failed");
  // Argo retries the step, each attempt with a JobSet of its own, after the
  // wait; the JobSet never restarts.
  YAML::Node retry = e.Template("gang")["retryStrategy"];
  CHECK(retry["limit"].as<int>() == 2);
  CHECK(retry["backoff"]["duration"].as<std::string>() == "5m");
  CHECK(!e.Template("gang")["activeDeadlineSeconds"]);
  YAML::Node jobset = YAML::Load(resource["manifest"].as<std::string>());
  CHECK(jobset["kind"].as<std::string>() == "JobSet");
  CHECK(jobset["metadata"]["name"].as<std::string>() ==
        "{{workflow.name}}-gang-{{=sprig.trunc(5, sprig.sha1sum(pod.name))}}");
  CHECK(jobset["metadata"]["namespace"].as<std::string>() == "ml");
  CHECK(!jobset["spec"]["failurePolicy"]);
  YAML::Node job = jobset["spec"]["replicatedJobs"][0]["template"]["spec"];
  CHECK(job["parallelism"].as<int>() == 4);
  CHECK(!job["activeDeadlineSeconds"]);
  YAML::Node command = job["template"]["spec"]["containers"][0]["command"];
  CHECK(command[1].as<std::string>() == "--lr=" + ParamRef("lr", {RefStyle::kManifest, true}));
  // Values are spliced into the manifest's text: every string is quoted.
  CHECK(resource["manifest"].as<std::string>().find("\"kind\": \"JobSet\"") != std::string::npos);
}

TEST_CASE("argo: @timeout bounds a gang's wait and deletes the gang a failed attempt leaves") {
  Emitted e = Emit(R"(
@kubernetes(namespace="ml", image="busybox")
flow train {
  step start { run "s" next gang foreach ["a", "b"] }
  @parallel(nodes=4)
  @retry(times=2, minutes_between_retries=5)
  @timeout(hours=1)
  step gang { run ["torchrun", "{{item}}"] next done }
  @trainjob(runtime="torch-distributed")
  @parallel(nodes=2)
  @timeout(minutes=10)
  step done { run "d" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(e.ok, e.errors());
  // The step's template is a DAG around the gang, and it is what Argo retries.
  YAML::Node wrapper = e.Template("gang");
  CHECK(wrapper["retryStrategy"]["limit"].as<int>() == 2);
  CHECK(wrapper["inputs"]["parameters"][0]["name"].as<std::string>() == "item");
  REQUIRE(wrapper["dag"]["tasks"].size() == 1);
  YAML::Node task = wrapper["dag"]["tasks"][0];
  CHECK(task["template"].as<std::string>() == "gang-gang");
  const std::string name =
      "{{workflow.name}}-gang-{{=sprig.trunc(5, sprig.sha1sum(node.name))}}-{{retries}}";
  CHECK(task["arguments"]["parameters"][0]["value"].as<std::string>() == name);
  CHECK(task["arguments"]["parameters"][1]["value"].as<std::string>() ==
        "{{inputs.parameters.item}}");
  YAML::Node hook = task["hooks"]["exit"];
  CHECK(hook["expression"].as<std::string>() == "tasks.gang.status != 'Succeeded'");
  CHECK(hook["template"].as<std::string>() == "gang-delete");
  CHECK(hook["arguments"]["parameters"][0]["value"].as<std::string>() == name);
  // The creating template: its pod's deadline is @timeout; it does not retry itself.
  YAML::Node gang = e.Template("gang-gang");
  CHECK(gang["activeDeadlineSeconds"].as<int>() == 3600);
  CHECK(!gang["retryStrategy"]);
  YAML::Node jobset = YAML::Load(gang["resource"]["manifest"].as<std::string>());
  CHECK(jobset["metadata"]["name"].as<std::string>() == "{{inputs.parameters.gang}}");
  CHECK(jobset["spec"]["replicatedJobs"][0]["template"]["spec"]["activeDeadlineSeconds"]
            .as<int>() == 3600);
  YAML::Node remove = e.Template("gang-delete")["resource"];
  CHECK(remove["action"].as<std::string>() == "delete");
  CHECK(remove["manifest"].as<std::string>() ==
        "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n"
        "  name: \"{{inputs.parameters.gang}}\"\n  namespace: ml\n");
  // A TrainJob the same way; outside a foreach and not retried, its name is the run's.
  YAML::Node train = e.Template("done")["dag"]["tasks"][0];
  CHECK(train["arguments"]["parameters"][0]["value"].as<std::string>() ==
        "{{workflow.name}}-done");
  CHECK(e.Template("done-gang")["activeDeadlineSeconds"].as<int>() == 600);
  CHECK(YAML::Load(e.Template("done-delete")["resource"]["manifest"].as<std::string>())["kind"]
            .as<std::string>() == "TrainJob");
}

TEST_CASE("argo: retries, timeouts, params and the CronWorkflow") {
  Emitted e = Emit(R"(
@schedule(cron="0 3 * * *", timezone="Europe/Berlin")
@kubernetes(namespace="ml", image="busybox")
flow nightly {
  param epochs: int = 3
  param name: str = "yes"
  param shards: list = ["a", "b"]
  @retry(times=3, minutes_between_retries=2)
  @timeout(minutes=5)
  step start { run "s {{epochs}}" next end }
  @retry(times=0)
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(e.ok, e.errors());
  REQUIRE(e.docs.size() == 2);
  YAML::Node params = e.docs[0]["spec"]["arguments"]["parameters"];
  CHECK(params[0]["value"].as<std::string>() == "3");
  CHECK(params[1]["value"].as<std::string>() == "yes");
  CHECK(params[2]["value"].as<std::string>() == R"(["a","b"])");
  // Quoted, so that no YAML reader takes them for a number or a bool.
  CHECK(e.yaml.find("value: \"3\"") != std::string::npos);
  CHECK(e.yaml.find("value: \"yes\"") != std::string::npos);

  YAML::Node retry = e.Template("start")["retryStrategy"];
  CHECK(retry["limit"].as<int>() == 3);
  CHECK(retry["retryPolicy"].as<std::string>() == "Always");
  CHECK(retry["backoff"]["duration"].as<std::string>() == "2m");
  CHECK(e.Template("start")["activeDeadlineSeconds"].as<int>() == 300);
  CHECK(!e.Template("end")["retryStrategy"]);

  YAML::Node cron = e.docs[1];
  CHECK(cron["kind"].as<std::string>() == "CronWorkflow");
  CHECK(cron["metadata"]["name"].as<std::string>() == "nightly");
  CHECK(cron["metadata"]["namespace"].as<std::string>() == "ml");
  CHECK(cron["spec"]["schedules"][0].as<std::string>() == "0 3 * * *");
  CHECK(cron["spec"]["timezone"].as<std::string>() == "Europe/Berlin");
  CHECK(cron["spec"]["workflowSpec"]["workflowTemplateRef"]["name"].as<std::string>() ==
        "nightly");
}

TEST_CASE("argo: imagePullSecrets go on the workflow when every pod agrees") {
  Emitted same = Emit(R"(
@kubernetes(image="busybox", image_pull_secrets=["a", "b"])
flow f {
  step start { run "s" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(same.ok, same.errors());
  CHECK(Names(same.docs[0]["spec"]["imagePullSecrets"]) == "a,b");
  CHECK(!same.Template("start")["podSpecPatch"]);

  Emitted mixed = Emit(R"(
@kubernetes(image="busybox", image_pull_secrets=["a"])
flow f {
  step start { run "s" next end }
  @kubernetes(image_pull_secrets=["c"])
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(mixed.ok, mixed.errors());
  CHECK(!mixed.docs[0]["spec"]["imagePullSecrets"]);
  YAML::Node patch = YAML::Load(mixed.Template("end")["podSpecPatch"].as<std::string>());
  CHECK(Names(patch["imagePullSecrets"]) == "c");
  CHECK(Names(YAML::Load(mixed.Template("start")["podSpecPatch"].as<std::string>())
                  ["imagePullSecrets"]) == "a");
}

TEST_CASE("argo: what Argo cannot run is reported, and nothing is written") {
  Emitted e = Emit(R"(
@schedule(daily=true)
flow a_flow_whose_name_is_far_too_long_for_a_cron_workflow_x {
  param ds: str
  @kubernetes(namespace="one")
  step start { run "echo {{ds}} {{ workflow.name }}" next end }
  @kubernetes(namespace="two")
  step end { run "e" }
}
)");
  CHECK(!e.ok);
  std::string errors = e.errors();
  CHECK(errors.find("step 'end' runs in namespace 'two' but step 'start' in namespace 'one'; "
                    "target 'argo' runs a whole workflow in one namespace [E050]") !=
        std::string::npos);
  CHECK(errors.find("param 'ds' has no default, but a scheduled run of flow") !=
        std::string::npos);
  CHECK(errors.find("(55 characters); Argo allows at most 52 [E051]") != std::string::npos);
  CHECK(errors.find("step 'start' has the text '{{ workflow.name }}', which Argo would read "
                    "as its own template tag [E050]") != std::string::npos);
  // The backend may have written before it found the tag; the driver drops what it wrote.
  diag::Reporter report(e.compiled->diagnostics, *e.compiled->file);
  CHECK(!driver::Render(*e.compiled->flow, "argo", report));
}

TEST_CASE("argo: a JobSet whose pod names would be too long is reported") {
  Emitted e = Emit(R"(
flow a_rather_long_flow_name_for_jobsets {
  step start { run "s" next a_long_parallel_step_name }
  @parallel(nodes=16)
  step a_long_parallel_step_name { run "p" next end }
  step end { run "e" }
}
)");
  CHECK(!e.ok);
  CHECK(e.errors().find("[E051]") != std::string::npos);
}

TEST_CASE("argo: a further WorkflowTemplate's name fits Argo's 63 characters") {
  ir::Flow flow;
  flow.k8s_name = "nightly-train";
  CHECK(PartName(flow, 0) == "nightly-train");
  CHECK(PartName(flow, 1) == "nightly-train-part-1");
  CHECK(PartName(flow, 12) == "nightly-train-part-12");
  // Cut to fit, and never ending in '-' before the suffix.
  flow.k8s_name = std::string(50, 'a') + "-b" + std::string(11, 'c');
  REQUIRE(flow.k8s_name.size() == 63);
  CHECK(PartName(flow, 0) == flow.k8s_name);
  CHECK(PartName(flow, 3) == std::string(50, 'a') + "-b" + std::string(4, 'c') + "-part-3");
  CHECK(PartName(flow, 3).size() == 63);
  CHECK(PartName(flow, 123).size() == 63);
  flow.k8s_name = std::string(55, 'a') + "-" + std::string(7, 'b');
  CHECK(PartName(flow, 1) == std::string(55, 'a') + "-part-1");
}

}  // namespace
}  // namespace flowc::backends::argo
