// compiler/support/shared.h: Shared, Boxed and Interner.
#include "compiler/support/shared.h"

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

namespace flowc {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

TEST_CASE("Shared: reads as its value; an empty value is no value at all") {
  Shared<Labels> none;
  CHECK(none.empty());
  CHECK(none.get() == Labels{});
  Shared<Labels> empty = Labels{};
  CHECK(empty.same(none));  // neither holds a node

  Shared<Labels> labels = {{"team", "ml"}};
  CHECK(labels.size() == 1);
  CHECK(labels[0].second == "ml");
  CHECK(labels == Labels{{"team", "ml"}});
  CHECK(labels != none);

  Shared<std::string> image = "python:3.12";
  std::string_view view = image;
  CHECK(view == "python:3.12");
  CHECK(image == std::string("python:3.12"));
}

TEST_CASE("Shared: copies share the value; edit copies it first unless it is the only holder") {
  Shared<Labels> a = {{"team", "ml"}};
  Shared<Labels> b = a;
  CHECK(a.same(b));
  b.edit()[0].second = "data";
  CHECK(!a.same(b));
  CHECK(a[0].second == "ml");  // the other holder does not see the change
  CHECK(b[0].second == "data");

  const Labels* before = &b.get();
  b.edit().emplace_back("tier", "gpu");  // b is the only holder: changed in place
  CHECK(&b.get() == before);
  CHECK(b.size() == 2);

  Shared<Labels> moved = std::move(b);
  CHECK(moved.size() == 2);
  a = moved;
  CHECK(a.same(moved));
}

TEST_CASE("Interner: one Shared for each distinct value, none for an empty one") {
  Interner<Labels> intern;
  Shared<Labels> first = intern(Labels{{"team", "ml"}});
  Shared<Labels> again = intern(Labels{{"team", "ml"}});
  Shared<Labels> other = intern(Labels{{"team", "data"}});
  CHECK(first.same(again));
  CHECK(!first.same(other));
  CHECK(intern(Labels{}).same(Shared<Labels>()));

  // Editing a value the interner holds never changes what it hands out.
  Shared<Labels> edited = first;
  edited.edit()[0].second = "changed";
  CHECK(intern(Labels{{"team", "ml"}}).same(first));
  CHECK(first[0].second == "ml");
}

// A struct of the kind a pod holds: hashed and compared through tie().
struct Item {
  enum class Kind { kA, kB };
  std::string name;
  std::optional<int64_t> seconds;
  Kind kind = Kind::kA;
  auto tie() const { return std::tie(name, seconds, kind); }
  bool operator==(const Item& o) const { return tie() == o.tie(); }
};

TEST_CASE("Interner: values that differ in any one field are distinct") {
  Interner<std::vector<Item>> intern;
  const std::vector<Item> base = {{"a", 30, Item::Kind::kA}};
  Shared<std::vector<Item>> first = intern(base);
  CHECK(intern(std::vector<Item>(base)).same(first));
  std::vector<Shared<std::vector<Item>>> distinct = {
      first,
      intern(std::vector<Item>{{"b", 30, Item::Kind::kA}}),
      intern(std::vector<Item>{{"a", std::nullopt, Item::Kind::kA}}),
      intern(std::vector<Item>{{"a", 0, Item::Kind::kA}}),
      intern(std::vector<Item>{{"a", 30, Item::Kind::kB}}),
      intern(std::vector<Item>{{"a", 30, Item::Kind::kA}, {"a", 30, Item::Kind::kA}}),
  };
  for (size_t i = 0; i < distinct.size(); ++i) {
    for (size_t j = i + 1; j < distinct.size(); ++j) CHECK(!distinct[i].same(distinct[j]));
  }
  // Equal hashes are told apart by the values: every value is found again.
  for (const auto& value : distinct) CHECK(intern(value.get()).same(value));
}

TEST_CASE("Boxed: an optional on the heap; copies are deep") {
  Boxed<std::string> none;
  CHECK(!none);
  CHECK(!none.has_value());
  Boxed<std::string> some = std::string("x");
  CHECK(some.has_value());
  CHECK(*some == "x");
  Boxed<std::string> copy = some;
  copy->append("y");
  CHECK(*some == "x");
  CHECK(*copy == "xy");
  CHECK(!(copy == some));
  Boxed<std::string> from_optional = std::optional<std::string>("x");
  CHECK(from_optional == some);
  CHECK(Boxed<std::string>(std::optional<std::string>()) == none);
  copy.reset();
  CHECK(copy == none);
  static_assert(sizeof(Boxed<std::string>) == sizeof(void*));
  static_assert(sizeof(Shared<Labels>) == sizeof(void*));
}

}  // namespace
}  // namespace flowc
