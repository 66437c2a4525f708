#include "io/segmented_decoding.h"

extern "C" {
#include <libavcodec/avcodec.h>
}

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/error.h"

namespace exactvq {

namespace {

struct PacketFreer {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
using PacketPtr = std::unique_ptr<AVPacket, PacketFreer>;
struct FrameFreer {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};

PacketPtr new_packet() {
  PacketPtr p(av_packet_alloc());
  if (!p) throw std::bad_alloc();
  return p;
}

// A session left its work because the reads ended (the reader is closing).
struct Stopped {};

// Pieces shorter than this are not cut off (each piece ends in a drain of the
// decoder's pipeline).
constexpr int64_t kShortestSegment = 4;

}  // namespace

struct SegmentedDecoding::State {
  // A piece of the stream: its packets in decoding order and the frames its
  // session has decoded from them, in presentation order.
  struct Segment {
    int64_t first_frame = 0;  // the file's index of its first frame
    int64_t owned = 0;        // its frames (its packets but `extension`)
    // The packets end with the next piece's CRA, sent only so that the leading
    // pictures before it decode; its frame, the last out, is dropped.
    bool extension = false;
    std::vector<PacketPtr> packets;
    std::exception_ptr read_error;  // reading stopped after these packets
    int session = -1;
    std::deque<DecodedPicture> ready;
    bool done = false;
    std::exception_ptr error;
  };
  struct Pending {
    PacketPtr packet;
    AccessUnitKind kind;
  };

  SegmentedDecodingSetup setup;

  // Cutting (one session at a time, in stream order).
  std::mutex demux_mutex;
  std::deque<Pending> pending;  // read, not yet in a piece
  bool stream_ended = false;
  bool cutting_done = false;
  bool first_packet = true;
  bool parameter_sets_in_band = false;  // a packet after the first carried some
  int64_t frames_cut = 0;

  // Handing out.
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::unique_ptr<Segment>> segments;  // not yet handed out, in order
  bool no_more_segments = false;
  int64_t segments_started = 0;
  std::vector<int> frames_ahead;  // per session: decoded, not yet handed out
  std::exception_ptr fatal;
  bool stop = false;
  std::vector<std::thread> sessions;

  // Reads until `count` packets are pending; false where the stream ends first.
  bool fill(size_t count) {
    while (pending.size() < count) {
      if (stream_ended) return false;
      PacketPtr p = new_packet();
      if (!setup.read_packet(p.get())) {
        stream_ended = true;
        return false;
      }
      const AccessUnitKind kind =
          classify_access_unit(setup.codec, setup.framing, {p->data, size_t(p->size)});
      pending.push_back({std::move(p), kind});
    }
    return true;
  }

  // Whether a piece may start at this packet: a fresh start whose parameter
  // sets every session has (its own, or the stream's first ones, which every
  // session's decoder got with the codec parameters or in the first packet).
  bool starts_piece(const AccessUnitKind& k) const {
    if (k.malformed || k.leading) return false;
    if (!k.instant_refresh && !k.clean_random_access) return false;
    return k.parameter_sets || !parameter_sets_in_band;
  }

  void move_into(Segment& s, Pending& p) {
    if (!first_packet && p.kind.parameter_sets) parameter_sets_in_band = true;
    first_packet = false;
    s.packets.push_back(std::move(p.packet));
    ++s.owned;
  }

  // The next piece, or null at the end of the stream.
  std::unique_ptr<Segment> cut() {
    if (cutting_done) return nullptr;
    auto s = std::make_unique<Segment>();
    s->first_frame = frames_cut;
    try {
      if (!fill(1)) {
        cutting_done = true;
        return nullptr;
      }
      move_into(*s, pending.front());
      pending.pop_front();
      while (fill(1)) {
        Pending& next = pending.front();
        if (s->owned >= kShortestSegment && starts_piece(next.kind)) {
          if (next.kind.clean_random_access) {
            // Its leading pictures (next in decoding order, shown before it)
            // belong here, and are decoded here, with the CRA they follow.
            size_t leading = 0;
            while (fill(leading + 2) && pending[leading + 1].kind.leading) ++leading;
            if (leading > 0) {
              PacketPtr copy = new_packet();
              if (av_packet_ref(copy.get(), next.packet.get()) < 0) throw std::bad_alloc();
              s->packets.push_back(std::move(copy));
              for (size_t i = 1; i <= leading; ++i) move_into(*s, pending[i]);
              // the CRA itself stays pending: the next piece starts with it
              pending.erase(pending.begin() + 1, pending.begin() + 1 + ptrdiff_t(leading));
              s->extension = true;
            }
          }
          break;
        }
        move_into(*s, next);
        pending.pop_front();
      }
    } catch (...) {
      s->read_error = std::current_exception();
      cutting_done = true;
    }
    frames_cut += s->owned;
    return s;
  }

  // Waits until session `id` may decode one more frame ahead of the reads.
  void wait_for_room(int id) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return stop || frames_ahead[size_t(id)] < setup.frames_ahead; });
    if (stop) throw Stopped{};
  }

  void decode(SegmentDecoder& session, int id, Segment& s, bool used, AVFrame* frame) {
    AVCodecContext* c = session.context();
    if (used) avcodec_flush_buffers(c);
    const int64_t expected = s.owned + (s.extension ? 1 : 0);
    int64_t out = 0;
    auto fail = [&](const char* what, int code) {
      throw InputError(fmt::format("{}: frame {}: {}: {}", setup.name, s.first_frame + out, what,
                                   session.describe_error(code)));
    };
    auto receive = [&](bool draining) {
      for (;;) {
        const int r = avcodec_receive_frame(c, frame);
        if (r == AVERROR(EAGAIN) && !draining) return;
        if (r == AVERROR_EOF) return;
        if (r < 0) fail("cannot decode", r);
        if (out >= s.owned) {
          // the extension's CRA (shown after every frame of the piece), or one too many
          av_frame_unref(frame);
          if (++out > expected) break;
          continue;
        }
        wait_for_room(id);
        DecodedPicture d;
        session.take(frame, s.first_frame + out, d);
        av_frame_unref(frame);
        {
          std::lock_guard lock(mutex);
          s.ready.push_back(std::move(d));
          ++frames_ahead[size_t(id)];
        }
        changed.notify_all();
        ++out;
      }
    };
    try {
      for (PacketPtr& p : s.packets) {
        for (;;) {
          const int r = avcodec_send_packet(c, p.get());
          if (r == AVERROR(EAGAIN)) {
            receive(false);
            continue;
          }
          if (r < 0) fail("cannot decode", r);
          break;
        }
        p.reset();
        receive(false);
      }
      const int r = avcodec_send_packet(c, nullptr);
      if (r < 0 && r != AVERROR_EOF) fail("cannot decode", r);
      receive(true);
      session.check_errors(s.first_frame + out);
      if (s.read_error) std::rethrow_exception(s.read_error);
      if (out != expected)
        throw InputError(fmt::format(
            "{}: frames {} to {}: decoded apart from the rest of the stream (segment-parallel decoding), "
            "this piece gave {} frames where {} were due, so the stream cannot be cut there "
            "(EXACTVQ_HWDEC_SESSIONS=1 decodes it in one piece)",
            setup.name, s.first_frame, s.first_frame + s.owned - 1, out, expected));
    } catch (const Stopped&) {
      throw;
    } catch (...) {
      std::lock_guard lock(mutex);
      s.error = std::current_exception();
    }
    {
      std::lock_guard lock(mutex);
      s.done = true;
    }
    changed.notify_all();
  }

  void run_session(int id) {
    try {
      std::unique_ptr<SegmentDecoder> session = setup.open_session();
      std::unique_ptr<AVFrame, FrameFreer> frame(av_frame_alloc());
      if (!frame) throw std::bad_alloc();
      bool used = false;
      for (;;) {
        Segment* s = nullptr;
        {
          std::lock_guard cutting(demux_mutex);
          {
            std::lock_guard lock(mutex);
            if (stop) return;
          }
          std::unique_ptr<Segment> piece = cut();
          std::lock_guard lock(mutex);
          if (!piece) {
            no_more_segments = true;
          } else {
            piece->session = id;
            s = piece.get();
            segments.push_back(std::move(piece));
            ++segments_started;
            if (cutting_done) no_more_segments = true;
          }
        }
        changed.notify_all();
        if (!s) return;
        decode(*session, id, *s, used, frame.get());
        used = true;
      }
    } catch (const Stopped&) {
    } catch (...) {
      {
        std::lock_guard lock(mutex);
        if (!fatal) fatal = std::current_exception();
      }
      changed.notify_all();
    }
  }
};

SegmentedDecoding::SegmentedDecoding(SegmentedDecodingSetup setup) : s_(std::make_unique<State>()) {
  s_->setup = std::move(setup);
  const int n = std::max(1, s_->setup.sessions);
  s_->frames_ahead.assign(size_t(n), 0);
  s_->setup.frames_ahead = std::max(1, s_->setup.frames_ahead);
  for (int i = 0; i < n; ++i) s_->sessions.emplace_back([this, i] { s_->run_session(i); });
}

SegmentedDecoding::~SegmentedDecoding() {
  {
    std::lock_guard lock(s_->mutex);
    s_->stop = true;
  }
  s_->changed.notify_all();
  for (std::thread& t : s_->sessions) t.join();
}

bool SegmentedDecoding::next(DecodedPicture& out) {
  std::unique_lock lock(s_->mutex);
  for (;;) {
    if (!s_->segments.empty()) {
      State::Segment& head = *s_->segments.front();
      if (!head.ready.empty()) {
        out = std::move(head.ready.front());
        head.ready.pop_front();
        --s_->frames_ahead[size_t(head.session)];
        lock.unlock();
        s_->changed.notify_all();
        return true;
      }
      if (head.done) {
        if (head.error) std::rethrow_exception(head.error);
        s_->segments.pop_front();
        continue;
      }
    } else if (s_->no_more_segments) {
      return false;
    }
    if (s_->fatal) std::rethrow_exception(s_->fatal);
    s_->changed.wait(lock);
  }
}

int64_t SegmentedDecoding::segments_started() const {
  std::lock_guard lock(s_->mutex);
  return s_->segments_started;
}

}  // namespace exactvq
