#include "io/segmented_decoding.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/startup_trace.h"
#include "io/ffmpeg_library.h"

namespace exactvq {

namespace {

// A session left its work because the reads ended (the reader is closing).
struct Stopped {};

// Pieces shorter than this are not cut off (a piece is handed to a session as
// one, and an HEVC piece ends in a drain of the decoder's pipeline).
constexpr int64_t kShortestSegment = 4;

}  // namespace

struct SegmentedDecoding::State {
  // A piece of the stream: its packets in decoding order and the frames its
  // session has decoded from them, in presentation order. Every packet is
  // stamped with its place in the stream (pts and dts: the decoders carry a
  // packet's pts to the frame it starts), so that each frame out of a session
  // is known to be one of its piece's.
  struct Segment {
    int64_t first_frame = 0;  // the file's index of its first frame
    std::vector<int64_t>
        owned;  // its pictures' places in the stream, increasing (taken in stream order)
    std::vector<char> received;  // per owned picture
    int64_t received_count = 0;
    // The packets end with the next piece's CRA (its place: extension), sent
    // only so that the leading pictures before it decode; its frame, the
    // last out, is dropped.
    int64_t extension = -1;
    bool extension_dropped = false;
    std::vector<PacketPtr> packets;
    std::exception_ptr read_error;  // reading stopped after these packets
    int session = -1;
    std::deque<DecodedPicture> ready;
    bool done = false;
    std::exception_ptr error;

    int64_t size() const { return int64_t(owned.size()); }
    bool complete() const {
      return received_count == size() && (extension < 0 || extension_dropped);
    }
    // Its place among the owned pictures of the picture at `place`, or -1.
    int64_t position_of(int64_t place) const {
      const auto it = std::lower_bound(owned.begin(), owned.end(), place);
      return it != owned.end() && *it == place ? int64_t(it - owned.begin()) : -1;
    }
  };
  struct Pending {
    PacketPtr packet;
    AccessUnitKind kind;
    int64_t place = 0;
  };

  SegmentedDecodingSetup setup;
  // H.264 sessions go on from one piece to their next without a flush (every
  // piece starts at an IDR, which starts the decoder afresh; a flush would
  // make libavcodec set the hardware decoder up again); HEVC sessions are
  // flushed between pieces (a CRA does not reset picture order counts).
  bool flush_between() const { return setup.codec == NalCodec::kHevc; }

  // Cutting (one session at a time, in stream order).
  std::mutex demux_mutex;
  std::deque<Pending> pending;  // read, not yet in a piece
  int64_t places_read = 0;
  bool stream_ended = false;
  bool cutting_done = false;
  bool first_packet = true;
  bool parameter_sets_in_band = false;  // a packet after the first carried some
  // Annex B: every parameter-set unit seen so far (each once), put before a
  // piece's first picture where it has none of its own.
  std::vector<uint8_t> parameter_sets;
  bool too_many_parameter_sets = false;
  int64_t frames_cut = 0;

  // Handing out.
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::unique_ptr<Segment>> segments;  // not yet handed out, in order
  bool no_more_segments = false;
  int64_t segments_started = 0;
  std::vector<int> frames_ahead;  // per session: decoded, not yet handed out
  std::exception_ptr fatal;
  int sessions_refused = 0;  // decoder sessions that did not open
  int sessions_opened = 0;
  bool stop = false;
  // Session 0 goes on with the reader's decoder (setup.adopted): the others
  // cut no piece before it has cut the first.
  bool adopting = false;
  bool first_piece_cut = false;
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
      const int64_t place = places_read++;
      p->pts = p->dts = place;
      pending.push_back({std::move(p), kind, place});
    }
    return true;
  }

  bool annexb() const { return setup.framing.length_bytes == 0; }

  void mark(const char* stage) const {
    if (!setup.trace.empty()) startup::mark(fmt::format("{} {}", setup.trace, stage));
  }

  // Whether a piece may start at this packet: a fresh start whose parameter
  // sets its session will have (its own; in Annex B the ones seen so far, put
  // before it; in MP4/MKV the codec parameters', which every session gets,
  // unless later ones came in band).
  bool starts_piece(const AccessUnitKind& k) const {
    if (k.malformed || k.leading) return false;
    if (!k.instant_refresh && !k.clean_random_access) return false;
    if (k.parameter_sets) return true;
    if (annexb()) return !too_many_parameter_sets;
    return !parameter_sets_in_band;
  }

  void note_parameter_sets(const Pending& p) {
    if (!p.kind.parameter_sets) return;
    if (!first_packet) parameter_sets_in_band = true;
    if (!annexb()) return;
    for (std::span<const uint8_t> unit :
         annexb_parameter_sets(setup.codec, {p.packet->data, size_t(p.packet->size)})) {
      if (std::search(parameter_sets.begin(), parameter_sets.end(), unit.begin(), unit.end()) !=
          parameter_sets.end())
        continue;
      parameter_sets.insert(parameter_sets.end(), unit.begin(), unit.end());
    }
    constexpr size_t kMostParameterSetBytes = size_t(1) << 20;
    if (parameter_sets.size() > kMostParameterSetBytes) too_many_parameter_sets = true;
  }

  void move_into(Segment& s, Pending& p) {
    note_parameter_sets(p);
    first_packet = false;
    s.packets.push_back(std::move(p.packet));
    s.owned.push_back(p.place);
  }

  // The first packet of a piece after the first: with the parameter sets seen
  // so far before it where it has none (a raw stream may carry them once, and
  // libavformat does not always pass them on as codec parameters).
  void start_with(Segment& s, Pending& p) {
    const bool add = !first_packet && annexb() && !parameter_sets.empty() && !p.kind.parameter_sets;
    move_into(s, p);
    if (!add) return;
    AVPacket* old = s.packets.back().get();
    PacketPtr joined = new_packet();
    if (ffmpeg().av_new_packet(joined.get(), int(parameter_sets.size()) + old->size) < 0 ||
        ffmpeg().av_packet_copy_props(joined.get(), old) < 0)
      throw std::bad_alloc();
    std::copy(parameter_sets.begin(), parameter_sets.end(), joined->data);
    std::copy(old->data, old->data + old->size, joined->data + parameter_sets.size());
    s.packets.back() = std::move(joined);
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
      start_with(*s, pending.front());
      pending.pop_front();
      while (fill(1)) {
        Pending& next = pending.front();
        if (s->size() >= kShortestSegment && starts_piece(next.kind)) {
          if (next.kind.clean_random_access) {
            // Its leading pictures (next in decoding order, shown before it)
            // belong here, and are decoded here, with the CRA they follow.
            size_t leading = 0;
            while (fill(leading + 2) && pending[leading + 1].kind.leading) ++leading;
            if (leading > 0) {
              PacketPtr copy = new_packet();
              if (ffmpeg().av_packet_ref(copy.get(), next.packet.get()) < 0) throw std::bad_alloc();
              s->packets.push_back(std::move(copy));
              s->extension = next.place;
              for (size_t i = 1; i <= leading; ++i) move_into(*s, pending[i]);
              // the CRA itself stays pending: the next piece starts with it
              pending.erase(pending.begin() + 1, pending.begin() + 1 + ptrdiff_t(leading));
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
    s->received.assign(s->owned.size(), 0);
    frames_cut += s->size();
    return s;
  }

  // Waits until session `id` may decode one more frame ahead of the reads.
  void wait_for_room(int id) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return stop || frames_ahead[size_t(id)] < setup.frames_ahead; });
    if (stop) throw Stopped{};
  }

  // One session's decoding: its pieces in stream order, those sent to the
  // decoder and not yet complete in `open`.
  struct Run {
    State& st;
    SegmentDecoder& session;
    int id;
    AVFrame* frame;
    std::deque<Segment*> open;
    std::chrono::steady_clock::time_point opened;  // for the trace's tally of first frames
    bool delivered = false;

    AVCodecContext* context() { return session.context(); }

    [[noreturn]] void fail(const char* what, int code) {
      const Segment* s = open.empty() ? nullptr : open.front();
      throw InputError(fmt::format("{}: frame {}: {}: {}", st.setup.name,
                                   s ? s->first_frame + s->received_count : 0, what,
                                   session.describe_error(code)));
    }

    [[noreturn]] void fewer_frames(const Segment& s) {
      throw InputError(fmt::format(
          "{}: frames {} to {}: decoded apart from the rest of the stream (segment-parallel "
          "decoding), this piece "
          "gave {} of its {} frames, so the stream cannot be cut there (EXACTVQ_HWDEC_SESSIONS=1 "
          "decodes it in one "
          "piece)",
          st.setup.name, s.first_frame, s.first_frame + s.size() - 1, s.received_count, s.size()));
    }

    void finish(Segment& s, std::exception_ptr error) {
      {
        std::lock_guard lock(st.mutex);
        s.error = error;
        s.done = true;
      }
      st.changed.notify_all();
    }

    // A frame out of the decoder: one of the oldest open piece's (the next it
    // is due), or that piece's extension, dropped.
    void deliver() {
      const int64_t place = frame->pts;
      // A piece complete is handed out (and then gone): with its read error,
      // where reading stopped after it.
      while (!open.empty() && open.front()->complete()) {
        finish(*open.front(), open.front()->read_error);
        open.pop_front();
      }
      if (open.empty())
        throw InputError(fmt::format(
            "{}: a decoder session gave a frame of no piece it was given (place {} in the "
            "stream; segment-parallel decoding, EXACTVQ_HWDEC_SESSIONS=1 decodes it in one "
            "piece)",
            st.setup.name, place));
      Segment& s = *open.front();
      if (place == s.extension && s.received_count == s.size()) {
        s.extension_dropped = true;
        ffmpeg().av_frame_unref(frame);
        return;
      }
      const int64_t at = s.position_of(place);
      if (at < 0 || s.received[size_t(at)]) fewer_frames(s);
      const int64_t index = s.first_frame + s.received_count;
      st.wait_for_room(id);
      DecodedPicture d;
      session.take(frame, index, d);
      ffmpeg().av_frame_unref(frame);
      st.mark("piece frame");
      if (!delivered) {
        delivered = true;  // a hardware decoder is set up at its first picture
        startup::tally(
            "sessions' first frames",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - opened).count());
      }
      s.received[size_t(at)] = 1;
      ++s.received_count;
      {
        std::lock_guard lock(st.mutex);
        s.ready.push_back(std::move(d));
        ++st.frames_ahead[size_t(id)];
      }
      st.changed.notify_all();
      if (s.complete()) {
        finish(s, s.read_error);
        open.pop_front();
      }
    }

    void receive(bool draining) {
      for (;;) {
        const int r = ffmpeg().avcodec_receive_frame(context(), frame);
        if (r == AVERROR(EAGAIN) && !draining) return;
        if (r == AVERROR_EOF) return;
        if (r < 0) fail("cannot decode", r);
        deliver();
      }
    }

    void send(AVPacket* p) {
      for (;;) {
        const int r = ffmpeg().avcodec_send_packet(context(), p);
        if (r == AVERROR(EAGAIN)) {
          receive(false);
          continue;
        }
        if (r == AVERROR_EOF && !p) return;
        if (r < 0) fail("cannot decode", r);
        return;
      }
    }

    // Every frame still in the decoder; the open pieces must then be complete.
    void drain() {
      send(nullptr);
      receive(true);
      if (!open.empty())
        session.check_errors(open.front()->first_frame + open.front()->received_count);
      while (!open.empty()) {
        Segment& s = *open.front();
        if (s.read_error) std::rethrow_exception(s.read_error);
        if (!s.complete()) fewer_frames(s);
        finish(s, nullptr);
        open.pop_front();
      }
      ffmpeg().avcodec_flush_buffers(context());
    }

    // Decodes piece `s`. An adopted decoder's first piece: its first `sent`
    // packets were sent already, and gave `first`, its first frame out.
    void add(Segment& s, int64_t sent = 0, AVFrame* first = nullptr) {
      // Once a frame is delivered the piece may be complete, handed out and
      // gone: what is needed of it is taken first.
      std::vector<PacketPtr> packets = std::move(s.packets);
      const bool drain_after = st.flush_between() || s.read_error;
      open.push_back(&s);
      if (first) {
        AVFrame* own = frame;
        frame = first;
        try {
          deliver();
        } catch (...) {
          frame = own;
          throw;
        }
        frame = own;
      }
      for (size_t i = 0; i < packets.size(); ++i) {
        PacketPtr& p = packets[i];
        if (int64_t(i) < sent) {
          p.reset();
          continue;
        }
        send(p.get());
        p.reset();
        receive(false);
      }
      if (drain_after) drain();
    }

    // Every open piece fails with the error being handled.
    void fail_open() {
      const std::exception_ptr e = std::current_exception();
      for (Segment* s : open) finish(*s, e);
      open.clear();
    }
  };

  // The next piece, now session `id`'s; null at the end of the stream.
  // Throws Stopped where the reads ended.
  Segment* take_piece(int id) {
    if (adopting && id != 0) {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return stop || first_piece_cut || fatal; });
      if (stop) throw Stopped{};
      if (!first_piece_cut) return nullptr;  // session 0 failed: the run does
    }
    Segment* s = nullptr;
    {
      std::lock_guard cutting(demux_mutex);
      {
        std::lock_guard lock(mutex);
        if (stop) throw Stopped{};
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
      first_piece_cut = true;
    }
    changed.notify_all();
    return s;
  }

  void fail_run(std::exception_ptr e) {
    {
      std::lock_guard lock(mutex);
      if (!fatal) fatal = e;
    }
    changed.notify_all();
  }

  void run_session(int id) {
    std::unique_ptr<SegmentDecoder> session;
    // Session 0 with the reader's decoder: the first piece, cut before it opens.
    Segment* first_piece = nullptr;
    bool adopted = false;
    if (id == 0 && adopting) {
      try {
        first_piece = take_piece(id);
      } catch (const Stopped&) {
        return;
      } catch (...) {
        fail_run(std::current_exception());
        return;
      }
      adopted = first_piece && int64_t(first_piece->packets.size()) >= setup.sent;
      if (adopted) {
        session = std::move(setup.adopted);
        startup::tally("first decoders kept as session 0", 0.0);
      } else {
        setup.first.reset();
        setup.adopted.reset();  // closed: session 0 opens afresh
      }
    }
    try {
      if (!session) {
        const auto start = std::chrono::steady_clock::now();
        session = setup.open_session(id);
        startup::tally(
            "decoder sessions opened",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      mark("session opened");
      bool all = false;
      {
        std::lock_guard lock(mutex);
        all = ++sessions_opened == int(frames_ahead.size());
      }
      if (all) mark("sessions opened");
    } catch (const std::exception& e) {
      // The other sessions decode the whole stream; without any, the run fails.
      std::lock_guard lock(mutex);
      if (first_piece) {  // already this session's: the run fails with it
        first_piece->error = std::make_exception_ptr(InputError(
            fmt::format("{}: a decoder session does not open: {}", setup.name, e.what())));
        first_piece->done = true;
      }
      if (++sessions_refused == int(frames_ahead.size()) && !fatal)
        fatal = std::make_exception_ptr(
            InputError(fmt::format("{}: no decoder session opens: {}", setup.name, e.what())));
      changed.notify_all();
      return;
    }
    try {
      FramePtr frame(ffmpeg().av_frame_alloc());
      if (!frame) throw std::bad_alloc();
      Run run{*this, *session, id, frame.get(), {}, std::chrono::steady_clock::now()};
      try {
        if (first_piece) {
          if (adopted)
            run.add(*first_piece, setup.sent, setup.first.get());
          else
            run.add(*first_piece);
        }
        for (;;) {
          Segment* s = take_piece(id);
          if (!s) break;
          run.add(*s);
        }
        if (!run.open.empty()) run.drain();
      } catch (const Stopped&) {
        throw;
      } catch (...) {
        run.fail_open();
      }
    } catch (const Stopped&) {
    } catch (...) {
      fail_run(std::current_exception());
    }
  }
};

SegmentedDecoding::SegmentedDecoding(SegmentedDecodingSetup setup) : s_(std::make_unique<State>()) {
  s_->setup = std::move(setup);
  s_->adopting = s_->setup.adopted != nullptr;
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
