// OutputFiles (output.hpp): checks by file identity, unnamed temporary files (O_TMPFILE) linked
// into place at commit, a streambuf over a file descriptor, laid-out files reserved whole and
// streamed, and the signal-time clean-up of the named temporaries where O_TMPFILE is not
// available.
#include "meshops/output.hpp"

#include "linalg/base.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <random>
#include <streambuf>
#include <system_error>

namespace spmesh::meshops {

namespace fs = std::filesystem;

namespace {

std::string message(int err) { return std::generic_category().message(err); }

// Named temporary files that exist now, for the signal handler: it may only read these slots and
// call unlink, so paths are plain C strings owned by the slot until released.
std::array<std::atomic<char*>, 256> temporaries{};

void hold_temporary(const std::string& path) {
  char* copy = strdup(path.c_str());
  for (auto& slot : temporaries) {
    char* expected = nullptr;
    if (slot.compare_exchange_strong(expected, copy)) return;
  }
  std::free(copy);  // more than 256 at once: still removed on failure, not on a signal
}

void release_temporary(const std::string& path) {
  for (auto& slot : temporaries) {
    char* held = slot.load();
    if (held && path == held && slot.compare_exchange_strong(held, nullptr)) {
      std::free(held);
      return;
    }
  }
}

extern "C" void remove_temporaries_and_die(int signal) {
  for (auto& slot : temporaries)
    if (char* path = slot.load()) ::unlink(path);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

std::string random_suffix() {
  static constexpr char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device rd;
  std::uniform_int_distribution<int> pick(0, sizeof(digits) - 2);
  std::string s(6, ' ');
  for (char& c : s) c = digits[pick(rd)];
  return s;
}

// Writes all of [data, data + n) to fd; false with errno set on failure.
bool write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    data += w, n -= static_cast<std::size_t>(w);
  }
  return true;
}

// A std::streambuf writing to a file descriptor: small writes gather in a 1 MiB buffer, large
// ones go straight to write(2). The first failure's errno is kept for the message.
class DescriptorBuffer : public std::streambuf {
public:
  explicit DescriptorBuffer(int fd) : fd_(fd), buffer_(1 << 20) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int error() const { return error_; }

protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n <= 0) return 0;  // write(nullptr, 0) comes here: memcpy must not see a null pointer
    if (n < epptr() - pptr()) {
      std::memcpy(pptr(), s, static_cast<std::size_t>(n));
      pbump(static_cast<int>(n));
      return n;
    }
    if (!drain() || !write_all(fd_, s, static_cast<std::size_t>(n))) {
      if (!error_) error_ = errno;
      return 0;
    }
    return n;
  }
  int sync() override { return drain() ? 0 : -1; }

private:
  bool drain() {
    const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    if (error_) return false;
    if (!write_all(fd_, buffer_.data(), n)) return error_ = errno, false;
    return true;
  }

  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

bool is_device_path(const std::string& path) {
  return path.starts_with("/dev/") || path.starts_with("/proc/self/fd/");
}

}  // namespace

struct OutputFiles::File {
  std::string path;     // as the user gave it
  std::string target;   // the file it names, links resolved: what commit replaces
  bool direct = false;  // a device or FIFO: written in place
  int fd = -1;          // the written file, open until commit
  std::string named;    // the named temporary, if O_TMPFILE was not available
  bool written = false;

  ~File() {
    if (fd >= 0) ::close(fd);
    if (!named.empty()) {
      ::unlink(named.c_str());
      release_temporary(named);
    }
  }

  // An unnamed file in the target's folder, or failing that a named one beside it.
  void open_temporary() {
    const std::string folder = fs::path(target).parent_path().string();
    fd = ::open(folder.empty() ? "." : folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    if (fd >= 0) return;
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string name = target + ".tmp-" + random_suffix();
      fd = ::open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0666);
      if (fd >= 0) {
        named = std::move(name);
        hold_temporary(named);
        return;
      }
      if (errno != EEXIST) throw Error(path + ": cannot write (" + message(errno) + ")");
    }
    throw Error(path + ": cannot create a temporary file beside it (100 names taken)");
  }

  // Writes the file through `body`, as a stream.
  void stream(const std::function<void(std::ostream&)>& body) {
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    body(out);
    out.flush();
    if (buffer.error()) throw Error(path + ": write error (" + message(buffer.error()) + ")");
    if (!out) throw Error(path + ": write error (the writer's stream failed)");
    written = true;
  }

  // Gives the written file its place: link the unnamed file under a temporary name, then rename
  // that over the target (rename replaces atomically; linkat would not replace).
  void commit() {
    if (direct) return;
    if (named.empty()) {
      const std::string proc = "/proc/self/fd/" + std::to_string(fd);
      for (int attempt = 0; named.empty() && attempt < 100; ++attempt) {
        std::string name = target + ".tmp-" + random_suffix();
        hold_temporary(name);
        if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
          named = std::move(name);
        } else {
          const int err = errno;
          release_temporary(name);
          if (err != EEXIST) throw Error(path + ": cannot give the written file a name (" + message(err) + ")");
        }
      }
      if (named.empty()) throw Error(path + ": cannot create a temporary name beside it");
    }
    if (::rename(named.c_str(), target.c_str()) != 0)
      throw Error(path + ": cannot replace it with the written file (" + message(errno) + ")");
    release_temporary(named);
    named.clear();
  }
};

OutputFiles::OutputFiles(std::vector<std::string> inputs) : inputs_(std::move(inputs)) {}

OutputFiles::~OutputFiles() = default;

void OutputFiles::add(const std::string& path) {
  auto file = std::make_unique<File>();
  file->path = path;
  std::error_code ec;
  if (path.empty()) throw Error("an output path is empty");
  const auto same = [&](const std::string& other) {
    std::error_code e1, e2, e3;
    if (fs::equivalent(path, other, e1)) return true;
    const fs::path a = fs::weakly_canonical(path, e2), b = fs::weakly_canonical(other, e3);
    return !e2 && !e3 && a == b;
  };
  for (const auto& input : inputs_)
    if (same(input)) throw Error(path + ": is also an input of this command; choose another output");
  for (const auto& other : files_)
    if (same(other->path))
      throw Error(path + ": named twice as an output (" + other->path + " is the same file)");

  const auto status = fs::status(path, ec);  // follows links
  if (is_device_path(path) || fs::is_character_file(status) || fs::is_fifo(status)) {
    file->direct = true;
  } else if (fs::exists(status)) {
    if (fs::is_directory(status)) throw Error(path + ": is a directory, not a file to write");
    if (!fs::is_regular_file(status))
      throw Error(path + ": is not a regular file (a socket or block device); not written");
    file->target = fs::canonical(path, ec).string();
    if (ec) throw Error(path + ": cannot resolve (" + ec.message() + ")");
  } else {
    const fs::path absolute = fs::absolute(path, ec);
    const fs::path folder = absolute.parent_path();
    if (!fs::is_directory(folder, ec))
      throw Error(path + ": its folder " + folder.string() + " does not exist");
    file->target = (fs::canonical(folder, ec) / absolute.filename()).string();
  }
  if (!file->direct) {
    const std::string folder = fs::path(file->target).parent_path().string();
    if (::access(folder.c_str(), W_OK) != 0)
      throw Error(path + ": cannot write in its folder (" + message(errno) + ")");
  }
  files_.push_back(std::move(file));
}

OutputFiles::File& OutputFiles::open(const std::string& path) {
  File* file = nullptr;
  for (const auto& f : files_)
    if (f->path == path) file = f.get();
  if (!file || file->written) throw Error(path + ": written without being added once (a bug)");
  if (file->direct) {
    file->fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (file->fd < 0) throw Error(path + ": cannot open for writing (" + message(errno) + ")");
  } else {
    file->open_temporary();
  }
  return *file;
}

void OutputFiles::write(const std::string& path, const std::function<void(std::ostream&)>& body) {
  open(path).stream(body);
}

void OutputFiles::write(const std::string& path, const FileLayout& layout) {
  File& file = open(path);
  // A regular file is given its whole size first, so that a full disk is refused before any
  // byte is written; a device, a pipe or a file system that cannot reserve space is not. Then
  // the layout is streamed: windows made with every thread while the one before is written.
  // One writer is as fast as several: the kernel takes one file's writes in turn, and a memory
  // map faulted in by many threads was slower still (bench/RESULTS.md, Tuning choices).
  const std::size_t size = layout.size();
  if (!file.direct && size > 0 && ::fallocate(file.fd, 0, 0, static_cast<off_t>(size)) != 0) {
    const int err = errno;
    if (err != EOPNOTSUPP && err != ENOSYS)
      throw Error(path + ": cannot reserve its " + std::to_string(size) + " bytes (" + message(err) + ")");
  }
  file.stream([&](std::ostream& out) { write_layout(out, layout); });
}

void OutputFiles::commit() {
  for (const auto& file : files_)
    if (!file->written) throw Error(file->path + ": added but not written (a bug)");
  for (const auto& file : files_) file->commit();
  for (const auto& file : files_) {
    ::close(file->fd);
    file->fd = -1;
  }
}

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
  OutputFiles out;
  out.add(path);
  out.write(path, body);
  out.commit();
}

void write_atomically(const std::string& path, const FileLayout& layout) {
  OutputFiles out;
  out.add(path);
  out.write(path, layout);
  out.commit();
}

void remove_temporaries_on_signals() {
  struct sigaction action {};
  action.sa_handler = remove_temporaries_and_die;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
}

}  // namespace spmesh::meshops
