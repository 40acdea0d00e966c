#include "backends/airflow/pod_kwargs.h"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/ir_json.h"

namespace flowc::backends::airflow {

using Kwargs = PyExpr::Kwargs;

// Values.

PyExpr JsonToPython(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return PyExpr::None();
    case nlohmann::json::value_t::boolean:
      return PyExpr::Bool(value.get<bool>());
    case nlohmann::json::value_t::string:
      return PyExpr::Str(value.get<std::string>());
    case nlohmann::json::value_t::array: {
      PyExpr::Exprs items;
      for (const auto& item : value) items.push_back(JsonToPython(item));
      return PyExpr::List(std::move(items));
    }
    case nlohmann::json::value_t::object: {
      PyExpr::Items items;
      for (const auto& [key, item] : value.items()) {
        items.emplace_back(PyExpr::Str(key), JsonToPython(item));
      }
      return PyExpr::Dict(std::move(items));
    }
    case nlohmann::json::value_t::number_float:
      // As the IR prints it: the fewest digits that read back (nlohmann's do not always).
      return PyExpr::Code(ir::FloatText(value.get<double>()));
    default:  // integers: JSON's spelling is Python's
      return PyExpr::Code(value.dump());
  }
}

namespace {

const char* JsonSchemaType(ir::Param::Type type) {
  switch (type) {
    case ir::Param::Type::kStr:
      return "string";
    case ir::Param::Type::kInt:
      return "integer";
    case ir::Param::Type::kFloat:
      return "number";
    case ir::Param::Type::kBool:
      return "boolean";
    case ir::Param::Type::kList:
      return "array";
  }
  return "string";
}

}  // namespace

PyExpr ParamExpr(const ir::Param& param) {
  PyExpr type = PyExpr::Str(JsonSchemaType(param.type));
  if (!param.default_json) return PyExpr::Call("Param", {}, {{"type", type}});
  nlohmann::json value = nlohmann::json::parse(*param.default_json);
  if (value.is_null()) type = PyExpr::List({PyExpr::Str("null"), type});
  return PyExpr::Call("Param", {JsonToPython(value)}, {{"type", type}});
}

PyExpr Rendered(std::string_view text) { return PyExpr::Str(JinjaLiteral(text)); }
PyExpr Raw(std::string_view text) { return PyExpr::Str(text); }

namespace {

PyExpr RenderedMap(const ir::KeyValues& pairs) {
  PyExpr::Items items;
  for (const auto& [key, value] : pairs) items.emplace_back(Raw(key), Rendered(value));
  return PyExpr::Dict(std::move(items));
}

// ---------------------------------------------------------------------------
// The one pod renderer.

}  // namespace

void AppendPodKwargs(const ir::Pod& pod, std::optional<PyExpr> cmds, Kwargs& kw,
                     const ir::KeyValues& admission) {
  auto k8s = [](const char* model, Kwargs args) {
    return PyExpr::Call(fmt::format("k8s.{}", model), {}, std::move(args));
  };
  if (!pod.namespace_.empty()) kw.emplace_back("namespace", Rendered(pod.namespace_));
  if (!admission.empty()) {
    ir::KeyValues labels = pod.labels;
    labels.insert(labels.end(), admission.begin(), admission.end());
    kw.emplace_back("labels", RenderedMap(labels));
  } else if (!pod.labels.empty()) {
    kw.emplace_back("labels", RenderedMap(pod.labels));
  }
  if (!pod.annotations.empty()) kw.emplace_back("annotations", RenderedMap(pod.annotations));

  // The container, named as in every other target.
  kw.emplace_back("base_container_name", Rendered("main"));
  kw.emplace_back("image", Rendered(pod.image));
  if (cmds) kw.emplace_back("cmds", std::move(*cmds));
  if (!pod.env.empty()) {
    PyExpr::Exprs env;
    for (const ir::EnvVar& e : pod.env) {
      if (e.field_path.empty()) {
        env.push_back(k8s("V1EnvVar", {{"name", Rendered(e.name)}, {"value", Rendered(e.value)}}));
      } else {
        PyExpr field = k8s("V1ObjectFieldSelector", {{"field_path", Raw(e.field_path)}});
        PyExpr source = k8s("V1EnvVarSource", {{"field_ref", std::move(field)}});
        env.push_back(k8s("V1EnvVar", {{"name", Rendered(e.name)}, {"value_from", source}}));
      }
    }
    kw.emplace_back("env_vars", PyExpr::List(std::move(env)));
  }
  if (!pod.env_from_secrets.empty()) {
    PyExpr::Exprs sources;
    for (const std::string& secret : pod.env_from_secrets) {
      PyExpr ref = k8s("V1SecretEnvSource", {{"name", Raw(secret)}});
      sources.push_back(k8s("V1EnvFromSource", {{"secret_ref", std::move(ref)}}));
    }
    kw.emplace_back("env_from", PyExpr::List(std::move(sources)));
  }
  if (!pod.resources->requests.empty() || !pod.resources->limits.empty() ||
      !pod.resources->claims.empty()) {
    Kwargs resources;
    if (!pod.resources->requests.empty()) {
      resources.emplace_back("requests", RenderedMap(pod.resources->requests));
    }
    if (!pod.resources->limits.empty()) {
      resources.emplace_back("limits", RenderedMap(pod.resources->limits));
    }
    if (!pod.resources->claims.empty()) {
      PyExpr::Exprs claims;
      for (const std::string& claim : pod.resources->claims) {
        // The claim model the installed client has (templates/airflow/flowc_models.py):
        // kubernetes client 34 renamed V1ResourceClaim to CoreV1ResourceClaim.
        claims.push_back(PyExpr::Call("FLOWC_RESOURCE_CLAIM", {}, {{"name", Raw(claim)}}));
      }
      resources.emplace_back("claims", PyExpr::List(std::move(claims)));
    }
    kw.emplace_back("container_resources", k8s("V1ResourceRequirements", std::move(resources)));
  }
  if (!pod.volume_mounts.empty()) {
    PyExpr::Exprs mounts;
    for (const ir::VolumeMount& m : pod.volume_mounts) {
      Kwargs args = {{"name", Rendered(m.name)}, {"mount_path", Raw(m.mount_path)}};
      if (m.read_only) args.emplace_back("read_only", PyExpr::Bool(true));
      mounts.push_back(k8s("V1VolumeMount", std::move(args)));
    }
    kw.emplace_back("volume_mounts", PyExpr::List(std::move(mounts)));
  }
  if (!pod.image_pull_policy.empty()) {
    kw.emplace_back("image_pull_policy", Raw(pod.image_pull_policy));
  }
  if (pod.security_context) {
    const ir::SecurityContext& s = *pod.security_context;
    Kwargs sc;
    if (s.privileged) sc.emplace_back("privileged", PyExpr::Bool(*s.privileged));
    if (s.allow_privilege_escalation) {
      sc.emplace_back("allow_privilege_escalation", PyExpr::Bool(*s.allow_privilege_escalation));
    }
    if (s.run_as_user) sc.emplace_back("run_as_user", PyExpr::Int(*s.run_as_user));
    if (s.run_as_group) sc.emplace_back("run_as_group", PyExpr::Int(*s.run_as_group));
    if (s.run_as_non_root) sc.emplace_back("run_as_non_root", PyExpr::Bool(*s.run_as_non_root));
    kw.emplace_back("container_security_context", k8s("V1SecurityContext", std::move(sc)));
  }
  if (pod.port) {
    kw.emplace_back(
        "ports",
        PyExpr::List({k8s("V1ContainerPort", {{"container_port", PyExpr::Int(*pod.port)}})}));
  }

  // The pod spec.
  if (!pod.service_account_name.empty()) {
    kw.emplace_back("service_account_name", Raw(pod.service_account_name));
  }
  if (!pod.node_selector.empty()) kw.emplace_back("node_selector", RenderedMap(pod.node_selector));
  if (!pod.tolerations.empty()) {
    PyExpr::Exprs tolerations;
    for (const ir::Toleration& t : pod.tolerations) {
      Kwargs args;
      if (!t.key.empty()) args.emplace_back("key", Raw(t.key));
      if (!t.op.empty()) args.emplace_back("operator", Raw(t.op));
      if (!t.value.empty()) args.emplace_back("value", Raw(t.value));
      if (!t.effect.empty()) args.emplace_back("effect", Raw(t.effect));
      if (t.toleration_seconds) {
        args.emplace_back("toleration_seconds", PyExpr::Int(*t.toleration_seconds));
      }
      tolerations.push_back(k8s("V1Toleration", std::move(args)));
    }
    kw.emplace_back("tolerations", PyExpr::List(std::move(tolerations)));
  }
  if (!pod.volumes.empty()) {
    PyExpr::Exprs volumes;
    for (const ir::Volume& v : pod.volumes) {
      switch (v.kind) {
        case ir::Volume::Kind::kMemory:
          volumes.push_back(k8s(
              "V1Volume",
              {{"name", Rendered(v.name)},
               {"empty_dir", k8s("V1EmptyDirVolumeSource", {{"medium", Raw("Memory")},
                                                            {"size_limit", Raw(v.size_limit)}})}}));
          break;
        case ir::Volume::Kind::kClaim:
          volumes.push_back(k8s("V1Volume", {{"name", Rendered(v.name)},
                                             {"persistent_volume_claim",
                                              k8s("V1PersistentVolumeClaimVolumeSource",
                                                  {{"claim_name", Rendered(v.claim_name)}})}}));
          break;
        case ir::Volume::Kind::kConfigMap: {  // @code: every key to its path
          PyExpr::Exprs items;
          for (const ir::KeyToPath& item : v.items) {
            Kwargs kwargs{{"key", Raw(item.key)}, {"path", Rendered(item.path)}};
            if (item.mode != 0) kwargs.emplace_back("mode", PyExpr::Int(item.mode));
            items.push_back(k8s("V1KeyToPath", std::move(kwargs)));
          }
          // Built by moves: a braced list of kwargs would copy the items.
          Kwargs source;
          source.emplace_back("name", Rendered(v.claim_name));
          source.emplace_back("items", PyExpr::List(std::move(items)));
          Kwargs volume;
          volume.emplace_back("name", Rendered(v.name));
          volume.emplace_back("config_map", k8s("V1ConfigMapVolumeSource", std::move(source)));
          volumes.push_back(k8s("V1Volume", std::move(volume)));
          break;
        }
      }
    }
    kw.emplace_back("volumes", PyExpr::List(std::move(volumes)));
  }
  if (!pod.image_pull_secrets.empty()) {
    PyExpr::Exprs secrets;
    for (const std::string& s : pod.image_pull_secrets) {
      secrets.push_back(k8s("V1LocalObjectReference", {{"name", Raw(s)}}));
    }
    kw.emplace_back("image_pull_secrets", PyExpr::List(std::move(secrets)));
  }
  if (!pod.resource_claims.empty() || !pod.working_dir.empty()) {
    // `containers` is required by V1PodSpec. The operator keeps its own
    // container and takes from the first one here only what it leaves unset
    // (PodGenerator.reconcile_containers, merge_objects): the working
    // directory (@code), which KubernetesPodOperator has no argument for.
    PyExpr::Exprs containers;
    if (!pod.working_dir.empty()) {
      containers.push_back(
          k8s("V1Container", {{"name", Raw("main")}, {"working_dir", Raw(pod.working_dir)}}));
    }
    Kwargs spec = {{"containers", PyExpr::List(std::move(containers))}};
    if (!pod.resource_claims.empty()) {
      // Plain dicts in the Kubernetes 1.34 shape, for every client version
      // (see pod_kwargs.h).
      PyExpr::Exprs claims;
      for (const ir::PodResourceClaim& claim : pod.resource_claims) {
        claims.push_back(
            PyExpr::Dict({{Raw("name"), Raw(claim.name)},
                          {Raw("resourceClaimTemplateName"), Raw(claim.template_name)}}));
      }
      spec.emplace_back("resource_claims", PyExpr::List(std::move(claims)));
    }
    kw.emplace_back("full_pod_spec", k8s("V1Pod", {{"spec", k8s("V1PodSpec", std::move(spec))}}));
  }
}

bool NeedsDatetime(const ir::Step& step) {
  return (step.retry && step.retry->times > 0) || step.timeout_seconds.has_value();
}

// retries, retry_delay, execution_timeout: the step's control block.
void AppendControlKwargs(const ir::Step& step, Kwargs& kw, bool with_timeout) {
  if (step.retry) {
    kw.emplace_back("retries", PyExpr::Int(step.retry->times));
    if (step.retry->times > 0) {
      kw.emplace_back("retry_delay",
                      PyExpr::Code(fmt::format("datetime.timedelta(minutes={})",
                                               step.retry->minutes_between_retries)));
    }
  }
  if (step.timeout_seconds && with_timeout) {
    kw.emplace_back("execution_timeout", PyExpr::Code(fmt::format("datetime.timedelta(seconds={})",
                                                                  *step.timeout_seconds)));
  }
}

void AppendQueueKwargs(const ir::Step& step, Kwargs& kw) {
  if (!step.queue) return;
  // The provider's pod manager fails a pod still Pending after startup_timeout_seconds
  // (utils/pod_manager.py await_pod_start); from apache/airflow#49867 the wait to be
  // scheduled has a bound of its own, schedule_timeout_seconds, which defaults to it. A pod
  // that Kueue has not admitted is Pending, unscheduled. @timeout bounds the step anyway
  // (execution_timeout), so the wait gets all of it.
  constexpr int64_t kYearSeconds = 365 * 24 * 3600;
  kw.emplace_back("startup_timeout_seconds",
                  PyExpr::Int(step.timeout_seconds.value_or(kYearSeconds)));
}

}  // namespace flowc::backends::airflow
