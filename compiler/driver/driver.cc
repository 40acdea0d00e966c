#include "compiler/driver/driver.h"

#include <iostream>
#include <memory>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "backends/argo/argo_backend.h"
#include "backends/k8s/objects.h"
#include "backends/registry.h"
#include "compiler/driver/diagnostic_printer.h"
#include "compiler/driver/diff_command.h"
#include "compiler/driver/explain_command.h"
#include "compiler/driver/files.h"
#include "compiler/driver/fmt_command.h"
#include "compiler/driver/graph_view.h"
#include "compiler/driver/spool.h"
#include "compiler/driver/validate_command.h"
#include "compiler/ir/analyze.h"
#include "compiler/ir/ir_json.h"
#include "compiler/lsp/lsp.h"

#ifndef FLOWC_VERSION
#define FLOWC_VERSION "dev"
#endif

namespace flowc::driver {

std::optional<ir::Flow> Analyze(const diag::SourceFile& file, diag::Diagnostics& diagnostics) {
  return ir::Analyze(file, diagnostics);
}

bool Render(const ir::Flow& flow, std::string_view target, diag::Reporter& report,
            const backends::EmitOptions& options, backends::OutputSink& out) {
  size_t errors = report.diagnostics().error_count();
  if (target == "ir") {
    ir::WriteFlowJson(flow, [&out](std::string_view text) { out.Write(text); });
    return true;
  }
  const backends::Backend* backend = backends::FindBackend(target);
  if (backend == nullptr) return false;  // the command line checked the name
  // What the target lacks and what its own checks find are one phase: both
  // are reported in one run (a @schedule on --target jobset must not hide a
  // name that is too long), and the output of a flow with either is dropped.
  bool capable = backends::CheckCapabilities(flow, *backend, report);
  backends::DocumentSizes measured(out);
  if (!backend->Emit(flow, options, measured, report) || !capable) return false;
  if (report.diagnostics().error_count() > errors) return false;
  if (backend->extension() == ".yaml") {
    backends::WarnOversizedObjects(flow, measured.sizes(), report);
  }
  return true;
}

std::optional<std::string> Render(const ir::Flow& flow, std::string_view target,
                                  diag::Reporter& report, const backends::EmitOptions& options) {
  backends::StringSink sink;
  if (!Render(flow, target, report, options, sink)) return std::nullopt;
  return sink.Take();
}

std::optional<std::string> Compile(const diag::SourceFile& file, std::string_view target,
                                   diag::Diagnostics& diagnostics,
                                   const backends::EmitOptions& options) {
  std::optional<ir::Flow> flow = Analyze(file, diagnostics);
  if (!flow) return std::nullopt;
  diag::Reporter report(diagnostics, file);
  return Render(*flow, target, report, options);
}

namespace {

struct Options {
  std::vector<std::string> inputs;
  std::string target;
  std::string output;
  bool check = false;
  bool list_objects = false;
  std::string format = "dot";
  std::string diagnostics_format = "text";
  bool werror = false;
  std::string argo_version = "4.1";

  backends::EmitOptions emit() const {
    backends::EmitOptions emit;
    emit.argo_version =
        argo_version == "4.1" ? backends::ArgoVersion::k4_1 : backends::ArgoVersion::k3_7;
    return emit;
  }
};

std::vector<std::string> TargetNames() {
  std::vector<std::string> names = {"ir"};
  for (const backends::Backend* b : backends::AllBackends()) names.emplace_back(b->name());
  return names;
}

std::string_view Extension(std::string_view target) {
  if (target == "ir") return ".json";
  return backends::FindBackend(target)->extension();
}

// Keeps every SourceFile alive until its diagnostics are printed.
struct Input {
  std::unique_ptr<diag::SourceFile> file;
  diag::Diagnostics diagnostics;
};

// The status of a run with errors: a file @code ships that cannot be read is
// an I/O error (E065), like an input that cannot be read.
int ErrorStatus(const diag::Diagnostics& diagnostics) {
  for (const diag::Diagnostic& d : diagnostics.all()) {
    if (d.code == diag::Code::kCodeFileUnreadable) return kExitIo;
  }
  return kExitDiagnostics;
}

// Where the last input's flow is kept: never freed, because the process exits
// once it is written (clang's -disable-free does the same for its ASTs).
// Freeing a flow of 100,000 steps a piece at a time took 0.2 s, as long as
// lowering it, while the exit returns all its memory at once. The flow stays
// reachable from here, so LeakSanitizer does not count it as a leak.
std::optional<ir::Flow>& FlowKeptUntilExit() {
  static auto* flow = new std::optional<ir::Flow>();
  return *flow;
}

std::unique_ptr<Input> Load(const std::string& path, int* status) {
  std::string error;
  std::optional<std::string> text = ReadInput(path, &error);
  if (!text) {
    *status = std::max(*status, IoError(error));
    return nullptr;
  }
  auto input = std::make_unique<Input>();
  input->file = std::make_unique<diag::SourceFile>(path == "-" ? "<stdin>" : path, std::move(*text));
  return input;
}

// Runs `compile` on each input in turn and returns the worst status. Every
// file is kept until the diagnostics, which point into it, are printed.
// `compile` learns whether its input is the last one: that input's flow may
// be kept until the exit instead of freed (FlowKeptUntilExit).
template <typename Compile>
int ForEachInput(const Options& options, Compile compile) {
  DiagnosticPrinter printer(options.diagnostics_format, options.werror);
  int status = kExitOk;
  std::vector<std::unique_ptr<Input>> inputs;
  for (const std::string& path : options.inputs) {
    std::unique_ptr<Input>& input = inputs.emplace_back(Load(path, &status));
    bool last = &path == &options.inputs.back();
    if (input) status = std::max(status, compile(*input, printer, last));
  }
  printer.Finish();
  return status;
}

std::string OutputPathFor(const Options& options, const ir::Flow& flow, bool many) {
  if (options.output.empty() || options.output == "-") return "-";
  if (many || IsDirectory(options.output) || options.output.back() == '/') {
    std::string dir = options.output;
    if (dir.back() != '/') dir += '/';
    return dir + flow.name + std::string(Extension(options.target));
  }
  return options.output;
}

int RunCompile(const Options& options) {
  bool many = options.inputs.size() > 1;
  // --list-objects writes no output file: several inputs print one list.
  if (many && !options.list_objects && (options.output.empty() || options.output == "-")) {
    std::cerr << "flowc: error: several inputs need -o DIR, one output file per flow\n";
    return kExitUsage;
  }
  if (many && !options.list_objects && !IsDirectory(options.output)) {
    std::cerr << fmt::format("flowc: error: -o '{}' is not a directory\n", options.output);
    return kExitUsage;
  }
  if (options.check && (options.output.empty() || options.output == "-")) {
    std::cerr << "flowc: error: --check compares with a file: give -o PATH\n";
    return kExitUsage;
  }
  return ForEachInput(options, [&](Input& input, DiagnosticPrinter& printer, bool last) {
    std::optional<ir::Flow> freed;
    std::optional<ir::Flow>& flow = last ? FlowKeptUntilExit() : freed;
    flow = Analyze(*input.file, input.diagnostics);
    std::string out = flow ? OutputPathFor(options, *flow, many) : "";
    // --check compares the whole text; otherwise it waits in a spool until it may be written.
    backends::StringSink text;
    std::optional<Spool> spool;
    if (flow && !options.check && !options.list_objects) spool.emplace(out);
    bool rendered = false;
    if (flow) {
      diag::Reporter report(input.diagnostics, *input.file);
      backends::OutputSink& sink = spool ? static_cast<backends::OutputSink&>(*spool) : text;
      rendered = Render(*flow, options.target, report, options.emit(), sink);
    }
    printer.Add(input.diagnostics);  // first: --werror may turn warnings into errors
    if (input.diagnostics.HasErrors() || !rendered) return ErrorStatus(input.diagnostics);
    if (options.list_objects) {
      for (const ir::Object& object : flow->objects) {
        std::cout << backends::k8s::ObjectResourceName(object) << '\n';
      }
      // A split flow's further WorkflowTemplates (backends/argo/split.h), named by position.
      if (options.target == "argo") {
        for (const std::string& name :
             backends::argo::ListedWorkflowTemplates(*flow, text.text())) {
          std::cout << name << '\n';
        }
      }
      return int{kExitOk};
    }
    if (options.check) {
      std::string error;
      std::optional<std::string> existing = ReadInput(out, &error);
      std::string diff = UnifiedDiff(existing.value_or(""), text.text(), existing ? out : "/dev/null",
                                     fmt::format("{} (flowc compile --target {})", out, options.target));
      std::cout << diff;
      return diff.empty() ? int{kExitOk} : int{kExitDiagnostics};
    }
    std::string error;
    return spool->Commit(&error) ? int{kExitOk} : IoError(error);
  });
}

int RunCheck(const Options& options) {
  return ForEachInput(options, [](Input& input, DiagnosticPrinter& printer, bool last) {
    std::optional<ir::Flow> freed;
    (last ? FlowKeptUntilExit() : freed) = Analyze(*input.file, input.diagnostics);
    printer.Add(input.diagnostics);
    return input.diagnostics.HasErrors() ? ErrorStatus(input.diagnostics) : int{kExitOk};
  });
}

int RunGraph(const Options& options) {
  DiagnosticPrinter printer(options.diagnostics_format, options.werror);
  int status = kExitOk;
  std::unique_ptr<Input> input = Load(options.inputs[0], &status);
  if (!input) return status;
  std::optional<ir::Flow>& flow = FlowKeptUntilExit();
  flow = Analyze(*input->file, input->diagnostics);
  printer.Add(input->diagnostics);
  printer.Finish();
  if (!flow || input->diagnostics.HasErrors()) return ErrorStatus(input->diagnostics);
  std::cout << (options.format == "mermaid" ? GraphToMermaid(*flow) : GraphToDot(*flow));
  return kExitOk;
}

}  // namespace

int Run(int argc, char** argv) {
  CLI::App app{"flowc: compiles .flow files to Argo Workflows, Airflow DAGs and Kubernetes JobSets",
               "flowc"};
  app.set_version_flag("--version", std::string("flowc ") + FLOWC_VERSION);
  app.require_subcommand(1);
  Options options;
  auto add_diagnostic_flags = [&](CLI::App* command) {
    command->add_option("--diagnostics-format", options.diagnostics_format,
                        "How diagnostics are printed on stderr")
        ->check(CLI::IsMember({"text", "json", "sarif"}))
        ->default_str("text");
    command->add_flag("--werror", options.werror, "Treat warnings as errors");
  };

  CLI::App* compile = app.add_subcommand("compile", "Compile flows for a target");
  compile->add_option("files", options.inputs, "Flow files ('-' reads stdin)")->required();
  compile->add_option("-t,--target", options.target, "Target to compile for")
      ->required()
      ->check(CLI::IsMember(TargetNames()));
  CLI::Option* output =
      compile->add_option("-o,--output", options.output,
                          "Output file, or directory (one file per flow); '-' or none: stdout");
  CLI::Option* check_flag =
      compile->add_flag("--check", options.check,
                        "Compare with the output file instead of writing it; exit 1 with a diff "
                        "if it differs");
  compile
      ->add_flag("--list-objects", options.list_objects,
                 "Print the objects beside the pods that the output uses (ConfigMaps, "
                 "ResourceClaimTemplates, TrainingRuntimes, and the further WorkflowTemplates of "
                 "an Argo flow over Argo's limits), one `kubectl get -o name` line each, instead "
                 "of the output")
      ->excludes(check_flag)
      ->excludes(output);
  compile
      ->add_option("--argo-version", options.argo_version,
                   "Argo version of the output: 4.1 puts a step's DRA claims in the template's "
                   "resourceClaims, 3.7 and 4.0 in its podSpecPatch")
      ->check(CLI::IsMember({"3.7", "4.0", "4.1"}))
      ->default_str("4.1");
  add_diagnostic_flags(compile);

  CLI::App* check = app.add_subcommand("check", "Check flows and report every error");
  check->add_option("files", options.inputs, "Flow files ('-' reads stdin)")->required();
  add_diagnostic_flags(check);

  CLI::App* graph = app.add_subcommand("graph", "Print the step graph of a flow");
  graph->add_option("file", options.inputs, "Flow file ('-' reads stdin)")->required()->expected(1);
  graph->add_option("--format", options.format, "Graph syntax")
      ->check(CLI::IsMember({"dot", "mermaid"}))
      ->default_str("dot");
  add_diagnostic_flags(graph);

  FmtOptions fmt_options;
  CLI::App* fmt = AddFmtCommand(app, fmt_options);

  ValidateOptions validate_options;
  CLI::App* validate = AddValidateCommand(app, validate_options);
  ExplainOptions explain_options;
  CLI::App* explain = AddExplainCommand(app, explain_options);
  CLI::App* docs = AddDocsCommand(app, explain_options);
  DiffOptions diff_options;
  CLI::App* diff = AddDiffCommand(app, diff_options);

  CLI::App* lsp = app.add_subcommand(
      "lsp", "Run the language server (LSP 3.17, JSON-RPC on stdin and stdout) for editors");
  // vscode-languageclient passes --stdio to a server it starts on stdio; it is the only transport.
  lsp->add_flag("--stdio", "Talk on stdin and stdout (the default and only transport)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (compile->parsed()) return RunCompile(options);
  if (check->parsed()) return RunCheck(options);
  if (fmt->parsed()) return RunFmt(fmt_options);
  if (validate->parsed()) return RunValidate(validate_options);
  if (lsp->parsed()) return lsp::RunLanguageServer(0, 1);
  if (explain->parsed()) return RunExplainCommand(explain_options);
  if (docs->parsed()) return RunDocsCommand(explain_options);
  if (diff->parsed()) return RunDiff(diff_options);
  return RunGraph(options);
}

}  // namespace flowc::driver
