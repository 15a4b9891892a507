// The files one command writes: checked before any work, written beside their place and moved
// into it together at the end, so that no output destroys an input or another output, and a
// failed or interrupted command leaves what was there before and nothing half-written.
#pragma once

#include "meshops/layout.hpp"

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace spmesh::meshops {

class OutputFiles {
public:
  // `inputs`: the files the command reads; no output may be one of them.
  explicit OutputFiles(std::vector<std::string> inputs = {});
  ~OutputFiles();  // removes every written file not committed
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  // Checks `path` now and reserves it for this command. Throws spmesh::Error naming `path` when
  // it is one of the inputs or another output of this command (as any spelling or link of the
  // same file), a directory, socket or block device, or when its folder is missing or not
  // writable. A character device or FIFO, and any path under /dev/ or /proc/self/fd/ (like
  // /dev/stdout or /dev/null), is written to directly: that is what the user means.
  void add(const std::string& path);

  // Writes `path` (added before) through `body`. A regular file is written to an unnamed
  // temporary file in its folder (a named "path.tmp-XXXXXX" where the file system has none),
  // which replaces `path` only at commit(). Throws Error naming `path` on a write error (disk
  // full, ...) or whatever `body` throws; nothing of this command's outputs is then left.
  // Several threads may write different paths at once (replay writes its poses so).
  void write(const std::string& path, const std::function<void(std::ostream&)>& body);

  // Writes `path` (added before) as `layout` says, with every thread: a regular file is given its
  // whole size first (a full disk is an Error naming the bytes, before any is written), then the
  // layout is streamed into it (write_layout: windows of meshops/tuning.hpp's
  // layout_window_bytes, made with every thread while the one before is written). Commit,
  // failure and clean-up as for write(path, body).
  void write(const std::string& path, const FileLayout& layout);

  // Moves every written file into its place, in the order they were added.
  void commit();

private:
  struct File;
  File& open(const std::string& path);  // the added, unwritten file, opened to write

  std::vector<std::string> inputs_;
  std::vector<std::unique_ptr<File>> files_;
};

// One file written as OutputFiles does it: add, write, commit.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body);
void write_atomically(const std::string& path, const FileLayout& layout);

// From now on SIGINT, SIGTERM and SIGHUP first remove the temporary files of every OutputFiles,
// then end the process as the signal would have. For programs (the spmesh command line); a
// library leaves the signals to its host unless asked.
void remove_temporaries_on_signals();

}  // namespace spmesh::meshops
