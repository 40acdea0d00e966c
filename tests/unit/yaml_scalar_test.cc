// backends/k8s/yaml_scalar: BlockScalar writes what `out << text` writes, byte for byte, for
// strings yaml-cpp writes plain and for those it must quote, as keys, values and items, the
// first time and every time after (when the answer is remembered).
#include "backends/k8s/yaml_scalar.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace flowc::backends::k8s {
namespace {

const std::vector<std::string>& Strings() {
  static const std::vector<std::string> strings = [] {
    std::vector<std::string> s = {
        "name", "nvidia.com/gpu", "8Gi", "python -m train", "a: b", "a:b", "a #b", "a#b",
        "- x", "-x", "? x", "?x", ": x", "x:", "x :", "[x]", "{x}", "x, y", "*alias", "&anchor",
        "!tag", "%x", "@x", "`x", "'x'", "\"x\"", "x'y", "|x", ">x", " lead", "trail ", "tab\tx",
        "new\nline", "caf\xc3\xa9", "~", "null", "Null", "NULL", "true", "yes", "no", "on",
        "0755", "1e3", ".5", "-", "--", "---", "...", "x\\y", "$(FLOWC_RUN_ID)", "{{x}}", "#",
        "=", "<<", "", " ", "a  b", "\xef\xbb\xbfx", "\x7f", "x\r"};
    s.push_back(std::string(64, 'a'));
    s.push_back(std::string(65, 'a'));
    s.push_back(std::string(63, 'a') + ":");
    s.push_back(std::string(63, 'a') + " #");
    // yaml-cpp writes a key longer than 1,024 characters as a long key ("? ...").
    s.push_back(std::string(1024, 'a'));
    s.push_back(std::string(1025, 'a'));
    return s;
  }();
  return strings;
}

// The same document written twice: with `out << text` and with `write`.
template <typename Write>
std::string Document(const std::string& text, Write write) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key;
  write(out, text);
  out << YAML::Value;
  write(out, text);
  out << YAML::Key << "list" << YAML::Value << YAML::BeginSeq;
  write(out, text);
  out << YAML::BeginMap << YAML::Key;
  write(out, text);
  out << YAML::Value;
  write(out, text);
  out << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  return out.c_str();
}

TEST_CASE("BlockScalar writes what yaml-cpp writes") {
  for (int pass = 0; pass < 2; ++pass) {  // the second pass answers from memory
    for (const std::string& text : Strings()) {
      CAPTURE(text);
      CAPTURE(pass);
      const std::string expected =
          Document(text, [](YAML::Emitter& out, const std::string& s) { out << s; });
      const std::string got =
          Document(text, [](YAML::Emitter& out, const std::string& s) { BlockScalar(out, s); });
      CHECK(got == expected);
    }
  }
}

TEST_CASE("BlockScalar writes what yaml-cpp writes for every short string of its indicators") {
  // Every string of up to three characters from yaml-cpp's indicators, the characters its
  // plain-scalar test looks at around them, and a letter: BlockScalar skips that test for the
  // strings it finds obviously plain, and must write each as yaml-cpp does.
  const std::string alphabet = std::string("a -:?#,[]{}&*!|>'\"%@`~.\t") + '\0';
  std::vector<std::string> texts = {""};
  for (size_t begin = 0, length = 1; length <= 3; ++length) {
    const size_t end = texts.size();
    for (size_t i = begin; i < end; ++i) {
      for (char c : alphabet) texts.push_back(texts[i] + c);
    }
    begin = end;
  }
  texts.push_back("null");
  texts.push_back("Null");
  texts.push_back("NULL");
  for (const std::string& text : texts) {
    CAPTURE(text);
    const std::string expected =
        Document(text, [](YAML::Emitter& out, const std::string& s) { out << s; });
    const std::string got =
        Document(text, [](YAML::Emitter& out, const std::string& s) { BlockScalar(out, s); });
    CHECK(got == expected);
  }
}

TEST_CASE("BlockScalar writes what yaml-cpp writes past the strings it can remember") {
  // 40,000 distinct strings fill the memory of known strings (32,768) and start it again;
  // each is written twice, and every string of Strings() before and after, plain or quoted.
  YAML::Emitter expected;
  YAML::Emitter got;
  expected << YAML::BeginSeq;
  got << YAML::BeginSeq;
  auto both = [&](const std::string& text) {
    expected << text;
    BlockScalar(got, text);
  };
  for (const std::string& text : Strings()) both(text);
  for (int i = 0; i < 40000; ++i) {
    std::string name = "step-" + std::to_string(i) + (i % 7 == 0 ? ": quoted" : "");
    both(name);
    both(name);
  }
  for (const std::string& text : Strings()) both(text);
  expected << YAML::EndSeq;
  got << YAML::EndSeq;
  CHECK(std::string(got.c_str()) == std::string(expected.c_str()));
}

TEST_CASE("BlockScalar leaves a double-quoted emitter's strings to yaml-cpp") {
  YAML::Emitter out;
  {
    DoubleQuotedStrings quoted(out);
    out << YAML::BeginMap;
    Key(out, "name");
    ValueScalar(out, "train");
    out << YAML::EndMap;
  }
  CHECK(std::string(out.c_str()) == "\"name\": \"train\"");
  // Afterwards its strings are plain again.
  YAML::Emitter after;
  after << YAML::BeginMap;
  Key(after, "name");
  ValueScalar(after, "train");
  after << YAML::EndMap;
  CHECK(std::string(after.c_str()) == "name: train");
}

TEST_CASE("EmitString in a block and in a flow collection") {
  YAML::Emitter out;
  out << YAML::BeginMap;
  StringField(out, "a", "yes");
  StringField(out, "b", "x, y");
  Key(out, "c");
  out << YAML::Value << YAML::Flow << YAML::BeginSeq;
  EmitFlowString(out, "x, y");
  EmitFlowString(out, "plain");
  out << YAML::EndSeq << YAML::EndMap;
  CHECK(std::string(out.c_str()) == "a: \"yes\"\nb: x, y\nc: [\"x, y\", plain]");
}

}  // namespace
}  // namespace flowc::backends::k8s
