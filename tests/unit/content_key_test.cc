// Unit tests of what is computed once per distinct object content: the key
// (compiler/ir/content_key.h), the content hashes of the lowering, and the
// Airflow DAG's objects, whose content YAML is rendered and escaped once
// (backends/k8s/objects.h ObjectHeadYaml/ObjectContentYaml, backends/airflow/
// python.h PythonBlockBody). Each cached path must give the bytes of the
// uncached one.
#include "compiler/ir/content_key.h"

#include <doctest/doctest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "backends/airflow/k8s_delivery.h"
#include "backends/airflow/python.h"
#include "backends/k8s/objects.h"
#include "compiler/ir/ir_json.h"
#include "test_util.h"

namespace flowc {
namespace {

using testing::Analyze;

// A pod with every field set, and quotes, newlines and non-ASCII text where
// a string may hold them.
ir::Pod FullPod() {
  ir::Pod p;
  p.namespace_ = "ml";
  p.labels = {{"team", "a\"b"}};
  p.annotations = {{"note", "line\nnext"}};
  p.container_name = "node";
  p.image = "python:3.12";
  p.env = {{"A", "1", ""}, {"B", "", "metadata.name"}};
  p.env_from_secrets = {"common"};
  p.resources.edit().requests = {{"cpu", "2"}};
  p.resources.edit().limits = {{"cpu", "2"}};
  p.resources.edit().claims = {"neurons"};
  p.volume_mounts = {{"dshm", "/dev/shm", false}, {"code", "/code", true}};
  p.image_pull_policy = "Always";
  p.security_context = ir::SecurityContext{true, false, 1000, 1000, true};
  p.port = 29500;
  p.working_dir = "/code";
  p.service_account_name = "flows";
  p.node_selector = {{"zone", "é"}};
  p.tolerations = {{"k", "Equal", "v", "NoSchedule", 30}};
  p.volumes = {{"dshm", ir::Volume::Kind::kMemory, "64Mi", ""},
               {"code", ir::Volume::Kind::kConfigMap, "", "f-code-1", {{"a.py", "a.py"}}}};
  p.image_pull_secrets = {"regcred"};
  p.resource_claims = {{"neurons", "f-neuron-1"}};
  return p;
}

ir::Object Runtime(const std::string& name, const std::string& ns, ir::Pod pod) {
  return ir::Object{name, ns, {}, ir::TrainingRuntime{4, "", std::move(pod)}};
}

ir::Object ClaimTemplate(const std::string& name) {
  ir::ResourceClaimTemplate t;
  t.request_name = "neurons";
  t.device_class = "neuron.aws.com";
  t.allocation_mode = "ExactCount";
  t.count = 16;
  t.selectors = {"device.attributes['neuron.aws.com'].instanceType == 'trn2.48xlarge'"};
  t.match_attribute = "resource.aws.com/devicegroup16_id";
  t.configs = {{"neuron.aws.com", "neuron.aws.com/v1alphav1", "NeuronConfig", {{"lnc", 1}}}};
  return ir::Object{name, "ml", {}, t};
}

ir::Object Code(const std::string& name, const std::string& ns) {
  ir::ConfigMap map;
  map.files = {{"a.py", "a.py", "print(\"hi\")\n\"\"\"", false},
               {"b.bin", "b.bin", std::string("\0\xff\"", 3), true},
               {"c.txt", "c.txt", "ends in a quote\"", false}};
  return ir::Object{name, ns, {}, map};
}

TEST_CASE("content key: every field of the content changes it; name and namespace do not") {
  const std::string base = ir::ObjectContentKey(Runtime("a", "ml", FullPod()));
  CHECK(ir::ObjectContentKey(Runtime("b", "other", FullPod())) == base);

  // One change per field of the pod and the runtime, each a key of its own.
  std::vector<std::function<void(ir::TrainingRuntime&)>> changes = {
      [](auto& r) { r.num_nodes = 5; },
      [](auto& r) { r.exclusive_topology = "x"; },
      [](auto& r) { r.pod.namespace_ = "m"; },
      [](auto& r) { r.pod.labels.edit()[0].second = "ab"; },
      [](auto& r) { r.pod.annotations.edit().clear(); },
      [](auto& r) { r.pod.container_name = "main"; },
      [](auto& r) { r.pod.image = "python:3.13"; },
      [](auto& r) {
        r.pod.command = {ir::Text{{{ir::Segment::Kind::kLiteral, "x"}}}};
      },
      [](auto& r) {
        r.pod.command = {ir::Text{{{ir::Segment::Kind::kParam, "x"}}}};
      },
      [](auto& r) { r.pod.env.edit()[0].value = "2"; },
      [](auto& r) { r.pod.env.edit()[1].field_path = "metadata.uid"; },
      [](auto& r) { r.pod.env_from_secrets.edit().push_back("more"); },
      [](auto& r) { r.pod.resources.edit().requests[0].second = "3"; },
      [](auto& r) { r.pod.resources.edit().limits.clear(); },
      [](auto& r) { r.pod.resources.edit().claims.clear(); },
      [](auto& r) { r.pod.volume_mounts.edit()[0].read_only = true; },
      [](auto& r) { r.pod.image_pull_policy = "Never"; },
      [](auto& r) { r.pod.security_context->run_as_user = 1001; },
      [](auto& r) { r.pod.security_context->privileged.reset(); },
      [](auto& r) { r.pod.security_context.reset(); },
      [](auto& r) { r.pod.port = 29501; },
      [](auto& r) { r.pod.working_dir = "/"; },
      [](auto& r) { r.pod.service_account_name = "x"; },
      [](auto& r) { r.pod.node_selector.edit().clear(); },
      [](auto& r) { r.pod.tolerations.edit()[0].toleration_seconds.reset(); },
      [](auto& r) { r.pod.tolerations.edit()[0].effect = ""; },
      [](auto& r) { r.pod.volumes.edit()[0].kind = ir::Volume::Kind::kClaim; },
      [](auto& r) { r.pod.volumes.edit()[1].items[0].path = "b.py"; },
      [](auto& r) { r.pod.image_pull_secrets.edit().clear(); },
      [](auto& r) { r.pod.resource_claims.edit()[0].template_name = "f-neuron-2"; },
      // A string's length is part of the key: moving a character across a
      // boundary between two strings is a change.
      [](auto& r) {
        r.pod.labels.edit()[0] = {"tea", "ma\"b"};
      },
  };
  std::set<std::string> keys = {base};
  for (size_t i = 0; i < changes.size(); ++i) {
    ir::Object object = Runtime("a", "ml", FullPod());
    changes[i](std::get<ir::TrainingRuntime>(object.spec));
    CHECK_MESSAGE(keys.insert(ir::ObjectContentKey(object)).second, "change ", i);
  }

  // The kind is part of the key, and so is each field of the other kinds.
  CHECK(keys.insert(ir::ObjectContentKey(ClaimTemplate("a"))).second);
  CHECK(keys.insert(ir::ObjectContentKey(Code("a", "ml"))).second);
  ir::Object claim = ClaimTemplate("a");
  std::get<ir::ResourceClaimTemplate>(claim.spec).configs[0].fields[0].second = 2;
  CHECK(keys.insert(ir::ObjectContentKey(claim)).second);
  ir::Object code = Code("a", "ml");
  std::get<ir::ConfigMap>(code.spec).files[1].binary = false;
  CHECK(keys.insert(ir::ObjectContentKey(code)).second);
}

TEST_CASE("content key: the lowering hashes each runtime as ObjectContentHash does") {
  auto c = Analyze(R"(@kubernetes(namespace="ml")
flow f {
  step start { run "s" next a }
  @parallel(nodes=2) @trainjob step a { run "x" next b }
  @parallel(nodes=2) @trainjob step b { run "y" next c }
  @parallel(nodes=2) @trainjob @kubernetes(cpu=3) step c { run "x" next d }
  @parallel(nodes=2) @trainjob @kubernetes(namespace="other") step d { run "x" next end }
  step end { run "e" }
}
)");
  REQUIRE_MESSAGE(c->flow, c->errors());
  REQUIRE(c->flow->objects.size() == 4);
  std::vector<std::string> hashes;
  for (const ir::Object& object : c->flow->objects) {
    ir::Object content{"", "", {}, object.spec};
    std::string hash = ir::ObjectContentHash(content);
    CHECK(object.name.substr(object.name.size() - hash.size()) == hash);
    hashes.push_back(hash);
  }
  CHECK(hashes[0] == hashes[1]);  // only the command differs: the TrainJob's
  CHECK(hashes[0] != hashes[2]);
  CHECK(hashes[0] != hashes[3]);  // the pod's own namespace is content

  ir::ContentHashes memo;
  ir::Object content{"", "", {}, c->flow->objects[2].spec};
  CHECK(memo.Of(content) == hashes[2]);
  CHECK(&memo.Of(content) == &memo.Of(content));
}

TEST_CASE("objects: the head and content YAML joined are the object's YAML") {
  std::vector<ir::Object> objects = {Runtime("f-a-1", "ml", FullPod()),
                                     Runtime("f-a-1", "", FullPod()), ClaimTemplate("f-neuron-1"),
                                     Code("f-code-1", "ml"), Code("f-code-1", "")};
  for (const ir::Object& object : objects) {
    CHECK(backends::k8s::ObjectHeadYaml(object) + backends::k8s::ObjectContentYaml(object) ==
          backends::k8s::ObjectYaml(object));
  }
}

TEST_CASE("airflow: a block string in parts is the block string of the whole") {
  using backends::airflow::PythonBlockBody;
  using backends::airflow::PythonBlockString;
  using backends::airflow::PythonString;
  using backends::airflow::StringStyle;
  const std::vector<std::string> heads = {"\n", "a: b\n", "q\"\n", "\"\"\n", "\xff\n", "é\n"};
  const std::vector<std::string> tails = {"",
                                          "x",
                                          "\"",
                                          "\"\"\"",
                                          "\"x\"",
                                          "a\\b\n",
                                          "\t",
                                          "\xe2\x80\xae",
                                          "\xff\xfe\"",
                                          "\n\"\n",
                                          "\"\"\"\"\"\"\"",
                                          "é\"\"\n"};
  for (const std::string& head : heads) {
    for (const std::string& tail : tails) {
      CHECK(PythonBlockString({PythonBlockBody(head), PythonBlockBody(tail)}) ==
            PythonString(head + tail, StringStyle::kBlock));
    }
  }
}

TEST_CASE("airflow: FLOWC_OBJECTS renders a repeated content once, with the same bytes") {
  ir::Flow flow;
  ir::Pod other = FullPod();
  other.image = "python:3.13";
  flow.objects = {Runtime("f-a-1", "ml", FullPod()), Runtime("f-b-1", "ml", FullPod()),
                  Runtime("f-c-2", "ml", other),     Runtime("f-d-1", "", FullPod()),
                  ClaimTemplate("f-neuron-1"),       Code("f-code-1", "ml"),
                  Code("f-code-1", "other")};
  // The text as written before the content was cached: each object whole.
  std::string expected;
  for (const ir::Object& object : flow.objects) {
    expected += "    " + backends::airflow::PythonString(backends::airflow::ObjectKey(object)) +
                ": " +
                backends::airflow::PythonString(backends::k8s::ObjectYaml(object),
                                                backends::airflow::StringStyle::kBlock) +
                ",\n";
  }
  backends::StringSink sink;
  backends::airflow::WriteObjectsBlock(flow, sink);
  std::string block = sink.Take();
  size_t start = block.find("FLOWC_OBJECTS = {\n");
  REQUIRE(start != std::string::npos);
  start += std::string("FLOWC_OBJECTS = {\n").size();
  CHECK(block.substr(start) == expected + "}\n");
}

}  // namespace
}  // namespace flowc
