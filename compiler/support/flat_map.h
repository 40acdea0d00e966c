// FlatMap: a hash map that keeps its entries in one array.
//
// The step graph looks every step up by name: each `next` target, each
// Kubernetes name. std::unordered_map allocates a node per entry and reaches
// an entry through its bucket and the node before it, so at 100,000 steps
// each look-up misses the cache two or three times and the nodes are as many
// allocations to free (bench/RESULTS.md, "Growth"). Here a look-up reads
// consecutive slots of one array, which keep each key's hash beside it so
// that a key is compared only when the hashes agree.
//
// Only what the compiler needs: insertion and look-up, no erase (open
// addressing with linear probing needs no tombstones then). Keys are small
// values such as string_views, which must outlive the map, and their Hash must
// mix all its bits (std::hash of a string does; of a pointer it does not).
#ifndef FLOWC_SUPPORT_FLAT_MAP_H_
#define FLOWC_SUPPORT_FLAT_MAP_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace flowc {

template <typename K, typename V, typename Hash = std::hash<K>>
class FlatMap {
 public:
  FlatMap() = default;
  explicit FlatMap(size_t expected) { reserve(expected); }

  size_t size() const { return size_; }

  // Makes room for `n` entries without growing again.
  void reserve(size_t n) {
    size_t capacity = 16;
    while (capacity * kMaxLoadPercent / 100 < n) capacity *= 2;
    if (capacity > slots_.size()) Rehash(capacity);
  }

  // Inserts (key, value) unless `key` is there already. Returns the entry's
  // value and whether it was inserted; the pointer lasts until the next
  // insertion.
  std::pair<V*, bool> try_emplace(const K& key, V value) {
    if ((size_ + 1) * 100 > slots_.size() * kMaxLoadPercent) {
      Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    }
    uint32_t tag = Tag(key);
    size_t i = Probe(key, tag);
    Slot& slot = slots_[i];
    if (slot.tag != kEmpty) return {&slot.value, false};
    slot = Slot{key, std::move(value), tag};
    ++size_;
    return {&slot.value, true};
  }

  // The value of `key`, or nullptr.
  const V* find(const K& key) const {
    if (slots_.empty()) return nullptr;
    const Slot& slot = slots_[Probe(key, Tag(key))];
    return slot.tag == kEmpty ? nullptr : &slot.value;
  }

 private:
  static constexpr size_t kMaxLoadPercent = 80;
  static constexpr uint32_t kEmpty = 0;

  struct Slot {
    K key{};
    V value{};
    uint32_t tag = kEmpty;  // the key's hash, never kEmpty in a used slot
  };

  static uint32_t Tag(const K& key) {
    uint64_t h = Hash()(key);
    uint32_t tag = static_cast<uint32_t>(h ^ (h >> 32));
    return tag == kEmpty ? 1 : tag;
  }

  // The slot that holds `key`, or the empty slot where it belongs.
  size_t Probe(const K& key, uint32_t tag) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = tag & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.tag == kEmpty || (slot.tag == tag && slot.key == key)) return i;
    }
  }

  void Rehash(size_t capacity) {
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(capacity));
    for (Slot& slot : old) {
      if (slot.tag == kEmpty) continue;
      size_t mask = capacity - 1;
      size_t i = slot.tag & mask;
      while (slots_[i].tag != kEmpty) i = (i + 1) & mask;
      slots_[i] = std::move(slot);
    }
  }

  std::vector<Slot> slots_;  // a power of two of them, or none
  size_t size_ = 0;
};

}  // namespace flowc

#endif  // FLOWC_SUPPORT_FLAT_MAP_H_
