#include "compiler/explain/example_run.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <vector>

namespace flowc::explain {
namespace {

constexpr std::string_view kTarget = "# target: ";
constexpr std::string_view kBeside = "# beside the flow: ";
constexpr std::string_view kValidate = "# flowc validate";

struct Fixture {
  std::string name;
  size_t bytes = 0;
};

// "model.bin, 1200000 bytes" -> {model.bin, 1200000}.
bool ParseFixture(std::string_view text, Fixture* out) {
  size_t comma = text.find(", ");
  if (comma == std::string_view::npos) return false;
  out->name = std::string(text.substr(0, comma));
  out->bytes = std::strtoull(std::string(text.substr(comma + 2)).c_str(), nullptr, 10);
  return !out->name.empty() && out->name.find('/') == std::string::npos;
}

// Replaces each `<x repeated N times>` by N x; says whether there was one.
bool ExpandStandIns(std::string& text) {
  constexpr std::string_view kOpen = "<x repeated ", kClose = " times>";
  bool any = false;
  for (size_t at = text.find(kOpen); at != std::string::npos; at = text.find(kOpen, at)) {
    size_t close = text.find(kClose, at);
    if (close == std::string::npos) break;
    size_t count = std::strtoull(text.substr(at + kOpen.size()).c_str(), nullptr, 10);
    text.replace(at, close + kClose.size() - at, std::string(count, 'x'));
    at += count;
    any = true;
  }
  return any;
}

// A folder of its own for the run, left as it was found (the current folder restored, the
// folder and its files removed) whatever the stages do.
class ScratchFolder {
 public:
  // The flow itself is written there too, as `name`: a glob of `@code` sees it, as it sees a
  // user's flow in its folder.
  ScratchFolder(const std::vector<Fixture>& fixtures, std::string_view name,
                const std::string& flow) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/flowc-example-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) return;
    path_ = buffer.data();
    for (const Fixture& f : fixtures) {
      std::string file = path_ + "/" + f.name;
      std::ofstream(file, std::ios::binary) << std::string(f.bytes, '\0');
      files_.push_back(file);
    }
    std::string file = path_ + "/" + std::string(name);
    std::ofstream(file, std::ios::binary) << flow;
    files_.push_back(file);
    previous_ = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    entered_ = previous_ >= 0 && chdir(path_.c_str()) == 0;
  }
  ~ScratchFolder() {
    if (entered_ && fchdir(previous_) != 0) std::perror("flowc: cannot return to the folder");
    if (previous_ >= 0) close(previous_);
    for (const std::string& file : files_) std::remove(file.c_str());
    if (!path_.empty()) rmdir(path_.c_str());
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

 private:
  std::string path_;
  std::vector<std::string> files_;
  int previous_ = -1;
  bool entered_ = false;
};

}  // namespace

ExampleRun RunExample(std::string_view example, const Runner& run) {
  ExampleRun out;
  std::vector<Fixture> fixtures;
  for (size_t start = 0; start < example.size();) {
    size_t end = example.find('\n', start);
    std::string_view line =
        example.substr(start, end == std::string_view::npos ? end : end - start);
    if (start == 0 && line.substr(0, kTarget.size()) == kTarget) {
      out.target = std::string(line.substr(kTarget.size()));
    }
    if (start == 0 && line == kValidate) out.validate = true;
    Fixture fixture;
    if (line.substr(0, kBeside.size()) == kBeside &&
        ParseFixture(line.substr(kBeside.size()), &fixture)) {
      fixtures.push_back(fixture);
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  std::string text(example);
  bool stand_ins = ExpandStandIns(text);
  out.shown = diag::Printable(example);
  bool utf8 = out.shown == example;
  out.whole_flow = !stand_ins && utf8;
  if (stand_ins) {
    out.why_text = "`<x repeated N times>` stands for a string of N `x`, so it is shown as text:";
  } else if (!utf8) {
    out.why_text = "It holds a byte that is not UTF-8, shown here as `<XX>`:";
  }
  {
    std::string_view name = out.validate ? kExampleYamlFile : kExampleFile;
    ScratchFolder folder(fixtures, name, text);
    diag::SourceFile file(std::string(name), std::move(text));
    diag::Diagnostics diagnostics;
    run(file, Invocation{out.target, out.validate}, diagnostics);
    diagnostics.SortBySource();
    out.reported = diag::RenderText(diagnostics.all());
  }
  return out;
}

}  // namespace flowc::explain
