#include "compiler/ir/code_configmap.h"

#include <fmt/format.h>


#include "compiler/ir/ir_json.h"
#include "compiler/ir/sha256.h"
#include "compiler/rules/names.h"

namespace flowc::ir {
namespace {

// Kubernetes' limit on a ConfigMap key (IsConfigMapKey, compiler/rules/names.h).
constexpr size_t kMaxKeyLength = rules::kConfigMapKeyMaxLength;
constexpr size_t kKeyHashDigits = 16;

bool KeepsInKey(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_';
}

}  // namespace

bool IsConfigMapText(std::string_view content) {
  const auto* p = reinterpret_cast<const unsigned char*>(content.data());
  const size_t n = content.size();
  for (size_t i = 0; i < n;) {
    unsigned char b = p[i];
    if (b == 0) return false;
    if (b < 0x80) {
      ++i;
      continue;
    }
    // The second byte's range excludes overlong forms (E0, F0), surrogates
    // (ED) and code points above U+10FFFF (F4), as RFC 3629's table does.
    size_t length;
    unsigned char low = 0x80, high = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      length = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      length = 3;
      if (b == 0xE0) low = 0xA0;
      if (b == 0xED) high = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      length = 4;
      if (b == 0xF0) low = 0x90;
      if (b == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (i + length > n || p[i + 1] < low || p[i + 1] > high) return false;
    for (size_t k = 2; k < length; ++k) {
      if (p[i + k] < 0x80 || p[i + k] > 0xBF) return false;
    }
    i += length;
  }
  return true;
}

std::string ConfigMapKey(std::string_view path) {
  std::string key;
  std::vector<size_t> boundaries;  // where each byte's spelling starts
  for (unsigned char c : path) {
    boundaries.push_back(key.size());
    if (KeepsInKey(c)) {
      key += static_cast<char>(c);
    } else if (c == '/') {
      key += "--";
    } else {
      key += fmt::format("-{:02x}", c);
    }
  }
  if (key.size() <= kMaxKeyLength) return key;
  size_t keep = kMaxKeyLength - 2 - kKeyHashDigits;
  size_t cut = 0;
  for (size_t b : boundaries) {
    if (b > keep) break;
    cut = b;
  }
  return key.substr(0, cut) + "-h" + Sha256Hex(path, kKeyHashDigits);
}

ConfigMap CodeConfigMap(const graph::CodeBundle& bundle) {
  ConfigMap map;
  map.files.reserve(bundle.files.size());
  for (const graph::CodeFile& f : bundle.files) {
    map.files.push_back(ConfigMapFile{ConfigMapKey(f.path), f.path, f.content,
                                      !IsConfigMapText(f.content),
                                      f.executable ? kExecutableMode : 0});
  }
  return map;
}

std::string CodeConfigMapName(std::string_view flow_k8s_name, const graph::CodeBundle& bundle) {
  // Each file as its path, a NUL, its size (an 'x' after it when the file
  // is executable) and a NUL, then its bytes: paths hold no NUL and the size
  // bounds the content, so two different bundles never hash the same text,
  // and a chmod renames the ConfigMap (the pods' items change with it) while
  // the names of bundles without executables stay as they were.
  Sha256 hash;
  for (const graph::CodeFile& f : bundle.files) {
    hash.Update(f.path + '\0' + std::to_string(f.content.size()) + (f.executable ? "x" : "") +
                '\0');
    hash.Update(f.content);
  }
  return fmt::format("{}-code-{}", flow_k8s_name, hash.Hex(10));
}

const CodeMount& CodeConfigMaps::Mount(Flow& flow, const graph::CodeConfig& code,
                                       const std::string& namespace_) {
  const graph::CodeBundle* bundle = code.bundle.get();
  auto key = std::make_pair(bundle, namespace_);
  auto it = index_.find(key);
  if (it == index_.end()) {
    std::string& name = names_[bundle];
    if (name.empty()) name = CodeConfigMapName(flow.k8s_name, *bundle);
    // Two `@code`s that name the same files have one ConfigMap.
    size_t index = flow.objects.size();
    for (size_t i = 0; i < flow.objects.size(); ++i) {
      const Object& o = flow.objects[i];
      if (o.name == name && o.namespace_ == namespace_ &&
          std::holds_alternative<ConfigMap>(o.spec)) {
        index = i;
      }
    }
    if (index == flow.objects.size()) {
      flow.objects.push_back(Object{name, namespace_, code.range, CodeConfigMap(*bundle)});
    }
    it = index_.emplace(key, index).first;
  }
  auto [mount, fresh] = mounts_.try_emplace({it->second, code.path});
  if (fresh) {
    const Object& object = flow.objects[it->second];
    CodeMount& m = mount->second;
    m.object = it->second;
    m.volume = Volume{kCodeVolume, Volume::Kind::kConfigMap, "", object.name};
    for (const ConfigMapFile& f : std::get<ConfigMap>(object.spec).files) {
      m.volume.items.push_back(KeyToPath{f.key, f.path, f.mode});
    }
    m.mount = VolumeMount{kCodeVolume, code.path, true};
  }
  return mount->second;
}

}  // namespace flowc::ir
