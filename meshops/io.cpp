// Mesh files by extension, whole-file reading, and the tokens the text readers share.
#include "meshops/io.hpp"

#include "meshops/checks.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace spmesh::meshops {

namespace {



// Closes the descriptor on every path out of read_file.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() { ::close(fd); }
};

// Only regular files are read: a FIFO or socket could block or never end, /dev/zero never
// ends, and a device's size is not its content's.
[[noreturn]] void refuse_non_regular(const std::string& path, mode_t mode) {
  const char* what = S_ISDIR(mode)    ? "is a directory"
                     : S_ISFIFO(mode) ? "is a FIFO (named pipe)"
                     : S_ISCHR(mode)  ? "is a character device"
                     : S_ISBLK(mode)  ? "is a block device"
                     : S_ISSOCK(mode) ? "is a socket"
                                      : "is not a regular file";
  throw InputError(path + ": " + what + ", not a mesh file (only regular files are read)");
}

}  // namespace

std::string_view next_token(std::string_view& s) {
  std::size_t b = s.find_first_not_of(" \t\r\f\v");
  if (b == std::string_view::npos) return s = {}, std::string_view{};
  std::size_t e = s.find_first_of(" \t\r\f\v", b);
  if (e == std::string_view::npos) e = s.size();
  std::string_view tok = s.substr(b, e - b);
  s.remove_prefix(e);
  return tok;
}

std::string_view skip_bom(std::string_view text) {
  constexpr std::string_view bom = "\xEF\xBB\xBF";
  if (text.substr(0, bom.size()) == bom) text.remove_prefix(bom.size());
  return text;
}

std::string_view next_line(std::string_view text, std::size_t& pos) {
  std::size_t end = text.find_first_of("\r\n", pos);
  if (end == std::string_view::npos) end = text.size();
  const std::string_view line = text.substr(pos, end - pos);
  const bool crlf = end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n';
  pos = end + (crlf ? 2 : 1);
  return line;
}

std::string read_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever; the file is checked
  // to be a regular one (by the descriptor, so it cannot change in between) before any read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) refuse_non_regular(path, st.st_mode);
    throw InputError(path + ": cannot open for reading (" + std::strerror(error) + ")");
  }
  const FileDescriptor file{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    throw InputError(path + ": cannot read its size (" + std::strerror(errno) + ")");
  if (!S_ISREG(st.st_mode)) refuse_non_regular(path, st.st_mode);

  const auto size = static_cast<std::size_t>(st.st_size);
  // More than the machine's memory cannot be held; asked anyway, an overcommitting kernel
  // would grant it and the read would run until the memory ran out.
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0 && size / static_cast<std::size_t>(page) >= static_cast<std::size_t>(pages))
    throw InputError(path + ": cannot allocate " + std::to_string(size) +
                     " bytes to read the file (out of memory: the machine has " +
                     std::to_string(static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)) + ")");
  std::string bytes;
  try {
    bytes.resize(size);
  } catch (const std::exception&) {  // bad_alloc, or length_error beyond max_size
    throw InputError(path + ": cannot allocate " + std::to_string(size) +
                     " bytes to read the file (out of memory)");
  }
  std::size_t got = 0;
  while (got < size) {
    const ::ssize_t n = ::read(fd, bytes.data() + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw InputError(path + ": read error after " + std::to_string(got) + " of " +
                       std::to_string(size) + " bytes (" + std::strerror(errno) + ")");
    if (n == 0)
      throw InputError(path + ": short read: the file ended after " + std::to_string(got) +
                       " of its " + std::to_string(size) + " bytes (changed while being read?)");
    got += static_cast<std::size_t>(n);
  }
  // The size was a snapshot: a file that has more (one that grew, or a /proc file whose size
  // reads as 0) would be read shortened.
  char more = 0;
  ::ssize_t n = 0;
  do n = ::read(fd, &more, 1);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    throw InputError(path + ": read error at byte " + std::to_string(size) + " (" +
                     std::strerror(errno) + ")");
  if (n > 0)
    throw InputError(path + ": holds more than its size of " + std::to_string(size) +
                     " bytes (changed while being read, or a special file)");
  return bytes;
}

std::string describe_extension(const std::string& ext) {
  return ext.empty() ? "no extension" : "extension '" + ext + "'";
}

std::string extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

PolyMesh read_mesh(const std::string& path) {
  const std::string ext = extension(path);
  if (ext == ".obj") return read_obj(path);
  if (ext == ".off") return read_off(path);
  if (ext == ".ply") return read_ply(path);
  throw InputError(path + ": unknown mesh format, " + describe_extension(ext) +
                   " (read_mesh knows .obj, .off and .ply)");
}

}  // namespace spmesh::meshops
