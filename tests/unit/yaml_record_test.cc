// backends/k8s/yaml_record: a recorded block map written through EmitRecordedMap is, byte for
// byte, what yaml-cpp writes for the same calls, the first time (yaml-cpp writes it) and every
// time after (the text kept), as a map's value and a sequence's item at several depths, in
// the root, around quoted and long strings, and under DoubleQuotedStrings.
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include "backends/k8s/pod_yaml.h"
#include "backends/k8s/yaml_record.h"
#include "compiler/graph/templating.h"

namespace flowc::backends::k8s {
namespace {

class Strings : public StringPolicy {
 public:
  std::string Text(const ir::Text& text) const override { return text.ToFlowString(); }
};

ir::Pod Pod(const std::string& command) {
  ir::Pod pod;
  pod.labels = {{"team", "ml"}, {"yes", "on"}, {"0755", ""}};
  pod.image = "python:3.12-slim";
  pod.command = {graph::SplitReferences("/bin/sh"), graph::SplitReferences("-c"),
                 graph::SplitReferences(command)};
  pod.env = {{"A", "x: y", ""}, {"LONG", std::string(70, 'v') + " #", ""},
             {"IDX", "", "metadata.annotations['x']"}};
  pod.resources.edit().requests = {{"cpu", "96"}, {"memory", "480Gi"}};
  pod.volume_mounts = {{"shm", "/dev/shm"}};
  pod.security_context = ir::SecurityContext{false, true, 1000, std::nullopt, true};
  pod.port = 9102;
  pod.tolerations = {{"k", "Exists", "", "NoSchedule", 600}, {"", "", "", "", std::nullopt}};
  pod.volumes = {{"shm", ir::Volume::Kind::kMemory, "1Gi", ""}};
  return pod;
}

// A document holding `pod`'s template at several places, each written by `write`.
template <typename Write>
std::string Document(const ir::Pod& pod, bool quoted, Write write) {
  YAML::Emitter out;
  std::optional<DoubleQuotedStrings> strings;
  if (quoted) strings.emplace(out);
  write(out, pod);  // the root
  out << YAML::BeginMap << YAML::Key << "a" << YAML::Value;
  write(out, pod);
  out << YAML::Key << "list" << YAML::Value << YAML::BeginSeq;
  write(out, pod);
  out << YAML::BeginMap << YAML::Key << "deeper" << YAML::Value << YAML::BeginSeq;
  write(out, pod);
  write(out, pod);
  out << YAML::EndSeq << YAML::Key << "b" << YAML::Value;
  write(out, pod);
  out << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  return out.c_str();
}

TEST_CASE("EmitRecordedMap writes what yaml-cpp writes for the same calls") {
  const Strings strings;
  for (const char* command : {"python train.py", "a: b # c", "x\ny", "yes"}) {
    for (bool quoted : {false, true}) {
      CAPTURE(command);
      CAPTURE(quoted);
      const ir::Pod pod = Pod(command);
      const std::string expected =
          Document(pod, quoted, [&](YAML::Emitter& out, const ir::Pod& p) {
            EmitPodTemplate(out, p, strings);
          });
      for (int pass = 0; pass < 2; ++pass) {  // the second answers from the kept text
        CAPTURE(pass);
        const std::string got = Document(pod, quoted, [&](YAML::Emitter& out, const ir::Pod& p) {
          YamlRecord record;
          EmitPodTemplate(record, p, strings);
          EmitRecordedMap(out, record);
        });
        CHECK(got == expected);
      }
    }
  }
}

// A stream of more than SinkEmitter::kStreamSteps reaches the sink in chunks: a map read back
// across a chunk's end is written by yaml-cpp and not kept, the others are copied.
TEST_CASE("EmitRecordedMap on a streaming SinkEmitter writes what yaml-cpp writes") {
  const Strings strings;
  std::vector<ir::Pod> pods;
  for (int i = 0; i < 300; ++i) pods.push_back(Pod("step " + std::to_string(i % 7)));
  YAML::Emitter expected;
  expected << YAML::BeginSeq;
  for (const ir::Pod& pod : pods) EmitPodTemplate(expected, pod, strings);
  expected << YAML::EndSeq;
  StringSink sink;
  {
    SinkEmitter out(sink, SinkEmitter::kStreamSteps + 1);
    out.yaml() << YAML::BeginSeq;
    for (const ir::Pod& pod : pods) {
      YamlRecord record;
      EmitPodTemplate(record, pod, strings);
      EmitRecordedMap(out.yaml(), record);
    }
    out.yaml() << YAML::EndSeq;
  }
  CHECK(sink.text().size() > 64 * 1024);
  CHECK(sink.text() == expected.c_str());
}

TEST_CASE("A record replays the calls it holds") {
  YamlRecord record;
  record << YAML::BeginMap;
  Key(record, "n");
  record << YAML::Value << int64_t{-3};
  StringField(record, "s", "null");
  Key(record, "b");
  record << YAML::Value << true;
  Key(record, "v");
  ValueScalar(record, "plain");
  record << YAML::EndMap;
  YAML::Emitter out;
  record.Replay(out);
  CHECK(std::string(out.c_str()) == "n: -3\ns: \"null\"\nb: true\nv: plain");
}

}  // namespace
}  // namespace flowc::backends::k8s
