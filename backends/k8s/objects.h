// The objects beside the pods (DESIGN.md): ResourceClaimTemplates of
// `@neuron` steps, ConfigMaps of `@code` and TrainingRuntimes of `@trainjob`
// steps (their spec from trainjob.h), as Kubernetes YAML documents.
//
// This is their one writer. Argo and JobSet put the documents in their YAML
// stream; Airflow embeds the same text in its DAG, which creates the objects
// before the tasks that need them.
#ifndef FLOWC_BACKENDS_K8S_OBJECTS_H_
#define FLOWC_BACKENDS_K8S_OBJECTS_H_

#include <string>

#include <yaml-cpp/yaml.h>

#include "compiler/ir/ir.h"

namespace flowc::backends::k8s {

inline constexpr const char* kResourceApiVersion = "resource.k8s.io/v1";

// `object` as one YAML map (apiVersion, kind, metadata, and its content).
void EmitObject(YAML::Emitter& out, const ir::Object& object);

// Every object of `flow` as a document of its own, each followed by a
// document start: the caller's own document comes next in the stream.
void EmitObjectDocuments(YAML::Emitter& out, const ir::Flow& flow);

// `object` as `kubectl get -o name` prints it (kubernetes staging/src/
// k8s.io/cli-runtime/pkg/printers/name.go printObj: the kind lowercased,
// `.group` unless core, `/name`), for a clean-up script
// to compare with what the cluster holds: "configmap/f-code-0123456789",
// "resourceclaimtemplate.resource.k8s.io/f-neuron-...".
std::string ObjectResourceName(const ir::Object& object);

// `object` as a standalone YAML document, with a final newline.
std::string ObjectYaml(const ir::Object& object);

// ObjectYaml in two parts, ObjectHeadYaml(o) + ObjectContentYaml(o) ==
// ObjectYaml(o): apiVersion, kind and metadata, then the rest, which is the
// same text for every object of the same content (compiler/ir/content_key.h).
// A writer of many objects of one content renders that content once.
std::string ObjectHeadYaml(const ir::Object& object);
std::string ObjectContentYaml(const ir::Object& object);

}  // namespace flowc::backends::k8s

#endif  // FLOWC_BACKENDS_K8S_OBJECTS_H_
