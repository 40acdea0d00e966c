// Reading a flow's local files at compile time, for `@code` (code.h).
//
// The graph stage resolves `@code(files=[...])` where each entry has its
// source position, so that every error points at the string that caused it;
// this file is the only code there that touches the file system. It expands
// one entry (a path, or a glob(3) pattern) relative to the flow's folder,
// checks that each match is a regular file inside that folder, and reads
// files. It reports problems as values; code.cc words them as diagnostics.
#ifndef FLOWC_GRAPH_PROJECT_FILES_H_
#define FLOWC_GRAPH_PROJECT_FILES_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace flowc::graph {

class ProjectFolder {
 public:
  enum class Problem {
    kNone,
    kAbsolute,      // "/etc/x": detail is the path relative to the folder when it lies inside
    kOutside,       // "../x": the path climbs above the folder
    kDotDot,        // "a/../b": stays inside (detail: "b"), but Kubernetes refuses '..' in an
                    // item's path
    kReserved,      // "..data": Kubernetes reserves names starting with '..'
    kGlobStar,      // "src/**/*.py": glob(3) has no recursive '**'
    kMissing,       // no such file
    kDanglingLink,  // a link to nothing: detail is the link's target
    kLinkOutside,   // a link (or a linked folder) resolving outside: detail is where
    kNoMatch,       // a glob that matches no file; detail "folders" when it matched only folders
    kDirectory,     // a path naming a folder
    kNotRegular,    // a FIFO, socket or device
    kUnreadable,    // an I/O error: detail is strerror
  };

  struct Match {
    std::string path;  // relative to the folder, normalized ("conf/base.yaml")
    int64_t size = 0;  // bytes, following links
    // Its owner may execute it (S_IXUSR, following links): a script that
    // must keep its executable bit in the pod.
    bool executable = false;
  };

  struct Failure {
    Problem problem = Problem::kNone;
    std::string path;         // the entry, normalized; or one of the files a glob matched
    std::string detail;       // what the problem's comment says, or strerror
    bool glob_match = false;  // `path` is one of the files a glob matched
  };

  struct Result {
    std::vector<Match> matches;     // sorted by path; empty when anything failed
    std::vector<Failure> failures;  // every problem of the entry (of each match of a glob)
  };

  // `folder`: the flow's folder as given ("" or "." for the current one).
  explicit ProjectFolder(std::string folder);

  // Expands one entry of `files`: a glob when it holds '*', '?' or '[',
  // else a path. A glob skips the folders it matches; a path must name a
  // file.
  Result Expand(std::string_view entry) const;

  // Reads the file at `path` (a Match's path) of about `size` bytes (the
  // Match's). On failure returns false and sets `error` to strerror.
  bool Read(const std::string& path, int64_t size, std::string* content, std::string* error) const;

  // The names in the folder that would hold `relative`, sorted: candidates
  // for a "did you mean" when it does not exist.
  std::vector<std::string> Neighbours(const std::string& relative) const;

  // The folder of the flow file at `source_path`; "" for "<stdin>" and for a
  // file in the current folder.
  static std::string FolderOf(const std::string& source_path);

 private:
  // Checks one candidate (relative path) and fills `match`; `in_glob`:
  // folders are skipped (kNone with an empty path) rather than refused.
  Problem Check(const std::string& relative, bool in_glob, Match* match, std::string* detail) const;

  std::string prefix_;  // the folder with a trailing '/', or "" for the current folder
  std::string root_;    // realpath of the folder; "" when it cannot be resolved
  std::string root_error_;
  mutable std::map<std::string, std::string> resolved_folders_;  // realpath(3) of each folder
};

}  // namespace flowc::graph

#endif  // FLOWC_GRAPH_PROJECT_FILES_H_
