#include "compiler/graph/project_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace flowc::graph {
namespace {

using Problem = ProjectFolder::Problem;

std::string RealPath(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> resolved(realpath(path.c_str(), nullptr), &std::free);
  return resolved ? std::string(resolved.get()) : std::string();
}

std::string ReadLink(const std::string& path) {
  std::string target(4096, '\0');
  ssize_t n = readlink(path.c_str(), target.data(), target.size());
  target.resize(n < 0 ? 0 : static_cast<size_t>(n));
  return target;
}

bool IsGlob(std::string_view entry) { return entry.find_first_of("*?[") != std::string_view::npos; }

// glob(3) reads a backslash as an escape, so the folder's own name is
// escaped: its characters then match only themselves.
std::string EscapeGlob(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The components of `path`, without empty and "." ones ("./a//b" -> a, b).
std::vector<std::string> Components(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view part = path.substr(start, slash - start);
    if (!part.empty() && part != ".") out.emplace_back(part);
    start = slash + 1;
  }
  return out;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : "/") + part;
  return out;
}

bool Inside(const std::string& root, const std::string& resolved) {
  if (root == "/") return resolved.size() > 1;
  return resolved.size() > root.size() + 1 && resolved.compare(0, root.size(), root) == 0 &&
         resolved[root.size()] == '/';
}

// `target` as seen from `root` ("../flows/x.flow"), so that a message does
// not depend on where the project is checked out.
std::string RelativeTo(const std::string& root, const std::string& target) {
  std::vector<std::string> from = Components(root), to = Components(target);
  size_t common = 0;
  while (common < from.size() && common < to.size() && from[common] == to[common]) ++common;
  std::vector<std::string> parts(from.size() - common, "..");
  parts.insert(parts.end(), to.begin() + common, to.end());
  return Join(parts);
}

// glob(3)'s error callback has no user pointer: the first error of the
// current call lands here.
thread_local std::string glob_error;

int OnGlobError(const char* path, int error) {
  // A folder that does not exist only means no match; anything else (a
  // folder glob(3) cannot read) would drop files silently, so it stops.
  if (error == ENOENT || error == ENOTDIR) return 0;
  if (glob_error.empty()) glob_error = std::string(path) + ": " + std::strerror(error);
  return 1;
}

}  // namespace

ProjectFolder::ProjectFolder(std::string folder) {
  if (folder == ".") folder.clear();
  if (!folder.empty() && folder.back() != '/') folder += '/';
  prefix_ = std::move(folder);
  root_ = RealPath(prefix_.empty() ? "." : prefix_);
  if (root_.empty()) root_error_ = (prefix_.empty() ? "." : prefix_) + ": " + std::strerror(errno);
}

std::string ProjectFolder::FolderOf(const std::string& source_path) {
  if (source_path == "<stdin>") return "";
  size_t slash = source_path.rfind('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : source_path.substr(0, slash);
}

ProjectFolder::Result ProjectFolder::Expand(std::string_view entry) const {
  Result r;
  std::string path(entry);
  auto fail = [&](Problem problem, std::string detail = "") {
    r.failures.push_back(Failure{problem, path, std::move(detail)});
    r.matches.clear();
    return r;
  };
  if (root_.empty()) return fail(Problem::kUnreadable, root_error_);
  if (!entry.empty() && entry[0] == '/') {
    std::string resolved = RealPath(std::string(entry));
    return fail(Problem::kAbsolute, Inside(root_, resolved) ? RelativeTo(root_, resolved) : "");
  }
  std::vector<std::string> parts = Components(entry);
  std::vector<std::string> normal;  // `parts` with each '..' applied
  bool dotdot = false;
  for (const std::string& part : parts) {
    if (part != "..") {
      normal.push_back(part);
    } else if (normal.empty()) {
      return fail(Problem::kOutside);
    } else {
      dotdot = true;
      normal.pop_back();
    }
  }
  if (dotdot) return fail(Problem::kDotDot, Join(normal));
  std::string relative = Join(parts);
  path = relative.empty() ? "." : relative;
  if (relative.empty()) return fail(Problem::kDirectory);

  if (!IsGlob(relative)) {
    Match match;
    std::string detail;
    Problem problem = Check(relative, false, &match, &detail);
    if (problem != Problem::kNone) return fail(problem, std::move(detail));
    r.matches.push_back(std::move(match));
    return r;
  }
  if (relative.find("**") != std::string::npos) return fail(Problem::kGlobStar);
  glob_t found{};
  glob_error.clear();
  std::string pattern = EscapeGlob(prefix_) + relative;
  int status = glob(pattern.c_str(), 0, OnGlobError, &found);
  std::unique_ptr<glob_t, decltype(&globfree)> free_found(&found, &globfree);
  if (status == GLOB_NOMATCH) return fail(Problem::kNoMatch);
  if (status != 0) {
    return fail(Problem::kUnreadable, status == GLOB_ABORTED ? glob_error : "out of memory");
  }
  bool folders = false;
  for (size_t i = 0; i < found.gl_pathc; ++i) {
    std::string candidate = std::string(found.gl_pathv[i]).substr(prefix_.size());
    Match match;
    std::string detail;
    Problem problem = Check(candidate, true, &match, &detail);
    if (problem != Problem::kNone) {
      r.failures.push_back(Failure{problem, candidate, std::move(detail), true});
    } else if (match.path.empty()) {
      folders = true;
    } else {
      r.matches.push_back(std::move(match));
    }
  }
  if (!r.failures.empty()) {
    r.matches.clear();
    return r;
  }
  if (r.matches.empty()) return fail(Problem::kNoMatch, folders ? "folders" : "");
  // glob(3) sorts with strcoll; flowc's order is bytewise, whatever the locale.
  std::sort(r.matches.begin(), r.matches.end(),
            [](const Match& a, const Match& b) { return a.path < b.path; });
  return r;
}

Problem ProjectFolder::Check(const std::string& relative, bool in_glob, Match* match,
                             std::string* detail) const {
  std::string full = prefix_ + relative;
  struct stat st;
  if (lstat(full.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Problem::kMissing;
    *detail = std::strerror(errno);
    return Problem::kUnreadable;
  }
  const bool link = S_ISLNK(st.st_mode);
  if (link && stat(full.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) {
      *detail = ReadLink(full);
      return Problem::kDanglingLink;
    }
    *detail = std::strerror(errno);
    return Problem::kUnreadable;
  }
  if (S_ISDIR(st.st_mode)) return in_glob ? Problem::kNone : Problem::kDirectory;
  // Any component may be a link: only the resolved path says where the
  // file really is. The folders are resolved once each (a project has a few
  // and many files): realpath(3) costs a system call per component.
  std::string resolved;
  if (link) {
    resolved = RealPath(full);
  } else {
    size_t slash = full.rfind('/');
    std::string folder = slash == std::string::npos ? "." : full.substr(0, slash);
    auto it = resolved_folders_.find(folder);
    if (it == resolved_folders_.end())
      it = resolved_folders_.emplace(folder, RealPath(folder)).first;
    if (!it->second.empty()) {
      resolved = (it->second == "/" ? "" : it->second) + "/" + full.substr(slash + 1);
    }
  }
  if (resolved.empty()) {
    *detail = std::strerror(errno);
    return Problem::kUnreadable;
  }
  if (!Inside(root_, resolved)) {
    *detail = RelativeTo(root_, resolved);
    return Problem::kLinkOutside;
  }
  if (!S_ISREG(st.st_mode)) return Problem::kNotRegular;
  // Kubernetes refuses an item path that starts with '..' (kubernetes
  // pkg/apis/core/validation/validation.go, validateLocalNonReservedPath):
  // the volume keeps its own `..data` and timestamped folders there.
  if (relative.compare(0, 2, "..") == 0) return Problem::kReserved;
  match->path = relative;
  match->size = static_cast<int64_t>(st.st_size);
  match->executable = (st.st_mode & S_IXUSR) != 0;
  return Problem::kNone;
}

bool ProjectFolder::Read(const std::string& path, int64_t size, std::string* content,
                         std::string* error) const {
  std::string full = prefix_ + path;
  int fd = open(full.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = std::strerror(errno);
    return false;
  }
  // Read into the string itself, `size` (what stat said) first and then
  // until the end, should the file have grown.
  content->assign(static_cast<size_t>(std::max<int64_t>(size, 0)) + 1, '\0');
  size_t filled = 0;
  for (;;) {
    if (filled == content->size()) content->resize(content->size() * 2);
    ssize_t n = read(fd, content->data() + filled, content->size() - filled);
    if (n > 0) {
      filled += static_cast<size_t>(n);
    } else if (n == 0) {
      content->resize(filled);
      break;
    } else if (errno != EINTR) {
      *error = std::strerror(errno);
      close(fd);
      return false;
    }
  }
  close(fd);
  return true;
}

std::vector<std::string> ProjectFolder::Neighbours(const std::string& relative) const {
  size_t slash = relative.rfind('/');
  std::string folder = prefix_ + (slash == std::string::npos ? "" : relative.substr(0, slash + 1));
  std::vector<std::string> names;
  struct Close {
    void operator()(DIR* d) const { closedir(d); }
  };
  std::unique_ptr<DIR, Close> dir(opendir(folder.empty() ? "." : folder.c_str()));
  if (!dir) return names;
  while (const dirent* entry = readdir(dir.get())) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace flowc::graph
