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
// Each writes to a YAML::Emitter, or records the same calls in a YamlRecord
// (yaml_record.h): a recorded map recurring across pods is written by yaml-cpp
// once (EmitRecordedMap), and a target that only checks a pod's strings (its
// output refused) records them, which costs no YAML formatting. pod_yaml.cc
// instantiates every one for both.
//
// metadata: labels, annotations (namespace is the object's, not the pod's). `admission`
// labels follow the pod's own: a plain step's queue labels (ir::Queue), for the pod that Kueue
// admits itself; a pod template inside a JobSet or TrainJob never gets them.
template <class Out>
void EmitPodMetadataFields(Out& out, const ir::Pod& pod, const StringPolicy& strings,
                           const ir::KeyValues& admission = {});
// The container map (`name`, image, command, env, envFrom, resources,
// volumeMounts, imagePullPolicy, securityContext, ports), as one YAML map.
template <class Out>
void EmitContainer(Out& out, const ir::Pod& pod, const StringPolicy& strings);
// serviceAccountName, nodeSelector, tolerations, volumes, imagePullSecrets,
// resourceClaims.
template <class Out>
void EmitPodSpecFields(Out& out, const ir::Pod& pod, const StringPolicy& strings);
// The same without imagePullSecrets and resourceClaims: what an Argo template
// takes (Argo has pull secrets only for a whole workflow, and resource claims
// only from v4; both go in a podSpecPatch).
template <class Out>
void EmitPlacementFields(Out& out, const ir::Pod& pod, const StringPolicy& strings);
// Pieces of the container alone, for a TrainJob's `trainer` and runtime
// patches (backends/k8s/trainjob.cc), which take them apart: command, env,
// resources (requests, limits, claims) under `key`, volumeMounts, and the
// container's securityContext.
template <class Out>
void EmitCommand(Out& out, const ir::Pod& pod, const StringPolicy& strings);
template <class Out>
void EmitEnv(Out& out, const ir::Pod& pod, const StringPolicy& strings);
template <class Out>
void EmitResources(Out& out, const ir::Pod& pod, const StringPolicy& strings,
                   std::string_view key = "resources");
template <class Out>
void EmitVolumeMounts(Out& out, const ir::Pod& pod, const StringPolicy& strings);
template <class Out>
void EmitSecurityContext(Out& out, const ir::Pod& pod);
// Each of the above pieces alone, for targets (Argo) that place them apart.
template <class Out>
void EmitTolerations(Out& out, const ir::Pod& pod, const StringPolicy& strings);
template <class Out>
void EmitVolumes(Out& out, const ir::Pod& pod, const StringPolicy& strings);
template <class Out>
void EmitNodeSelector(Out& out, const ir::Pod& pod, const StringPolicy& strings);
template <class Out>
void EmitImagePullSecrets(Out& out, const ir::Pod& pod, const StringPolicy& strings);
template <class Out>
void EmitResourceClaims(Out& out, const ir::Pod& pod, const StringPolicy& strings);

// `labels: {...}` into an open metadata map, nothing for none: the queue labels of the
// object Kueue admits (ir::Queue), a gang's JobSet or a TrainJob, whose pods never get them.
void EmitLabels(YAML::Emitter& out, const ir::KeyValues& labels, const StringPolicy& strings);

// A whole PodTemplateSpec (metadata + spec with restartPolicy Never).
template <class Out>
void EmitPodTemplate(Out& out, const ir::Pod& pod, const StringPolicy& strings);

}  // namespace flowc::backends::k8s

#endif  // FLOWC_BACKENDS_K8S_POD_YAML_H_
