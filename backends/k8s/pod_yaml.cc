#include "backends/k8s/pod_yaml.h"

#include <cstdint>

namespace flowc::backends::k8s {
namespace {

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// True when a YAML 1.1 or 1.2 reader could resolve the plain scalar `value`
// to something other than a string. Deliberately broader than the resolvers:
// quoting a string that did not need it costs two characters, while missing
// one turns "0755" into 493 or "no" into false on some reader (sigs.k8s.io/yaml
// and PyYAML read YAML 1.1; yaml-cpp and most newer tools read 1.2).
bool ResolvesToNonString(std::string_view value) {
  if (value.empty()) return true;  // null
  // Null, and the bools of YAML 1.1 (y|yes|true|on and their negations) and
  // 1.2, in any capitalisation; a few of these are strings to some readers,
  // which is no reason not to quote them.
  static constexpr std::string_view kWords[] = {"~",  "null", "y",    "n",     "yes", "no",
                                                "on", "off",  "true", "false", "<<",  "="};
  for (std::string_view word : kWords) {
    if (EqualsIgnoreCase(value, word)) return true;
  }
  // Numbers and timestamps all start with a digit, a dot or a sign followed
  // by one of those: ints in any base (0755, 0o17, 0x1F, 0b101, 1_000,
  // 1:20 sexagesimal), floats (1.0, .5, 1e3, .inf, -.nan) and dates
  // (2001-12-14). Any string starting that way is quoted.
  // Document markers, which some readers take for the end of the document
  // even after an indicator ("- ---").
  if (value.substr(0, 3) == "---" || value.substr(0, 3) == "...") return true;
  size_t i = 0;
  if (value[0] == '+' || value[0] == '-') i = 1;
  if (i < value.size() && (IsDigit(value[i]) || value[i] == '.')) return true;
  return false;
}

// Decodes the UTF-8 code point at value[i], advancing i; returns -1 for an
// invalid sequence (and advances one byte).
int32_t NextCodePoint(std::string_view value, size_t& i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(value[k]); };
  unsigned char b0 = byte(i);
  int length = b0 < 0x80           ? 1
               : (b0 >> 5) == 0x6  ? 2
               : (b0 >> 4) == 0xE  ? 3
               : (b0 >> 3) == 0x1E ? 4
                                   : 0;
  if (length == 0 || i + length > value.size()) {
    ++i;
    return -1;
  }
  int32_t cp = length == 1   ? b0
               : length == 2 ? (b0 & 0x1F)
               : length == 3 ? (b0 & 0x0F)
                             : (b0 & 0x07);
  for (int k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      ++i;
      return -1;
    }
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  i += length;
  return cp;
}

enum class Characters {
  kPlain,     // printable, no line breaks: the emitter's own rules suffice
  kEscapes,   // controls or line breaks: double quotes with escapes
  kNonAscii,  // characters yaml-cpp would write raw though a YAML reader
              // rejects or folds them: escape every non-ASCII character
};

// What `value` needs beyond the emitter's own plain-scalar rules. yaml-cpp
// 0.7 writes DEL (U+007F) and the line separators U+2028/U+2029 raw, even
// between double quotes; PyYAML rejects the first and folds the others into
// spaces, so only escaping them keeps the string intact.
Characters Classify(std::string_view value) {
  Characters result = Characters::kPlain;
  for (size_t i = 0; i < value.size();) {
    int32_t cp = NextCodePoint(value, i);
    if (cp < 0 || cp == 0x7F || cp == 0x2028 || cp == 0x2029 || cp == 0xFFFE || cp == 0xFFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return Characters::kNonAscii;
    }
    if (cp < 0x20 || (cp >= 0x80 && cp < 0xA0) || cp == 0xFEFF) result = Characters::kEscapes;
  }
  return result;
}

void Key(YAML::Emitter& out, std::string_view key) { out << YAML::Key << std::string(key); }

void StringField(YAML::Emitter& out, std::string_view key, std::string_view value) {
  Key(out, key);
  out << YAML::Value;
  EmitString(out, value);
}

// A user string map (labels, annotations, nodeSelector, resource lists),
// keys and values both through the target's policy.
void StringMap(YAML::Emitter& out, std::string_view key, const ir::KeyValues& values,
               const StringPolicy& strings) {
  if (values.empty()) return;
  Key(out, key);
  out << YAML::Value << YAML::BeginMap;
  for (const auto& [k, v] : values) {
    out << YAML::Key;
    EmitString(out, strings.Literal(k));
    out << YAML::Value;
    EmitString(out, strings.Literal(v));
  }
  out << YAML::EndMap;
}

}  // namespace

void EmitEnv(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.env.empty()) return;
  Key(out, "env");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::EnvVar& var : pod.env) {
    out << YAML::BeginMap;
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
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void EmitCommand(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.command.empty()) return;
  Key(out, "command");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::Text& arg : pod.command) EmitString(out, strings.Text(arg));
  out << YAML::EndSeq;
}

void EmitVolumeMounts(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.volume_mounts.empty()) return;
  Key(out, "volumeMounts");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::VolumeMount& mount : pod.volume_mounts) {
    out << YAML::BeginMap;
    StringField(out, "name", strings.Literal(mount.name));
    StringField(out, "mountPath", strings.Literal(mount.mount_path));
    if (mount.read_only) out << YAML::Key << "readOnly" << YAML::Value << true;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void EmitResources(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings,
                   std::string_view key) {
  const ir::Resources& resources = pod.resources;
  if (resources.requests.empty() && resources.limits.empty() && resources.claims.empty()) return;
  Key(out, key);
  out << YAML::Value << YAML::BeginMap;
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
  out << YAML::EndMap;
}

void EmitSecurityContext(YAML::Emitter& out, const ir::Pod& pod) {
  if (!pod.security_context) return;
  const ir::SecurityContext& context = *pod.security_context;
  Key(out, "securityContext");
  out << YAML::Value << YAML::BeginMap;
  if (context.privileged) out << YAML::Key << "privileged" << YAML::Value << *context.privileged;
  if (context.allow_privilege_escalation) {
    out << YAML::Key << "allowPrivilegeEscalation" << YAML::Value
        << *context.allow_privilege_escalation;
  }
  if (context.run_as_user) out << YAML::Key << "runAsUser" << YAML::Value << *context.run_as_user;
  if (context.run_as_group) {
    out << YAML::Key << "runAsGroup" << YAML::Value << *context.run_as_group;
  }
  if (context.run_as_non_root) {
    out << YAML::Key << "runAsNonRoot" << YAML::Value << *context.run_as_non_root;
  }
  out << YAML::EndMap;
}

void EmitString(YAML::Emitter& out, std::string_view value) {
  std::string text(value);
  switch (Classify(value)) {
    case Characters::kNonAscii:
      // Both manipulators apply to this one scalar only.
      out << YAML::EscapeNonAscii << YAML::DoubleQuoted << text;
      return;
    case Characters::kEscapes:
      out << YAML::DoubleQuoted << text;
      return;
    case Characters::kPlain:
      break;
  }
  if (ResolvesToNonString(value)) {
    out << YAML::DoubleQuoted << text;
  } else {
    // yaml-cpp still quotes what it cannot write plain (": ", " #", a leading
    // indicator, surrounding spaces).
    out << text;
  }
}

void EmitPodMetadataFields(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  StringMap(out, "labels", pod.labels, strings);
  StringMap(out, "annotations", pod.annotations, strings);
}

void EmitContainer(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  out << YAML::BeginMap;
  StringField(out, "name", strings.Literal(pod.container_name));
  if (!pod.image.empty()) StringField(out, "image", strings.Literal(pod.image));
  EmitCommand(out, pod, strings);
  EmitEnv(out, pod, strings);
  if (!pod.env_from_secrets.empty()) {
    Key(out, "envFrom");
    out << YAML::Value << YAML::BeginSeq;
    for (const std::string& secret : pod.env_from_secrets) {
      out << YAML::BeginMap;
      Key(out, "secretRef");
      out << YAML::Value << YAML::BeginMap;
      StringField(out, "name", strings.Literal(secret));
      out << YAML::EndMap << YAML::EndMap;
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
    out << YAML::Key << "containerPort" << YAML::Value << *pod.port;
    out << YAML::EndMap << YAML::EndSeq;
  }
  if (!pod.working_dir.empty()) StringField(out, "workingDir", strings.Literal(pod.working_dir));
  out << YAML::EndMap;
}

void EmitTolerations(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.tolerations.empty()) return;
  Key(out, "tolerations");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::Toleration& toleration : pod.tolerations) {
    out << YAML::BeginMap;
    if (!toleration.key.empty()) StringField(out, "key", strings.Literal(toleration.key));
    if (!toleration.op.empty()) StringField(out, "operator", strings.Literal(toleration.op));
    if (!toleration.value.empty()) StringField(out, "value", strings.Literal(toleration.value));
    if (!toleration.effect.empty()) StringField(out, "effect", strings.Literal(toleration.effect));
    if (toleration.toleration_seconds) {
      out << YAML::Key << "tolerationSeconds" << YAML::Value << *toleration.toleration_seconds;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void EmitVolumes(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (pod.volumes.empty()) return;
  Key(out, "volumes");
  out << YAML::Value << YAML::BeginSeq;
  for (const ir::Volume& volume : pod.volumes) {
    out << YAML::BeginMap;
    StringField(out, "name", strings.Literal(volume.name));
    switch (volume.kind) {
      case ir::Volume::Kind::kMemory:
        Key(out, "emptyDir");
        out << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "medium" << YAML::Value << "Memory";
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
        for (const auto& [key, path] : volume.items) {
          out << YAML::BeginMap;
          StringField(out, "key", strings.Literal(key));
          StringField(out, "path", strings.Literal(path));
          out << YAML::EndMap;
        }
        out << YAML::EndSeq;
        out << YAML::EndMap;
        break;
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void EmitNodeSelector(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  StringMap(out, "nodeSelector", pod.node_selector, strings);
}

void EmitImagePullSecrets(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
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

void EmitResourceClaims(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
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

void EmitPlacementFields(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  if (!pod.service_account_name.empty()) {
    StringField(out, "serviceAccountName", strings.Literal(pod.service_account_name));
  }
  EmitNodeSelector(out, pod, strings);
  EmitTolerations(out, pod, strings);
  EmitVolumes(out, pod, strings);
}

void EmitPodSpecFields(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  EmitPlacementFields(out, pod, strings);
  EmitImagePullSecrets(out, pod, strings);
  EmitResourceClaims(out, pod, strings);
}

void EmitPodTemplate(YAML::Emitter& out, const ir::Pod& pod, const StringPolicy& strings) {
  out << YAML::BeginMap;
  if (!pod.labels.empty() || !pod.annotations.empty()) {
    Key(out, "metadata");
    out << YAML::Value << YAML::BeginMap;
    EmitPodMetadataFields(out, pod, strings);
    out << YAML::EndMap;
  }
  Key(out, "spec");
  out << YAML::Value << YAML::BeginMap;
  // A failed pod is never restarted in place: retries belong to the
  // target (JobSet failurePolicy, Argo retryStrategy), so they mean one thing.
  out << YAML::Key << "restartPolicy" << YAML::Value << "Never";
  EmitPodSpecFields(out, pod, strings);
  Key(out, "containers");
  out << YAML::Value << YAML::BeginSeq;
  EmitContainer(out, pod, strings);
  out << YAML::EndSeq;
  out << YAML::EndMap;
  out << YAML::EndMap;
}

}  // namespace flowc::backends::k8s
