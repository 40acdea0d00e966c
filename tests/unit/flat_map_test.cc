#include "compiler/support/flat_map.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <doctest/doctest.h>

namespace flowc {
namespace {

// Every key's hash is the same: each look-up must step over the others.
struct SameHash {
  size_t operator()(std::string_view) const { return 42; }
};

TEST_CASE("FlatMap inserts once and finds what it holds") {
  FlatMap<std::string_view, size_t> map;
  CHECK(map.find("start") == nullptr);
  auto [value, inserted] = map.try_emplace("start", 0);
  CHECK(inserted);
  CHECK(*value == 0);
  auto [again, inserted_again] = map.try_emplace("start", 7);
  CHECK_FALSE(inserted_again);
  CHECK(*again == 0);  // the first value stays
  CHECK(map.size() == 1);
  REQUIRE(map.find("start") != nullptr);
  CHECK(*map.find("start") == 0);
  CHECK(map.find("end") == nullptr);
  CHECK(map.find("") == nullptr);
}

TEST_CASE("FlatMap keeps every entry as it grows, like std::unordered_map") {
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back("step_" + std::to_string(i * 7919 % 5000));
  FlatMap<std::string_view, size_t> map;  // grows from empty: rehashes along the way
  FlatMap<std::string_view, size_t> reserved(keys.size());
  std::unordered_map<std::string_view, size_t> model;
  for (size_t i = 0; i < keys.size(); ++i) {
    bool fresh = model.emplace(keys[i], i).second;
    CHECK(map.try_emplace(keys[i], i).second == fresh);
    CHECK(reserved.try_emplace(keys[i], i).second == fresh);
  }
  CHECK(map.size() == model.size());
  CHECK(reserved.size() == model.size());
  for (const auto& [key, index] : model) {
    REQUIRE(map.find(key) != nullptr);
    CHECK(*map.find(key) == index);
    CHECK(*reserved.find(key) == index);
  }
  CHECK(map.find("step_5000") == nullptr);
  CHECK(map.find("step_") == nullptr);
}

TEST_CASE("FlatMap tells keys apart when their hashes agree") {
  FlatMap<std::string_view, int, SameHash> map;
  const std::vector<std::string_view> keys = {"a", "b", "c", "ab", "", "abc", "d", "e", "f",
                                              "g", "h", "i", "j", "k", "l", "m", "n", "o"};
  for (size_t i = 0; i < keys.size(); ++i) CHECK(map.try_emplace(keys[i], static_cast<int>(i)).second);
  for (size_t i = 0; i < keys.size(); ++i) {
    REQUIRE(map.find(keys[i]) != nullptr);
    CHECK(*map.find(keys[i]) == static_cast<int>(i));
  }
  CHECK(map.find("z") == nullptr);
  CHECK_FALSE(map.try_emplace("ab", 99).second);
  CHECK(*map.find("ab") == 3);
}

}  // namespace
}  // namespace flowc
