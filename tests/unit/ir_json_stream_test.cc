// Unit tests of WriteFlowJson (compiler/ir/ir_json.h): the IR text printed one
// member or array element at a time must be, byte for byte, what nlohmann
// prints for the whole tree (FlowToJson(flow).dump(2), floats by
// ShortestFloats, a final newline), on every sample and on flows made to
// stress the glue between pieces: empty arrays and objects, strings with
// quotes, newlines and non-ASCII text, floats, every optional member.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "compiler/ir/ir_json.h"
#include "tests/unit/test_util.h"

namespace flowc::ir {
namespace {

// What FlowToJsonText printed when it dumped the whole tree.
std::string WholeTree(const Flow& flow) { return ShortestFloats(FlowToJson(flow).dump(2)) + "\n"; }

struct Written {
  std::string text;
  std::vector<size_t> pieces;  // the size of each call to `write`
};

Written Stream(const Flow& flow) {
  Written out;
  WriteFlowJson(flow, [&](std::string_view piece) {
    out.text.append(piece);
    out.pieces.push_back(piece.size());
  });
  return out;
}

void CheckSame(const Flow& flow) {
  std::string expected = WholeTree(flow);
  CHECK(Stream(flow).text == expected);
  CHECK(FlowToJsonText(flow) == expected);
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("ir json stream: every sample and test flow prints as the whole tree does") {
  const std::filesystem::path root(FLOWC_SOURCE_DIR);
  std::vector<std::filesystem::path> flows;
  for (const char* dir : {"samples", "tests/flows"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root / dir)) {
      if (entry.path().extension() == ".flow") flows.push_back(entry.path());
    }
  }
  std::sort(flows.begin(), flows.end());
  REQUIRE(flows.size() >= 20);  // the samples and tests/flows of today: the walk found them
  size_t with_objects = 0;
  for (const auto& path : flows) {
    CAPTURE(path.string());
    diag::SourceFile file(path.string(), ReadFile(path));
    diag::Diagnostics diagnostics;
    std::optional<Flow> flow = driver::Analyze(file, diagnostics);
    REQUIRE_MESSAGE(flow.has_value(), diag::RenderText(diagnostics.all()));
    CheckSame(*flow);
    if (!flow->objects.empty()) ++with_objects;
  }
  CHECK(with_objects >= 3);  // the "objects" array is exercised too
}

TEST_CASE("ir json stream: hostile strings, empty lists, floats and a schedule") {
  auto c = testing::Analyze(R"(@schedule(cron="0 3 * * *", timezone="Europe/Paris")
@kubernetes(annotations={"a.b/c": "line\none\ttab \u{e9}\u{65e5}\u{1f680} \\ \"q\""}, labels={})
flow f {
  param rate: float = 1e23
  param half: float = 0.5
  param empty: list = []
  param mixed: list = [1.5, "x\ny", -0.0, true]
  param need: str
  @environment(vars={"Q": "\"\n\r\u{202e}"})
  step start { run ["sh", "-c", "echo \"{{rate}}\"\n", ""] next each foreach [1e23, 2.0, "\u{e9}"] }
  step each { run "echo {{item}}" next join }
  step join { run "j" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(c->flow.has_value(), c->errors());
  CheckSame(*c->flow);
  std::string text = FlowToJsonText(*c->flow);
  // The cases are there: escapes, an empty array, a float printed the shortest way.
  CHECK(text.find(R"("default": [])") != std::string::npos);
  CHECK(text.find(R"("default": 1e+23)") != std::string::npos);
  CHECK(text.find(R"(line\none\ttab)") != std::string::npos);
  CHECK(text.find("\"timezone\": \"Europe/Paris\"") != std::string::npos);
}

TEST_CASE("ir json stream: a pod's shared parts are written once and read back right") {
  // The same interned list of names as envFrom secrets and as image pull secrets (written
  // differently), the same labels as a node selector, parts that differ between steps, and a
  // TrainJob whose runtime holds the step's pod one level deeper than the step does.
  auto c = testing::Analyze(R"(
@kubernetes(secrets=["s1", "s2"], image_pull_secrets=["s1", "s2"],
            labels={"team": "ml"}, node_selector={"team": "ml"})
flow f {
  step start { run "s" next a }
  @kubernetes(cpu=2, tolerations=[{"key": "k", "operator": "Exists"}])
  step a { run "a" next b }
  @kubernetes(cpu=4, labels={"team": "ml", "tier": "x"})
  step b { run "b" next c }
  @parallel(nodes=2)
  @trainjob
  step c { run "c" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(c->flow.has_value(), c->errors());
  CheckSame(*c->flow);
  std::string text = FlowToJsonText(*c->flow);
  CHECK(text.find(R"("envFrom": [)") != std::string::npos);
  CHECK(text.find(R"("imagePullSecrets": [)") != std::string::npos);
  CHECK(text.find(R"("trainingRuntime": {)") != std::string::npos);
}

TEST_CASE("ir json stream: a flow built by hand, with nothing and with odd objects") {
  Flow empty;  // no params, no steps, no objects: "[]" twice and no "objects"
  CheckSame(empty);
  CHECK(FlowToJsonText(empty) ==
        "{\n  \"flow\": \"\",\n  \"k8s_name\": \"\",\n  \"params\": [],\n  \"steps\": []\n}\n");

  Flow flow;
  flow.name = "f\"\n\u00e9";
  flow.k8s_name = "f";
  Param map_default;
  map_default.name = "m";
  map_default.default_json = R"({"a": [1.5, {}, []], "": {"b\"": 1e-7}})";
  Param empty_map;
  empty_map.name = "e";
  empty_map.default_json = "{}";
  flow.params = {map_default, empty_map};
  Step step;
  step.name = "only";
  step.k8s_name = "only";
  flow.steps.push_back(step);
  Object no_files;  // a ConfigMap with no files: "items": []
  no_files.name = "cm";
  no_files.spec = ConfigMap{};
  Object files;
  files.name = "cm2";
  files.namespace_ = "ns";
  files.spec = ConfigMap{{{"k\"ey", "p", "text\nwith \"quotes\"\n", false},
                          {"bin", "b", std::string("\0\xff", 2), true}}};
  flow.objects = {no_files, files};
  CheckSame(flow);
  std::string text = FlowToJsonText(flow);
  CHECK(text.find("\"default\": {}") != std::string::npos);
  CHECK(text.find("\"items\": []") != std::string::npos);
  CHECK(text.find("1e-07") != std::string::npos);
}

TEST_CASE("ir json stream: a large flow reaches the sink in pieces, not as one text") {
  std::string body;
  for (int i = 0; i < 1500; ++i) {
    body += "  step s" + std::to_string(i) + " { run \"echo " + std::to_string(i) + "\" next " +
            (i + 1 < 1500 ? "s" + std::to_string(i + 1) : std::string("end")) + " }\n";
  }
  auto c = testing::Analyze("flow big {\n  step start { run \"s\" next s0 }\n" + body +
                            "  step end { run \"e\" }\n}\n");
  REQUIRE_MESSAGE(c->flow.has_value(), c->errors());
  Written written = Stream(*c->flow);
  CHECK(written.text == WholeTree(*c->flow));
  CHECK(written.pieces.size() > 4);
  // No piece much bigger than the writer's buffer (64 KiB) and one step.
  CHECK(*std::max_element(written.pieces.begin(), written.pieces.end()) < 80 * 1024);
}

}  // namespace
}  // namespace flowc::ir
