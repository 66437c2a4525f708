// write_file_atomically(): all or nothing, beside the target, with the reason on failure.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>

#include "core/error.h"
#include "output/fd_streambuf.h"
#include "output/report.h"

namespace exactvq {
namespace {

namespace fs = std::filesystem;

class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(EXACTVQ_TEST_TMP) / (std::string("atomic_") + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::set<std::string> entries() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.insert(e.path().filename().string());
    return names;
  }

  static std::string read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  static void put(const std::string& p, const std::string& body) {
    std::ofstream(p, std::ios::binary) << body;
  }

  static mode_t mode_of(const std::string& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0);
    return st.st_mode & 07777;
  }

  static mode_t current_umask() {
    const mode_t m = ::umask(022);
    ::umask(m);
    return m;
  }

  // The OutputError message `f` throws, or "" when it throws none.
  template <class F>
  static std::string error_of(F f) {
    try {
      f();
    } catch (const OutputError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

const auto kWriteHello = [](std::ostream& os) { os << "hello\n"; };

TEST_F(AtomicFile, WritesNewFileWithDefaultMode) {
  const std::string p = path("out.xml");
  write_file_atomically(p, kWriteHello);
  EXPECT_EQ(read(p), "hello\n");
  EXPECT_EQ(mode_of(p), 0644 & ~current_umask());
  EXPECT_EQ(entries(), std::set<std::string>{"out.xml"});
}

TEST_F(AtomicFile, ReplacesExistingFileKeepingItsMode) {
  const std::string p = path("out.json");
  put(p, "old contents that are longer than the new ones\n");
  ASSERT_EQ(::chmod(p.c_str(), 0600), 0);
  write_file_atomically(p, kWriteHello);
  EXPECT_EQ(read(p), "hello\n");
  EXPECT_EQ(mode_of(p), 0600u);
  ASSERT_EQ(::chmod(p.c_str(), 0664), 0);
  write_file_atomically(p, [](std::ostream& os) { os << "again"; });
  EXPECT_EQ(read(p), "again");
  EXPECT_EQ(mode_of(p), 0664u);
  EXPECT_EQ(entries(), std::set<std::string>{"out.json"});
}

TEST_F(AtomicFile, LargeBodyIsWrittenWhole) {
  const std::string p = path("big.csv");
  std::string expected;
  for (int i = 0; i < 200000; ++i) expected += std::to_string(i) + ",0.944374,\n";
  write_file_atomically(p, [&](std::ostream& os) {
    for (int i = 0; i < 200000; ++i) os << std::to_string(i) << ",0.944374,\n";
  });
  EXPECT_EQ(read(p), expected);
  // A single write larger than the stream buffer, after some buffered bytes.
  const std::string huge(300000, 'x');
  write_file_atomically(p, [&](std::ostream& os) { os << "a" << huge << "b"; });
  EXPECT_EQ(read(p), "a" + huge + "b");
}

TEST_F(AtomicFile, LongestFileName) {
  const std::string name(255, 'n');  // NAME_MAX: the temporary name must be shorter
  write_file_atomically(path(name), kWriteHello);
  EXPECT_EQ(read(path(name)), "hello\n");
  EXPECT_EQ(entries(), std::set<std::string>{name});
}

TEST_F(AtomicFile, MissingDirectoryThrowsAndCreatesNothing) {
  const std::string p = path("missing/x.xml");
  EXPECT_EQ(error_of([&] { write_file_atomically(p, kWriteHello); }),
            "cannot write " + p + ": No such file or directory");
  EXPECT_TRUE(entries().empty());
  EXPECT_EQ(error_of([] { write_file_atomically("no_such_dir_exactvq/x.xml", kWriteHello); }),
            "cannot write no_such_dir_exactvq/x.xml: No such file or directory");
}

TEST_F(AtomicFile, RelativePathInCurrentDirectory) {
  const fs::path old = fs::current_path();
  fs::current_path(dir_);
  write_file_atomically("plain.csv", kWriteHello);
  fs::current_path(old);
  EXPECT_EQ(read(path("plain.csv")), "hello\n");
  EXPECT_EQ(entries(), std::set<std::string>{"plain.csv"});
}

TEST_F(AtomicFile, BodyExceptionPropagatesAndLeavesNoTemporary) {
  const std::string p = path("out.xml");
  EXPECT_THROW(write_file_atomically(p,
                                     [](std::ostream& os) {
                                       os << std::string(200000, 'x');  // reaches the file
                                       throw std::runtime_error("scoring failed");
                                     }),
               std::runtime_error);
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFile, ExistingFileIsByteIdenticalAfterFailures) {
  const std::string p = path("keep.json");
  const std::string original = "{\n  \"version\": \"old\"\n}\n";
  put(p, original);
  ASSERT_EQ(::chmod(p.c_str(), 0640), 0);

  EXPECT_THROW(write_file_atomically(p,
                                     [](std::ostream& os) {
                                       os << "partial";
                                       throw std::logic_error("bug");
                                     }),
               std::logic_error);
  EXPECT_EQ(read(p), original);

  // A body that leaves the stream failed is an error too, not a silent partial file.
  EXPECT_EQ(error_of([&] {
              write_file_atomically(p, [](std::ostream& os) {
                os << "partial";
                os.setstate(std::ios::badbit);
              });
            }),
            "cannot write " + p + ": Input/output error");
  EXPECT_EQ(read(p), original);
  EXPECT_EQ(mode_of(p), 0640u);
  EXPECT_EQ(entries(), std::set<std::string>{"keep.json"});
}

TEST_F(AtomicFile, DevFullReportsTheFullDevice) {
  // A character device is written in place; the failed write is reported.
  EXPECT_EQ(error_of([] { write_file_atomically("/dev/full", kWriteHello); }),
            "cannot write /dev/full: No space left on device");
}

TEST_F(AtomicFile, CharacterDeviceIsWrittenInPlace) {
  EXPECT_NO_THROW(write_file_atomically("/dev/null", kWriteHello));
}

TEST_F(AtomicFile, DirectoryIsRefused) {
  EXPECT_EQ(error_of([&] { write_file_atomically(dir_.string(), kWriteHello); }),
            "cannot write " + dir_.string() + ": not a regular file");
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFile, SymlinkIsFollowedAndKept) {
  const std::string target = path("real.xml");
  const std::string link = path("link.xml");
  put(target, "old");
  ASSERT_EQ(::symlink("real.xml", link.c_str()), 0);
  write_file_atomically(link, kWriteHello);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(target), "hello\n");
  EXPECT_EQ(entries(), (std::set<std::string>{"link.xml", "real.xml"}));
}

TEST_F(AtomicFile, ReadOnlyFileIsRefused) {
  const std::string p = path("ro.csv");
  put(p, "old");
  ASSERT_EQ(::chmod(p.c_str(), 0444), 0);
  const std::string expected = "cannot write " + p + ": Permission denied";
  if (::geteuid() != 0) {
    EXPECT_EQ(error_of([&] { write_file_atomically(p, kWriteHello); }), expected);
  } else {
    // Root may write anything: try as "nobody" in a child process.
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
      ::_exit(error_of([&] { write_file_atomically(p, kWriteHello); }) == expected ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 2) GTEST_SKIP() << "cannot drop privileges";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "expected: " << expected;
  }
  EXPECT_EQ(read(p), "old");
  EXPECT_EQ(entries(), std::set<std::string>{"ro.csv"});
}

TEST(FdStreambuf, FullDeviceReportsNoSpace) {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) GTEST_SKIP() << "/dev/full not available";
  {
    output_detail::FdStreambuf sb(fd);
    std::ostream os(&sb);
    os << "a little";
    os.flush();
    EXPECT_FALSE(os);
    EXPECT_EQ(sb.error(), ENOSPC);
    os.clear();
    os << std::string(1 << 20, 'x');  // later writes keep failing
    os.flush();
    EXPECT_FALSE(os);
    EXPECT_EQ(sb.error(), ENOSPC);
  }
  ::close(fd);
}

TEST(FdStreambuf, WritesEverythingToAPipe) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  {
    output_detail::FdStreambuf sb(fds[1]);
    std::ostream os(&sb);
    os << "abc" << 42 << '\n';
    os.flush();
    EXPECT_TRUE(os);
    EXPECT_EQ(sb.error(), 0);
  }
  ::close(fds[1]);
  char buf[16] = {};
  EXPECT_EQ(::read(fds[0], buf, sizeof buf), 6);
  EXPECT_STREQ(buf, "abc42\n");
  ::close(fds[0]);
}

TEST_F(AtomicFile, CheckOutputPathBeforeAnyWork) {
  const std::string in = path("in.y4m");
  put(in, "data");
  EXPECT_NO_THROW(check_output_path(path("new.xml"), {in}));
  EXPECT_NO_THROW(check_output_path("-", {in}));
  EXPECT_NO_THROW(check_output_path("/dev/null", {in}));
  EXPECT_EQ(error_of([&] { check_output_path(path("no/such/dir.xml"), {in}); }),
            "cannot write " + path("no/such/dir.xml") + ": No such file or directory");
  EXPECT_EQ(error_of([&] { check_output_path(in + "/x.xml", {in}); }),
            "cannot write " + in + "/x.xml: Not a directory");
  EXPECT_EQ(error_of([&] { check_output_path(dir_.string(), {in}); }),
            "cannot write " + dir_.string() + ": not a regular file");
  EXPECT_EQ(error_of([&] {
              check_output_path(in, {"-", in});
            }),
            "cannot write " + in + ": it is also the input " + in);
  EXPECT_EQ(entries(), std::set<std::string>{"in.y4m"});  // nothing was created
}

}  // namespace
}  // namespace exactvq
