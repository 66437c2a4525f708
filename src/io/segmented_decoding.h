// Segment-parallel decoding of one H.264 or HEVC stream: the packets are cut
// where the stream starts afresh (an IDR, or an HEVC CRA whose leading pictures
// stay with the piece before it), each piece is decoded by one of several
// decoder sessions at once, and the frames are handed out in presentation
// order. One hardware decoder session keeps one NVDEC engine busy; a GPU has
// several. Every piece must give exactly as many frames as it has pictures,
// else the run stops with an error naming the frame (a stream cut where it
// should not have been is never scored).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/picture.h"
#include "io/access_unit.h"
#include "io/ffmpeg_library.h"

namespace exactvq {

// A frame as a decoder session leaves it for the reads: a picture in host
// memory, or one in device memory that `device` keeps alive.
struct DecodedPicture {
  Picture picture;
  std::shared_ptr<uint8_t> device;
};

// One decoder session, opened by the reader as its own decoder is.
class SegmentDecoder {
 public:
  virtual ~SegmentDecoder() = default;
  virtual AVCodecContext* context() = 0;
  // Checks the frame the decoder gave as the file's frame `index` and copies or
  // converts it into `out`; throws InputError naming the frame.
  virtual void take(AVFrame* frame, int64_t index, DecodedPicture& out) = 0;
  // Throws InputError where the decoder logged damage (frame `index` next).
  virtual void check_errors(int64_t index) = 0;
  // An FFmpeg error code with the decoder's own line about it.
  virtual std::string describe_error(int code) = 0;
};

struct SegmentedDecodingSetup {
  std::string name;  // the file, in messages
  // The input's name in the start-up trace (core/startup_trace.h): the first
  // session opened, all opened and the first frame decoded are marked under
  // it ("ref session opened"); "" marks nothing.
  std::string trace;
  NalCodec codec = NalCodec::kH264;
  NalFraming framing;
  int sessions = 2;
  // Frames a session may have decoded ahead of the reads (its memory bound).
  int frames_ahead = 16;
  // The next packet of the stream in decoding order into `packet`; false at
  // its end. Throws InputError on a read error or an incomplete packet.
  std::function<bool(AVPacket* packet)> read_packet;
  // Opens decoder session `index` (0 .. sessions - 1).
  std::function<std::unique_ptr<SegmentDecoder>(int index)> open_session;
  // Where set, session 0's decoder, already open (the one that read the
  // stream's first frame: no decoder is set up twice): it was sent the first
  // `sent` packets that read_packet gives, each with its place in the stream
  // as pts and dts, and gave `first`, the first frame out. It decodes the first
  // piece, those packets not sent again, where that piece holds them all (a
  // piece is at least a GOP, a first frame needs a few packets); else it is
  // closed and session 0 opened as the others are.
  std::unique_ptr<SegmentDecoder> adopted;
  int64_t sent = 0;
  FramePtr first;
};

class SegmentedDecoding {
 public:
  explicit SegmentedDecoding(SegmentedDecodingSetup setup);
  ~SegmentedDecoding();
  SegmentedDecoding(const SegmentedDecoding&) = delete;
  SegmentedDecoding& operator=(const SegmentedDecoding&) = delete;

  // The next frame in presentation order; false after the last. Rethrows a
  // session's error once the frames before it have been handed out.
  bool next(DecodedPicture& out);

  // Pieces the stream has been cut into so far (for tests and benchmarks).
  int64_t segments_started() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace exactvq
