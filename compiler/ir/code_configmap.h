// The lowering of `@code` (docs/code.md): a step's shipped files as
// an immutable v1 ConfigMap beside the pods, and the volume, read-only mount
// and working directory of the step's pod. Used by LowerToIr only.
//
// Decisions a user can rely on, each made here once:
// - Text is `data`, anything else `binaryData`, byte for byte. Text means
//   valid UTF-8 (as Go's utf8.Valid: no overlong forms, no surrogates, nothing
//   above U+10FFFF) without a NUL byte. The API carries `data` values as JSON
//   or YAML strings, so only UTF-8 survives there ("Values with non-UTF-8
//   byte sequences must use the BinaryData field", core/v1 ConfigMap); kubectl
//   create configmap --from-file uses the same test without the NUL rule. A
//   NUL marks binary formats and UTF-16 text, which are safer as bytes.
// - Keys (`[-._a-zA-Z0-9]+`, at most 253 characters, not starting with '..')
//   are a reversible spelling of each relative path, so two paths never share
//   a key: letters, digits, '.' and '_' stay, '/' becomes "--", and every
//   other byte "-xx" (its two lowercase hex digits): "conf/base-v2.yaml" ->
//   "conf--base-2dv2.yaml". A key that would be longer than 253 is cut at a
//   character boundary and ends in "-h" and 16 hex digits of SHA-256 over the
//   path, which no spelled key contains.
// - A file its owner may execute on disk has mode 0755 in the pod (its item's
//   KeyToPath.mode), every other file Kubernetes' default 0644.
// - The name is `<flow>-code-<10 hex digits>`: SHA-256 over every file's path,
//   executable bit and bytes. A changed file, a renamed one or a chmod makes a
//   new ConfigMap, so an immutable object never needs changing and runs in
//   flight keep theirs.
#ifndef FLOWC_IR_CODE_CONFIGMAP_H_
#define FLOWC_IR_CODE_CONFIGMAP_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "compiler/graph/code.h"
#include "compiler/ir/ir.h"

namespace flowc::ir {

// The pod's volume for the shipped files.
inline constexpr const char* kCodeVolume = graph::kCodeVolumeName;

// True when `content` goes in `data`, false for `binaryData`.
bool IsConfigMapText(std::string_view content);

// The ConfigMap key of the file at relative path `path`.
std::string ConfigMapKey(std::string_view path);

// The ConfigMap of `bundle`, and its name in a flow named `flow_k8s_name`.
ConfigMap CodeConfigMap(const graph::CodeBundle& bundle);
std::string CodeConfigMapName(std::string_view flow_k8s_name, const graph::CodeBundle& bundle);

// What `@code` adds to a step: the ConfigMap (an index into Flow::objects),
// and the volume and read-only mount of the step's pod, whose path is also
// the pod's working directory.
struct CodeMount {
  size_t object = 0;
  Volume volume;
  VolumeMount mount;
};

// Builds each ConfigMap, and the volume that mounts it, once per bundle and
// namespace, however many steps ship it.
class CodeConfigMaps {
 public:
  // Adds `code`'s ConfigMap to `flow.objects` (unless there) and says how a
  // pod in `namespace_` mounts it.
  const CodeMount& Mount(Flow& flow, const graph::CodeConfig& code, const std::string& namespace_);

 private:
  std::map<std::pair<const graph::CodeBundle*, std::string>, size_t> index_;
  std::map<const graph::CodeBundle*, std::string> names_;
  // By object and mount path: steps may mount one bundle at different paths.
  std::map<std::pair<size_t, std::string>, CodeMount> mounts_;
};

}  // namespace flowc::ir

#endif  // FLOWC_IR_CODE_CONFIGMAP_H_
