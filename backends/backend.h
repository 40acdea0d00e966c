// The interface every target implements, and what the driver hands it.
//
// A backend gets the validated IR, never the parser or the graph (protobuf's
// CodeGenerator). It reports every construct it cannot express, as a
// diagnostic at the step's source line, and renders into the OutputSink the
// driver owns, as it goes. The driver keeps that text aside (in memory, or in a
// temporary file once it is large) and drops it when any error was reported,
// whenever in the rendering: a failed compile writes nothing.
#ifndef FLOWC_BACKENDS_BACKEND_H_
#define FLOWC_BACKENDS_BACKEND_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends {

// Where a backend's text goes, a piece at a time. The driver's sink holds it until
// the compile has succeeded (compiler/driver/spool.h); tests keep it in memory.
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual void Write(std::string_view text) = 0;
};

class StringSink : public OutputSink {
 public:
  void Write(std::string_view text) override { text_ += text; }
  const std::string& text() const { return text_; }
  // The text, moved out: the sink is empty afterwards.
  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
};

// Flow shapes a target may or may not express. The driver checks them all in
// one place (CheckCapabilities), then runs the backend all the same, for its
// own diagnostics, and drops its output: Emit must not assume a capability.
enum Capability : unsigned {
  kForeach = 1u << 0,
  kParallel = 1u << 1,
  kSchedule = 1u << 2,
  kParams = 1u << 3,
};

// The Argo version the output is for: only the form of a pod's DRA claims
// depends on it (docs/argo.md). v4.1 added `resourceClaims` to
// templates (argoproj/argo-workflows#16587); earlier versions take them only
// through `podSpecPatch`.
enum class ArgoVersion { k3_7, k4_1 };

struct EmitOptions {
  ArgoVersion argo_version = ArgoVersion::k4_1;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  // The file extension of one output, with the dot: ".yaml", ".py".
  virtual std::string_view extension() const = 0;
  virtual unsigned capabilities() const = 0;
  // Renders `flow`. Returns false, having reported why, when it cannot.
  virtual bool Emit(const ir::Flow& flow, const EmitOptions& options, OutputSink& out,
                    diag::Reporter& report) const = 0;
};

// Reports, at each step's source line, every construct of `flow` that
// `backend` lacks the capability for. Returns false if it reported any.
bool CheckCapabilities(const ir::Flow& flow, const Backend& backend, diag::Reporter& report);

// For targets that put the whole flow in one namespace: reports, at each
// step whose namespace differs from `start`'s, that `target` cannot express
// it, and why (`reason`, e.g. "puts the whole flow in one namespace").
bool CheckOneNamespace(const ir::Flow& flow, std::string_view target, std::string_view reason,
                       diag::Reporter& report);

// Passes text on to `next`, measuring the YAML documents in it ("\n---\n" separates them) as
// it goes, so that the text need not be held whole to be measured.
class DocumentSizes final : public OutputSink {
 public:
  explicit DocumentSizes(OutputSink& next) : next_(next) {}
  void Write(std::string_view text) override;
  // The size of each document written, in bytes, without its separator.
  std::vector<size_t> sizes() const;

 private:
  OutputSink& next_;
  std::vector<size_t> closed_;  // the sizes of the documents closed by a separator
  size_t written_ = 0;
  size_t start_ = 0;            // where the open document starts
  std::string recent_;          // its last bytes, up to 4: a separator may span two writes
};

// Kubernetes stores an object in etcd only up to 1.5 MiB. Warns, at the
// flow, for each YAML document larger than that (`sizes`, from DocumentSizes).
void WarnOversizedObjects(const ir::Flow& flow, const std::vector<size_t>& sizes,
                          diag::Reporter& report);

}  // namespace flowc::backends

#endif  // FLOWC_BACKENDS_BACKEND_H_
