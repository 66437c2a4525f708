#include "cli/cli_test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

extern char** environ;

namespace exactvq::clitest {

// ---------------------------------------------------------------------------
// Subprocess

namespace {

// The running test binary's scratch folder: the EXACTVQ_TEST_TMP its target
// defines (its build folder's tmp), found at run time because this file is
// compiled once for every binary that links it.
const fs::path& binary_tmp() {
  static const fs::path tmp = fs::read_symlink("/proc/self/exe").parent_path() / "tmp";
  return tmp;
}

fs::path capture_dir() {
  fs::path d = binary_tmp() / "cli" / "capture";
  fs::create_directories(d);
  return d;
}

std::string unique_capture_name(const char* what) {
  static std::atomic<int> counter{0};
  return (capture_dir() /
          (std::to_string(::getpid()) + "_" + std::to_string(counter++) + "." + what))
      .string();
}

}  // namespace

RunResult run_program(const std::vector<std::string>& argv, const RunIo& io) {
  RunResult r;
  const std::string out_path = io.stdout_path.empty() ? unique_capture_name("out") : io.stdout_path;
  const std::string err_path = unique_capture_name("err");

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, io.stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group, so a timeout kills a shell and everything it started.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    ADD_FAILURE() << "posix_spawn " << argv[0] << ": " << std::strerror(rc);
    return r;
  }

  int wstatus = 0;
  for (;;) {
    const pid_t w = ::waitpid(pid, &wstatus, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      ADD_FAILURE() << "waitpid: " << std::strerror(errno);
      return r;
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > io.timeout_s) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {}
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(wstatus)) {
    r.status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    r.signal = WTERMSIG(wstatus);
  }
  if (io.stdout_path.empty()) {
    r.out = read_file(out_path);
    fs::remove(out_path);
  }
  r.err = read_file(err_path);
  fs::remove(err_path);
  return r;
}

std::vector<std::string> with_ssim_default(std::vector<std::string> args) {
  bool feature = false, model = false, no_prediction = false, batch = false;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-v" || a == "--version") return args;
    if (a == "--batch") batch = true;
    if (a == "--feature" || a.rfind("--feature=", 0) == 0) feature = true;
    if (a == "-m" || a == "--model" || a.rfind("--model=", 0) == 0 || a == "--aom_ctc" ||
        a == "--nflx_ctc")
      model = true;
    if (a == "-n" || a == "--no_prediction") no_prediction = true;
  }
  if (model) return args;
  if (!feature && !batch) args.insert(args.end(), {"--feature", "ssim"});
  if (!no_prediction) args.push_back("-n");  // the feature alone, without the default VMAF
  return args;
}

RunResult run_cli(const std::vector<std::string>& args, const RunIo& io) {
  std::vector<std::string> argv{EXACTVQ_CLI_PATH};
  const std::vector<std::string> all = with_ssim_default(args);
  argv.insert(argv.end(), all.begin(), all.end());
  return run_program(argv, io);
}

RunResult run_shell(const std::string& script, const std::vector<std::string>& args,
                    const RunIo& io) {
  std::vector<std::string> argv{"/bin/sh", "-c", script, "sh"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv, io);
}

std::string describe(const RunResult& r) {
  std::ostringstream s;
  s << "exit status " << r.status;
  if (r.signal) s << ", killed by signal " << r.signal;
  if (r.timed_out) s << " (TIMED OUT)";
  s << ", " << r.seconds << " s\n--- stdout ---\n"
    << r.out.substr(0, 2000) << "\n--- stderr ---\n"
    << r.err.substr(0, 2000) << "\n---";
  return s.str();
}

// ---------------------------------------------------------------------------
// Files

fs::path test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string stem = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : stem)
    if (c == '/') c = '_';
  const fs::path d = binary_tmp() / "cli" / stem;
  std::error_code ec;
  // A previous run may have left a chmod 000 file or directory behind.
  if (fs::exists(d, ec)) {
    for (const auto& e : fs::recursive_directory_iterator(d, ec))
      fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add, ec);
  }
  fs::remove_all(d, ec);
  fs::create_directories(d);
  return d;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  ASSERT_TRUE(out.good()) << "cannot write " << p;
}

std::set<std::string> list_dir(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// ---------------------------------------------------------------------------
// Videos

VideoFormat make_format(int w, int h, ChromaFormat c, int bitdepth) {
  return VideoFormat{w, h, c, bitdepth};
}

namespace {

uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

}  // namespace

Frame make_frame(const VideoFormat& f, int index, int variant) {
  Frame frame;
  const int shift = f.bitdepth - 8;
  const int64_t max = f.max_sample();
  for (int p = 0; p < f.plane_count(); ++p) {
    const int w = f.plane_width(p), h = f.plane_height(p);
    auto& plane = frame[size_t(p)];
    plane.resize(size_t(w) * size_t(h));
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        // A moving gradient with some texture, in 8-bit units.
        const int base = (x * 9 + y * 5 + index * 7 + p * 61 + ((x * y + index) % 11) * 4 +
                          (((x >> 2) ^ (y >> 2)) & 1) * 40) &
                         0xff;
        int64_t v =
            (int64_t{base} << shift) | (shift > 0 ? int64_t((x + y + index) % (1 << shift)) : 0);
        if (variant != 0) {
          const uint32_t h32 =
              mix(uint32_t(x) * 73856093U ^ uint32_t(y) * 19349663U ^ uint32_t(index) * 83492791U ^
                  uint32_t(p) * 2654435761U ^ uint32_t(variant) * 40503U);
          const int noise = int(h32 % 25) - 12;
          v += int64_t{noise} << shift;
          v = v < 0 ? 0 : (v > max ? max : v);
        }
        plane[size_t(y) * size_t(w) + size_t(x)] = uint16_t(v);
      }
    }
  }
  return frame;
}

std::vector<Frame> make_frames(const VideoFormat& f, int count, int variant, int first_index) {
  std::vector<Frame> frames;
  for (int i = 0; i < count; ++i) frames.push_back(make_frame(f, first_index + i, variant));
  return frames;
}

std::string c_tag(const VideoFormat& f) {
  const std::string base = f.chroma == ChromaFormat::kMono ? "mono" : chroma_name(f.chroma);
  if (f.bitdepth == 8) return f.chroma == ChromaFormat::k420 ? "420jpeg" : base;
  return f.chroma == ChromaFormat::kMono ? "mono" + std::to_string(f.bitdepth)
                                         : base + "p" + std::to_string(f.bitdepth);
}

std::string y4m_header(const VideoFormat& f) {
  return "YUV4MPEG2 W" + std::to_string(f.width) + " H" + std::to_string(f.height) +
         " F25:1 Ip A1:1 C" + c_tag(f) + "\n";
}

std::string frame_payload(const VideoFormat& f, const Frame& frame) {
  std::string s;
  for (int p = 0; p < f.plane_count(); ++p) {
    for (uint16_t v : frame[size_t(p)]) {
      s.push_back(char(v & 0xff));
      if (f.bitdepth > 8) s.push_back(char(v >> 8));
    }
  }
  return s;
}

std::string y4m_bytes(const VideoFormat& f, const std::vector<Frame>& frames) {
  std::string s = y4m_header(f);
  for (const Frame& fr : frames) s += "FRAME\n" + frame_payload(f, fr);
  return s;
}

std::string raw_bytes(const VideoFormat& f, const std::vector<Frame>& frames) {
  std::string s;
  for (const Frame& fr : frames) s += frame_payload(f, fr);
  return s;
}

Picture to_picture(const VideoFormat& f, const Frame& frame) {
  Picture pic;
  pic.allocate(f);
  for (int p = 0; p < f.plane_count(); ++p) {
    uint8_t* dst = pic.plane_data(p);
    const auto& src = frame[size_t(p)];
    for (size_t i = 0; i < src.size(); ++i) {
      if (f.bytes_per_sample() == 1) {
        dst[i] = uint8_t(src[i]);
      } else {
        const uint16_t v = src[i];
        std::memcpy(dst + 2 * i, &v, 2);  // host order, as PlaneView expects
      }
    }
  }
  return pic;
}

// ---------------------------------------------------------------------------
// Reports

double parse_double(const std::string& s) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  EXPECT_TRUE(!s.empty() && end == s.c_str() + s.size()) << "not a number: '" << s << "'";
  return v;
}

uint64_t bits(double v) { return std::bit_cast<uint64_t>(v); }

Report parse_json(const std::string& text) {
  Report r;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "invalid JSON: " << e.what() << "\n" << text.substr(0, 2000);
    return r;
  }
  const auto value = [&](const nlohmann::json& v, const std::string& where) {
    if (v.is_null()) {
      r.json_nulls.push_back(where);
      return std::numeric_limits<double>::infinity();
    }
    EXPECT_TRUE(v.is_number()) << where << ": " << v.dump();
    return v.is_number() ? v.get<double>() : 0.0;
  };
  EXPECT_TRUE(j.contains("frames") && j["frames"].is_array());
  if (!j.contains("frames")) return r;
  size_t index = 0;
  for (const auto& fr : j["frames"]) {
    r.frames.push_back(fr.at("frameNum").get<int64_t>());
    for (const auto& [name, v] : fr.at("metrics").items()) {
      if (index == 0) r.names.push_back(name);
      r.values[name].push_back(value(v, std::to_string(index) + "/" + name));
    }
    ++index;
  }
  if (j.contains("pooled_metrics"))
    for (const auto& [name, obj] : j["pooled_metrics"].items())
      for (const auto& [k, v] : obj.items())
        r.pooled[name][k] = value(v, "pooled/" + name + "/" + k);
  return r;
}

Report parse_xml(const std::string& text) {
  Report r;
  pugi::xml_document doc;
  const pugi::xml_parse_result ok = doc.load_buffer(text.data(), text.size());
  if (!ok) {
    ADD_FAILURE() << "invalid XML: " << ok.description() << "\n" << text.substr(0, 2000);
    return r;
  }
  const pugi::xml_node root = doc.child("VMAF");
  EXPECT_TRUE(root) << "no <VMAF> root";
  size_t index = 0;
  for (const pugi::xml_node fr : root.child("frames").children("frame")) {
    for (const pugi::xml_attribute a : fr.attributes()) {
      const std::string name = a.name();
      if (name == "frameNum") {
        r.frames.push_back(int64_t(parse_double(a.value())));
        continue;
      }
      if (index == 0) r.names.push_back(name);
      r.values[name].push_back(parse_double(a.value()));
    }
    ++index;
  }
  for (const pugi::xml_node m : root.child("pooled_metrics").children("metric")) {
    const std::string name = m.attribute("name").value();
    for (const pugi::xml_attribute a : m.attributes())
      if (std::string(a.name()) != "name") r.pooled[name][a.name()] = parse_double(a.value());
  }
  return r;
}

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t at = s.find(sep, start);
    if (at == std::string::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, at - start));
    start = at + 1;
  }
}

}  // namespace

Report parse_csv(const std::string& text) {
  Report r;
  std::vector<std::string> lines = split(text, '\n');
  EXPECT_TRUE(!lines.empty() && lines.back().empty()) << "CSV does not end with a newline";
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  if (lines.empty()) {
    ADD_FAILURE() << "empty CSV";
    return r;
  }
  std::vector<std::string> header = split(lines[0], ',');
  // libvmaf ends every field with a comma, the last one included.
  EXPECT_TRUE(!header.empty() && header.back().empty()) << lines[0];
  if (!header.empty() && header.back().empty()) header.pop_back();
  EXPECT_TRUE(!header.empty() && header[0] == "Frame") << lines[0];
  if (header.empty()) return r;
  r.names.assign(header.begin() + 1, header.end());
  for (size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> fields = split(lines[i], ',');
    EXPECT_TRUE(!fields.empty() && fields.back().empty()) << lines[i];
    if (!fields.empty() && fields.back().empty()) fields.pop_back();
    EXPECT_EQ(fields.size(), header.size()) << lines[i];
    if (fields.size() != header.size()) continue;
    r.frames.push_back(int64_t(parse_double(fields[0])));
    for (size_t k = 1; k < fields.size(); ++k)
      r.values[header[k]].push_back(parse_double(fields[k]));
  }
  return r;
}

}  // namespace exactvq::clitest
