#include "backends/k8s/yaml_scalar.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <cstring>
#include <deque>
#include <string_view>
#include <string>
#include <unordered_map>
#include <vector>

namespace flowc::backends::k8s::internal {

// A string yaml-cpp has already found plain, to be written as it is (see below).
struct Unchecked {
  std::string_view text;
};

// The column where the first key of a block map just opened starts: its indentation written,
// nothing else (see RecordedMaps).
struct FirstKeyProbe {
  size_t* column;
};

// The column the emitter's output has reached; writes nothing.
struct ColumnProbe {
  size_t* column;
};

}  // namespace flowc::backends::k8s::internal

namespace YAML {

// Emitter::WriteIntegralType<T> is the public member template through which the header's
// operator<< writes a number: it prepares the node, streams the value into a std::stringstream
// and marks the scalar written (yaml-cpp/emitter.h). This is its specialization for a string
// yaml-cpp has already tested: the same three steps, with the text written straight to the
// emitter's stream, as Emitter::Write(std::string) writes a plain scalar after its test
// (emitter.cpp). The stringstream alone cost 22 % of a JobSet compile.
template <>
Emitter& Emitter::WriteIntegralType<flowc::backends::k8s::internal::Unchecked>(
    flowc::backends::k8s::internal::Unchecked value) {
  if (!good()) return *this;
  PrepareNode(EmitterNodeType::Scalar);
  m_stream.write(value.text.data(), value.text.size());
  StartedScalar();
  return *this;
}

template <>
Emitter& Emitter::WriteIntegralType<flowc::backends::k8s::internal::FirstKeyProbe>(
    flowc::backends::k8s::internal::FirstKeyProbe value) {
  if (!good()) return *this;
  PrepareNode(EmitterNodeType::Scalar);
  *value.column = m_stream.col();
  return *this;
}

template <>
Emitter& Emitter::WriteIntegralType<flowc::backends::k8s::internal::ColumnProbe>(
    flowc::backends::k8s::internal::ColumnProbe value) {
  *value.column = m_stream.col();
  return *this;
}

}  // namespace YAML

namespace flowc::backends::k8s {
namespace {

// Only strings up to this long are remembered: keys and the values that recur (images,
// quantities, names of volumes, secrets, env vars). A longer string, mostly a command, is
// rarely written twice; it takes yaml-cpp's ordinary path. (That also keeps yaml-cpp's long
// keys, over 1,024 characters, on its own path: emitter.cpp Emitter::Write.)
constexpr size_t kRemembered = 64;

// What yaml-cpp answered for each string it has written in a block collection: true if it
// wrote the string plain and unchanged. A string is remembered the first time it is written,
// through yaml-cpp's own Write: its output for the node ends with the string itself exactly
// when it is plain and does not end with '"'. (With Auto, yaml-cpp writes a string plain or
// double-quoted, and a quoted form ends with '"': a string that does not end with '"' ends
// its output only when written plain. One that does can end its own quoted form: `"` is
// written `"\""`. Such a string is never remembered as plain, and always goes to yaml-cpp.
// The empty string is quoted.)
// The output of `out` so far, or at least its last kRemembered bytes.
std::string_view WrittenBy(const YAML::Emitter& out);

class PlainStrings {
 public:
  // Writes `text` into `out`, a block collection of an emitter with the default string format.
  void Write(YAML::Emitter& out, std::string_view text) {
    auto found = known_.find(text);
    if (found != known_.end()) {
      if (found->second) {
        out.WriteIntegralType(internal::Unchecked{text});
      } else {
        out << std::string(text);
      }
      return;
    }
    const size_t before = out.size();
    out << std::string(text);
    const std::string_view written = WrittenBy(out);
    if (!out.good() || out.size() < before + text.size() || written.size() < text.size()) return;
    if (storage_.size() == kMaxKnown) {
      // Full: start again rather than stop learning. A step's own names recur within the
      // step (its job, its labels, its env), and past the first 32,768 strings each had paid
      // the test every time: yaml-cpp's test was 15 % of a JobSet compile at 100,000 steps
      // against 10 % at 10,000, and is 11 % now. Relearning the common strings costs one
      // test each.
      known_.clear();
      storage_.clear();
    }
    const std::string_view tail = written.substr(written.size() - text.size());
    const std::string& stored = storage_.emplace_back(text);
    known_.emplace(stored, !text.empty() && text.back() != '"' && tail == text);
  }

 private:
  // At most this many strings at a time: a flow with a name of its own on each of 100,000
  // steps would keep 7 MB of them (massif: 1.4 MB at 20,000 steps). About 70 bytes each with
  // the table's node: at most 2.5 MB.
  static constexpr size_t kMaxKnown = 1 << 15;
  std::deque<std::string> storage_;  // the keys of known_, which point into it
  std::unordered_map<std::string_view, bool> known_;
};

// yaml-cpp 0.7 writes a string longer than this as a long key when it is a key (emitter.cpp
// Emitter::Write): ObviouslyPlain leaves those to it.
constexpr size_t kLongKey = 1024;

// True for a string yaml-cpp 0.7 writes plain in a block collection, found without its test:
// printable ASCII, no '#', not starting with a space or one of yaml-cpp's indicators
// (",[]{}#&*!|>'\"%@`", or '-', '?', ':' before a space or the end), no ':' before a space or
// the end, no space at the end, and not one of the strings yaml-cpp takes for null ("~",
// "null", "Null", "NULL"). That is every way yaml-cpp's IsValidPlainScalar (emitterutils.cpp)
// can answer no in a block collection: its start regex (exp.h PlainScalar), its trailing
// space, and its disallowed regex at each character (EndScalar ": ", BlankOrBreak + Comment
// " #", NotPrintable, the byte order mark, Break, Tab), all of which need a character outside
// this set or one of the sequences excluded. False leaves the string to yaml-cpp's own test:
// most of what a sample writes (names, images, quantities, keys) passes here, and its test
// cost about 50,000 instructions a string, half of a small Argo compile.
bool ObviouslyPlain(std::string_view text) {
  if (text.empty() || text.size() > kLongKey) return false;
  if (text == "~" || text == "null" || text == "Null" || text == "NULL") return false;
  static constexpr std::string_view kIndicators = ",[]{}#&*!|>'\"%@`";
  const char first = text[0];
  if (first == ' ' || kIndicators.find(first) != std::string_view::npos) return false;
  if ((first == '-' || first == '?' || first == ':') && (text.size() == 1 || text[1] == ' ')) {
    return false;
  }
  if (text.back() == ' ' || text.back() == ':') return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c > 0x7E || c == '#') return false;
    if (c == ':' && text[i + 1] == ' ') return false;  // not last: checked above
  }
  return true;
}

PlainStrings& Known() {
  static PlainStrings known;
  return known;
}

// The emitters under a DoubleQuotedStrings (a compile has at most one at a time).
std::vector<const YAML::Emitter*>& DoubleQuoted() {
  static std::vector<const YAML::Emitter*> emitters;
  return emitters;
}

bool IsDoubleQuoted(const YAML::Emitter& out) {
  for (const YAML::Emitter* quoted : DoubleQuoted()) {
    if (quoted == &out) return true;
  }
  return false;
}

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// True when a YAML 1.1 or 1.2 reader could resolve the plain scalar `value`
// to something other than a string. Deliberately broader than the resolvers:
// quoting a string that did not need it costs two characters, while missing
// one turns "0755" into 493 or "no" into false on some reader (sigs.k8s.io/yaml
// and PyYAML read YAML 1.1; yaml-cpp and most newer tools read 1.2).
bool ResolvesToNonString(std::string_view value) {
  if (value.empty()) return true;  // null
  // Null, and the bools of YAML 1.1 (y|yes|true|on and their negations) and
  // 1.2, in any capitalisation; a few of these are strings to some readers,
  // which is no reason not to quote them.
  static constexpr std::string_view kWords[] = {"~",  "null", "y",    "n",     "yes", "no",
                                                "on", "off",  "true", "false", "<<",  "="};
  for (std::string_view word : kWords) {
    if (EqualsIgnoreCase(value, word)) return true;
  }
  // Numbers and timestamps all start with a digit, a dot or a sign followed
  // by one of those: ints in any base (0755, 0o17, 0x1F, 0b101, 1_000,
  // 1:20 sexagesimal), floats (1.0, .5, 1e3, .inf, -.nan) and dates
  // (2001-12-14). Any string starting that way is quoted.
  // Document markers, which some readers take for the end of the document
  // even after an indicator ("- ---").
  if (value.substr(0, 3) == "---" || value.substr(0, 3) == "...") return true;
  size_t i = 0;
  if (value[0] == '+' || value[0] == '-') i = 1;
  if (i < value.size() && (IsDigit(value[i]) || value[i] == '.')) return true;
  return false;
}

// Decodes the UTF-8 code point at value[i], advancing i; returns -1 for an
// invalid sequence (and advances one byte).
int32_t NextCodePoint(std::string_view value, size_t& i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(value[k]); };
  unsigned char b0 = byte(i);
  int length = b0 < 0x80           ? 1
               : (b0 >> 5) == 0x6  ? 2
               : (b0 >> 4) == 0xE  ? 3
               : (b0 >> 3) == 0x1E ? 4
                                   : 0;
  if (length == 0 || i + length > value.size()) {
    ++i;
    return -1;
  }
  int32_t cp = length == 1   ? b0
               : length == 2 ? (b0 & 0x1F)
               : length == 3 ? (b0 & 0x0F)
                             : (b0 & 0x07);
  for (int k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      ++i;
      return -1;
    }
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  i += length;
  return cp;
}

enum class Characters {
  kPlain,     // printable, no line breaks: the emitter's own rules suffice
  kEscapes,   // controls or line breaks: double quotes with escapes
  kNonAscii,  // characters yaml-cpp would write raw though a YAML reader
              // rejects or folds them: escape every non-ASCII character
};

// What `value` needs beyond the emitter's own plain-scalar rules. yaml-cpp
// 0.7 writes DEL (U+007F) and the line separators U+2028/U+2029 raw, even
// between double quotes; PyYAML rejects the first and folds the others into
// spaces, so only escaping them keeps the string intact.
Characters Classify(std::string_view value) {
  Characters result = Characters::kPlain;
  for (size_t i = 0; i < value.size();) {
    int32_t cp = NextCodePoint(value, i);
    if (cp < 0 || cp == 0x7F || cp == 0x2028 || cp == 0x2029 || cp == 0xFFFE || cp == 0xFFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return Characters::kNonAscii;
    }
    if (cp < 0x20 || (cp >= 0x80 && cp < 0xA0) || cp == 0xFEFF) result = Characters::kEscapes;
  }
  return result;
}

void EmitStringIn(YAML::Emitter& out, std::string_view value, bool block) {
  std::string_view text = value;
  switch (Classify(value)) {
    case Characters::kNonAscii:
      // Both manipulators apply to this one scalar only.
      out << YAML::EscapeNonAscii << YAML::DoubleQuoted << std::string(text);
      return;
    case Characters::kEscapes:
      out << YAML::DoubleQuoted << std::string(text);
      return;
    case Characters::kPlain:
      break;
  }
  if (ResolvesToNonString(value)) {
    out << YAML::DoubleQuoted << std::string(text);
  } else {
    // yaml-cpp still quotes what it cannot write plain (": ", " #", a leading
    // indicator, surrounding spaces).
    if (block) {
      BlockScalar(out, text);
    } else {
      out << std::string(text);
    }
  }
}

}  // namespace

DoubleQuotedStrings::DoubleQuotedStrings(YAML::Emitter& out) : out_(out) {
  out_.SetStringFormat(YAML::DoubleQuoted);
  DoubleQuoted().push_back(&out_);
}

DoubleQuotedStrings::~DoubleQuotedStrings() {
  out_.SetStringFormat(YAML::Auto);
  DoubleQuoted().pop_back();
}

void BlockScalar(YAML::Emitter& out, std::string_view text) {
  if (ObviouslyPlain(text) && !IsDoubleQuoted(out)) {
    out.WriteIntegralType(internal::Unchecked{text});
    return;
  }
  if (text.size() <= kRemembered && !IsDoubleQuoted(out)) {
    Known().Write(out, text);
    return;
  }
  out << std::string(text);
}

void BeginObject(YAML::Emitter& out, std::string_view api_version, std::string_view kind) {
  out << YAML::BeginMap;
  Key(out, "apiVersion");
  ValueScalar(out, api_version);
  Key(out, "kind");
  ValueScalar(out, kind);
}

void Key(YAML::Emitter& out, std::string_view key) {
  out << YAML::Key;
  BlockScalar(out, key);
}

void ValueScalar(YAML::Emitter& out, std::string_view value) {
  out << YAML::Value;
  BlockScalar(out, value);
}

void EmitString(YAML::Emitter& out, std::string_view value) {
  EmitStringIn(out, value, /*block=*/true);
}

void EmitFlowString(YAML::Emitter& out, std::string_view value) {
  EmitStringIn(out, value, /*block=*/false);
}

void StringField(YAML::Emitter& out, std::string_view key, std::string_view value) {
  Key(out, key);
  out << YAML::Value;
  EmitString(out, value);
}

}  // namespace flowc::backends::k8s

namespace flowc::backends::k8s {
namespace {

constexpr size_t kChunk = 64 * 1024;
// What a drain keeps: more than BlockScalar ever reads back (kRemembered).
constexpr size_t kKept = 256;
static_assert(kKept >= kRemembered);

std::vector<const SinkEmitter*>& Streaming() {
  static std::vector<const SinkEmitter*> emitters;
  return emitters;
}

std::string_view WrittenBy(const YAML::Emitter& out) {
  // A YAML::Emitter on a std::ostream has no c_str() (yaml-cpp's ostream_wrapper::str()).
  if (const char* text = out.c_str()) return {text, out.size()};
  for (const SinkEmitter* emitter : Streaming()) {
    if (&emitter->yaml() == &out) return emitter->Tail();
  }
  return {};
}

}  // namespace

SinkEmitter::Buffer::Buffer(OutputSink& sink) : sink_(sink), bytes_(kChunk) {
  setp(bytes_.data(), bytes_.data() + bytes_.size());
}

void SinkEmitter::Buffer::Flush() {
  if (pptr() > pbase()) sink_.Write(Written());
  setp(bytes_.data(), bytes_.data() + bytes_.size());
}

void SinkEmitter::Buffer::Drain() {
  std::string_view written = Written();
  if (written.size() <= kKept) return;
  sink_.Write(written.substr(0, written.size() - kKept));
  std::memmove(bytes_.data(), written.data() + written.size() - kKept, kKept);
  setp(bytes_.data(), bytes_.data() + bytes_.size());
  pbump(static_cast<int>(kKept));
}

SinkEmitter::Buffer::int_type SinkEmitter::Buffer::overflow(int_type c) {
  Drain();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize SinkEmitter::Buffer::xsputn(const char* text, std::streamsize size) {
  std::streamsize left = size;
  while (left > 0) {
    if (pptr() == epptr()) Drain();
    auto n = std::min<std::streamsize>(left, epptr() - pptr());
    std::memcpy(pptr(), text, static_cast<size_t>(n));
    pbump(static_cast<int>(n));
    text += n;
    left -= n;
  }
  return size;
}

SinkEmitter::SinkEmitter(OutputSink& sink, size_t steps) : sink_(sink) {
  if (steps > kStreamSteps) {
    buffer_ = std::make_unique<Buffer>(sink);
    stream_ = std::make_unique<std::ostream>(buffer_.get());
    emitter_ = std::make_unique<YAML::Emitter>(*stream_);
    Streaming().push_back(this);
  } else {
    emitter_ = std::make_unique<YAML::Emitter>();
  }
}

SinkEmitter::~SinkEmitter() {
  Flush();
  if (buffer_) Streaming().erase(std::find(Streaming().begin(), Streaming().end(), this));
}

void SinkEmitter::Flush() {
  if (buffer_) {
    buffer_->Flush();
    return;
  }
  sink_.Write(std::string_view(emitter_->c_str() + flushed_, emitter_->size() - flushed_));
  flushed_ = emitter_->size();
}

}  // namespace flowc::backends::k8s

namespace flowc::backends::k8s::internal {

bool IsDoubleQuoted(const YAML::Emitter& out) { return k8s::IsDoubleQuoted(out); }

std::string_view WrittenBy(const YAML::Emitter& out) { return k8s::WrittenBy(out); }

size_t Column(YAML::Emitter& out) {
  size_t column = 0;
  out.WriteIntegralType(internal::ColumnProbe{&column});
  return column;
}

size_t PrepareFirstKey(YAML::Emitter& out) {
  size_t column = 0;
  out.WriteIntegralType(internal::FirstKeyProbe{&column});
  return column;
}

void WriteWritten(YAML::Emitter& out, std::string_view text) {
  out.WriteIntegralType(internal::Unchecked{text});
}

}  // namespace flowc::backends::k8s::internal
