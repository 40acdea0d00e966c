// Output written a piece at a time: DocumentSizes measures documents across any split of the
// text, and SinkEmitter writes exactly what an in-memory YAML::Emitter writes.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <random>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/k8s/yaml_scalar.h"

namespace flowc::backends {
namespace {

// The sizes as the whole text gives them (what WarnOversizedObjects measured before output
// was streamed).
std::vector<size_t> WholeTextSizes(std::string_view text) {
  std::vector<size_t> sizes;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find("\n---\n", start);
    if (end == std::string_view::npos) end = text.size();
    sizes.push_back(end - start);
    start = end + 5;
  }
  return sizes;
}

std::vector<size_t> SizesInPieces(std::string_view text, const std::vector<size_t>& cuts) {
  StringSink sink;
  DocumentSizes sizes(sink);
  size_t at = 0;
  for (size_t cut : cuts) {
    sizes.Write(text.substr(at, cut - at));
    at = cut;
  }
  sizes.Write(text.substr(at));
  CHECK(sink.text() == text);
  return sizes.sizes();
}

TEST_CASE("output: document sizes are the same however the text is split") {
  for (std::string text : {"", "a", "\n---\n", "a\n---\nbb\n---\n", "a\n---\n---\n---\nb",
                           "x\n---\n\n---\ny", "\n---\n---\n", "a: 1\n---\nb: 22\n---\nc: 333\n"}) {
    CAPTURE(text);
    std::vector<size_t> expected = WholeTextSizes(text);
    CHECK(SizesInPieces(text, {}) == expected);
    // Every single cut, every pair of cuts, and one byte at a time.
    for (size_t i = 0; i <= text.size(); ++i) {
      CHECK(SizesInPieces(text, {i}) == expected);
      for (size_t j = i; j <= text.size(); ++j) CHECK(SizesInPieces(text, {i, j}) == expected);
    }
    std::vector<size_t> bytes;
    for (size_t i = 1; i < text.size(); ++i) bytes.push_back(i);
    CHECK(SizesInPieces(text, bytes) == expected);
  }
  std::mt19937 random(1);
  const char* pieces[] = {"\n", "-", "---", "\n---\n", "a", "bc"};
  for (int n = 0; n < 300; ++n) {
    std::string text;
    for (int k = random() % 30; k > 0; --k) text += pieces[random() % 6];
    std::vector<size_t> cuts;
    for (size_t at = 0; at < text.size(); at += 1 + random() % 4) cuts.push_back(at);
    CAPTURE(text);
    CHECK(SizesInPieces(text, cuts) == WholeTextSizes(text));
  }
}

// Writes a large document of many distinct and repeated strings: BlockScalar meets strings for
// the first time after the emitter's buffer has been drained many times.
void WriteDocuments(YAML::Emitter& out) {
  for (int doc = 0; doc < 3; ++doc) {
    out << YAML::BeginMap;
    for (int i = 0; i < 6000; ++i) {
      k8s::Key(out, "key-" + std::to_string(i % 700));
      out << YAML::Value << YAML::BeginSeq;
      k8s::BlockScalar(out, "value " + std::to_string(i));
      k8s::BlockScalar(out, i % 3 == 0 ? "yes" : "plain");
      k8s::BlockScalar(out, std::string(i % 70, 'x') + ": " + std::to_string(i % 11));
      k8s::EmitString(out, "0" + std::to_string(i % 9));
      out << YAML::EndSeq;
    }
    out << YAML::EndMap << YAML::BeginDoc;
  }
}

TEST_CASE("output: SinkEmitter streams what an in-memory emitter writes") {
  // Streamed first: BlockScalar remembers strings for the whole process, and these must be
  // new to it when it reads back the streamed output.
  StringSink sink;
  {
    k8s::SinkEmitter streamed(sink, k8s::SinkEmitter::kStreamSteps + 1);
    WriteDocuments(streamed.yaml());
  }
  YAML::Emitter memory;
  WriteDocuments(memory);
  REQUIRE(std::string(memory.c_str()).size() > 20 * 64 * 1024);
  CHECK(sink.text() == memory.c_str());
}

}  // namespace
}  // namespace flowc::backends

namespace flowc::backends {
namespace {

TEST_CASE("output: a small flow's SinkEmitter writes at Flush") {
  StringSink sink;
  k8s::SinkEmitter small(sink, k8s::SinkEmitter::kStreamSteps);
  small.yaml() << YAML::BeginMap << YAML::Key << "a" << YAML::Value << "b";
  CHECK(sink.text().empty());
  small.Flush();
  CHECK(sink.text() == "a: b");
  small.yaml() << YAML::Key << "c" << YAML::Value << "d" << YAML::EndMap;
  small.Flush();
  CHECK(sink.text() == "a: b\nc: d");
}

}  // namespace
}  // namespace flowc::backends
