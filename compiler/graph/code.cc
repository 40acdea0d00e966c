#include "compiler/graph/code.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "compiler/diag/suggest.h"
#include "compiler/graph/project_files.h"

namespace flowc::graph {
namespace {

using diag::Code;
using Problem = ProjectFolder::Problem;

const ast::Argument* Find(const ast::Decorator* d, std::string_view name) {
  if (d == nullptr) return nullptr;
  for (const ast::Argument& arg : d->arguments) {
    if (arg.name.name == name) return &arg;
  }
  return nullptr;
}

// `path` with '.', '..' and empty components applied, as filepath.Clean
// does ("/a/./b/" -> "/a/b"); `path` is absolute.
std::string CleanAbsolute(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 1;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view part = path.substr(start, slash - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = slash + 1;
  }
  std::string out;
  for (std::string_view part : parts) out += "/" + std::string(part);
  return out.empty() ? "/" : out;
}

// "the flow's folder", or for a flow read from stdin, the folder it is
// resolved against instead.
std::string FolderName(const diag::Reporter& report) {
  return report.file().path() == "<stdin>" ? "the current folder" : "the flow's folder";
}

std::string Bytes(int64_t n) {
  if (n < 1024) return fmt::format("{} byte{}", n, n == 1 ? "" : "s");
  if (n < 1024 * 1024) return fmt::format("{:.1f} KiB ({} bytes)", n / 1024.0, n);
  return fmt::format("{:.2f} MiB ({} bytes)", n / 1048576.0, n);
}

// "did you mean 'conf/base.yaml'?" for a missing `relative`, from the names
// beside where it would be.
std::string SuggestFile(const ProjectFolder& folder, const std::string& relative) {
  size_t slash = relative.rfind('/');
  std::string dir = slash == std::string::npos ? "" : relative.substr(0, slash + 1);
  std::vector<std::string> names = folder.Neighbours(relative);
  std::vector<std::string_view> candidates(names.begin(), names.end());
  std::string match = diag::ClosestMatch(relative.substr(dir.size()), candidates);
  return match.empty() ? "" : fmt::format("did you mean '{}'?", dir + match);
}

void ReportProblem(const ProjectFolder& folder, const ProjectFolder::Failure& r,
                   const ast::Value& entry, diag::Reporter& report) {
  const std::string& path = r.path;
  const std::string where = FolderName(report);
  auto at = [&](Code code, std::string message) -> diag::Diagnostic& {
    auto& d = report(code, entry.range, std::move(message));
    if (r.glob_match) d.AddNote(fmt::format("'{}' matches '{}'", entry.string, path));
    return d;
  };
  const std::string elsewhere =
      fmt::format("copy the file into {}, or ship it in the image or a volume", where);
  switch (r.problem) {
    case Problem::kNone:
      return;
    case Problem::kAbsolute:
      at(Code::kCodeBadPath,
         fmt::format("'{}' is an absolute path; '@code' ships files of {}", path, where))
          .SetHelp(r.detail.empty()
                       ? elsewhere
                       : fmt::format("write it relative to {}: \"{}\"", where, r.detail));
      return;
    case Problem::kOutside:
      at(Code::kCodeBadPath, fmt::format("'{}' leaves {}", path, where)).SetHelp(elsewhere);
      return;
    case Problem::kDotDot:
      at(Code::kCodeBadPath, fmt::format("'{}' contains '..'", path))
          .AddNote("Kubernetes refuses '..' in the path of a ConfigMap's item")
          .SetHelp(fmt::format("write \"{}\"", r.detail));
      return;
    case Problem::kReserved:
      at(Code::kCodeBadPath,
         fmt::format("'{}' starts with '..', which Kubernetes reserves in a ConfigMap volume",
                     path))
          .SetHelp("rename it: the volume keeps its own '..data' folder there");
      return;
    case Problem::kLinkOutside:
      at(Code::kCodeBadPath,
         fmt::format("'{}' resolves to '{}', outside {}", path, r.detail, where))
          .SetHelp(elsewhere);
      return;
    case Problem::kGlobStar:
      at(Code::kCodeNoMatch,
         fmt::format("'{}' uses '**', which glob(3) does not expand across folders", path))
          .SetHelp("name each folder level, e.g. \"src/*.py\" and \"src/*/*.py\"");
      return;
    case Problem::kNoMatch:
      if (r.detail == "folders") {
        at(Code::kCodeNoMatch, fmt::format("'{}' matches only folders", path))
            .SetHelp(fmt::format("'*' stops at '/': write \"{}/*\" for the files in them", path));
      } else {
        at(Code::kCodeNoMatch, fmt::format("'{}' matches no file in {}", path, where))
            .SetHelp("'*' and '?' do not match a leading '.', nor '/'");
      }
      return;
    case Problem::kMissing: {
      std::string hint = SuggestFile(folder, path);
      at(Code::kCodeFileNotFound, fmt::format("file '{}' not found in {}", path, where))
          .SetHelp(
              !hint.empty() ? hint
              : report.file().path() == "<stdin>"
                  ? std::string("a flow read from stdin ships files of the current folder")
                  : fmt::format("paths are relative to the folder of '{}'", report.file().path()));
      return;
    }
    case Problem::kDanglingLink:
      at(Code::kCodeFileNotFound,
         fmt::format("'{}' is a link to '{}', which does not exist", path, r.detail))
          .SetHelp("fix the link, or leave it out of '@code'");
      return;
    case Problem::kDirectory:
      at(Code::kCodeNotAFile, fmt::format("'{}' is a folder, not a file", path))
          .SetHelp(fmt::format("ship the files in it with a glob: \"{}\"",
                               path == "." ? std::string("*") : path + "/*"));
      return;
    case Problem::kNotRegular:
      at(Code::kCodeNotAFile, fmt::format("'{}' is not a regular file", path))
          .SetHelp("a ConfigMap holds file contents: leave FIFOs, sockets and devices out");
      return;
    case Problem::kUnreadable:
      at(Code::kCodeFileUnreadable, fmt::format("cannot read '{}': {}", path, r.detail))
          .SetHelp("make it readable by the user who runs flowc");
      return;
  }
}

struct Found {
  int64_t size = 0;
  bool executable = false;
  const ast::Value* entry = nullptr;  // the first entry that names it
};

void ReportTooLarge(const std::map<std::string, Found>& found, int64_t total,
                    const ast::Value& files, diag::Reporter& report) {
  std::vector<std::pair<std::string, int64_t>> largest;
  for (const auto& [path, f] : found) largest.emplace_back(path, f.size);
  std::sort(largest.begin(), largest.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  if (largest.size() > 3) largest.resize(3);
  std::vector<std::string> listed;
  for (const auto& [path, size] : largest)
    listed.push_back(fmt::format("'{}' {}", path, Bytes(size)));
  report(Code::kCodeTooLarge, files.range,
         fmt::format("'@code' ships {} in {} file{}, over the 1 MiB (1048576 bytes) a ConfigMap "
                     "holds",
                     Bytes(total), found.size(), found.size() == 1 ? "" : "s"))
      .AddNote(fmt::format("the largest: {}", fmt::join(listed, ", ")))
      .SetHelp(
          "ship big files in the image or a volume (persistent_volume_claims), and code "
          "with '@code'");
}

}  // namespace

bool CheckCodeDecorator(const ast::Decorator& decorator, bool on_flow, diag::Reporter& report) {
  bool ok = true;
  const ast::Argument* files = Find(&decorator, "files");
  if (files != nullptr && files->value.items.empty()) {
    report(Code::kArgumentRange, files->value.range, "'files' of '@code' must not be empty")
        .SetHelp(
            "name the files to ship, e.g. files=[\"train.py\", \"conf/*.yaml\"], or remove "
            "'@code'");
    ok = false;
  }
  if (files == nullptr && on_flow) {
    report(Code::kMissingArgument, decorator.range, "'@code' on the flow needs 'files'")
        .AddNote("it names the files of every step that has no '@code' of its own")
        .SetHelp("write @code(files=[\"train.py\", \"conf/*.yaml\"])");
    ok = false;
  }
  if (const ast::Argument* path = Find(&decorator, "path")) {
    // Kubernetes compares mount paths as strings and the path is also the
    // working directory: one spelling of each folder.
    const std::string& text = path->value.string;
    std::string clean = CleanAbsolute(text);
    if (clean == "/") {
      report(Code::kInvalidKubernetesValue, path->value.range,
             fmt::format("'path' of '@code' is '{}': the files would hide the container's whole "
                         "file system",
                         text))
          .SetHelp("mount them in a folder of their own, e.g. path=\"/workspace\"");
      ok = false;
    } else if (clean != text) {
      report(Code::kInvalidKubernetesValue, path->value.range,
             fmt::format("'path' of '@code' must be a clean absolute path, found '{}'", text))
          .SetHelp(fmt::format("write path=\"{}\"", clean));
      ok = false;
    }
  }
  return ok;
}

std::shared_ptr<const CodeBundle> LoadCode(const ast::Decorator& decorator,
                                           diag::Reporter& report) {
  const ast::Argument* files = Find(&decorator, "files");
  if (files == nullptr) return nullptr;
  ProjectFolder folder(ProjectFolder::FolderOf(report.file().path()));
  // By relative path: sorted bytewise (std::char_traits<char> compares as
  // unsigned char) and each file once, however many entries name it.
  std::map<std::string, Found> found;
  bool ok = true;
  for (const ast::Value& entry : files->value.items) {
    ProjectFolder::Result r = folder.Expand(entry.string);
    for (const ProjectFolder::Failure& failure : r.failures) {
      ReportProblem(folder, failure, entry, report);
      ok = false;
    }
    for (const ProjectFolder::Match& m : r.matches)
      found.emplace(m.path, Found{m.size, m.executable, &entry});
  }
  if (!ok) return nullptr;
  // Sizes first: a folder of large files is refused without reading it.
  int64_t total = 0;
  for (const auto& [path, f] : found) total += f.size;
  if (total > kMaxCodeBytes) {
    ReportTooLarge(found, total, files->value, report);
    return nullptr;
  }
  auto bundle = std::make_shared<CodeBundle>();
  for (auto& [path, f] : found) {
    CodeFile file{path, "", f.executable};
    std::string error;
    if (!folder.Read(path, f.size, &file.content, &error)) {
      bool glob = f.entry->string.find_first_of("*?[") != std::string::npos;
      ReportProblem(folder, ProjectFolder::Failure{Problem::kUnreadable, path, error, glob},
                    *f.entry, report);
      ok = false;
      continue;
    }
    f.size = static_cast<int64_t>(file.content.size());  // it may have changed since
    bundle->bytes += f.size;
    bundle->files.push_back(std::move(file));
  }
  if (!ok) return nullptr;
  if (bundle->bytes > kMaxCodeBytes) {
    ReportTooLarge(found, bundle->bytes, files->value, report);
    return nullptr;
  }
  return bundle;
}

std::optional<CodeConfig> ResolveCode(const ast::Decorator* flow,
                                      std::shared_ptr<const CodeBundle> flow_bundle,
                                      const ast::Decorator* step, diag::Reporter& report,
                                      bool* ok) {
  if (flow == nullptr && step == nullptr) return std::nullopt;
  CodeConfig c;
  if (Find(step, "files") != nullptr) {
    c.bundle = LoadCode(*step, report);
    c.range = step->range;
  } else if (flow_bundle != nullptr) {
    c.bundle = std::move(flow_bundle);
    c.range = flow->range;
  } else if (flow == nullptr) {
    report(Code::kMissingArgument, step->range, "'@code' needs 'files'")
        .SetHelp(
            "write @code(files=[\"train.py\"]), or give the flow a '@code' whose files the "
            "step's 'path' then moves");
  }
  if (c.bundle == nullptr) {
    // A flow-level @code that could not be read was reported once, for the
    // flow; the step has no files to ship then.
    *ok = false;
    return std::nullopt;
  }
  c.path = kDefaultCodePath;
  for (const ast::Decorator* d : {flow, step}) {
    if (const ast::Argument* path = Find(d, "path")) c.path = path->value.string;
  }
  return c;
}

std::string CodeFileUnderMount(const CodeConfig& code, std::string_view mount_path) {
  std::string mount = CleanAbsolute(mount_path);
  std::string base = code.path + "/";
  if (mount.compare(0, base.size(), base) != 0) return "";
  std::string relative = mount.substr(base.size());
  for (const CodeFile& f : code.bundle->files) {
    const std::string& p = f.path;
    bool same = p == relative;
    bool above = relative.size() > p.size() && relative.compare(0, p.size(), p) == 0 &&
                 relative[p.size()] == '/';
    bool below = p.size() > relative.size() && p.compare(0, relative.size(), relative) == 0 &&
                 p[relative.size()] == '/';
    if (same || above || below) return p;
  }
  return "";
}

}  // namespace flowc::graph
