#include "compiler/driver/diff_command.h"

#include <fmt/format.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <set>

#include "backends/registry.h"
#include "compiler/diff/diff.h"
#include "compiler/diff/git.h"
#include "compiler/diff/report.h"
#include "compiler/driver/diagnostic_printer.h"
#include "compiler/driver/driver.h"
#include "compiler/driver/files.h"
#include "compiler/ir/ir_json.h"

namespace flowc::driver {
namespace {

// One side of one flow: its file (alive until the diagnostics pointing into it are printed)
// and what the stages made of it.
struct Loaded {
  std::unique_ptr<diag::SourceFile> file;
  diag::Diagnostics diagnostics;
  std::optional<ir::Flow> flow;
  diff::Side side;
  bool errors = false;
};

// Where every side is kept: never freed, as the process exits once the report is written
// (driver.cc's FlowKeptUntilExit says why). Freeing two 10,000-step flows and their IR's JSON
// trees, a node at a time, was a third of a diff's time (bench/DIFF.md). Reachable from here,
// so LeakSanitizer does not count them.
std::vector<std::unique_ptr<Loaded>>& KeptUntilExit() {
  static auto* kept = new std::vector<std::unique_ptr<Loaded>>();
  return *kept;
}

// Runs the stages on `text` (read from `path`) and each --target on the IR.
std::unique_ptr<Loaded> Load(const std::string& path, std::string text,
                             const DiffOptions& options) {
  auto loaded = std::make_unique<Loaded>();
  loaded->file = std::make_unique<diag::SourceFile>(path, std::move(text));
  std::optional<ir::Flow>& flow = loaded->flow;
  flow = Analyze(*loaded->file, loaded->diagnostics);
  if (!flow || loaded->diagnostics.HasErrors()) {
    loaded->errors = true;
    return loaded;
  }
  loaded->side.ir = ir::FlowToJson(*flow);
  std::set<std::string> done;
  for (const std::string& target : options.targets) {
    if (!done.insert(target).second) continue;  // a target given twice is compared once
    // The target's findings are printed with the flow's, and compared.
    size_t before = loaded->diagnostics.all().size();
    diag::Reporter report(loaded->diagnostics, *loaded->file);
    std::optional<std::string> text_out = Render(*flow, target, report);
    diff::Rendered rendered{target, text_out.value_or(""), {}};
    const std::vector<diag::Diagnostic>& all = loaded->diagnostics.all();
    for (size_t i = before; i < all.size(); ++i) {
      rendered.warnings.push_back(
          fmt::format("{}: {}", diag::CodeString(all[i].code), all[i].message));
    }
    // A target that cannot express the flow reported errors, which are the flow's.
    if (!text_out || loaded->diagnostics.HasErrors()) loaded->errors = true;
    loaded->side.rendered.push_back(std::move(rendered));
  }
  return loaded;
}

struct Run {
  explicit Run(const DiffOptions& o) : options(o) {}
  const DiffOptions& options;
  DiagnosticPrinter printer{options.diagnostics_format, /*werror=*/false};
  std::vector<std::unique_ptr<Loaded>>& kept = KeptUntilExit();
  std::vector<diff::FileReport> reports;
  int status = kExitOk;

  // Compares `old_loaded` with `new_loaded` (either may be null: a flow added or removed).
  void Add(std::string old_label, std::string new_label, std::unique_ptr<Loaded> a,
           std::unique_ptr<Loaded> b) {
    diff::FileReport report;
    report.old_label = std::move(old_label);
    report.new_label = std::move(new_label);
    for (auto* side : {&a, &b}) {
      if (*side) printer.Add((*side)->diagnostics);
    }
    if ((a && a->errors) || (b && b->errors)) {
      report.status = diff::FileReport::Status::kError;
    } else {
      report.status = !a   ? diff::FileReport::Status::kAdded
                      : !b ? diff::FileReport::Status::kRemoved
                           : diff::FileReport::Status::kCompared;
      static const diff::Side kNone;  // a flow that is not on that side
      report.changes = diff::Compare(a ? a->side : kNone, b ? b->side : kNone);
    }
    reports.push_back(std::move(report));
    if (a) kept.push_back(std::move(a));
    if (b) kept.push_back(std::move(b));
  }

  int Finish() {
    printer.Finish();
    if (options.format == "json") {
      std::cout << diff::FormatJson(reports);
    } else if (options.format == "markdown") {
      std::cout << diff::FormatMarkdown(reports);
    } else {
      bool color = ::isatty(1) && std::getenv("NO_COLOR") == nullptr;
      std::cout << diff::FormatText(reports, color);
    }
    std::cout.flush();
    if (!std::cout) return IoError("cannot write to stdout");
    if (status != kExitOk) return status;
    return diff::AnyDifference(reports) ? int{kExitDiagnostics} : int{kExitOk};
  }
};

int RunFiles(const DiffOptions& options) {
  if (options.args.size() != 2) {
    std::cerr << "flowc: error: diff compares two flows: flowc diff OLD.flow NEW.flow (or --git)\n";
    return kExitUsage;
  }
  if (options.args[0] == "-" && options.args[1] == "-") {
    std::cerr << "flowc: error: only one side of flowc diff can read stdin\n";
    return kExitUsage;
  }
  Run run(options);
  std::unique_ptr<Loaded> sides[2];
  for (int i = 0; i < 2; ++i) {
    std::string error;
    std::optional<std::string> text = ReadInput(options.args[i], &error);
    if (!text) return IoError(error);
    std::string path = options.args[i] == "-" ? "<stdin>" : options.args[i];
    sides[i] = Load(path, std::move(*text), options);
  }
  run.Add(options.args[0], options.args[1], std::move(sides[0]), std::move(sides[1]));
  return run.Finish();
}

// `path` (relative to the current directory, whose path from the root is `prefix`) from the
// repository's root, with "." and ".." resolved; "" is the root.
std::string FromRoot(const std::string& prefix, const std::string& path) {
  std::vector<std::string> parts;
  std::string whole = path.empty() || path[0] != '/' ? prefix + path : path;
  size_t start = 0;
  while (start <= whole.size()) {
    size_t end = whole.find('/', start);
    if (end == std::string::npos) end = whole.size();
    std::string part = whole.substr(start, end - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

bool Under(const std::string& path, const std::vector<std::string>& specs) {
  if (specs.empty()) return true;
  for (const std::string& s : specs) {
    if (s.empty() || path == s || path.compare(0, s.size() + 1, s + "/") == 0) return true;
  }
  return false;
}

bool IsFlow(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".flow") == 0;
}

std::string Folder(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// Removes the temporary tree the old flows were written to.
void RemoveTree(const std::string& dir) {
  ::nftw(
      dir.c_str(),
      [](const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }, 16,
      FTW_DEPTH | FTW_PHYS);
}

int RunGit(const DiffOptions& options) {
  std::string error;
  std::optional<diff::GitRepo> repo = diff::GitRepo::Open(&error);
  if (!repo) {
    std::cerr << fmt::format("flowc: error: --git needs a git repository: {}\n", error);
    return kExitUsage;
  }
  std::vector<std::string> paths = options.args;
  std::string rev = "HEAD";
  struct stat st;
  if (!paths.empty() && ::lstat(paths[0].c_str(), &st) != 0 && repo->ResolveCommit(paths[0])) {
    rev = paths[0];
    paths.erase(paths.begin());
  }
  std::optional<std::string> commit = repo->ResolveCommit(rev);
  if (!commit) {
    std::cerr << fmt::format("flowc: error: '{}' names no commit of the repository\n", rev);
    return kExitUsage;
  }
  std::vector<std::string> specs;
  for (const std::string& p : paths) specs.push_back(FromRoot(repo->prefix(), p));
  std::optional<std::vector<diff::GitFile>> tree = repo->Tree(*commit, &error);
  std::optional<std::vector<std::string>> work = tree ? repo->WorkingTree(&error) : std::nullopt;
  if (!tree || !work) return IoError(error);

  std::set<std::string> old_flows, new_flows, folders;
  for (const diff::GitFile& f : *tree) {
    if (IsFlow(f.path) && Under(f.path, specs)) {
      old_flows.insert(f.path);
      folders.insert(Folder(f.path));
    }
  }
  for (const std::string& f : *work) {
    std::string on_disk = repo->root() + "/" + f;
    if (IsFlow(f) && Under(f, specs) && ::stat(on_disk.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      new_flows.insert(f);
    }
  }
  // The old flows' folders as they were at the revision: @code reads files beside a flow.
  std::vector<diff::GitFile> needed;
  for (const diff::GitFile& f : *tree) {
    if (Under(f.path, std::vector<std::string>(folders.begin(), folders.end()))) {
      needed.push_back(f);
    }
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/flowc-diff-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    return IoError(fmt::format("cannot create a folder in '{}'", tmp && *tmp ? tmp : "/tmp"));
  }
  const std::string dir = pattern;
  if (!repo->Materialize(needed, dir, &error)) {
    RemoveTree(dir);
    return IoError(error);
  }
  Run run(options);
  std::set<std::string> all = old_flows;
  all.insert(new_flows.begin(), new_flows.end());
  for (const std::string& path : all) {
    std::unique_ptr<Loaded> a, b;
    if (old_flows.count(path)) {
      std::optional<std::string> text = ReadInput(dir + "/" + path, &error);
      if (!text) {
        run.status = std::max(run.status, IoError(error));
        continue;
      }
      a = Load(dir + "/" + path, std::move(*text), options);
    }
    if (new_flows.count(path)) {
      std::string on_disk = repo->root() + "/" + path;
      std::optional<std::string> text = ReadInput(on_disk, &error);
      if (!text) {
        run.status = std::max(run.status, IoError(error));
        continue;
      }
      b = Load(on_disk, std::move(*text), options);
    }
    // The labels first: the arguments' order of evaluation is unspecified.
    std::string old_label = a ? rev + ":" + path : "", new_label = b ? path : "";
    run.Add(std::move(old_label), std::move(new_label), std::move(a), std::move(b));
  }
  int status = run.Finish();
  RemoveTree(dir);
  return status;
}

}  // namespace

CLI::App* AddDiffCommand(CLI::App& app, DiffOptions& options) {
  CLI::App* diff =
      app.add_subcommand("diff", "Report what a change does to every step's pod (docs/diff.md)");
  diff->add_option("args", options.args,
                   "OLD.flow NEW.flow ('-' reads stdin); with --git: [REV] [PATH...]");
  diff->add_flag("--git", options.git,
                 "Compare each flow at REV (default HEAD) with the working tree");
  std::vector<std::string> targets;
  for (const backends::Backend* b : backends::AllBackends()) targets.emplace_back(b->name());
  diff->add_option("-t,--target", options.targets,
                   "Also compare what a target renders; may be given more than once")
      ->expected(1)  // one target each time: the flows after it are not targets
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::IsMember(targets));
  diff->add_option("--format", options.format, "How the report is printed on stdout")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->default_str("text");
  diff->add_option("--diagnostics-format", options.diagnostics_format,
                   "How a flow's diagnostics are printed on stderr")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->default_str("text");
  return diff;
}

int RunDiff(const DiffOptions& options) {
  return options.git ? RunGit(options) : RunFiles(options);
}

}  // namespace flowc::driver
