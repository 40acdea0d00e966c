#include "compiler/ir/graph_to_ir.h"

#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/graph/quantity.h"
#include "compiler/ir/code_configmap.h"
#include "compiler/ir/content_key.h"
#include "compiler/ir/ir_json.h"
#include "compiler/ir/neuron_claims.h"
#include "compiler/ir/trainjob.h"

namespace flowc::ir {
namespace {

// Metaflow's default: a tmpfs of half the step's memory.
int64_t DefaultTmpfsMib(const graph::Quantity& memory) {
  return static_cast<int64_t>(std::ceil(memory.bytes / 2 / 1048576.0));
}

// The pod's own variable a gang reference reads (docs/language.md "Gang references").
const char* GangVariable(const std::string& name) {
  if (name == "num_nodes") return kEnvNumNodes;
  if (name == "node_index") return kEnvNodeIndex;
  return kEnvMainAddr;
}

// Escapes the literal text for kubelet and turns each gang reference into
// kubelet's `$(FLOWC_...)`, joined to the literal text around it: from here
// on it is text that every target carries as written, and kubelet expands it
// in the container's command and env alike.
Text EscapeText(Text text) {
  // Most text has neither: it is the IR's as it is, not a copy.
  bool plain = true;
  for (const Segment& s : text.segments) {
    plain = plain && s.kind != Segment::Kind::kGang &&
            (s.kind != Segment::Kind::kLiteral || s.text.find('$') == std::string::npos);
  }
  if (plain) return text;
  Text out;
  auto append_literal = [&](const std::string& literal) {
    if (!out.segments.empty() && out.segments.back().kind == Segment::Kind::kLiteral) {
      out.segments.back().text += literal;
    } else {
      out.segments.push_back(Segment{Segment::Kind::kLiteral, literal});
    }
  };
  for (size_t i = 0; i < text.segments.size(); ++i) {
    const Segment& s = text.segments[i];
    if (s.kind == Segment::Kind::kGang) {
      append_literal(fmt::format("$({})", GangVariable(s.text)));
    } else if (s.kind == Segment::Kind::kLiteral) {
      std::string literal = EscapeDollars(s.text);
      // A value substituted later may start with `(` or `$`, and a gang
      // reference starts with `$(`: a `$` just before a reference is escaped
      // too, whatever follows.
      if (i + 1 < text.segments.size() && !literal.empty() && literal.back() == '$') {
        literal += '$';
      }
      append_literal(literal);
    } else {
      out.segments.push_back(s);
    }
  }
  return out;
}

// An @environment value: literal text but for its gang references.
std::string EnvValue(const std::string& value) {
  std::string out;
  for (const Segment& s : EscapeText(graph::SplitGangReferences(value)).segments) out += s.text;
  return out;
}

bool CoversNeuron(const Toleration& t) {
  return t.key == kNeuronResource && t.op == "Exists" &&
         (t.effect.empty() || t.effect == "NoSchedule");
}

// One Shared value for each distinct list the lowering builds for the pods
// (compiler/support/shared.h): the pods of a flow repeat the same few.
using PodValues = InternerSet<std::string, std::vector<EnvVar>, Resources, std::vector<VolumeMount>,
                              std::vector<Toleration>, std::vector<Volume>,
                              std::vector<PodResourceClaim>>;

// The pod of `step`. `claim_template` names the ResourceClaimTemplate of the
// step's @neuron, or is ""; `code` says how its @code is mounted, or is null.
// The strings and lists the pod carries as they are come from the step's
// configuration, interned there (graph::ConfigValues); the lists built here
// are interned in `intern`.
Pod LowerPod(graph::Step& step, const std::string& claim_template, const CodeMount* code,
             PodValues& intern) {
  graph::StepConfig& c = *step.config;
  Pod pod;
  pod.namespace_ = c.namespace_;
  pod.labels = c.labels;
  pod.annotations = c.annotations;

  if (c.trainjob) pod.container_name = kTrainerContainer;  // ir.h, Pod::container_name
  pod.image = c.image;
  pod.command.reserve((step.shell ? 2 : 0) + step.command.size());
  if (step.shell) {
    pod.command.push_back(Text{{{Segment::Kind::kLiteral, "/bin/sh"}}});
    pod.command.push_back(Text{{{Segment::Kind::kLiteral, "-c"}}});
  }
  for (Text& arg : step.command) pod.command.push_back(EscapeText(std::move(arg)));

  std::vector<EnvVar> env;
  if (c.parallel_nodes) {
    // flowc's own variables come first: kubelet expands `$(VAR)` only for a
    // VAR defined earlier in the list (kubernetes.io/docs/tasks/
    // inject-data-application/define-interdependent-environment-variables:
    // UNCHANGED_REFERENCE), and the user's values may read them through gang
    // references. The JobSet's name is read from the pod's own label,
    // so the pod is the same whatever the target names the JobSet.
    env.push_back(EnvVar{kEnvJobSetName, "", "metadata.labels['jobset.sigs.k8s.io/jobset-name']"});
    env.push_back(EnvVar{kEnvNumNodes, std::to_string(*c.parallel_nodes), ""});
    env.push_back(
        EnvVar{kEnvNodeIndex, "", "metadata.annotations['batch.kubernetes.io/job-completion-index']"});
    // Node 0 of the step's replicated job: the step's own, or under
    // @trainjob the trainer's, in the JobSet the Trainer names after the
    // TrainJob (compiler/ir/trainjob.h).
    const std::string job = c.trainjob ? kTrainerJob : step.k8s_name;
    env.push_back(
        EnvVar{kEnvMainAddr, fmt::format("$({0})-{1}-0-0.$({0})", kEnvJobSetName, job), ""});
  }
  bool user_tmpdir = false;
  for (const auto& [name, value] : c.env) {
    env.push_back(EnvVar{name, EnvValue(value), ""});
    user_tmpdir = user_tmpdir || name == "TMPDIR";
  }
  if (c.use_tmpfs && c.tmpfs_tempdir && !user_tmpdir) {
    env.push_back(EnvVar{"TMPDIR", EscapeDollars(c.tmpfs_path), ""});
  }
  pod.env = intern(std::move(env));
  pod.env_from_secrets = c.secrets;

  Resources resources;
  std::string cpu = graph::CpuQuantity(c.cpu_millis);
  resources.requests = {{"cpu", cpu}, {"memory", c.memory.text}, {"ephemeral-storage", c.disk.text}};
  if (c.guaranteed) resources.limits = resources.requests;
  if (c.gpu > 0) {
    resources.limits.emplace_back(c.gpu_vendor == "amd" ? "amd.com/gpu" : "nvidia.com/gpu",
                                  std::to_string(c.gpu));
  }
  if (c.neuron > 0) resources.limits.emplace_back(kNeuronResource, std::to_string(c.neuron));
  if (c.efa > 0) resources.limits.emplace_back("vpc.amazonaws.com/efa", std::to_string(c.efa));
  // @neuron: the devices come from a claim, never from the device plugin's
  // extended resource.
  if (!claim_template.empty()) {
    resources.claims.push_back(kNeuronClaim);
    pod.resource_claims = intern(std::vector<PodResourceClaim>{{kNeuronClaim, claim_template}});
  }
  pod.resources = intern(std::move(resources));

  std::vector<Volume> volumes;
  std::vector<VolumeMount> mounts;
  if (c.shared_memory_mib) {
    volumes.push_back(
        Volume{"dshm", Volume::Kind::kMemory, fmt::format("{}Mi", *c.shared_memory_mib), ""});
    mounts.push_back(VolumeMount{"dshm", "/dev/shm"});
  }
  if (c.use_tmpfs) {
    int64_t size = c.tmpfs_size_mib.value_or(DefaultTmpfsMib(c.memory));
    volumes.push_back(Volume{"tmpfs", Volume::Kind::kMemory, fmt::format("{}Mi", size), ""});
    mounts.push_back(VolumeMount{"tmpfs", c.tmpfs_path});
  }
  for (const auto& [claim, path] : c.persistent_volume_claims) {
    volumes.push_back(Volume{claim, Volume::Kind::kClaim, "", claim});
    mounts.push_back(VolumeMount{claim, path});
  }
  if (code) {
    volumes.push_back(code->volume);
    mounts.push_back(code->mount);
    pod.working_dir = intern(code->mount.mount_path);
  }
  pod.volumes = intern(std::move(volumes));
  pod.volume_mounts = intern(std::move(mounts));

  pod.image_pull_policy = c.image_pull_policy;
  if (c.security_context) {
    const graph::SecurityContextConfig& s = *c.security_context;
    pod.security_context = SecurityContext{s.privileged, s.allow_privilege_escalation,
                                           s.run_as_user, s.run_as_group, s.run_as_non_root};
  }
  pod.port = c.port;

  pod.service_account_name = c.service_account;
  pod.node_selector = c.node_selector;
  std::vector<Toleration> tolerations;
  bool neuron_covered = false;
  for (const graph::TolerationConfig& t : c.tolerations) {
    tolerations.push_back(Toleration{t.key, t.op, t.value, t.effect, t.toleration_seconds});
    neuron_covered = neuron_covered || CoversNeuron(tolerations.back());
  }
  // Neuron nodes keep their taint under DRA too.
  if ((c.neuron > 0 || c.neuron_dra) && !neuron_covered) {
    tolerations.push_back(Toleration{kNeuronResource, "Exists", "", "NoSchedule", std::nullopt});
  }
  pod.tolerations = intern(std::move(tolerations));
  pod.image_pull_secrets = c.image_pull_secrets;
  return pod;
}

std::string ScalarString(const ast::Value& v) {
  switch (v.kind) {
    case ast::Value::Kind::kString: return v.string;
    case ast::Value::Kind::kInt: return std::to_string(v.int_value);
    case ast::Value::Kind::kFloat: return FloatText(v.float_value);
    case ast::Value::Kind::kBool: return v.bool_value ? "true" : "false";
    default: return "";
  }
}

nlohmann::json ValueJson(const ast::Value& v) {
  switch (v.kind) {
    case ast::Value::Kind::kString: return v.string;
    case ast::Value::Kind::kInt: return v.int_value;
    case ast::Value::Kind::kFloat: return v.float_value;
    case ast::Value::Kind::kBool: return v.bool_value;
    case ast::Value::Kind::kList: {
      nlohmann::json list = nlohmann::json::array();
      for (const ast::Value& item : v.items) list.push_back(ValueJson(item));
      return list;
    }
    default: return nullptr;
  }
}

// The queue of a step or of the flow, with the labels of the object Kueue admits. A flow's
// @queue may hold only a priority for steps that name their queues: alone, it labels nothing.
Queue LowerQueue(const graph::QueueConfig& config) {
  Queue queue{config.name, config.priority, config.range, {}};
  if (config.name.empty()) return queue;
  queue.labels.emplace_back(graph::kKueueQueueLabel, config.name);
  if (!config.priority.empty()) {
    queue.labels.emplace_back(graph::kKueuePriorityLabel, config.priority);
  }
  return queue;
}

// The objects AddObject added, by kind, namespace and name.
using ObjectIndex = std::map<std::tuple<size_t, std::string, std::string>, size_t>;

// The index of `object` in flow.objects, adding it unless an object of that
// kind, name and namespace is there already (names derive from content).
// A map, not a search of flow.objects: a flow may hold an object per step.
size_t AddObject(Flow& flow, ObjectIndex& index, Object object) {
  auto [it, fresh] = index.try_emplace({object.spec.index(), object.namespace_, object.name},
                                       flow.objects.size());
  if (fresh) flow.objects.push_back(std::move(object));
  return it->second;
}

}  // namespace

std::string EscapeDollars(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    // kubelet reads `$$` as `$` and `$(` as a reference; every other `$`
    // passes as it is, so `$HOME` stays readable. But kubelet reads the
    // byte after a lone `$` as a character of its own (expansion.go
    // tryReadVariableName: string(input[0])), which garbles a non-ASCII one.
    if (text[i] == '$' && i + 1 < text.size() &&
        (text[i + 1] == '$' || text[i + 1] == '(' ||
         static_cast<unsigned char>(text[i + 1]) >= 0x80)) {
      out += '$';
    }
  }
  return out;
}

// The lowering frees each graph step's configuration as soon as it has built
// the IR step, and the next IR step's deque node takes the freed block: the IR
// grows into the memory the graph gives back. An IR step larger than a configuration
// would need new memory instead, 10 MB more at the peak of a 100,000-step
// flow (bench/RESULTS.md, "Memory at 100,000 steps").
static_assert(sizeof(Step) <= sizeof(graph::StepConfig),
              "an ir::Step must fit in the block a freed graph::StepConfig leaves");

Flow LowerToIr(graph::Flow graph, const std::string& source_path) {
  Flow flow;
  flow.name = graph.name;
  flow.k8s_name = graph.k8s_name;
  flow.source_path = source_path;
  flow.range = graph.range;
  for (const graph::Param& p : graph.params) {
    Param param;
    param.name = p.name;
    param.type = p.type;
    if (p.default_value) param.default_json = ShortestFloats(ValueJson(*p.default_value).dump());
    param.range = p.range;
    flow.params.push_back(std::move(param));
  }
  if (graph.schedule) {
    flow.schedule = Schedule{graph.schedule->cron, graph.schedule->timezone, graph.schedule->range};
  }
  if (graph.queue) flow.queue = LowerQueue(*graph.queue);

  std::vector<size_t> index_of(graph.steps.size());
  for (size_t i = 0; i < graph.order.size(); ++i) index_of[graph.order[i]] = i;
  auto map = [&](const std::vector<size_t>& from) {
    std::vector<size_t> to;
    for (size_t i : from) to.push_back(index_of[i]);
    return to;
  };
  CodeConfigMaps code_maps;  // each @code's ConfigMap built once
  ContentHashes hashes;      // each distinct object's content hashed once
  ObjectIndex object_index;
  PodValues pod_values;
  // Each distinct @neuron request in a namespace: its claim template's name and index, worked
  // out once (building, keying and naming the template was 25 K instructions a step).
  std::map<std::pair<decltype(graph::NeuronConfig().Request()), std::string>,
           std::pair<std::string, size_t>>
      neuron_claims;
  for (size_t g : graph.order) {
    graph::Step& s = graph.steps[g];
    const graph::StepConfig& c = *s.config;
    Step step;
    step.name = s.name;
    step.k8s_name = s.k8s_name;
    step.range = s.range;
    std::string claim_template;
    if (const auto& neuron = c.neuron_dra) {
      claim_template = neuron->template_name;
      if (claim_template.empty()) {
        auto [it, fresh] = neuron_claims.try_emplace({neuron->Request(), c.namespace_});
        if (fresh) {
          ResourceClaimTemplate t = NeuronClaimTemplate(*neuron);
          std::string name = NeuronClaimTemplateName(flow.k8s_name, t, hashes);
          Object object{name, c.namespace_, neuron->range, std::move(t)};
          it->second = {name, AddObject(flow, object_index, std::move(object))};
        }
        claim_template = it->second.first;
        step.objects.push_back(it->second.second);
      }
    }
    const CodeMount* code = nullptr;
    if (c.code) {
      code = &code_maps.Mount(flow, *c.code, c.namespace_);
      step.objects.push_back(code->object);
      std::sort(step.objects.begin(), step.objects.end());
    }
    step.pod = LowerPod(s, claim_template, code, pod_values);
    if (c.retry) step.retry = Retry{c.retry->times, c.retry->minutes_between_retries};
    step.timeout_seconds = c.timeout_seconds;
    if (c.parallel_nodes) step.parallel = Parallel{*c.parallel_nodes};
    if (c.queue) step.queue = LowerQueue(*c.queue);
    // A gang on an UltraServer is placed on the nodes of one: JobSet puts
    // each Job of the replicated job on one value of this node label
    // (kubernetes-sigs/jobset pkg/controllers/jobset_controller.go reads
    // the exclusive-topology annotation of the replicated job's template).
    if (c.neuron_dra && c.neuron_dra->ultraserver > 1) {
      step.parallel->exclusive_topology =
          kUltraServerTopologyPrefix + std::to_string(c.neuron_dra->ultraserver);
    }
    if (c.trainjob) {
      if (std::optional<Object> runtime = LowerTrainJob(flow.k8s_name, s, step, hashes)) {
        step.objects.push_back(AddObject(flow, object_index, std::move(*runtime)));
      }
    }
    step.next = map(s.next);
    step.predecessors = map(s.predecessors);
    std::sort(step.predecessors.begin(), step.predecessors.end());
    if (s.foreach) {
      Foreach foreach;
      foreach.param = s.foreach_param;
      // An element is a value, like a list param's: each target escapes it
      // for kubelet where {{item}} stands, together with the text around it.
      for (const ast::Value& item : s.foreach_items) foreach.items.push_back(ScalarString(item));
      foreach.body = index_of[s.next[0]];
      foreach.join = index_of[*s.join];
      step.foreach = std::move(foreach);
    } else if (s.join) {
      step.join = index_of[*s.join];
    }
    step.enclosing_foreach = map(s.enclosing_foreach);
    flow.steps.push_back(std::move(step));
    // Nothing reads a graph step once it is lowered (only the index maps
    // above, made before the loop). Move-assigned, not cleared, so that the
    // memory goes too.
    s = graph::Step();
  }
  // Set last: an object's name hashes its content, which they are not.
  Shared<KeyValues> labels = ObjectLabels(flow.k8s_name);
  for (Object& object : flow.objects) object.labels = labels;
  return flow;
}

}  // namespace flowc::ir
