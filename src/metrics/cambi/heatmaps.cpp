#include "metrics/cambi/heatmaps.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"

namespace exactvq::cambi {

namespace {

// The largest weight among the contrasts looked at.
int largest_weight(int num_diffs) {
  int largest = kContrastWeight[0];
  for (int d = 0; d < num_diffs; ++d)
    largest = kContrastWeight[d] > largest ? kContrastWeight[d] : largest;
  return largest;
}

// mkdir -p, each new directory with mode 0770 (libvmaf's mkdirp).
void make_directories(const std::string& dir) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at < dir.size() && dir[at] != '/') continue;
    const std::string part = dir.substr(0, at);
    struct stat st;
    if (::stat(part.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) continue;
      throw OutputError(fmt::format("cambi heatmaps_path: {} is not a directory", part));
    }
    if (::mkdir(part.c_str(), 0770) != 0 && errno != EEXIST)
      throw OutputError(
          fmt::format("cambi heatmaps_path: cannot create {}: {}", part, std::strerror(errno)));
  }
}

}  // namespace

HeatmapFiles::HeatmapFiles(const std::string& dir, const CambiSetup& s) {
  fds_.fill(-1);
  make_directories(dir);
  const int max_value = largest_weight(s.num_diffs) * s.distorted.window * s.distorted.window / 4;
  scaling_ = double((1 << 16) - 1) / max_value;
  int w = s.distorted.width, h = s.distorted.height;
  for (int scale = 0; scale < kScales; ++scale) {
    paths_[size_t(scale)] =
        fmt::format("{}/cambi_heatmap_scale_{}_{}x{}_16b.gray", dir, scale, w, h);
    const int fd =
        ::open(paths_[size_t(scale)].c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
      const std::string why = std::strerror(errno);
      for (int& open_fd : fds_)
        if (open_fd >= 0) ::close(open_fd);
      throw OutputError(
          fmt::format("cambi heatmaps_path: cannot open {}: {}", paths_[size_t(scale)], why));
    }
    fds_[size_t(scale)] = fd;
    w = (w + 1) >> 1;
    h = (h + 1) >> 1;
  }
}

HeatmapFiles::~HeatmapFiles() {
  for (int fd : fds_)
    if (fd >= 0) ::close(fd);
}

void HeatmapFiles::write(int64_t index, int scale, std::span<const float> values, int w,
                         int h) const {
  if ((index * h + h - 1) * int64_t(w) > INT_MAX)
    throw OutputError(fmt::format(
        "cambi heatmaps_path: frame {} lies past 2^31 samples of {} (libvmaf's offset overflows)",
        index, paths_[size_t(scale)]));
  std::vector<uint16_t> samples(values.size());
  // A binary64 product converted as x86-64 converts it: to int32, then its low 16 bits.
  for (size_t i = 0; i < values.size(); ++i)
    samples[i] = uint16_t(int32_t(scaling_ * double(values[i])));
  const size_t bytes = samples.size() * sizeof(uint16_t);
  const off_t at = off_t(index * h * int64_t(w)) * off_t(sizeof(uint16_t));
  const char* data = reinterpret_cast<const char*>(samples.data());
  for (size_t done = 0; done < bytes;) {
    const ssize_t n = ::pwrite(fds_[size_t(scale)], data + done, bytes - done, at + off_t(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw OutputError(fmt::format("cambi heatmaps_path: cannot write {}: {}",
                                    paths_[size_t(scale)], std::strerror(errno)));
    done += size_t(n);
  }
}

}  // namespace exactvq::cambi
