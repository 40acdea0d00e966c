// The one Kubernetes pod renderer: ir::Pod -> YAML, for every YAML target.
//
// Nothing else in flowc writes a container, a toleration, a resource, an env
// entry or a volume: Argo templates, JobSet pod templates and the JobSet that
// Argo and Airflow create all come through here, so one step's pod reads the
// same on every target. Field names are the Kubernetes API's (camelCase).
//
// Strings go through a StringPolicy so that each target can translate
// `{{refs}}` in commands and escape its own templating in every other user
// string (Argo reads `{{` in a whole template; Jinja reads it in a JobSet
// that Airflow creates).
#ifndef FLOWC_BACKENDS_K8S_POD_YAML_H_
#define FLOWC_BACKENDS_K8S_POD_YAML_H_

#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "backends/k8s/yaml_record.h"
#include "backends/k8s/yaml_scalar.h"
#include "compiler/ir/ir.h"

namespace flowc::backends::k8s {

class StringPolicy {
 public:
  virtual ~StringPolicy() = default;
  // A command argument, with its references translated.
  virtual std::string Text(const ir::Text& text) const = 0;
  // Any other user string, escaped so the target's templating leaves it be.
  virtual std::string Literal(std::string_view text) const { return std::string(text); }
};

// Pod-level parts, each emitted as key/value pairs into a map the caller has
// opened. Every function emits nothing for a field the pod leaves unset.
//
// metadata: labels, annotations (namespace is the object's, not the pod's).
void EmitPodMetadataFields(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
// The container map (`name`, image, command, env, envFrom, resources,
// volumeMounts, imagePullPolicy, securityContext, ports), as one YAML map.
void EmitContainer(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
// serviceAccountName, nodeSelector, tolerations, volumes, imagePullSecrets,
// resourceClaims.
void EmitPodSpecFields(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
// The same without imagePullSecrets and resourceClaims: what an Argo template
// takes (Argo has pull secrets only for a whole workflow, and resource claims
// only from v4; both go in a podSpecPatch).
void EmitPlacementFields(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
// Pieces of the container alone, for a TrainJob's `trainer` and runtime
// patches (backends/k8s/trainjob.cc), which take them apart: command, env,
// resources (requests, limits, claims) under `key`, volumeMounts, and the
// container's securityContext.
void EmitCommand(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitEnv(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitResources(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings,
                   std::string_view key = "resources");
void EmitVolumeMounts(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitSecurityContext(YAML::Emitter& out, const ir::Pod& pod);
// Each of the above pieces alone, for targets (Argo) that place them apart.
void EmitTolerations(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitVolumes(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitNodeSelector(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitImagePullSecrets(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitResourceClaims(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);

// A whole PodTemplateSpec (metadata + spec with restartPolicy Never).
void EmitPodTemplate(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings);
// The same calls, recorded (for EmitRecordedMap).
void EmitPodTemplate(YamlRecord& out, const ir::Pod& pod, const StringPolicy& strings);
// Recorded versions of the pieces an Argo template places: a target that only checks a pod's
// strings (its output refused) records the calls, which costs no YAML formatting.
void EmitPodMetadataFields(YamlRecord& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitContainer(YamlRecord& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitPlacementFields(YamlRecord& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitImagePullSecrets(YamlRecord& out, const ir::Pod& pod, const StringPolicy& strings);
void EmitResourceClaims(YamlRecord& out, const ir::Pod& pod, const StringPolicy& strings);

}  // namespace flowc::backends::k8s

#endif  // FLOWC_BACKENDS_K8S_POD_YAML_H_
