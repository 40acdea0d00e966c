#include "compiler/ir/ir_json.h"

#include <algorithm>

#include <openssl/evp.h>

#include <fmt/format.h>

#include "compiler/ir/json_parts.h"

namespace flowc::ir {
namespace {

using Json = nlohmann::ordered_json;

// Members are added in order, each key once (they are flowc's own words), with room made
// beforehand: ordered_json's operator[] searches the members so far, and each growth of its
// vector copies every key (its pairs hold `const std::string`). A step's JSON is about 60
// nodes; building them was half of `--target ir`'s own instructions.
Json JsonObject(size_t members) {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(members);
  return out;
}

void Add(Json& object, const char* key, Json value) {
  object.get_ref<Json::object_t&>().emplace_back(key, std::move(value));
}

Json JsonArray(size_t items) {
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(items);
  return out;
}

Json Map(const KeyValues& pairs) {
  Json out = JsonObject(pairs.size());
  for (const auto& [key, value] : pairs) out[key] = value;  // a written key may repeat
  return out;
}

void SetIf(Json& out, const char* key, const std::string& value) {
  if (!value.empty()) Add(out, key, value);
}

void SetIf(Json& out, const char* key, const KeyValues& pairs) {
  if (!pairs.empty()) Add(out, key, Map(pairs));
}

// {"name": value}
Json Named(const std::string& name) {
  Json out = JsonObject(1);
  Add(out, "name", name);
  return out;
}

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

Json PodJson(const Pod& pod, SharedParts* parts);

// A step's or the flow's @queue, with the labels of the object Kueue admits.
Json QueueJson(const Queue& queue) {
  Json q = JsonObject(3);
  SetIf(q, "name", queue.name);
  SetIf(q, "priority", queue.priority);
  SetIf(q, "labels", queue.labels);
  return q;
}

// A step; `parts`, when writing text, takes its pod's shared parts.
Json StepJson(const Flow& flow, const Step& step, SharedParts* parts) {
  auto names = [&](const std::vector<size_t>& indexes) {
    Json out = JsonArray(indexes.size());
    for (size_t i : indexes) out.push_back(flow.steps[i].name);
    return out;
  };
  Json s = JsonObject(14);
  Add(s, "name", step.name);
  Add(s, "k8s_name", step.k8s_name);
  Add(s, "line", step.range.line);
  Add(s, "next", names(step.next));
  Add(s, "predecessors", names(step.predecessors));
  if (step.join) Add(s, "join", flow.steps[*step.join].name);
  if (step.foreach) {
    Json f = JsonObject(3);
    if (!step.foreach->param.empty()) {
      Add(f, "param", step.foreach->param);
    } else {
      Add(f, "items", step.foreach->items);
    }
    Add(f, "body", flow.steps[step.foreach->body].name);
    Add(f, "join", flow.steps[step.foreach->join].name);
    Add(s, "foreach", std::move(f));
  }
  if (!step.enclosing_foreach.empty()) Add(s, "enclosing_foreach", names(step.enclosing_foreach));
  if (step.parallel) {
    Json parallel = JsonObject(2);
    Add(parallel, "nodes", step.parallel->nodes);
    SetIf(parallel, "exclusive_topology", step.parallel->exclusive_topology);
    Add(s, "parallel", std::move(parallel));
  }
  if (step.retry) {
    Json retry = JsonObject(2);
    Add(retry, "times", step.retry->times);
    Add(retry, "minutes_between_retries", step.retry->minutes_between_retries);
    Add(s, "retry", std::move(retry));
  }
  if (step.timeout_seconds) Add(s, "timeout_seconds", *step.timeout_seconds);
  if (step.trainjob) {
    Json runtime = JsonObject(2);
    Add(runtime, "kind", step.trainjob->runtime_kind);
    Add(runtime, "name", step.trainjob->runtime_name);
    Json trainjob = JsonObject(2);
    Add(trainjob, "runtime", std::move(runtime));
    if (step.trainjob->proc_per_node) Add(trainjob, "proc_per_node", *step.trainjob->proc_per_node);
    Add(s, "trainjob", std::move(trainjob));
  }
  if (step.queue) Add(s, "queue", QueueJson(*step.queue));
  if (!step.objects.empty()) {
    Json objects = JsonArray(step.objects.size());
    for (size_t i : step.objects) objects.push_back(flow.objects[i].name);
    Add(s, "objects", std::move(objects));
  }
  Add(s, "pod", PodJson(step.pod, parts));
  return s;
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

}  // namespace

namespace {

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

// A map that is a shared part of a pod.
void MapPart(Json& out, const char* key, SharedParts* parts, Field field,
             const Shared<KeyValues>& pairs) {
  if (!pairs.empty()) Add(out, key, Part(parts, field, pairs, [&] { return Map(pairs); }));
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

}  // namespace

Json PodToJson(const Pod& pod) { return PodJson(pod, nullptr); }

Json ObjectToJson(const Object& object) { return ObjectJson(object, nullptr); }

namespace {

bool HasFloat(const Json& value) {
  if (value.is_number_float()) return true;
  if (!value.is_structured()) return false;
  for (const auto& item : value) {
    if (HasFloat(item)) return true;
  }
  return false;
}

Json ParamJson(const Param& p) {
  Json j;
  j["name"] = p.name;
  j["type"] = graph::ParamTypeName(p.type);
  if (p.default_json) {
    j["default"] = Json::parse(*p.default_json);
  } else {
    j["required"] = true;
  }
  return j;
}

Json ScheduleJson(const Schedule& schedule) {
  Json s;
  s["cron"] = schedule.cron;
  if (!schedule.timezone.empty()) s["timezone"] = schedule.timezone;
  return s;
}

// Whether a member's values may hold floats. Only a param's default does:
// ir.h has no floating-point field, and ParamJson is the one place that parses
// JSON text (a default written as 0.1). Looking for floats in the other
// members found none and cost 3 % of a --target ir compile.
enum class Floats { kNone, kMaybe };

// The members of the flow's document, in order, given to `out` one at a time:
// out.Member(key, value) and out.Array(key, count, element, floats), element(i)
// being the array's i-th element. FlowToJson builds the tree from them and
// WriteFlowJson prints them as they come, so the two cannot disagree.
template <typename Out>
void FlowMembers(const Flow& flow, Out& out) {
  out.Member("flow", Json(flow.name));
  out.Member("k8s_name", Json(flow.k8s_name));
  out.Array(
      "params", flow.params.size(), [&](size_t i) { return ParamJson(flow.params[i]); },
      Floats::kMaybe);
  if (flow.schedule) out.Member("schedule", ScheduleJson(*flow.schedule));
  if (flow.queue) out.Member("queue", QueueJson(*flow.queue));
  out.Array("steps", flow.steps.size(),
            [&](size_t i) { return StepJson(flow, flow.steps[i], out.parts()); });
  if (!flow.objects.empty()) {
    out.Array("objects", flow.objects.size(),
              [&](size_t i) { return ObjectJson(flow.objects[i], out.parts()); });
  }
}

// FlowMembers into one tree.
class TreeOut {
 public:
  void Member(const char* key, Json value) { tree_[key] = std::move(value); }
  template <typename Element>
  void Array(const char* key, size_t count, const Element& element, Floats = Floats::kNone) {
    Json array = Json::array();
    for (size_t i = 0; i < count; ++i) array.push_back(element(i));
    tree_[key] = std::move(array);
  }
  Json Take() { return std::move(tree_); }
  SharedParts* parts() { return nullptr; }  // whole trees

 private:
  Json tree_;
};

// FlowMembers printed as nlohmann's dump(2) prints the whole tree, holding one
// member or array element at a time. nlohmann writes every key and value; this
// writes only the glue between them (json_parts.h, pretty).
class TextOut {
 public:
  explicit TextOut(const std::function<void(std::string_view)>& write)
      : write_(write),
        // What basic_json::dump(2) runs (nlohmann/json.hpp), kept for the whole
        // document and writing straight into text_. It is nlohmann::detail,
        // not the documented API, because dump() cannot start at a depth
        // (`current_indent`); re-indenting each dumped piece instead cost 2 %
        // more instructions on the whole compile than the tree did.
        serializer_(nlohmann::detail::output_adapter<char, std::string>(text_), ' ',
                    nlohmann::detail::error_handler_t::strict) {
    text_ = "{";
  }

  void Member(const char* key, const Json& value) {
    Key(key);
    Piece(value, 1, Floats::kNone);
  }

  template <typename Element>
  void Array(const char* key, size_t count, const Element& element, Floats floats = Floats::kNone) {
    Key(key);
    if (count == 0) {
      text_ += "[]";  // as nlohmann prints an empty array
      return;
    }
    text_ += '[';
    for (size_t i = 0; i < count; ++i) {
      pretty::Item(text_, i == 0, 2 * kIndent);
      Piece(element(i), 2, floats);
      // The sink gets the text in pieces of some size, not one call per element.
      if (text_.size() >= kFlushSize) Flush();
    }
    pretty::Close(text_, kIndent, ']');
  }

  // The steps' and objects' trees hold stand-ins for their pods' shared parts, which Piece
  // writes from the text each part was given the first time (json_parts.h).
  SharedParts* parts() { return &parts_; }

  // Closes the document, with a final newline, and hands over what is left.
  void Finish() {
    pretty::Close(text_, 0, '}');
    text_ += '\n';
    Flush();
  }

 private:
  static constexpr size_t kFlushSize = 1 << 16;
  static constexpr unsigned kIndent = 2;

  void Key(const char* key) {
    pretty::Item(text_, members_++ == 0, kIndent);
    pretty::Key(serializer_, text_, key);
  }

  // `value` at nesting depth `depth`, as the pretty printer writes it nested
  // that deep: basic_json::dump() always starts at depth 0, its serializer
  // takes the depth as `current_indent` (the indent of the lines after the
  // first). Its floats are then printed as FlowToJsonText always has, by
  // ShortestFloats (a pass over the text, only where there are floats).
  void Piece(const Json& value, unsigned depth, Floats floats) {
    size_t start = text_.size();
    parts_.Dump(serializer_, text_, value, kIndent * depth);
    if (floats == Floats::kMaybe && HasFloat(value)) {
      std::string shortest = ShortestFloats(std::string_view(text_).substr(start));
      text_.replace(start, std::string::npos, shortest);
    }
  }

  void Flush() {
    write_(text_);
    text_.clear();
  }

  const std::function<void(std::string_view)>& write_;
  std::string text_;
  nlohmann::detail::serializer<Json> serializer_;
  SharedParts parts_;
  size_t members_ = 0;
};

}  // namespace

Json FlowToJson(const Flow& flow) {
  TreeOut out;
  FlowMembers(flow, out);
  return out.Take();
}

void WriteFlowJson(const Flow& flow, const std::function<void(std::string_view)>& write) {
  TextOut out(write);
  FlowMembers(flow, out);
  out.Finish();
}

std::string FlowToJsonText(const Flow& flow) {
  std::string text;
  WriteFlowJson(flow, [&](std::string_view piece) { text.append(piece); });
  return text;
}

std::string ObjectContentHash(const Object& object) {
  // Labels say who made the object, not what it holds: a label added to
  // every object renames none (tests/unit/code_test.cc).
  Json json = ObjectToJson(object);
  json.erase("labels");
  return Sha256Hex(json.dump(), 10);
}

}  // namespace flowc::ir
