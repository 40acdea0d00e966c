#include "backends/k8s/pod_yaml.h"

#include "backends/k8s/yaml_record.h"

namespace flowc::backends::k8s {
namespace {

// `out << YAML::BeginMap` that, in a record, also opens a unit: a block map that recurs on its
// own across pods (a toleration, a volume, the labels), which EmitRecordedMap has yaml-cpp
// write once where the pod around it is new. EndUnit closes both.
size_t BeginUnit(YAML::Emitter& out) {
  out << YAML::BeginMap;
  return 0;
}
size_t BeginUnit(YamlRecord& out) {
  const size_t unit = out.OpenUnit();
  out << YAML::BeginMap;
  return unit;
}
void EndUnit(YAML::Emitter& out, size_t /*unit*/) { out << YAML::EndMap; }
void EndUnit(YamlRecord& out, size_t unit) {
  out << YAML::EndMap;
  out.CloseUnit(unit);
}

// A user string map (labels, annotations, nodeSelector, resource lists),
// keys and values both through the target's policy.
template <class Out>
void StringMap(Out& out, std::string_view key, const ir::KeyValues& values,
               const StringPolicy& strings) {
  if (values.empty()) return;
  Key(out, key);
  out << YAML::Value;
  const size_t unit = BeginUnit(out);
  for (const auto& [k, v] : values) {
    out << YAML::Key;
    EmitString(out, strings.Literal(k));
    out << YAML::Value;
    EmitString(out, strings.Literal(v));
  }
  EndUnit(out, unit);
}

}  // namespace

template <class Out>
void EmitEnv(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.env.empty()) return;
  Key(out, "env");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::EnvVar& var : pod.env) {
    const size_t unit = BeginUnit(out);
    StringField(out, "name", strings.Literal(var.name));
    if (!var.field_path.empty()) {
      Key(out, "valueFrom");
      out << YAML::Value << YAML::BeginMap;
      Key(out, "fieldRef");
      out << YAML::Value << YAML::BeginMap;
      StringField(out, "fieldPath", strings.Literal(var.field_path));
      out << YAML::EndMap << YAML::EndMap;
    } else {
      StringField(out, "value", strings.Literal(var.value));
    }
    EndUnit(out, unit);
  }
  out << YAML::EndSeq;
}

template <class Out>
void EmitCommand(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.command.empty()) return;
  Key(out, "command");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::Text& arg : pod.command) EmitString(out, strings.Text(arg));
  out << YAML::EndSeq;
}

template <class Out>
void EmitVolumeMounts(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.volume_mounts.empty()) return;
  Key(out, "volumeMounts");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::VolumeMount& mount : pod.volume_mounts) {
    const size_t unit = BeginUnit(out);
    StringField(out, "name", strings.Literal(mount.name));
    StringField(out, "mountPath", strings.Literal(mount.mount_path));
    if (mount.read_only) {
      Key(out, "readOnly");
      out << YAML::Value << true;
    }
    EndUnit(out, unit);
  }
  out << YAML::EndSeq;
}

template <class Out>
void EmitResources(Out& out, const ir::Pod& pod, const StringPolicy& strings,
                   std::string_view key) {
  const ir::Resources& resources = pod.resources;
  if (resources.requests.empty() && resources.limits.empty() && resources.claims.empty()) return;
  Key(out, key);
  out << YAML::Value;
  const size_t unit = BeginUnit(out);
  // Quantities stay YAML strings ("1", "4096M"): inside a CRD (JobSet, Argo)
  // a number would fail the quantity schema's string pattern.
  StringMap(out, "requests", resources.requests, strings);
  StringMap(out, "limits", resources.limits, strings);
  if (!resources.claims.empty()) {
    Key(out, "claims");
    out << YAML::Value << YAML::BeginSeq;
    for (const std::string& claim : resources.claims) {
      out << YAML::BeginMap;
      StringField(out, "name", strings.Literal(claim));
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  EndUnit(out, unit);
}

template <class Out>
void EmitSecurityContext(Out& out, const ir::Pod& pod) {
  if (!pod.security_context) return;
  const ir::SecurityContext& context = *pod.security_context;
  Key(out, "securityContext");
  out << YAML::Value;
  const size_t unit = BeginUnit(out);
  if (context.privileged) {
    Key(out, "privileged");
    out << YAML::Value << *context.privileged;
  }
  if (context.allow_privilege_escalation) {
    Key(out, "allowPrivilegeEscalation");
    out << YAML::Value
        << *context.allow_privilege_escalation;
  }
  if (context.run_as_user) {
    Key(out, "runAsUser");
    out << YAML::Value << *context.run_as_user;
  }
  if (context.run_as_group) {
    Key(out, "runAsGroup");
    out << YAML::Value << *context.run_as_group;
  }
  if (context.run_as_non_root) {
    Key(out, "runAsNonRoot");
    out << YAML::Value << *context.run_as_non_root;
  }
  EndUnit(out, unit);
}

template <class Out>
void EmitPodMetadataFields(Out& out, const ir::Pod& pod, const StringPolicy& strings,
                           const ir::KeyValues& admission) {
  if (admission.empty()) {
    StringMap(out, "labels", pod.labels, strings);
  } else {
    ir::KeyValues labels = pod.labels;
    labels.insert(labels.end(), admission.begin(), admission.end());
    StringMap(out, "labels", labels, strings);
  }
  StringMap(out, "annotations", pod.annotations, strings);
}

void EmitLabels(YAML::Emitter& out, const ir::KeyValues& labels, const StringPolicy& strings) {
  StringMap(out, "labels", labels, strings);
}

template <class Out>
void EmitContainer(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  const size_t unit = BeginUnit(out);
  StringField(out, "name", strings.Literal(pod.container_name));
  if (!pod.image.empty()) StringField(out, "image", strings.Literal(pod.image));
  EmitCommand(out, pod, strings);
  EmitEnv(out, pod, strings);
  if (!pod.env_from_secrets.empty()) {
    Key(out, "envFrom");
    out << YAML::Value << YAML::BeginSeq;
    for (const std::string& secret : pod.env_from_secrets) {
      const size_t unit = BeginUnit(out);
      Key(out, "secretRef");
      out << YAML::Value << YAML::BeginMap;
      StringField(out, "name", strings.Literal(secret));
      out << YAML::EndMap;
      EndUnit(out, unit);
    }
    out << YAML::EndSeq;
  }
  EmitResources(out, pod, strings);
  EmitVolumeMounts(out, pod, strings);
  if (!pod.image_pull_policy.empty()) {
    StringField(out, "imagePullPolicy", strings.Literal(pod.image_pull_policy));
  }
  EmitSecurityContext(out, pod);
  if (pod.port) {
    Key(out, "ports");
    out << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    Key(out, "containerPort");
    out << YAML::Value << *pod.port;
    out << YAML::EndMap << YAML::EndSeq;
  }
  if (!pod.working_dir.empty()) StringField(out, "workingDir", strings.Literal(pod.working_dir));
  EndUnit(out, unit);
}

template <class Out>
void EmitTolerations(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.tolerations.empty()) return;
  Key(out, "tolerations");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::Toleration& toleration : pod.tolerations) {
    const size_t unit = BeginUnit(out);
    if (!toleration.key.empty()) StringField(out, "key", strings.Literal(toleration.key));
    if (!toleration.op.empty()) StringField(out, "operator", strings.Literal(toleration.op));
    if (!toleration.value.empty()) StringField(out, "value", strings.Literal(toleration.value));
    if (!toleration.effect.empty()) StringField(out, "effect", strings.Literal(toleration.effect));
    if (toleration.toleration_seconds) {
      Key(out, "tolerationSeconds");
      out << YAML::Value << *toleration.toleration_seconds;
    }
    EndUnit(out, unit);
  }
  out << YAML::EndSeq;
}

template <class Out>
void EmitVolumes(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.volumes.empty()) return;
  Key(out, "volumes");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::Volume& volume : pod.volumes) {
    const size_t unit = BeginUnit(out);
    StringField(out, "name", strings.Literal(volume.name));
    switch (volume.kind) {
      case ir::Volume::Kind::kMemory:
        Key(out, "emptyDir");
        out << YAML::Value << YAML::BeginMap;
        Key(out, "medium");
        ValueScalar(out, "Memory");
        if (!volume.size_limit.empty()) {
          StringField(out, "sizeLimit", strings.Literal(volume.size_limit));
        }
        out << YAML::EndMap;
        break;
      case ir::Volume::Kind::kClaim:
        Key(out, "persistentVolumeClaim");
        out << YAML::Value << YAML::BeginMap;
        StringField(out, "claimName", strings.Literal(volume.claim_name));
        out << YAML::EndMap;
        break;
      case ir::Volume::Kind::kConfigMap:
        Key(out, "configMap");
        out << YAML::Value << YAML::BeginMap;
        StringField(out, "name", strings.Literal(volume.claim_name));
        Key(out, "items");
        out << YAML::Value << YAML::BeginSeq;
        for (const ir::KeyToPath& item : volume.items) {
          out << YAML::BeginMap;
          StringField(out, "key", strings.Literal(item.key));
          StringField(out, "path", strings.Literal(item.path));
          if (item.mode != 0) {  // an int32: 0755 is written 493, as the API returns it
            Key(out, "mode");
            out << YAML::Value << item.mode;
          }
          out << YAML::EndMap;
        }
        out << YAML::EndSeq;
        out << YAML::EndMap;
        break;
    }
    EndUnit(out, unit);
  }
  out << YAML::EndSeq;
}

template <class Out>
void EmitNodeSelector(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  StringMap(out, "nodeSelector", pod.node_selector, strings);
}

template <class Out>
void EmitImagePullSecrets(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.image_pull_secrets.empty()) return;
  Key(out, "imagePullSecrets");
  out << YAML::Value << YAML::BeginSeq;
  for (const std::string& secret : pod.image_pull_secrets) {
    out << YAML::BeginMap;
    StringField(out, "name", strings.Literal(secret));
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

template <class Out>
void EmitResourceClaims(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.resource_claims.empty()) return;
  Key(out, "resourceClaims");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::PodResourceClaim& claim : pod.resource_claims) {
    out << YAML::BeginMap;
    StringField(out, "name", strings.Literal(claim.name));
    StringField(out, "resourceClaimTemplateName", strings.Literal(claim.template_name));
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

template <class Out>
void EmitPlacementFields(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (!pod.service_account_name.empty()) {
    StringField(out, "serviceAccountName", strings.Literal(pod.service_account_name));
  }
  EmitNodeSelector(out, pod, strings);
  EmitTolerations(out, pod, strings);
  EmitVolumes(out, pod, strings);
}

template <class Out>
void EmitPodSpecFields(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  EmitPlacementFields(out, pod, strings);
  EmitImagePullSecrets(out, pod, strings);
  EmitResourceClaims(out, pod, strings);
}

template <class Out>
void EmitPodTemplate(Out& out, const ir::Pod& pod, const StringPolicy& strings) {
  out << YAML::BeginMap;
  if (!pod.labels.empty() || !pod.annotations.empty()) {
    Key(out, "metadata");
    out << YAML::Value;
    const size_t unit = BeginUnit(out);
    EmitPodMetadataFields(out, pod, strings);
    EndUnit(out, unit);
  }
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  // A failed pod is never restarted in place: retries belong to the
  // target (JobSet failurePolicy, Argo retryStrategy), so they mean one thing.
  Key(out, "restartPolicy");
  ValueScalar(out, "Never");
  EmitPodSpecFields(out, pod, strings);
  Key(out, "containers");
  out << YAML::Value << YAML::BeginSeq;
  EmitContainer(out, pod, strings);
  out << YAML::EndSeq;
  out << YAML::EndMap;
  out << YAML::EndMap;
}

// Every renderer for both outputs (pod_yaml.h).
#define FLOWC_POD_YAML_FOR(Out)                                                             \
  template void EmitPodMetadataFields(Out&, const ir::Pod&, const StringPolicy&,             \
                                     const ir::KeyValues&);                                 \
  template void EmitContainer(Out&, const ir::Pod&, const StringPolicy&);                   \
  template void EmitPodSpecFields(Out&, const ir::Pod&, const StringPolicy&);               \
  template void EmitPlacementFields(Out&, const ir::Pod&, const StringPolicy&);             \
  template void EmitCommand(Out&, const ir::Pod&, const StringPolicy&);                     \
  template void EmitEnv(Out&, const ir::Pod&, const StringPolicy&);                         \
  template void EmitResources(Out&, const ir::Pod&, const StringPolicy&, std::string_view); \
  template void EmitVolumeMounts(Out&, const ir::Pod&, const StringPolicy&);                \
  template void EmitSecurityContext(Out&, const ir::Pod&);                                  \
  template void EmitTolerations(Out&, const ir::Pod&, const StringPolicy&);                 \
  template void EmitVolumes(Out&, const ir::Pod&, const StringPolicy&);                     \
  template void EmitNodeSelector(Out&, const ir::Pod&, const StringPolicy&);                \
  template void EmitImagePullSecrets(Out&, const ir::Pod&, const StringPolicy&);            \
  template void EmitResourceClaims(Out&, const ir::Pod&, const StringPolicy&);              \
  template void EmitPodTemplate(Out&, const ir::Pod&, const StringPolicy&);
FLOWC_POD_YAML_FOR(YAML::Emitter)
FLOWC_POD_YAML_FOR(YamlRecord)
#undef FLOWC_POD_YAML_FOR

}  // namespace flowc::backends::k8s
