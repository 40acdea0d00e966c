#include "compiler/ir/sha256.h"

#include <algorithm>

#include <fmt/format.h>

// The digest functions SHA256_Init/Update/Final, which OpenSSL 3 marks deprecated in favour of
// EVP. EVP (and the one-shot SHA256(), built on it) fetches the algorithm from the default
// provider, which sets up the library context and its method store on the first call: 5.9 M
// instructions, as much as compiling a sample flow. These compute the same SHA-256 directly
// (41 K instructions for the first hash); OpenSSL 3.0 keeps them.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

namespace flowc::ir {

struct Sha256::State {
  SHA256_CTX context;
};

Sha256::Sha256() : state_(std::make_unique<State>()) { SHA256_Init(&state_->context); }

Sha256::~Sha256() = default;

void Sha256::Update(std::string_view bytes) {
  SHA256_Update(&state_->context, bytes.data(), bytes.size());
}

std::string Sha256::Hex(size_t digits) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256_Final(digest, &state_->context);
  std::string hex;
  for (unsigned char byte : digest) hex += fmt::format("{:02x}", byte);
  return hex.substr(0, std::min(digits, hex.size()));
}

std::string Sha256Hex(std::string_view bytes, size_t digits) {
  Sha256 hash;
  hash.Update(bytes);
  return hash.Hex(digits);
}

}  // namespace flowc::ir
