// The interface every target implements, and what the driver hands it.
//
// A backend gets the validated IR, never the parser or the graph (protobuf's
// CodeGenerator). It first reports every construct it cannot express, as a
// diagnostic at the step's source line, and writes nothing when it reported
// an error; only then does it render into the OutputSink the driver owns.
#ifndef FLOWC_BACKENDS_BACKEND_H_
#define FLOWC_BACKENDS_BACKEND_H_

#include <string>
#include <utility>
#include <string_view>

#include "compiler/diag/diagnostics.h"
#include "compiler/ir/ir.h"

namespace flowc::backends {

// Where a backend's text goes. The driver writes it to a file atomically or
// to stdout; tests keep it in memory.
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
// depends on it (README, "Argo Workflows"). v4.1 added `resourceClaims` to
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

// Kubernetes stores an object in etcd only up to 1.5 MiB. Warns, at the
// flow, for each YAML document of `text` that is larger.
void WarnOversizedObjects(const ir::Flow& flow, std::string_view text, diag::Reporter& report);

}  // namespace flowc::backends

#endif  // FLOWC_BACKENDS_BACKEND_H_
