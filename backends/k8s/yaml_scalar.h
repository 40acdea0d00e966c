// How flowc writes string scalars with yaml-cpp, paying yaml-cpp's plain-scalar test once per
// distinct string, and the two fields every Kubernetes object opens with. Used by every YAML
// renderer (backends/k8s, the argo and jobset backends).
//
// yaml-cpp 0.7's Emitter::Write(std::string) decides whether a string may stay plain by
// matching a composite regex at every character (emitterutils.cpp IsValidPlainScalar): about
// two thirds of a large compile's instructions went there (bench/RESULTS.md), though the same
// keys and values recur in every step. BlockScalar lets yaml-cpp write a string the first
// time, remembers from its output whether it came out plain, and afterwards writes a plain one
// without the test. The output is what `out << text` writes, byte for byte: only yaml-cpp
// decides.
#ifndef FLOWC_BACKENDS_K8S_YAML_SCALAR_H_
#define FLOWC_BACKENDS_K8S_YAML_SCALAR_H_

#include <yaml-cpp/yaml.h>

#include <memory>
#include <ostream>
#include <streambuf>
#include <string_view>
#include <vector>

#include "backends/backend.h"

namespace flowc::backends::k8s {

// Writes `text` exactly as `out << std::string(text)` would inside a block collection (or as
// the root). Never call it inside a YAML::Flow collection, where yaml-cpp quotes more.
void BlockScalar(YAML::Emitter& out, std::string_view text);

// A YAML::Emitter whose text goes into an OutputSink. For a large flow it goes as it is
// written, in chunks of 64 KiB, instead of being held whole (a 100,000-step JobSet is one
// document of 120 MB); the last bytes written stay at hand, for BlockScalar to read back what
// yaml-cpp wrote. A small flow's text stays in yaml-cpp's own buffer until Flush: yaml-cpp
// writes through a std::ostream a few bytes at a time (ostream_wrapper::write), and each write
// then costs a sentry and a virtual call, 16 % more instructions for a 2,000-step JobSet.
class SinkEmitter {
 public:
  // Streams when the flow has more than this many steps: up to 10,000 steps the text is 10 to
  // 30 MB, which memory holds at yaml-cpp's speed.
  static constexpr size_t kStreamSteps = 10000;

  SinkEmitter(OutputSink& sink, size_t steps);
  ~SinkEmitter();  // flushes
  SinkEmitter(const SinkEmitter&) = delete;
  SinkEmitter& operator=(const SinkEmitter&) = delete;

  YAML::Emitter& yaml() { return *emitter_; }
  const YAML::Emitter& yaml() const { return *emitter_; }
  // Writes what the emitter has written so far into the sink.
  void Flush();
  // While streaming, the last bytes written: all of them since the last Flush, and at least
  // the last 256.
  std::string_view Tail() const { return buffer_ ? buffer_->Written() : std::string_view(); }

 private:
  class Buffer final : public std::streambuf {
   public:
    explicit Buffer(OutputSink& sink);
    void Flush();
    std::string_view Written() const { return {pbase(), static_cast<size_t>(pptr() - pbase())}; }

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* text, std::streamsize size) override;

   private:
    // Writes all but the last kKept bytes, which move to the front.
    void Drain();
    OutputSink& sink_;
    std::vector<char> bytes_;
  };

  OutputSink& sink_;
  std::unique_ptr<Buffer> buffer_;  // when streaming
  std::unique_ptr<std::ostream> stream_;
  std::unique_ptr<YAML::Emitter> emitter_;
  size_t flushed_ = 0;  // without streaming: the bytes of the emitter's buffer already written
};

// Sets the global string format of `out` to YAML::DoubleQuoted for the life of this object,
// and has BlockScalar leave every string of `out` to yaml-cpp meanwhile (the format cannot be
// read back from an Emitter). The only way flowc sets that format.
class DoubleQuotedStrings {
 public:
  explicit DoubleQuotedStrings(YAML::Emitter& out);
  ~DoubleQuotedStrings();
  DoubleQuotedStrings(const DoubleQuotedStrings&) = delete;
  DoubleQuotedStrings& operator=(const DoubleQuotedStrings&) = delete;

 private:
  YAML::Emitter& out_;
};

// Opens a Kubernetes object's map with `apiVersion` and `kind`.
void BeginObject(YAML::Emitter& out, std::string_view api_version, std::string_view kind);

// `YAML::Key` and the key `key`, in a block map.
void Key(YAML::Emitter& out, std::string_view key);

// `YAML::Value` and `value` through BlockScalar: flowc's own words (kinds, API versions,
// modes), which need no quoting.
void ValueScalar(YAML::Emitter& out, std::string_view value);

// Emits `value` as a YAML string scalar in a block collection, double-quoted
// whenever a YAML 1.1 or 1.2 reader would otherwise take it for another type
// ("yes", "1.0", "null", "0755", "~", "") so that it reads back as the same
// string, and with escapes for what a reader would reject or fold.
void EmitString(YAML::Emitter& out, std::string_view value);
// The same inside a YAML::Flow collection.
void EmitFlowString(YAML::Emitter& out, std::string_view value);

// `key: value` in a block map, the value through EmitString.
void StringField(YAML::Emitter& out, std::string_view key, std::string_view value);

// What EmitRecordedMap (yaml_record.h) needs of an emitter, to copy text yaml-cpp wrote.
namespace internal {
// Whether `out` is under DoubleQuotedStrings.
bool IsDoubleQuoted(const YAML::Emitter& out);
// The output of `out` so far, or at least its last 256 bytes (SinkEmitter::Tail).
std::string_view WrittenBy(const YAML::Emitter& out);
// The column the output of `out` has reached; writes nothing.
size_t Column(YAML::Emitter& out);
// Runs what the first key of a block map just opened runs first (PrepareNode(Scalar)),
// which writes its indentation, and returns the column reached.
size_t PrepareFirstKey(YAML::Emitter& out);
// Writes `text`, which yaml-cpp wrote before in the same place, as one scalar node.
void WriteWritten(YAML::Emitter& out, std::string_view text);
}  // namespace internal

}  // namespace flowc::backends::k8s

#endif  // FLOWC_BACKENDS_K8S_YAML_SCALAR_H_
