// `@code`: local files shipped to the pods (docs/code.md). The rules
// of its arguments, and what a step's flow-level and step-level `@code`
// resolve to. The decorator table (decorators.cc) checks each argument's type;
// this file checks how they combine and reads the files (project_files.h).
//
// A step's own `@code` overrides the flow's argument by argument: `path` alone
// keeps the flow's files (the same ConfigMap, mounted elsewhere), `files`
// names other files (another ConfigMap). The files of one written `@code` are
// read once, however many steps use them: a CodeBundle is shared.
//
// The result holds paths and bytes, no Kubernetes syntax: the IR lowering
// (compiler/ir/code_configmap.h) turns it into a ConfigMap, its keys and the
// pod's volume.
#ifndef FLOWC_GRAPH_CODE_H_
#define FLOWC_GRAPH_CODE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/parse/ast.h"

namespace flowc::graph {

// Where the files appear in the container when `path` is not given.
inline constexpr const char* kDefaultCodePath = "/workspace";
// The pod's volume that holds them: no claim may have this name.
inline constexpr const char* kCodeVolumeName = "code";

// What a ConfigMap may hold: Kubernetes refuses one whose data and binaryData
// values add up to more than this many bytes (kubernetes pkg/apis/core/
// validation/validation.go, ValidateConfigMap: `totalSize += len(value)` over
// both maps, `totalSize > core.MaxSecretSize`; MaxSecretSize = 1 MiB). Keys
// do not count, and binaryData counts its decoded bytes.
inline constexpr int64_t kMaxCodeBytes = 1024 * 1024;

struct CodeFile {
  std::string path;     // relative to the flow's folder, normalized: "conf/base.yaml"
  std::string content;  // the file's bytes
  // Executable by its owner on disk: the pod gets it with mode 0755 (the
  // IR's ConfigMapFile), any other file with Kubernetes' default 0644.
  bool executable = false;
};

// The files of one written `@code`, read once.
struct CodeBundle {
  std::vector<CodeFile> files;  // sorted by path (bytewise), no duplicates
  int64_t bytes = 0;            // the sum of the contents' sizes
};

// A step's `@code`, resolved.
struct CodeConfig {
  std::shared_ptr<const CodeBundle> bundle;
  std::string path;         // the mount path and working directory
  diag::SourceRange range;  // the `@code` that names the files
};

// Checks how the arguments of one written `@code` combine (types are already
// checked): `files` is not empty; `path` is a clean absolute path other than
// "/"; `on_flow`: the flow's `@code` must name files. Returns false after
// reporting.
bool CheckCodeDecorator(const ast::Decorator& decorator, bool on_flow, diag::Reporter& report);

// Reads the files that `decorator`'s `files` names, relative to the folder
// of the file being compiled (report.file(); the current folder for stdin).
// Returns nullptr after reporting every error of every entry; an unreadable
// file is reported as kCodeFileUnreadable, which the driver turns into exit
// status 3. Nullptr without a report when `decorator` has no `files`.
std::shared_ptr<const CodeBundle> LoadCode(const ast::Decorator& decorator, diag::Reporter& report);

// A step's `@code`: its own over the flow's, argument by argument. `flow` and
// `step` may be null; `flow_bundle` is LoadCode of `flow`. Reads the step's
// own files when it names some. Nullopt when neither is given, or with `*ok`
// false after reporting.
std::optional<CodeConfig> ResolveCode(const ast::Decorator* flow,
                                      std::shared_ptr<const CodeBundle> flow_bundle,
                                      const ast::Decorator* step, diag::Reporter& report, bool* ok);

// Where `code` and another volume mounted at `mount_path` collide: "" when
// they do not, else the first shipped file (its relative path) that would
// land on that mount, under it, or above it (kubelet creates each nested
// mount point as a folder in the ConfigMap's volume, kubernetes
// pkg/volume/util/nested_volumes.go, MakeNestedMountpoints, so a file there
// hides the mount or is hidden by it). `mount_path` equal to `code.path` is
// for the caller to report (two volumes on one path).
std::string CodeFileUnderMount(const CodeConfig& code, std::string_view mount_path);

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_CODE_H_
