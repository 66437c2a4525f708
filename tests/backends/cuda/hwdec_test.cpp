// GPU-decoded frames: the conversion of NVDEC's layouts (NV12, P010, P016,
// YUV444P, YUV444P16) against a host reference on seeded random surfaces
// (odd sizes, padded rows, crop offsets), its refusal of stray low bits; and,
// with EXACTVQ_NVDEC_STREAMS naming a folder of encoded files
// (bench/nvdec/make_streams.sh), every file NVDEC decodes equal, frame by
// frame and bit for bit, to libavcodec's CPU decoding (a file it refuses, AV1
// on Hopper, refused by name), and what a damaged file gives on each.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "backends/cuda/decoded_frames.h"
#include "cuda_fixture.h"
#include "io/video_source.h"

namespace exactvq::cudatest {
namespace {

struct Layout {
  const char* name;
  bool interleaved;
  int bytes;
  ChromaFormat chroma;
  int bitdepth;
};

const Layout kLayouts[] = {{"nv12", true, 1, ChromaFormat::k420, 8},
                           {"p010", true, 2, ChromaFormat::k420, 10},
                           {"p016_12bit", true, 2, ChromaFormat::k420, 12},
                           {"yuv444p", false, 1, ChromaFormat::k444, 8},
                           {"yuv444p16_10bit", false, 2, ChromaFormat::k444, 10}};

// A decoder's frame on the host: planes with padded rows, samples in the
// high bits of 2-byte words; sized for `f` plus the crop offsets.
struct HostSurface {
  std::vector<std::vector<uint8_t>> planes;
  std::vector<ptrdiff_t> strides;
};

HostSurface random_surface(const Layout& l, const VideoFormat& f, int left, int top,
                           uint32_t seed) {
  std::mt19937 rng(seed);
  HostSurface s;
  const int planes = l.interleaved ? 2 : 3;
  const int shift = l.bytes == 2 ? 16 - l.bitdepth : 0;
  for (int p = 0; p < planes; ++p) {
    const bool sub = p > 0 && l.interleaved;
    const int w = (sub ? 2 * f.plane_width(1) : f.plane_width(p)) + (sub ? left / 2 * 2 : left);
    const int h = (sub ? f.plane_height(1) + top / 2 : f.plane_height(p) + top);
    const ptrdiff_t stride = ptrdiff_t(w) * l.bytes + 64 + 3 * l.bytes;
    std::vector<uint8_t> plane(size_t(stride) * size_t(h));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const uint32_t v = uint32_t(rng()) & ((1u << l.bitdepth) - 1);
        uint8_t* at = plane.data() + ptrdiff_t(y) * stride + ptrdiff_t(x) * l.bytes;
        if (l.bytes == 1) {
          *at = uint8_t(v);
        } else {
          const auto word = uint16_t(v << shift);
          std::memcpy(at, &word, 2);
        }
      }
    s.planes.push_back(std::move(plane));
    s.strides.push_back(stride);
  }
  return s;
}

// The conversion, written plainly on the host.
Picture reference_picture(const Layout& l, const HostSurface& s, const VideoFormat& f, int left,
                          int top) {
  Picture pic;
  pic.allocate(f);
  const int shift = l.bytes == 2 ? 16 - l.bitdepth : 0;
  for (int p = 0; p < f.plane_count(); ++p) {
    const bool sub = p > 0 && f.chroma == ChromaFormat::k420;
    const int src = l.interleaved && p > 0 ? 1 : p;
    const int x0 = sub ? left / 2 : left, y0 = sub ? top / 2 : top;
    for (int y = 0; y < f.plane_height(p); ++y)
      for (int x = 0; x < f.plane_width(p); ++x) {
        const int sx = l.interleaved && p > 0 ? 2 * (x0 + x) + (p - 1) : x0 + x;
        const uint8_t* at = s.planes[size_t(src)].data() +
                            ptrdiff_t(y0 + y) * s.strides[size_t(src)] + ptrdiff_t(sx) * l.bytes;
        const size_t out = size_t(y) * size_t(f.plane_width(p)) + size_t(x);
        if (l.bytes == 1) {
          pic.plane_data(p)[out] = *at;
        } else {
          uint16_t word;
          std::memcpy(&word, at, 2);
          word = uint16_t(word >> shift);
          std::memcpy(pic.plane_data(p) + out * 2, &word, 2);
        }
      }
  }
  return pic;
}

struct DeviceSurface {
  std::vector<void*> planes;
  ~DeviceSurface() {
    for (void* p : planes) cudaFree(p);
  }
};

cuda::DecodedFrame upload(const Layout& l, const HostSurface& s, DeviceSurface& d, int left,
                          int top) {
  cuda::DecodedFrame frame;
  for (size_t p = 0; p < s.planes.size(); ++p) {
    void* dev = nullptr;
    EXPECT_EQ(cudaMalloc(&dev, s.planes[p].size()), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(dev, s.planes[p].data(), s.planes[p].size(), cudaMemcpyHostToDevice),
              cudaSuccess);
    d.planes.push_back(dev);
    frame.data[p] = static_cast<const uint8_t*>(dev);
    frame.stride[p] = s.strides[p];
  }
  frame.interleaved_chroma = l.interleaved;
  frame.bytes = l.bytes;
  frame.crop_left = left;
  frame.crop_top = top;
  return frame;
}

Picture to_host(const Picture& device_pic) {
  Picture out;
  out.allocate(device_pic.format);
  EXPECT_EQ(cudaMemcpy(out.plane_data(0), device_pic.planes[0].data(),
                       Picture::span_bytes(device_pic.format, device_pic.format.plane_count()),
                       cudaMemcpyDeviceToHost),
            cudaSuccess);
  return out;
}

void expect_same(const Picture& got, const Picture& want, const std::string& what) {
  ASSERT_EQ(got.format, want.format) << what;
  for (int p = 0; p < want.format.plane_count(); ++p)
    EXPECT_TRUE(std::ranges::equal(got.planes[p], want.planes[p]))
        << what << " plane " << plane_name(p);
}

std::string test_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

class DecodedFrameImport : public CudaTest {};

TEST_F(DecodedFrameImport, EveryLayoutAsTheHostReference) {
  cuda::DecodedFrameImport import(0);
  uint32_t seed = 1;
  for (const Layout& l : kLayouts)
    for (const auto& [w, h, left, top] : {std::tuple{17, 9, 0, 0}, std::tuple{64, 36, 0, 0},
                                          std::tuple{130, 66, 2, 4}, std::tuple{3, 2, 0, 0}}) {
      const VideoFormat f{w, h, l.chroma, l.bitdepth};
      const std::string what = fmt::format("{} {}x{} crop {},{}", l.name, w, h, left, top);
      const HostSurface s = random_surface(l, f, left, top, seed++);
      DeviceSurface d;
      const cuda::DecodedFrame frame = upload(l, s, d, left, top);
      const Picture want = reference_picture(l, s, f, left, top);
      Picture on_host, on_device;
      import.import(frame, f, on_host, false, [&] { return what;
    });
  EXPECT_FALSE(on_host.on_device());
  expect_same(on_host, want, what + " to the host");
      import.import(frame, f, on_device, true, [&] { return what;
});
ASSERT_TRUE(on_device.on_device()) << what;
expect_same(to_host(on_device), want, what + " on the device");
}
}

TEST_F(DecodedFrameImport, APictureKeepsItsDeviceBuffer) {
  cuda::DecodedFrameImport import(0);
  const Layout& l = kLayouts[1];
  const VideoFormat f{32, 16, l.chroma, l.bitdepth};
  const HostSurface s = random_surface(l, f, 0, 0, 7);
  DeviceSurface d;
  const cuda::DecodedFrame frame = upload(l, s, d, 0, 0);
  Picture a, b;
  import.import(frame, f, a, true, [] { return std::string("a");
});
const uint8_t* first = a.planes[0].data();
  import.import(frame, f, b, true, [] { return std::string("b");
  });
  import.import(frame, f, a, true, [] { return std::string("a again");
  });
  EXPECT_EQ(a.planes[0].data(), first);
  EXPECT_NE(b.planes[0].data(), first);
  }

  TEST_F(DecodedFrameImport, StrayLowBitsAreRefusedNamingPlaneAndPlace) {
    cuda::DecodedFrameImport import(0);
    const Layout& l = kLayouts[1];  // p010
    const VideoFormat f{20, 10, l.chroma, l.bitdepth};
    HostSurface s = random_surface(l, f, 0, 0, 9);
    // Cr sample x=3, y=2: the odd element of the interleaved plane's row 2.
    s.planes[1][size_t(2 * s.strides[1] + (2 * 3 + 1) * 2)] |= 1;
    DeviceSurface d;
    const cuda::DecodedFrame frame = upload(l, s, d, 0, 0);
    Picture pic;
    const std::string e = test_error([&] { import.import(frame, f, pic, true, [] { return std::string("f.mkv: frame 4");
    });
  });
  EXPECT_EQ(e,
            "f.mkv: frame 4: plane Cr, x=3, y=2: the hardware decoder's sample has bits set below "
            "its 10-bit "
            "depth (not a 10-bit sample)");
  }

  // Segment-parallel decoding's picture buffers: distinct, each its own
  // `bytes` (carved from shared slabs), a buffer let go lent again, more than
  // `most` still lent, and a buffer outliving its pool.
  TEST_F(DecodedFrameImport, PicturePoolLendsDistinctBuffersAndTakesThemBack) {
    constexpr size_t kBytes = 1000;  // not a multiple of the slabs' alignment
    std::vector<std::shared_ptr<uint8_t>> held;
    std::shared_ptr<uint8_t> outliving;
    {
      cuda::DevicePicturePool pool(0, kBytes, 8);
      for (int i = 0; i < 8; ++i) held.push_back(pool.take());
      for (size_t i = 0; i < held.size(); ++i) {
        ASSERT_NE(held[i].get(), nullptr);
        for (size_t j = 0; j < i; ++j) EXPECT_NE(held[i].get(), held[j].get());
        ASSERT_EQ(cudaMemset(held[i].get(), int(i + 1), kBytes), cudaSuccess);
      }
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      for (size_t i = 0; i < held.size(); ++i) {
        std::vector<uint8_t> back(kBytes);
        ASSERT_EQ(cudaMemcpy(back.data(), held[i].get(), kBytes, cudaMemcpyDeviceToHost),
                  cudaSuccess);
        EXPECT_TRUE(std::all_of(back.begin(), back.end(), [&](uint8_t v) { return v == i + 1; }))
            << "buffer " << i << " overlaps another";
      }
      uint8_t* const let_go = held[3].get();
      held[3].reset();
      held[3] = pool.take();
      EXPECT_EQ(held[3].get(), let_go);
      outliving = pool.take();  // a ninth: past `most`
      ASSERT_NE(outliving.get(), nullptr);
    }
    EXPECT_EQ(cudaMemset(outliving.get(), 0, kBytes), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    outliving.reset();
    held.clear();
  }

  // ---- encoded files (EXACTVQ_NVDEC_STREAMS) ----

  std::vector<std::filesystem::path> stream_files(std::string* why) {
    const char* dir = std::getenv("EXACTVQ_NVDEC_STREAMS");
    if (!dir || !*dir) {
      *why = "EXACTVQ_NVDEC_STREAMS is not set (bench/nvdec/make_streams.sh DIR small)";
      return {};
    }
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      const std::string ext = e.path().extension().string();
      if (ext == ".mkv" || ext == ".hevc" || ext == ".ivf" || ext == ".mp4" || ext == ".264")
        files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) *why = std::string("no encoded files in ") + dir;
    return files;
  }

  class NvdecStreams : public CudaTest {};

  TEST_F(NvdecStreams, EveryFrameEqualsTheCpuDecoders) {
    std::string why;
    const auto files = stream_files(&why);
    if (files.empty()) GTEST_SKIP() << why;
    for (const auto& path : files) {
      const std::string name = path.filename().string();
      if (name.starts_with("4k_")) continue;  // the speed pairs: bench/nvdec/device_nvdec.sh
      auto cpu = open_video(path.string(), {});
      std::unique_ptr<VideoSource> gpu_host;
      try {
        gpu_host = open_video(path.string(), {}, {HwDecode::kCuda, 0, nullptr});
      } catch (const InputError& e) {
        // Hopper's NVDEC has no AV1 (NVIDIA's NVDEC application note): refused, by name.
        std::printf("[ nvdec ] %s: refused: %s\n", name.c_str(), e.what());
        EXPECT_TRUE(name.starts_with("av1_")) << e.what();
        EXPECT_NE(std::string(e.what()).find("--hwdec cuda: "), std::string::npos) << e.what();
        continue;
      }
      // The default decodes a clip this short on one session: the device
      // pictures' reader asks for 3, so that pieces decoded apart are checked too.
      auto gpu_device = open_video(path.string(), {}, {HwDecode::kCuda, 0, nullptr, 3});
      ASSERT_EQ(gpu_host->cuda_decoder_device(), 0) << name;
      gpu_device->set_device_pictures(true);
      EXPECT_EQ(gpu_host->format(), cpu->format()) << name;
      int frames = 0;
      for (Picture want, host, dev;; ++frames) {
        const bool more = cpu->read_frame(want);
        ASSERT_EQ(gpu_host->read_frame(host), more) << name << " frame " << frames;
        ASSERT_EQ(gpu_device->read_frame(dev), more) << name << " frame " << frames;
        if (!more) break;
        expect_same(host, want, fmt::format("{} frame {} (to the host)", name, frames));
        ASSERT_TRUE(dev.on_device());
        expect_same(to_host(dev), want, fmt::format("{} frame {} (on the device)", name, frames));
      }
      std::printf(
          "[ nvdec ] %s: %s, %d frames equal to the CPU decoder's (%lld pieces decoded apart)\n",
          name.c_str(), cpu->format().describe().c_str(), frames,
          static_cast<long long>(gpu_device->decoding_segments()));
      EXPECT_GT(frames, 0) << name;
    }
  }

  // A damaged file on each decoder: an error naming the file, or frames where
  // the decoder finds nothing wrong (NVDEC does not check slice data; printed,
  // docs/figures.md), never a hang.
  TEST_F(NvdecStreams, DamagedFilesOnBothDecoders) {
    std::string why;
    const auto files = stream_files(&why);
    if (files.empty()) GTEST_SKIP() << why;
    for (const auto& path : files) {
      const std::string name = path.filename().string();
      if (!name.ends_with("_ref.mkv") && !name.ends_with("_ref.hevc")) continue;
      std::ifstream in(path, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), {});
      for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
        bytes[i] = char(bytes[i] ^ 0x5a);
      const auto damaged = std::filesystem::temp_directory_path() / ("damaged_" + name);
      std::ofstream(damaged, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
      for (HwDecode hw : {HwDecode::kCuda, HwDecode::kNone}) {
        std::string e;
        int frames = 0;
        try {
          auto src = open_video(damaged.string(), {}, {hw, 0, nullptr});
          for (Picture pic; src->read_frame(pic);) ++frames;
        } catch (const InputError& error) {
          e = error.what();
        }
        std::printf("[ nvdec ] damaged %s, --hwdec %s: %s\n", name.c_str(), hwdec_name(hw),
                    e.empty() ? fmt::format("no error, {} frames", frames).c_str() : e.c_str());
        if (!e.empty()) {
          EXPECT_TRUE(e.starts_with(damaged.string() + ": ")) << e;
        }
      }
      std::filesystem::remove(damaged);
    }
  }

  }  // namespace
  }  // namespace exactvq::cudatest
