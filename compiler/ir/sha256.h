// SHA-256 for the content hashes in the names flowc gives objects beside the pods (claim
// templates, TrainingRuntimes, @code ConfigMaps): OpenSSL's libcrypto.
#ifndef FLOWC_IR_SHA256_H_
#define FLOWC_IR_SHA256_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace flowc::ir {

// The hash of bytes given in pieces.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(std::string_view bytes);
  // The first `digits` (at most 64) lowercase hex digits of the hash of everything given.
  std::string Hex(size_t digits);

 private:
  struct State;  // OpenSSL's context, kept out of this header (sha256.cc says why)
  std::unique_ptr<State> state_;
};

// Sha256 of `bytes` alone, its first `digits` hex digits.
std::string Sha256Hex(std::string_view bytes, size_t digits);

}  // namespace flowc::ir

#endif  // FLOWC_IR_SHA256_H_
