#include "compiler/ir/pod_json.h"

#include <openssl/evp.h>

#include "compiler/ir/ir_json.h"
#include "compiler/ir/sha256.h"

namespace flowc::ir {
namespace pod_json {
namespace {

using Field = SharedParts::Field;

// The JSON `build()` makes of a shared value, or, when writing text through `parts`, its
// stand-in (json_parts.h).
template <typename T, typename Build>
Json Part(SharedParts* parts, Field field, const Shared<T>& value, const Build& build) {
  return parts ? parts->StandIn(field, &value.get(), build) : build();
}

Json ContainerJson(const Pod& pod, SharedParts* parts) {
  Json c = JsonObject(11);
  Add(c, "name", pod.container_name);
  Add(c, "image", pod.image);
  if (!pod.command.empty()) {
    Json command = JsonArray(pod.command.size());
    for (const Text& arg : pod.command) command.push_back(arg.ToFlowString());
    Add(c, "command", std::move(command));
  }
  if (!pod.env.empty()) {
    Add(c, "env", Part(parts, Field::kEnv, pod.env, [&] {
          Json env = JsonArray(pod.env.size());
          for (const EnvVar& e : pod.env) {
            Json var = Named(e.name);
            if (e.field_path.empty()) {
              Add(var, "value", e.value);
            } else {
              Json field_ref = JsonObject(1);
              Add(field_ref, "fieldPath", e.field_path);
              Json value_from = JsonObject(1);
              Add(value_from, "fieldRef", std::move(field_ref));
              Add(var, "valueFrom", std::move(value_from));
            }
            env.push_back(std::move(var));
          }
          return env;
        }));
  }
  if (!pod.env_from_secrets.empty()) {
    Add(c, "envFrom", Part(parts, Field::kEnvFrom, pod.env_from_secrets, [&] {
          Json env_from = JsonArray(pod.env_from_secrets.size());
          for (const std::string& s : pod.env_from_secrets) {
            Json ref = JsonObject(1);
            Add(ref, "secretRef", Named(s));
            env_from.push_back(std::move(ref));
          }
          return env_from;
        }));
  }
  const Resources& r = pod.resources;
  if (!r.requests.empty() || !r.limits.empty() || !r.claims.empty()) {
    Add(c, "resources", Part(parts, Field::kResources, pod.resources, [&] {
          Json resources = JsonObject(3);
          SetIf(resources, "requests", r.requests);
          SetIf(resources, "limits", r.limits);
          if (!r.claims.empty()) {
            Json claims = JsonArray(r.claims.size());
            for (const std::string& name : r.claims) claims.push_back(Named(name));
            Add(resources, "claims", std::move(claims));
          }
          return resources;
        }));
  }
  if (!pod.volume_mounts.empty()) {
    Add(c, "volumeMounts", Part(parts, Field::kVolumeMounts, pod.volume_mounts, [&] {
          Json mounts = JsonArray(pod.volume_mounts.size());
          for (const VolumeMount& m : pod.volume_mounts) {
            Json mount = Named(m.name);
            Add(mount, "mountPath", m.mount_path);
            if (m.read_only) Add(mount, "readOnly", true);
            mounts.push_back(std::move(mount));
          }
          return mounts;
        }));
  }
  SetIf(c, "imagePullPolicy", pod.image_pull_policy);
  if (pod.security_context) {
    const SecurityContext& s = *pod.security_context;
    Json sc = JsonObject(5);
    if (s.privileged) Add(sc, "privileged", *s.privileged);
    if (s.allow_privilege_escalation)
      Add(sc, "allowPrivilegeEscalation", *s.allow_privilege_escalation);
    if (s.run_as_user) Add(sc, "runAsUser", *s.run_as_user);
    if (s.run_as_group) Add(sc, "runAsGroup", *s.run_as_group);
    if (s.run_as_non_root) Add(sc, "runAsNonRoot", *s.run_as_non_root);
    Add(c, "securityContext", std::move(sc));
  }
  if (pod.port) {
    Json port = JsonObject(1);
    Add(port, "containerPort", *pod.port);
    Json ports = JsonArray(1);
    ports.push_back(std::move(port));
    Add(c, "ports", std::move(ports));
  }
  SetIf(c, "workingDir", pod.working_dir);
  return c;
}

Json ClaimTemplateSpecJson(const ResourceClaimTemplate& t) {
  Json exactly;
  exactly["deviceClassName"] = t.device_class;
  exactly["allocationMode"] = t.allocation_mode;
  if (t.allocation_mode == "ExactCount") exactly["count"] = t.count;
  if (!t.selectors.empty()) {
    Json selectors = Json::array();
    for (const std::string& cel : t.selectors) selectors.push_back({{"cel", {{"expression", cel}}}});
    exactly["selectors"] = std::move(selectors);
  }
  Json devices;
  devices["requests"] = Json::array({{{"name", t.request_name}, {"exactly", std::move(exactly)}}});
  if (!t.match_attribute.empty()) {
    devices["constraints"] = Json::array(
        {{{"requests", Json::array({t.request_name})}, {"matchAttribute", t.match_attribute}}});
  }
  if (!t.configs.empty()) {
    Json configs = Json::array();
    for (const OpaqueDeviceConfig& c : t.configs) {
      Json parameters = {{"apiVersion", c.api_version}, {"kind", c.kind}};
      for (const auto& [key, value] : c.fields) parameters[key] = value;
      configs.push_back({{"requests", Json::array({t.request_name})},
                         {"opaque", {{"driver", c.driver}, {"parameters", std::move(parameters)}}}});
    }
    devices["config"] = std::move(configs);
  }
  return {{"spec", {{"devices", std::move(devices)}}}};  // the template's spec.spec
}

// Standard base64 without line breaks, as Kubernetes writes binaryData.
std::string Base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

Json KeyToPathJson(const KeyToPath& item) {
  Json out = JsonObject(3);
  Add(out, "key", item.key);
  Add(out, "path", item.path);
  if (item.mode != 0) Add(out, "mode", item.mode);
  return out;
}

Json ConfigMapJson(const ConfigMap& map) {
  // The whole content, as the ConfigMap carries it: text as it is (valid
  // UTF-8, so JSON holds it exactly), other files in base64.
  Json data = Json::object();
  Json binary = Json::object();
  for (const ConfigMapFile& f : map.files) {
    if (f.binary) {
      binary[f.key] = Base64(f.content);
    } else {
      data[f.key] = f.content;
    }
  }
  Json out;
  out["immutable"] = true;
  Json paths = Json::array();
  for (const ConfigMapFile& f : map.files) paths.push_back(KeyToPathJson({f.key, f.path, f.mode}));
  out["items"] = std::move(paths);
  if (!data.empty()) out["data"] = std::move(data);
  if (!binary.empty()) out["binaryData"] = std::move(binary);
  return out;
}

// A map that is a shared part of a pod.
void MapPart(Json& out, const char* key, SharedParts* parts, Field field,
             const Shared<KeyValues>& pairs) {
  if (!pairs.empty()) Add(out, key, Part(parts, field, pairs, [&] { return Map(pairs); }));
}

}  // namespace

Json ObjectJson(const Object& object, SharedParts* parts) {
  Json out;
  out["kind"] = object.kind();
  out["name"] = object.name;
  SetIf(out, "namespace", object.namespace_);
  SetIf(out, "labels", object.labels.get());
  if (const auto* t = std::get_if<ResourceClaimTemplate>(&object.spec)) {
    out["spec"] = ClaimTemplateSpecJson(*t);  // {spec: {devices}}, as in Kubernetes
  } else if (const auto* r = std::get_if<TrainingRuntime>(&object.spec)) {
    // The runtime's content as flowc decides it; backends/k8s/trainjob.cc
    // writes the JobSet template around the pod.
    Json runtime = {{"numNodes", r->num_nodes}};
    SetIf(runtime, "exclusiveTopology", r->exclusive_topology);
    runtime["pod"] = PodJson(r->pod, parts);
    out["trainingRuntime"] = std::move(runtime);
  } else {
    out["configMap"] = ConfigMapJson(std::get<ConfigMap>(object.spec));
  }
  return out;
}

Json PodJson(const Pod& pod, SharedParts* parts) {
  Json metadata = JsonObject(3);
  SetIf(metadata, "namespace", pod.namespace_);
  MapPart(metadata, "labels", parts, Field::kLabels, pod.labels);
  MapPart(metadata, "annotations", parts, Field::kAnnotations, pod.annotations);

  Json spec = JsonObject(7);
  SetIf(spec, "serviceAccountName", pod.service_account_name);
  MapPart(spec, "nodeSelector", parts, Field::kNodeSelector, pod.node_selector);
  if (!pod.tolerations.empty()) {
    Add(spec, "tolerations", Part(parts, Field::kTolerations, pod.tolerations, [&] {
          Json tolerations = JsonArray(pod.tolerations.size());
          for (const Toleration& t : pod.tolerations) {
            Json j = JsonObject(5);
            SetIf(j, "key", t.key);
            SetIf(j, "operator", t.op);
            SetIf(j, "value", t.value);
            SetIf(j, "effect", t.effect);
            if (t.toleration_seconds) Add(j, "tolerationSeconds", *t.toleration_seconds);
            tolerations.push_back(std::move(j));
          }
          return tolerations;
        }));
  }
  if (!pod.image_pull_secrets.empty()) {
    Add(spec, "imagePullSecrets",
        Part(parts, Field::kImagePullSecrets, pod.image_pull_secrets, [&] {
          Json secrets = JsonArray(pod.image_pull_secrets.size());
          for (const std::string& s : pod.image_pull_secrets) secrets.push_back(Named(s));
          return secrets;
        }));
  }
  if (!pod.volumes.empty()) {
    Add(spec, "volumes", Part(parts, Field::kVolumes, pod.volumes, [&] {
          Json volumes = JsonArray(pod.volumes.size());
          for (const Volume& v : pod.volumes) {
            Json volume = Named(v.name);
            switch (v.kind) {
              case Volume::Kind::kMemory: {
                Json empty_dir = JsonObject(2);
                Add(empty_dir, "medium", "Memory");
                Add(empty_dir, "sizeLimit", v.size_limit);
                Add(volume, "emptyDir", std::move(empty_dir));
                break;
              }
              case Volume::Kind::kClaim: {
                Json claim = JsonObject(1);
                Add(claim, "claimName", v.claim_name);
                Add(volume, "persistentVolumeClaim", std::move(claim));
                break;
              }
              case Volume::Kind::kConfigMap: {
                Json items = JsonArray(v.items.size());
                for (const KeyToPath& i : v.items) items.push_back(KeyToPathJson(i));
                Json config_map = Named(v.claim_name);
                Add(config_map, "items", std::move(items));
                Add(volume, "configMap", std::move(config_map));
                break;
              }
            }
            volumes.push_back(std::move(volume));
          }
          return volumes;
        }));
  }
  if (!pod.resource_claims.empty()) {
    Add(spec, "resourceClaims", Part(parts, Field::kResourceClaims, pod.resource_claims, [&] {
          Json claims = JsonArray(pod.resource_claims.size());
          for (const PodResourceClaim& c : pod.resource_claims) {
            Json claim = Named(c.name);
            Add(claim, "resourceClaimTemplateName", c.template_name);
            claims.push_back(std::move(claim));
          }
          return claims;
        }));
  }
  Json containers = JsonArray(1);
  containers.push_back(ContainerJson(pod, parts));
  Add(spec, "containers", std::move(containers));

  Json out = JsonObject(2);
  if (!metadata.empty()) Add(out, "metadata", std::move(metadata));
  Add(out, "spec", std::move(spec));
  return out;
}

}  // namespace pod_json

nlohmann::ordered_json PodToJson(const Pod& pod) { return pod_json::PodJson(pod, nullptr); }

nlohmann::ordered_json ObjectToJson(const Object& object) {
  return pod_json::ObjectJson(object, nullptr);
}

std::string ObjectContentHash(const Object& object) {
  // Labels say who made the object, not what it holds: a label added to
  // every object renames none (tests/unit/code_test.cc).
  nlohmann::ordered_json json = ObjectToJson(object);
  json.erase("labels");
  return Sha256Hex(json.dump(), 10);
}

}  // namespace flowc::ir
