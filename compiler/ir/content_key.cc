#include "compiler/ir/content_key.h"

#include <cassert>
#include <optional>
#include <string_view>
#include <vector>

#include "compiler/ir/ir_json.h"

namespace flowc::ir {
namespace {

// A field added to one of these structs must be added to its Add below, or
// two objects that differ only in it would share a name: these checks fail
// first. (x86-64 with libstdc++, the platform flowc builds on.)
static_assert(sizeof(std::string) == 32 && sizeof(std::vector<int>) == 24,
              "the sizes below are libstdc++'s on x86-64");
static_assert(sizeof(EnvVar) == 96, "a new EnvVar field belongs in Key::Add(EnvVar)");
static_assert(sizeof(Toleration) == 144, "a new Toleration field belongs in Key::Add(Toleration)");
static_assert(sizeof(Volume) == 128, "a new Volume field belongs in Key::Add(Volume)");
static_assert(sizeof(KeyToPath) == 72, "a new KeyToPath field belongs in Key::Add(KeyToPath)");
static_assert(sizeof(VolumeMount) == 72,
              "a new VolumeMount field belongs in Key::Add(VolumeMount)");
static_assert(sizeof(PodResourceClaim) == 64, "a new PodResourceClaim field belongs in Key::Add");
static_assert(sizeof(SecurityContext) == 48, "a new SecurityContext field belongs in Key::Add");
static_assert(sizeof(Resources) == 72, "a new Resources field belongs in Key::Add(Resources)");
// A Segment's offset and length place it in the source, as Segment::operator==
// knows: they are not content.
static_assert(sizeof(Text) == 24 && sizeof(Segment) == 56, "a new Text field belongs in Key::Add");
static_assert(sizeof(Pod) == 192, "a new Pod field belongs in Key::Add(Pod)");
static_assert(sizeof(OpaqueDeviceConfig) == 120, "a new OpaqueDeviceConfig field belongs in Key");
static_assert(sizeof(ResourceClaimTemplate) == 184, "a new claim template field belongs in Key");
static_assert(sizeof(ConfigMapFile) == 104, "a new ConfigMapFile field belongs in Key");
static_assert(sizeof(ConfigMap) == 24, "a new ConfigMap field belongs in Key::Add(ConfigMap)");
static_assert(sizeof(TrainingRuntime) == 232, "a new TrainingRuntime field belongs in Key");

class Key {
 public:
  void Add(std::string_view s) {
    out_ += std::to_string(s.size());
    out_ += ':';
    out_.append(s);
  }
  void Add(const std::string& s) { Add(std::string_view(s)); }
  void Add(int64_t v) {
    out_ += std::to_string(v);
    out_ += ';';
  }
  void Add(bool v) { out_ += v ? 'T' : 'F'; }
  template <typename T>
  void Add(const std::optional<T>& v) {
    Add(v.has_value());
    if (v) Add(*v);
  }
  // A Boxed<T> keys as the optional it stands for, a Shared<T> as its value.
  template <typename T>
  void Add(const Boxed<T>& v) {
    Add(v.has_value());
    if (v) Add(*v);
  }
  template <typename T>
  void Add(const Shared<T>& v) {
    Add(v.get());
  }
  template <typename T>
  void Add(const std::vector<T>& items) {
    Add(static_cast<int64_t>(items.size()));
    for (const T& item : items) Add(item);
  }
  template <typename A, typename B>
  void Add(const std::pair<A, B>& p) {
    Add(p.first);
    Add(p.second);
  }

  void Add(const Segment& s) {
    Add(static_cast<int64_t>(s.kind));
    Add(s.text);
  }
  void Add(const Text& t) { Add(t.segments); }
  void Add(const EnvVar& e) {
    Add(e.name);
    Add(e.value);
    Add(e.field_path);
  }
  void Add(const Toleration& t) {
    Add(t.key);
    Add(t.op);
    Add(t.value);
    Add(t.effect);
    Add(t.toleration_seconds);
  }
  void Add(const Volume& v) {
    Add(v.name);
    Add(static_cast<int64_t>(v.kind));
    Add(v.size_limit);
    Add(v.claim_name);
    Add(v.items);
  }
  void Add(const KeyToPath& i) {
    Add(i.key);
    Add(i.path);
    Add(static_cast<int64_t>(i.mode));
  }
  void Add(const VolumeMount& m) {
    Add(m.name);
    Add(m.mount_path);
    Add(m.read_only);
  }
  void Add(const PodResourceClaim& c) {
    Add(c.name);
    Add(c.template_name);
  }
  void Add(const SecurityContext& s) {
    Add(s.privileged);
    Add(s.allow_privilege_escalation);
    Add(s.run_as_user);
    Add(s.run_as_group);
    Add(s.run_as_non_root);
  }
  void Add(const Resources& r) {
    Add(r.requests);
    Add(r.limits);
    Add(r.claims);
  }
  void Add(const Pod& p) {
    Add(p.namespace_);
    Add(p.labels);
    Add(p.annotations);
    Add(p.container_name);
    Add(p.image);
    Add(p.command);
    Add(p.env);
    Add(p.env_from_secrets);
    Add(p.resources);
    Add(p.volume_mounts);
    Add(p.image_pull_policy);
    Add(p.security_context);
    Add(p.port);
    Add(p.working_dir);
    Add(p.service_account_name);
    Add(p.node_selector);
    Add(p.tolerations);
    Add(p.volumes);
    Add(p.image_pull_secrets);
    Add(p.resource_claims);
  }
  void Add(const OpaqueDeviceConfig& c) {
    Add(c.driver);
    Add(c.api_version);
    Add(c.kind);
    Add(c.fields);
  }
  void Add(const ResourceClaimTemplate& t) {
    Add(t.request_name);
    Add(t.device_class);
    Add(t.allocation_mode);
    Add(t.count);
    Add(t.selectors);
    Add(t.match_attribute);
    Add(t.configs);
  }
  void Add(const ConfigMapFile& f) {
    Add(f.key);
    Add(f.path);
    Add(f.content);
    Add(f.binary);
    Add(static_cast<int64_t>(f.mode));
  }
  void Add(const ConfigMap& m) { Add(m.files); }
  void Add(const TrainingRuntime& r) {
    Add(r.num_nodes);
    Add(r.exclusive_topology);
    Add(r.pod);
  }

  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

}  // namespace

std::string ObjectContentKey(const Object& object) {
  Key key;
  key.Add(static_cast<int64_t>(object.spec.index()));
  std::visit([&](const auto& spec) { key.Add(spec); }, object.spec);
  return key.Take();
}

const std::string& ContentHashes::Of(const Object& object) {
  assert(object.name.empty() && object.namespace_.empty());  // not in the key
  auto [it, fresh] = by_key_.try_emplace(ObjectContentKey(object));
  if (fresh) it->second = ObjectContentHash(object);
  return it->second;
}

}  // namespace flowc::ir
