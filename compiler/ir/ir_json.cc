#include "compiler/ir/ir_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <fmt/format.h>

namespace flowc::ir {
namespace {

using Json = nlohmann::ordered_json;

Json Map(const KeyValues& pairs) {
  Json out = Json::object();
  for (const auto& [key, value] : pairs) out[key] = value;
  return out;
}

void SetIf(Json& out, const char* key, const std::string& value) {
  if (!value.empty()) out[key] = value;
}

void SetIf(Json& out, const char* key, const KeyValues& pairs) {
  if (!pairs.empty()) out[key] = Map(pairs);
}

Json ContainerJson(const Pod& pod) {
  Json c;
  c["name"] = pod.container_name;
  c["image"] = pod.image;
  if (!pod.command.empty()) {
    Json command = Json::array();
    for (const Text& arg : pod.command) command.push_back(arg.ToFlowString());
    c["command"] = std::move(command);
  }
  if (!pod.env.empty()) {
    Json env = Json::array();
    for (const EnvVar& e : pod.env) {
      if (e.field_path.empty()) {
        env.push_back({{"name", e.name}, {"value", e.value}});
      } else {
        env.push_back({{"name", e.name}, {"valueFrom", {{"fieldRef", {{"fieldPath", e.field_path}}}}}});
      }
    }
    c["env"] = std::move(env);
  }
  if (!pod.env_from_secrets.empty()) {
    Json env_from = Json::array();
    for (const std::string& s : pod.env_from_secrets) env_from.push_back({{"secretRef", {{"name", s}}}});
    c["envFrom"] = std::move(env_from);
  }
  Json resources = Json::object();
  SetIf(resources, "requests", pod.resources.requests);
  SetIf(resources, "limits", pod.resources.limits);
  if (!pod.resources.claims.empty()) {
    Json claims = Json::array();
    for (const std::string& name : pod.resources.claims) claims.push_back({{"name", name}});
    resources["claims"] = std::move(claims);
  }
  if (!resources.empty()) c["resources"] = std::move(resources);
  if (!pod.volume_mounts.empty()) {
    Json mounts = Json::array();
    for (const VolumeMount& m : pod.volume_mounts) {
      Json mount = {{"name", m.name}, {"mountPath", m.mount_path}};
      if (m.read_only) mount["readOnly"] = true;
      mounts.push_back(std::move(mount));
    }
    c["volumeMounts"] = std::move(mounts);
  }
  SetIf(c, "imagePullPolicy", pod.image_pull_policy);
  if (pod.security_context) {
    const SecurityContext& s = *pod.security_context;
    Json sc = Json::object();
    if (s.privileged) sc["privileged"] = *s.privileged;
    if (s.allow_privilege_escalation) sc["allowPrivilegeEscalation"] = *s.allow_privilege_escalation;
    if (s.run_as_user) sc["runAsUser"] = *s.run_as_user;
    if (s.run_as_group) sc["runAsGroup"] = *s.run_as_group;
    if (s.run_as_non_root) sc["runAsNonRoot"] = *s.run_as_non_root;
    c["securityContext"] = std::move(sc);
  }
  if (pod.port) c["ports"] = Json::array({{{"containerPort", *pod.port}}});
  SetIf(c, "workingDir", pod.working_dir);
  return c;
}

Json StepJson(const Flow& flow, const Step& step) {
  auto names = [&](const std::vector<size_t>& indexes) {
    Json out = Json::array();
    for (size_t i : indexes) out.push_back(flow.steps[i].name);
    return out;
  };
  Json s;
  s["name"] = step.name;
  s["k8s_name"] = step.k8s_name;
  s["line"] = step.range.line;
  s["next"] = names(step.next);
  s["predecessors"] = names(step.predecessors);
  if (step.join) s["join"] = flow.steps[*step.join].name;
  if (step.foreach) {
    Json f;
    if (!step.foreach->param.empty()) {
      f["param"] = step.foreach->param;
    } else {
      f["items"] = step.foreach->items;
    }
    f["body"] = flow.steps[step.foreach->body].name;
    f["join"] = flow.steps[step.foreach->join].name;
    s["foreach"] = std::move(f);
  }
  if (!step.enclosing_foreach.empty()) s["enclosing_foreach"] = names(step.enclosing_foreach);
  if (step.parallel) {
    Json parallel = {{"nodes", step.parallel->nodes}};
    SetIf(parallel, "exclusive_topology", step.parallel->exclusive_topology);
    s["parallel"] = std::move(parallel);
  }
  if (step.retry) {
    s["retry"] = {{"times", step.retry->times},
                  {"minutes_between_retries", step.retry->minutes_between_retries}};
  }
  if (step.timeout_seconds) s["timeout_seconds"] = *step.timeout_seconds;
  if (step.trainjob) {
    Json trainjob = {{"runtime", {{"kind", step.trainjob->runtime_kind},
                                  {"name", step.trainjob->runtime_name}}}};
    if (step.trainjob->proc_per_node) trainjob["proc_per_node"] = *step.trainjob->proc_per_node;
    s["trainjob"] = std::move(trainjob);
  }
  if (!step.objects.empty()) {
    Json objects = Json::array();
    for (size_t i : step.objects) objects.push_back(flow.objects[i].name);
    s["objects"] = std::move(objects);
  }
  s["pod"] = PodToJson(step.pod);
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
  for (const ConfigMapFile& f : map.files) paths.push_back({{"key", f.key}, {"path", f.path}});
  out["items"] = std::move(paths);
  if (!data.empty()) out["data"] = std::move(data);
  if (!binary.empty()) out["binaryData"] = std::move(binary);
  return out;
}

}  // namespace

Json ObjectToJson(const Object& object) {
  Json out;
  out["kind"] = object.kind();
  out["name"] = object.name;
  SetIf(out, "namespace", object.namespace_);
  if (const auto* t = std::get_if<ResourceClaimTemplate>(&object.spec)) {
    out["spec"] = ClaimTemplateSpecJson(*t);  // {spec: {devices}}, as in Kubernetes
  } else if (const auto* r = std::get_if<TrainingRuntime>(&object.spec)) {
    // The runtime's content as flowc decides it; backends/k8s/trainjob.cc
    // writes the JobSet template around the pod.
    Json runtime = {{"numNodes", r->num_nodes}};
    SetIf(runtime, "exclusiveTopology", r->exclusive_topology);
    runtime["pod"] = PodToJson(r->pod);
    out["trainingRuntime"] = std::move(runtime);
  } else {
    out["configMap"] = ConfigMapJson(std::get<ConfigMap>(object.spec));
  }
  return out;
}

Json PodToJson(const Pod& pod) {
  Json metadata = Json::object();
  SetIf(metadata, "namespace", pod.namespace_);
  SetIf(metadata, "labels", pod.labels);
  SetIf(metadata, "annotations", pod.annotations);

  Json spec = Json::object();
  SetIf(spec, "serviceAccountName", pod.service_account_name);
  SetIf(spec, "nodeSelector", pod.node_selector);
  if (!pod.tolerations.empty()) {
    Json tolerations = Json::array();
    for (const Toleration& t : pod.tolerations) {
      Json j = Json::object();
      SetIf(j, "key", t.key);
      SetIf(j, "operator", t.op);
      SetIf(j, "value", t.value);
      SetIf(j, "effect", t.effect);
      if (t.toleration_seconds) j["tolerationSeconds"] = *t.toleration_seconds;
      tolerations.push_back(std::move(j));
    }
    spec["tolerations"] = std::move(tolerations);
  }
  if (!pod.image_pull_secrets.empty()) {
    Json secrets = Json::array();
    for (const std::string& s : pod.image_pull_secrets) secrets.push_back({{"name", s}});
    spec["imagePullSecrets"] = std::move(secrets);
  }
  if (!pod.volumes.empty()) {
    Json volumes = Json::array();
    for (const Volume& v : pod.volumes) {
      switch (v.kind) {
        case Volume::Kind::kMemory:
          volumes.push_back({{"name", v.name}, {"emptyDir", {{"medium", "Memory"}, {"sizeLimit", v.size_limit}}}});
          break;
        case Volume::Kind::kClaim:
          volumes.push_back({{"name", v.name}, {"persistentVolumeClaim", {{"claimName", v.claim_name}}}});
          break;
        case Volume::Kind::kConfigMap: {
          Json items = Json::array();
          for (const auto& [key, path] : v.items) items.push_back({{"key", key}, {"path", path}});
          volumes.push_back({{"name", v.name}, {"configMap", {{"name", v.claim_name}, {"items", std::move(items)}}}});
          break;
        }
      }
    }
    spec["volumes"] = std::move(volumes);
  }
  if (!pod.resource_claims.empty()) {
    Json claims = Json::array();
    for (const PodResourceClaim& c : pod.resource_claims) {
      claims.push_back({{"name", c.name}, {"resourceClaimTemplateName", c.template_name}});
    }
    spec["resourceClaims"] = std::move(claims);
  }
  spec["containers"] = Json::array({ContainerJson(pod)});

  Json out;
  if (!metadata.empty()) out["metadata"] = std::move(metadata);
  out["spec"] = std::move(spec);
  return out;
}

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

// The members of the flow's document, in order, given to `out` one at a time:
// out.Member(key, value) and out.Array(key, count, element), element(i) being
// the array's i-th element. FlowToJson builds the tree from them and
// WriteFlowJson prints them as they come, so the two cannot disagree.
template <typename Out>
void FlowMembers(const Flow& flow, Out& out) {
  out.Member("flow", Json(flow.name));
  out.Member("k8s_name", Json(flow.k8s_name));
  out.Array("params", flow.params.size(), [&](size_t i) { return ParamJson(flow.params[i]); });
  if (flow.schedule) out.Member("schedule", ScheduleJson(*flow.schedule));
  out.Array("steps", flow.steps.size(), [&](size_t i) { return StepJson(flow, flow.steps[i]); });
  if (!flow.objects.empty()) {
    out.Array("objects", flow.objects.size(),
              [&](size_t i) { return ObjectToJson(flow.objects[i]); });
  }
}

// FlowMembers into one tree.
class TreeOut {
 public:
  void Member(const char* key, Json value) { tree_[key] = std::move(value); }
  template <typename Element>
  void Array(const char* key, size_t count, const Element& element) {
    Json array = Json::array();
    for (size_t i = 0; i < count; ++i) array.push_back(element(i));
    tree_[key] = std::move(array);
  }
  Json Take() { return std::move(tree_); }

 private:
  Json tree_;
};

// FlowMembers printed as nlohmann's dump(2) prints the whole tree, holding one
// member or array element at a time. nlohmann writes every key and value; this
// writes only the glue between them: brackets, commas, line breaks and the
// indents before them.
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
    Piece(value, 1);
  }

  template <typename Element>
  void Array(const char* key, size_t count, const Element& element) {
    Key(key);
    if (count == 0) {
      text_ += "[]";  // as nlohmann prints an empty array
      return;
    }
    text_ += '[';
    for (size_t i = 0; i < count; ++i) {
      text_ += i == 0 ? "\n    " : ",\n    ";
      Piece(element(i), 2);
      // The sink gets the text in pieces of some size, not one call per element.
      if (text_.size() >= kFlushSize) Flush();
    }
    text_ += "\n  ]";
  }

  // Closes the document, with a final newline, and hands over what is left.
  void Finish() {
    text_ += "\n}\n";
    Flush();
  }

 private:
  static constexpr size_t kFlushSize = 1 << 16;
  static constexpr unsigned kIndent = 2;

  void Key(const char* key) {
    text_ += members_++ == 0 ? "\n  " : ",\n  ";
    serializer_.dump(Json(key), true, false, kIndent);
    text_ += ": ";
  }

  // `value` at nesting depth `depth`, as the pretty printer writes it nested
  // that deep: basic_json::dump() always starts at depth 0, its serializer
  // takes the depth as `current_indent` (the indent of the lines after the
  // first). Its floats are then printed as FlowToJsonText always has, by
  // ShortestFloats (a pass over the text, only where there are floats).
  void Piece(const Json& value, unsigned depth) {
    size_t start = text_.size();
    serializer_.dump(value, true, false, kIndent, kIndent * depth);
    if (HasFloat(value)) {
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

std::string FloatText(double value) {
  std::string theirs = nlohmann::json(value).dump();
  if (!std::isfinite(value) || value == 0) return theirs;  // "null", "0.0", "-0.0"
  std::string out = std::signbit(value) ? "-" : "";
  // The shortest digits in scientific form: d[.ddd]e(+|-)XX.
  char buffer[32];
  std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value),
                                         std::chars_format::scientific);
  std::string_view text(buffer, static_cast<size_t>(r.ptr - buffer));
  size_t e = text.find('e');
  std::string digits(text.substr(0, e));
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  int exponent = 0;
  std::string_view exponent_text = text.substr(e + 1);
  if (exponent_text.front() == '+') exponent_text.remove_prefix(1);
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  // nlohmann's layout (detail::dtoa_impl::format_buffer with min_exp -4 and
  // max_exp 15, digits10 of double): the value is 0.<digits> * 10^n.
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;
  // Where Grisu2 found as few digits, its text stands (of two shortest
  // texts equally near `value`, it may pick the other one).
  std::string their_digits;
  for (char c : theirs.substr(0, theirs.find('e'))) {
    if (c >= '0' && c <= '9' && !(their_digits.empty() && c == '0')) their_digits += c;
  }
  their_digits.erase(their_digits.find_last_not_of('0') + 1);
  if (their_digits.size() <= digits.size()) return theirs;
  if (k <= n && n <= 15) return out + digits + std::string(n - k, '0') + ".0";
  if (0 < n && n <= 15) return out + digits.substr(0, n) + "." + digits.substr(n);
  if (-4 < n && n <= 0) return out + "0." + std::string(-n, '0') + digits;
  out += digits[0];
  if (k > 1) out += "." + digits.substr(1);
  // The exponent signed and of at least two digits, as printf's %g.
  return out + fmt::format("e{}{:02d}", n - 1 < 0 ? '-' : '+', std::abs(n - 1));
}

std::string ShortestFloats(std::string_view dumped) {
  std::string out;
  out.reserve(dumped.size());
  size_t i = 0;
  while (i < dumped.size()) {
    char c = dumped[i];
    if (c == '"') {  // a string, copied to its closing quote
      size_t end = i + 1;
      while (dumped[end] != '"') end += dumped[end] == '\\' ? 2 : 1;
      out.append(dumped.substr(i, end + 1 - i));
      i = end + 1;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t end = dumped.find_first_not_of("0123456789+-.eE", i);
      if (end == std::string_view::npos) end = dumped.size();
      std::string_view number = dumped.substr(i, end - i);
      double value = 0;
      if (number.find_first_of(".eE") != std::string_view::npos &&
          std::from_chars(number.data(), number.data() + number.size(), value).ec == std::errc()) {
        out += FloatText(value);
      } else {
        out.append(number);
      }
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::string HexDigits(const unsigned char* digest, size_t digits) {
  std::string hex;
  for (size_t i = 0; i < (digits + 1) / 2; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex.substr(0, digits);
}

std::string Sha256Hex(std::string_view bytes, size_t digits) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return HexDigits(digest, std::min<size_t>(digits, 2 * SHA256_DIGEST_LENGTH));
}

std::string ObjectContentHash(const Object& object) {
  return Sha256Hex(ObjectToJson(object).dump(), 10);
}

}  // namespace flowc::ir
