// What keeps the AST, the step graph and the IR small when a flow has
// thousands of steps (bench/RESULTS.md, "Memory at 100,000 steps"):
//
//   Boxed<T>     an optional T kept on the heap: a pointer's size in the
//                struct that holds it, for the large parts few steps set
//                (@neuron, @trainjob, @code, a foreach). Copies copy the T.
//   Shared<T>    an immutable T that several holders share, such as the same
//                labels, tolerations or resources on every pod of a flow.
//                Read it as a const T; an unset one reads as an empty T.
//   Interner<T>  hands out one Shared<T> for each distinct value;
//                InternerSet<Ts...> one for each of several types.
//
// Neither holder changes what a field means: a Boxed<T> reads like std::optional<T>
// and a Shared<T> like the const T it holds.
#ifndef FLOWC_SUPPORT_SHARED_H_
#define FLOWC_SUPPORT_SHARED_H_

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace flowc {

template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(std::nullopt_t) {}
  Boxed(T value) : p_(std::make_unique<T>(std::move(value))) {}
  Boxed(std::optional<T> value) {
    if (value) p_ = std::make_unique<T>(std::move(*value));
  }
  Boxed(const Boxed& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;

  bool has_value() const { return p_ != nullptr; }
  void reset() { p_.reset(); }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_.get(); }
  const T* operator->() const { return p_.get(); }

  bool operator==(const Boxed& o) const {
    return has_value() == o.has_value() && (!has_value() || *p_ == *o.p_);
  }

 private:
  std::unique_ptr<T> p_;
};

template <typename T>
class Shared {
 public:
  Shared() = default;
  // An empty value is held as no value at all: most pods leave most lists
  // empty, and those cost no allocation.
  Shared(T value) {
    if (!(value == T())) p_ = new Node{std::move(value), 1};
  }
  Shared(const Shared& o) : p_(o.p_) {
    if (p_) ++p_->holders;
  }
  Shared(Shared&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Shared& operator=(Shared o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Shared() { Release(); }
  template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, Shared> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    std::is_constructible_v<T, U&&>>>
  Shared(U&& value) : Shared(T(std::forward<U>(value))) {}
  // `labels = {{"team", "ml"}}`, as for the list itself.
  template <typename U = T>
  Shared(std::initializer_list<typename U::value_type> items) : Shared(T(items)) {}

  const T& get() const { return p_ ? p_->value : Empty(); }
  operator const T&() const { return get(); }
  // A shared string also reads as a string_view.
  template <typename U = T,
            typename = std::enable_if_t<std::is_convertible_v<const U&, std::string_view>>>
  operator std::string_view() const {
    return get();
  }
  const T& operator*() const { return get(); }
  const T* operator->() const { return &get(); }

  // The container and string reads the holders of a Shared<T> use.
  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  auto size() const { return get().size(); }
  bool empty() const { return get().empty(); }
  decltype(auto) operator[](size_t i) const { return get()[i]; }
  decltype(auto) front() const { return get().front(); }
  decltype(auto) back() const { return get().back(); }

  // The value, to change in place: copied first unless this holder is its
  // only one, so no other holder sees the change. For code that builds a
  // value by hand (tests); the lowering builds each value whole.
  T& edit() {
    if (!p_ || p_->holders > 1) *this = Shared(Node::kFresh, get());
    return p_->value;
  }

  // Whether both hold the very same value (not merely an equal one).
  bool same(const Shared& o) const { return p_ == o.p_; }

  friend bool operator==(const Shared& a, const Shared& b) { return a.same(b) || a.get() == b.get(); }
  friend bool operator!=(const Shared& a, const Shared& b) { return !(a == b); }
  template <typename U>
  friend bool operator==(const Shared& a, const U& b) { return a.get() == b; }
  template <typename U>
  friend bool operator!=(const Shared& a, const U& b) { return !(a.get() == b); }
  template <typename U>
  friend bool operator==(const U& a, const Shared& b) { return a == b.get(); }
  template <typename U>
  friend bool operator!=(const U& a, const Shared& b) { return !(a == b.get()); }

 private:
  static const T& Empty() {
    static const T empty{};
    return empty;
  }
  // The value and how many Shareds hold it. The count is not atomic: a
  // flow is compiled on one thread, and a Shared is never handed to another.
  // (A std::shared_ptr would be 16 bytes, and 100,000 pods hold 15 each.)
  struct Node {
    enum Fresh { kFresh };
    T value;
    size_t holders;
  };
  Shared(typename Node::Fresh, T value) : p_(new Node{std::move(value), 1}) {}
  void Release() {
    Node* node = std::exchange(p_, nullptr);
    if (node && --node->holders == 0) delete node;
  }
  Node* p_ = nullptr;  // the value is never changed but through edit()
};

// The hash of a value of the types a pod holds: strings, numbers, enums,
// optionals, pairs, vectors and structs with a tie() of their fields.
struct ValueHash {
  static size_t Combine(size_t seed, size_t h) {
    return seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
  }
  size_t operator()(const std::string& s) const { return std::hash<std::string_view>()(s); }
  template <typename T>
  size_t operator()(const std::optional<T>& v) const {
    return v ? Combine(1, (*this)(*v)) : 0;
  }
  template <typename A, typename B>
  size_t operator()(const std::pair<A, B>& p) const {
    return Combine((*this)(p.first), (*this)(p.second));
  }
  template <typename T>
  size_t operator()(const std::vector<T>& items) const {
    size_t h = items.size();
    for (const T& item : items) h = Combine(h, (*this)(item));
    return h;
  }
  template <typename... Ts>
  size_t operator()(const std::tuple<Ts...>& fields) const {
    return std::apply(
        [this](const auto&... f) {
          size_t h = 0;
          ((h = Combine(h, (*this)(f))), ...);
          return h;
        },
        fields);
  }
  template <typename T>
  size_t operator()(const T& v) const {
    if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
      return std::hash<T>()(v);
    } else {
      return (*this)(v.tie());
    }
  }
};

// One Shared<T> per distinct value: the graph interns the strings and lists
// of each step's configuration, the lowering the lists it builds for a pod,
// so 100,000 pods with the same labels hold one copy.
template <typename T>
class Interner {
 public:
  Shared<T> operator()(T value) {
    if (value == T()) return Shared<T>();
    const size_t hash = ValueHash()(value);
    if (const Shared<T>* found = Find(value, hash)) return *found;
    return values_.emplace(hash, Shared<T>(std::move(value)))->second;
  }

 private:
  const Shared<T>* Find(const T& value, size_t hash) const {
    auto [it, end] = values_.equal_range(hash);
    for (; it != end; ++it) {
      if (it->second.get() == value) return &it->second;
    }
    return nullptr;
  }
  std::unordered_multimap<size_t, Shared<T>> values_;  // by the value's hash
};

// An Interner for each of the types Ts.
template <typename... Ts>
class InternerSet {
 public:
  template <typename T>
  Shared<T> operator()(T value) {
    return std::get<Interner<T>>(interners_)(std::move(value));
  }

 private:
  std::tuple<Interner<Ts>...> interners_;
};

}  // namespace flowc

#endif  // FLOWC_SUPPORT_SHARED_H_
