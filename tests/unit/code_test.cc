// @code: reading the files (graph/project_files.cc, graph/code.cc) and the
// ConfigMap they become (ir/code_configmap.cc). Each case builds a project
// folder of its own under the system's temporary folder.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "backends/k8s/objects.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/driver/driver.h"
#include "compiler/ir/code_configmap.h"
#include "compiler/ir/content_key.h"
#include "compiler/ir/ir.h"
#include "compiler/ir/ir_json.h"
#include "compiler/ir/sha256.h"

namespace flowc {
namespace {

// A temporary project folder, removed at the end of the case.
class Project {
 public:
  Project() {
    char pattern[] = "/tmp/flowc-code-test-XXXXXX";
    dir_ = mkdtemp(pattern);
  }
  ~Project() { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  void Write(const std::string& path, const std::string& content) {
    std::string full = dir_ + "/" + path;
    std::system(("mkdir -p \"$(dirname '" + full + "')\"").c_str());
    std::ofstream(full, std::ios::binary) << content;
  }
  void Chmod(const std::string& path, mode_t mode) {
    REQUIRE(chmod((dir_ + "/" + path).c_str(), mode) == 0);
  }
  void Link(const std::string& path, const std::string& target) {
    REQUIRE(symlink(target.c_str(), (dir_ + "/" + path).c_str()) == 0);
  }

  // Compiles `text` as the flow file `f.flow` of the folder.
  void Compile(const std::string& text) {
    file_ = std::make_unique<diag::SourceFile>(dir_ + "/f.flow", text);
    diagnostics_ = diag::Diagnostics();
    flow = driver::Analyze(*file_, diagnostics_);
  }
  // The diagnostics, with the folder's name taken out of the paths.
  std::string errors() const {
    std::string text = diag::RenderText(diagnostics_.all());
    for (size_t at; (at = text.find(dir_ + "/")) != std::string::npos;)
      text.erase(at, dir_.size() + 1);
    return text;
  }
  const ir::Step& step(const std::string& name) const {
    for (const ir::Step& s : flow->steps) {
      if (s.name == name) return s;
    }
    FAIL("no step " << name);
    return flow->steps[0];
  }
  const ir::ConfigMap& configmap(size_t i) const {
    return std::get<ir::ConfigMap>(flow->objects[i].spec);
  }

  std::optional<ir::Flow> flow;

 private:
  std::string dir_;
  std::unique_ptr<diag::SourceFile> file_;
  diag::Diagnostics diagnostics_;
};

std::string Flow(const std::string& flow_decorators, const std::string& end_decorators = "") {
  return flow_decorators + "\nflow f {\n  step start { run \"python a.py\" next end }\n  " +
         end_decorators + "\n  step end { run \"e\" }\n}\n";
}

TEST_CASE("code: keys spell each path reversibly and are valid for Kubernetes") {
  CHECK(ir::ConfigMapKey("train.py") == "train.py");
  CHECK(ir::ConfigMapKey("lib/__init__.py") == "lib--__init__.py");
  CHECK(ir::ConfigMapKey("conf/base-v2.yaml") == "conf--base-2dv2.yaml");
  CHECK(ir::ConfigMapKey("my data/\xc3\xa9t\xc3\xa9.csv") == "my-20data---c3-a9t-c3-a9.csv");
  // Paths that a lossy spelling ('/' and '-' as '_', say) would merge.
  std::set<std::string> keys;
  for (const char* path : {"a/b", "a-b", "a_b", "a--b", "a-2fb", "a/-b", "a-/b", "a//b"}) {
    keys.insert(ir::ConfigMapKey(path));
  }
  CHECK(keys.size() == 8);
  const std::regex valid("[-._a-zA-Z0-9]+");
  for (const std::string& key : keys) {
    CHECK(std::regex_match(key, valid));
    CHECK(key.compare(0, 2, "..") != 0);
  }
}

TEST_CASE("code: a key over 253 characters is cut and ends in a hash of the path") {
  std::string long_path = std::string(300, 'd');
  std::string key = ir::ConfigMapKey(long_path);
  CHECK(key.size() == 253);
  CHECK(key == std::string(235, 'd') + "-h63c29b7d223e3d58");  // sha256("d" * 300)
  // Cut at a character boundary, never inside a "-xx".
  std::string spaced = ir::ConfigMapKey(std::string(78, 'x') + std::string(100, ' '));
  CHECK(spaced.size() <= 253);
  CHECK(spaced.substr(spaced.size() - 18, 2) == "-h");
  CHECK((spaced.size() - 18 - 78) % 3 == 0);
  CHECK(ir::ConfigMapKey(long_path + "a") != ir::ConfigMapKey(long_path + "b"));
}

TEST_CASE("code: text is valid UTF-8 without NUL; anything else is binary") {
  CHECK(ir::IsConfigMapText(""));
  CHECK(ir::IsConfigMapText("print('h\xc3\xa9')\r\n\t\x1b[0m\x7f"));
  CHECK(
      ir::IsConfigMapText("\xef\xbb\xbf"
                          "bom \xf0\x9f\x98\x80 \xe2\x80\xa8 \xef\xbf\xbf"));
  CHECK_FALSE(ir::IsConfigMapText(std::string("a\0b", 3)));  // NUL: UTF-16, binary formats
  CHECK_FALSE(ir::IsConfigMapText("\xff"));                  // never in UTF-8
  CHECK_FALSE(ir::IsConfigMapText("\xc0\xaf"));              // overlong '/'
  CHECK_FALSE(ir::IsConfigMapText("\xe0\x80\xaf"));          // overlong, three bytes
  CHECK_FALSE(ir::IsConfigMapText("\xed\xa0\x80"));          // a surrogate
  CHECK_FALSE(ir::IsConfigMapText("\xf4\x90\x80\x80"));      // above U+10FFFF
  CHECK_FALSE(ir::IsConfigMapText("\xe2\x82"));              // cut short
  CHECK_FALSE(ir::IsConfigMapText("\x80"));                  // a lone continuation
}

TEST_CASE("code: the name hashes every path and every byte") {
  graph::CodeBundle bundle;
  bundle.files = {{"a.py", "print(1)\n"}, {"conf/x.yaml", "a: 1\n"}};
  // sha256 of "a.py\0" "9\0" "print(1)\n" "conf/x.yaml\0" "5\0" "a: 1\n".
  CHECK(ir::CodeConfigMapName("f", bundle) == "f-code-95aab6471c");
  graph::CodeBundle changed = bundle;
  changed.files[1].content = "a: 2\n";
  CHECK(ir::CodeConfigMapName("f", changed) != "f-code-95aab6471c");
  graph::CodeBundle renamed = bundle;
  renamed.files[0].path = "b.py";
  CHECK(ir::CodeConfigMapName("f", renamed) != "f-code-95aab6471c");
  graph::CodeBundle moved = bundle;  // the same bytes, split differently
  moved.files = {{"a.py", "print(1)\nconf/x.yaml"}, {"", "a: 1\n"}};
  CHECK(ir::CodeConfigMapName("f", moved) != "f-code-95aab6471c");
  // A chmod is a change: the pods' items differ, so the name does.
  graph::CodeBundle executable = bundle;
  executable.files[0].executable = true;
  // sha256 of "a.py\0" "9x\0" "print(1)\n" "conf/x.yaml\0" "5\0" "a: 1\n".
  const char nul = '\0';
  CHECK(ir::CodeConfigMapName("f", executable) ==
        "f-code-" + ir::Sha256Hex(std::string("a.py") + nul + "9x" + nul + "print(1)\n" +
                                      "conf/x.yaml" + nul + "5" + nul + "a: 1\n",
                                  10));
  CHECK(ir::CodeConfigMapName("f", executable) != "f-code-95aab6471c");
}

TEST_CASE("code: a file its owner may execute gets mode 0755 in every pod, others none") {
  Project p;
  p.Write("run.sh", "#!/bin/sh\necho hi\n");
  p.Write("group_only.sh", "#!/bin/sh\n");
  p.Write("lib.py", "x = 1\n");
  p.Chmod("run.sh", 0700);
  p.Chmod("group_only.sh", 0654);  // the group's and others' bits are not the owner's
  p.Compile(Flow("@code(files=[\"*\"])"));
  REQUIRE_MESSAGE(p.flow, p.errors());
  const ir::ConfigMap& map = p.configmap(0);
  REQUIRE(map.files.size() == 3);
  CHECK(map.files[0].path == "group_only.sh");
  CHECK(map.files[0].mode == 0);
  CHECK(map.files[1].path == "lib.py");
  CHECK(map.files[1].mode == 0);
  CHECK(map.files[2].path == "run.sh");
  CHECK(map.files[2].mode == 0755);
  CHECK(p.step("start").pod.volumes[0].items ==
        std::vector<ir::KeyToPath>{{"group_only.sh", "group_only.sh", 0},
                                   {"lib.py", "lib.py", 0},
                                   {"run.sh", "run.sh", 493}});
  // The same files without the bit: another ConfigMap.
  std::string name = p.flow->objects[0].name;
  p.Chmod("run.sh", 0600);
  p.Compile(Flow("@code(files=[\"*\"])"));
  REQUIRE_MESSAGE(p.flow, p.errors());
  CHECK(p.flow->objects[0].name != name);
  CHECK(p.configmap(0).files[2].mode == 0);
}

TEST_CASE("code: files are sorted, deduplicated, and land at their relative paths") {
  Project p;
  p.Write("b.py", "b\n");
  p.Write("a.py", "a\n");
  p.Write("conf/x.yaml", "x: 1\n");
  p.Write("conf/sub/deep.yaml", "deep\n");
  p.Write("assets/blob.bin", std::string("\x89PNG\0\xff", 6));
  p.Write(".env", "SECRET=1\n");
  p.Compile(Flow("@code(files=[\"b.py\", \"*\", \"./a.py\", \"conf//*.yaml\", \"assets/*\"])"));
  REQUIRE_MESSAGE(p.flow, p.errors());
  REQUIRE(p.flow->objects.size() == 1);
  const ir::Object& object = p.flow->objects[0];
  CHECK(object.kind() == std::string("ConfigMap"));
  const ir::ConfigMap& map = p.configmap(0);
  // '*' skips folders and the hidden .env; conf/sub is one level down.
  REQUIRE(map.files.size() == 4);
  CHECK(map.files[0].path == "a.py");
  CHECK(map.files[1].path == "assets/blob.bin");
  CHECK(map.files[1].key == "assets--blob.bin");
  CHECK(map.files[1].binary);
  CHECK(map.files[1].content == std::string("\x89PNG\0\xff", 6));
  CHECK(map.files[2].path == "b.py");
  CHECK_FALSE(map.files[2].binary);
  CHECK(map.files[3].path == "conf/x.yaml");
  CHECK(map.files[3].content == "x: 1\n");
}

TEST_CASE("code: every pod gets the volume, a read-only mount and the working directory") {
  Project p;
  p.Write("a.py", "a\n");
  p.Write("b.py", "b\n");
  p.Compile(
      "@code(files=[\"a.py\"])\n@kubernetes(namespace=\"ml\")\nflow f {\n"
      "  step start { run \"s\" next mid }\n"
      "  @code(path=\"/opt/app\")\n  step mid { run \"m\" next other }\n"
      "  @code(files=[\"b.py\"])\n  step other { run \"o\" next end }\n"
      "  @code(files=[\"a.py\"], path=\"/srv\")\n  step end { run \"e\" }\n}\n");
  REQUIRE_MESSAGE(p.flow, p.errors());
  // The flow's files once, the step's own files once: one ConfigMap per
  // content, however many steps and decorators name it.
  REQUIRE(p.flow->objects.size() == 2);
  CHECK(p.flow->objects[0].namespace_ == "ml");
  const std::string shared = p.flow->objects[0].name;
  const std::string other = p.flow->objects[1].name;
  CHECK(shared.rfind("f-code-", 0) == 0);
  CHECK(shared.size() == std::string("f-code-").size() + 10);
  struct Expect {
    const char* step;
    const std::string& configmap;
    const char* path;
  };
  for (const Expect& e : {Expect{"start", shared, "/workspace"}, Expect{"mid", shared, "/opt/app"},
                          Expect{"other", other, "/workspace"}, Expect{"end", shared, "/srv"}}) {
    CAPTURE(e.step);
    const ir::Step& s = p.step(e.step);
    REQUIRE(s.pod.volumes.size() == 1);
    CHECK(s.pod.volumes[0].name == "code");
    CHECK(s.pod.volumes[0].kind == ir::Volume::Kind::kConfigMap);
    CHECK(s.pod.volumes[0].claim_name == e.configmap);
    REQUIRE(s.pod.volume_mounts.size() == 1);
    CHECK(s.pod.volume_mounts[0].mount_path == e.path);
    CHECK(s.pod.volume_mounts[0].read_only);
    CHECK(s.pod.working_dir == e.path);
    REQUIRE(s.objects.size() == 1);
    CHECK(p.flow->objects[s.objects[0]].name == e.configmap);
  }
  CHECK(p.step("other").pod.volumes[0].items == std::vector<ir::KeyToPath>{{"b.py", "b.py", 0}});
}

TEST_CASE("code: one ConfigMap per namespace the files are shipped to") {
  Project p;
  p.Write("a.py", "a\n");
  p.Compile(Flow("@code(files=[\"a.py\"]) @kubernetes(namespace=\"ml\")",
                 "@kubernetes(namespace=\"other\")"));
  REQUIRE_MESSAGE(p.flow, p.errors());
  REQUIRE(p.flow->objects.size() == 2);
  CHECK(p.flow->objects[0].name == p.flow->objects[1].name);
  CHECK(p.flow->objects[0].namespace_ == "ml");
  CHECK(p.flow->objects[1].namespace_ == "other");
  CHECK(p.flow->objects[p.step("end").objects[0]].namespace_ == "other");
}

TEST_CASE("code: a link inside the folder ships its target's bytes at the link's path") {
  Project p;
  p.Write("lib/util.py", "u\n");
  p.Link("util.py", "lib/util.py");
  p.Compile(Flow("@code(files=[\"util.py\"])"));
  REQUIRE_MESSAGE(p.flow, p.errors());
  REQUIRE(p.configmap(0).files.size() == 1);
  CHECK(p.configmap(0).files[0].path == "util.py");
  CHECK(p.configmap(0).files[0].content == "u\n");
}

TEST_CASE("code: 1 MiB fits; one byte more does not, and nothing is read") {
  Project p;
  p.Write("a.bin", std::string(1024 * 1024 - 10, 'a'));
  p.Write("b.txt", std::string(10, 'b'));
  p.Compile(Flow("@code(files=[\"*\"])"));
  REQUIRE_MESSAGE(p.flow, p.errors());
  p.Write("c.txt", "c");
  p.Compile(Flow("@code(files=[\"*\"])"));
  CHECK_FALSE(p.flow);
  CHECK(p.errors() ==
        "f.flow:1:13: error: '@code' ships 1.00 MiB (1048577 bytes) in 3 files, over the 1 MiB "
        "(1048576 bytes) a ConfigMap holds [E064]\n"
        "@code(files=[\"*\"])\n"
        "            ^~~~~\n"
        "note: the largest: 'a.bin' 1024.0 KiB (1048566 bytes), 'b.txt' 10 bytes, 'c.txt' 1 byte\n"
        "help: ship big files in the image or a volume (persistent_volume_claims), and code with "
        "'@code'\n");
}

TEST_CASE("code: a step's own @code is checked and read for that step") {
  Project p;
  p.Write("a.py", "a\n");
  p.Compile(Flow("@code(files=[\"a.py\"])", "@code(files=[\"missing.py\"])"));
  CHECK_FALSE(p.flow);
  CHECK(p.errors() ==
        "f.flow:4:16: error: file 'missing.py' not found in the flow's folder [E060]\n"
        "  @code(files=[\"missing.py\"])\n"
        "               ^~~~~~~~~~~~\n"
        "help: paths are relative to the folder of 'f.flow'\n");
}

TEST_CASE("code: a step's path alone needs the flow's files") {
  Project p;
  p.Compile(Flow("", "@code(path=\"/app\")"));
  CHECK_FALSE(p.flow);
  CHECK(p.errors() ==
        "f.flow:4:3: error: '@code' needs 'files' [E043]\n"
        "  @code(path=\"/app\")\n"
        "  ^~~~~~~~~~~~~~~~~~\n"
        "help: write @code(files=[\"train.py\"]), or give the flow a '@code' whose files the "
        "step's 'path' then moves\n");
}

TEST_CASE("objects: each carries the flow's labels, which neither rename nor change it") {
  Project p;
  p.Write("a.py", "a\n");
  p.Compile(
      "@code(files=[\"a.py\"])\n@kubernetes(namespace=\"ml\")\nflow My_Flow {\n"
      "  step start { run \"s\" next end }\n  step end { run \"e\" }\n}\n");
  REQUIRE_MESSAGE(p.flow, p.errors());
  REQUIRE(p.flow->objects.size() == 1);
  const ir::Object& object = p.flow->objects[0];
  CHECK(object.labels ==
        ir::KeyValues{{"app.kubernetes.io/managed-by", "flowc"}, {"flowc/flow", "my-flow"}});
  // The name hashes the content alone: labels are left out of it.
  ir::Object unlabelled = object;
  unlabelled.labels = ir::KeyValues{};
  CHECK(ir::ObjectContentHash(object) == ir::ObjectContentHash(unlabelled));
  CHECK(ir::ObjectContentKey(object) == ir::ObjectContentKey(unlabelled));
  CHECK(object.name == ir::CodeConfigMapName("my-flow", graph::CodeBundle{{{"a.py", "a\n"}}, 2}));
  // The shared renderer writes them in the metadata; --list-objects names the object as
  // `kubectl get -o name` does.
  CHECK(backends::k8s::ObjectHeadYaml(object) ==
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + object.name +
            "\n  namespace: ml\n  labels:\n    app.kubernetes.io/managed-by: flowc\n"
            "    flowc/flow: my-flow\n");
  CHECK(backends::k8s::ObjectResourceName(object) == "configmap/" + object.name);
}

}  // namespace
}  // namespace flowc
