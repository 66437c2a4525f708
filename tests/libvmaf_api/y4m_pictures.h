// Reads a Y4M file's frames into libvmaf pictures (the tests' C++ reader; the C
// program has its own).
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "libvmaf/libvmaf.h"

namespace exactvq::libvmaf_test {

// A Y4M file's frames as pictures of vmaf_picture_alloc (even sizes: chroma
// rounded either way is the same).
class Y4mPictures {
 public:
  unsigned width() const { return w_; }
  unsigned height() const { return h_; }
  unsigned bpc() const { return bpc_; }
  VmafPixelFormat pix_fmt() const { return fmt_; }

  explicit Y4mPictures(const std::filesystem::path& path) : in_(path, std::ios::binary) {
    std::string header;
    std::getline(in_, header);
    std::istringstream tokens(header.substr(header.find(' ') + 1));
    for (std::string t; tokens >> t;) {
      if (t[0] == 'W') w_ = unsigned(std::stoul(t.substr(1)));
      if (t[0] == 'H') h_ = unsigned(std::stoul(t.substr(1)));
      if (t[0] == 'C') {
        if (t.compare(1, 3, "444") == 0) fmt_ = VMAF_PIX_FMT_YUV444P;
        if (t.compare(1, 3, "422") == 0) fmt_ = VMAF_PIX_FMT_YUV422P;
        const size_t p = t.find('p');  // "420p10"; "420jpeg" has no depth
        if (p != std::string::npos && p + 1 < t.size() && std::isdigit(t[p + 1]))
          bpc_ = unsigned(std::stoul(t.substr(p + 1)));
      }
    }
  }

  // The next frame, or false at the end.
  bool next(VmafPicture& pic) {
    std::string line;
    if (!std::getline(in_, line) || line.rfind("FRAME", 0) != 0) return false;
    EXPECT_EQ(vmaf_picture_alloc(&pic, fmt_, bpc_, w_, h_), 0);
    const size_t bytes = bpc_ > 8 ? 2 : 1;
    for (int p = 0; p < 3; ++p) {
      auto* row = static_cast<char*>(pic.data[p]);
      for (unsigned y = 0; y < pic.h[p]; ++y, row += pic.stride[p])
        in_.read(row, std::streamsize(bytes * pic.w[p]));
    }
    return bool(in_);
  }

 private:
  std::ifstream in_;
  unsigned w_ = 0, h_ = 0, bpc_ = 8;
  VmafPixelFormat fmt_ = VMAF_PIX_FMT_YUV420P;
};

}  // namespace exactvq::libvmaf_test
