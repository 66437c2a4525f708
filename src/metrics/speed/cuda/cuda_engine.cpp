// The SpEED engines on a CUDA device: on the frames the device's runner
// uploads once for every engine of the run, each pair of planes scored by
// speed_kernels.h's kernels (the conversion, speed_temporal's difference, the
// prescale, the filters a side at a time; the window means and covariance
// sums, each block's solution, variance and entropy and each block's term of
// the score a run of sides at a time), with the 25 x 25 matrix's eigenvalues
// and QR decomposition on the host between them (device_plan.h). A batch is
// scored in two stages: every chunk's pairs up to their covariance sums,
// copied to the host, as the runner enqueues the chunk; then, in finish(),
// once those copies are done, every side's solver found on the setup's pool
// side by side, the solvers uploaded at once, and every pair's blocks and
// terms enqueued into the batch's Words, which the runner reads back once.
// The runner's thread so waits a few times a batch (a lane's sums, the
// read-back), not at each pair.
// Binary64 steps native or, under fp64=emulate (or auto on a card with slow
// fp64), on softfp: the same bits. speed_temporal keeps the run's last luma
// pair on the device (hold() uploads given ones), so a run's bits do not
// depend on how its frames are batched or chunked.
#include <algorithm>
#include <memory>
#include <optional>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/runner_engine.h"
#include "core/error.h"
#include "metrics/speed/cuda/speed_kernels.h"
#include "metrics/speed/device_plan.h"
#include "metrics/speed/engine.h"

namespace exactvq::speed {

namespace {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses
using speed::cuda::SpeedShape;
using speed::cuda::SpeedSide;

// The buffers and steps that score a batch's pairs of one plane size on a
// device, in two stages: each pair's first (enqueue_sums: the planes to the
// residuals) on its chunk's stream as the chunk arrives, then the chunk's
// statistics and their copy to the host (read_sums); then, once a batch, every
// side's solver found on the host side by side (solve_pairs) once the sums are
// there (a wait for SpEED's own work only: the other engines' kernels run on),
// the solvers uploaded at once and every pair's second stage (the blocks and
// terms, into the batch's Words) enqueued.
class BatchScorer {
 public:
  // At most `pairs` pairs a batch; Words of words_per_pair() each.
  BatchScorer(const DevicePlan& plan, bool emulate_fp64, size_t pairs)
      : plan_(plan), emulate_(emulate_fp64), pairs_(pairs) {
    const Dimensions& d = plan.dim;
    const size_t plane = size_t(plan.width) * size_t(plan.height);
    down_ = size_t(d.operating_width) * size_t(d.operating_height);
    const size_t blocks = size_t(d.blocks);
    // A lane's planes: the lanes' chunks run at once.
    for (Lane& lane : lanes_) {
      lane.down = DeviceBuffer(down_ * sizeof(float));
      if (!plan.resample) continue;
      lane.plane = DeviceBuffer(plane * sizeof(float));
      lane.source =
          DeviceBuffer(size_t(plan.source_width) * size_t(plan.source_height) * sizeof(float));
    }
    // A side's from its first stage to its second.
    side_floats_ = down_ + 2 * blocks;
    const size_t sides = 2 * pairs;
    side_storage_ = DeviceBuffer(sides * side_floats_ * sizeof(float));
    sums_ = DeviceBuffer(sides * kCovariancePairs * sizeof(uint64_t));
    sums_host_ = PinnedBuffer(sides * kCovariancePairs * sizeof(uint64_t));
    solvers_ = DeviceBuffer(sides * kSolverFloats * sizeof(float));
    solvers_host_ = PinnedBuffer(sides * kSolverFloats * sizeof(float));
    singular_device_ = DeviceBuffer(sides * sizeof(int));
    singular_host_ = PinnedBuffer(sides * sizeof(int));
    active_ = std::make_unique<bool[]>(pairs);
    singular_ = std::make_unique<bool[]>(sides);
    taps_ = DeviceBuffer(2 * sizeof plan.antialias.taps);
    check(cudaMemcpy(taps_.get<float>(), plan.antialias.taps, sizeof plan.antialias.taps,
                     cudaMemcpyHostToDevice),
          "upload of SpEED's filter taps");
    check(cudaMemcpy(taps_.get<float>() + 128, plan.local_mean.taps, sizeof plan.local_mean.taps,
                     cudaMemcpyHostToDevice),
          "upload of SpEED's filter taps");
    if (plan.resample) {
      const auto upload = [](DeviceBuffer& b, const auto& v) {
        b = DeviceBuffer(v.size() * sizeof v[0]);
        check(cudaMemcpy(b.get(), v.data(), v.size() * sizeof v[0], cudaMemcpyHostToDevice),
              "upload of SpEED's prescale tables");
      };
      upload(column_index_, plan.columns.index);
      upload(column_weight_, plan.columns.weight);
      upload(row_index_, plan.rows.index);
      upload(row_weight_, plan.rows.weight);
      shape_.resample_method = plan.method;
      shape_.resample_taps = plan.columns.taps;
      shape_.column_index = column_index_.get<int>();
      shape_.column_weight = column_weight_.get<float>();
      shape_.row_index = row_index_.get<int>();
      shape_.row_weight = row_weight_.get<float>();
    }
    // Pageable copies may still be in flight when cudaMemcpy returns, and the lanes'
    // non-blocking streams do not wait for the default stream: wait here, once.
    check(cudaDeviceSynchronize(), "upload of SpEED's filter taps");
    shape_.source_width = plan.source_width;
    shape_.source_height = plan.source_height;
    shape_.width = plan.width;
    shape_.height = plan.height;
    shape_.dw = d.operating_width;
    shape_.dh = d.operating_height;
    shape_.sub_w = d.submatrix_width;
    shape_.sub_h = d.submatrix_height;
    shape_.blocks_horizontal = d.blocks_horizontal;
    shape_.blocks = d.blocks;
    shape_.antialias = taps_.get<float>();
    shape_.antialias_count = plan.antialias.count;
    shape_.local_mean = taps_.get<float>() + 128;
    shape_.local_mean_count = plan.local_mean.count;
    shape_.window_count = plan.window_count;
    shape_.sigma_nn = plan.sigma_nn;
    shape_.log2_2pie_bits = plan.log2_2pie_bits;
    // A side's windows are staged in shared memory where a block may have that much.
    int device = 0, shared_limit = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&shared_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
          "the device's shared memory a block");
    const size_t staged = speed::cuda::speed_staged_bytes(shape_);
    shape_.staged_bytes = staged <= size_t(shared_limit) ? int(staged) : 0;
  }

  size_t words_per_pair() const { return speed::words_per_pair(plan_.dim.blocks, emulate_); }

  // The first stage of the batch's pair `pair` up to its residuals, (a_ref [- b_ref], a_dis [-
  // b_dis]) of `bitdepth`-bit planes `src_w` samples a row (b_* null: no difference), on `stream`,
  // `lane`'s.
  void enqueue_sums(size_t pair, int lane, const void* a_ref, const void* b_ref, const void* a_dis,
                    const void* b_dis, int src_w, int bitdepth, cudaStream_t stream) {
    if (pair >= pairs_) throw DeviceError("SpEED: a batch holds more pairs than its buffers");
    const void* as[2] = {a_ref, a_dis};
    const void* bs[2] = {b_ref, b_dis};
    SpeedShape shape = shape_;
    shape.source = lanes_[size_t(lane)].source.get<float>();
    for (int i = 0; i < 2; ++i) {
      const SpeedSide s = side(2 * pair + size_t(i), lane);
      speed::cuda::launch_speed_residual(as[i], bs[i], bitdepth, src_w, shape, s, stream);
    }
    active_[pair] = true;
  }

  // After a chunk's first stages (its pairs first_pair .. + pairs) on
  // `stream`, `lane`'s: their statistics, and their sums to the host.
  void read_sums(size_t first_pair, size_t pairs, int lane, cudaStream_t stream) {
    for_active_runs(first_pair, pairs, [&](const speed::cuda::SpeedSides& run) {
      speed::cuda::launch_speed_statistics(shape_, run, emulate_, stream);
    });
    const size_t first = 2 * first_pair * kCovariancePairs, n = 2 * pairs * kCovariancePairs;
    check(cudaMemcpyAsync(sums_host_.get<uint64_t>() + first, sums_.get<uint64_t>() + first,
                          n * sizeof(uint64_t), cudaMemcpyDeviceToHost, stream),
          "read-back of SpEED's sums");
    check(cudaEventRecord(sums_copied_[size_t(lane)].get(), stream), "read-back of SpEED's sums");
    sums_pending_[size_t(lane)] = true;
  }

  // After the first stage and read_sums of the batch's pairs (those below
  // `pairs`), on `stream`, which runs after every lane's work so far: the host
  // step, then each pair's second stage into `words` (words_per_pair() a pair,
  // pair after pair). Waits for each lane's last read_sums. `pool` may be null.
  void enqueue_blocks(size_t pairs, cudaStream_t stream, ThreadPool* pool, uint32_t* words) {
    const size_t sides = 2 * pairs;
    for (int lane = 0; lane < FrameUploader::kLanes; ++lane) {
      if (!sums_pending_[size_t(lane)]) continue;
      check(cudaEventSynchronize(sums_copied_[size_t(lane)].get()), "read-back of SpEED's sums");
      sums_pending_[size_t(lane)] = false;
    }
    solve_pairs(sums_host_.get<uint64_t>(), active_.get(), pairs, plan_.dim, pool,
                solvers_host_.get<float>(), singular_.get());
    check(cudaMemcpyAsync(solvers_.get(), solvers_host_.get(),
                          sides * kSolverFloats * sizeof(float), cudaMemcpyHostToDevice, stream),
          "upload of SpEED's solvers");
    for (size_t i = 0; i < sides; ++i) singular_host_.get<int>()[i] = singular_[i] ? 1 : 0;
    check(cudaMemcpyAsync(singular_device_.get(), singular_host_.get(), sides * sizeof(int),
                          cudaMemcpyHostToDevice, stream),
          "upload of SpEED's solvers");
    for_active_runs(0, pairs, [&](speed::cuda::SpeedSides run) {
      run.words = words;
      speed::cuda::launch_speed_blocks(shape_, run, emulate_, stream);
      speed::cuda::launch_speed_terms(shape_, run, plan_.base_entropy, plan_.weight_var_mode,
                                      emulate_, stream);
    });
  }

  // The batch's pair `pair` (its first stage enqueued this batch) from its
  // Words as read back; then marks it done.
  PairScore take(size_t pair, const uint32_t* words, const char* feature) {
    active_[pair] = false;
    return pair_score_of_words(words + pair * words_per_pair(), plan_.dim.blocks, emulate_,
                               singular_[2 * pair], singular_[2 * pair + 1], feature);
  }
  bool active(size_t pair) const { return active_[pair]; }
  // No pair enqueued (a run starts; an earlier one may have failed midway,
  // and the runner then waited for every lane).
  void clear() {
    std::fill_n(active_.get(), pairs_, false);
    for (bool& pending : sums_pending_) pending = false;
  }

 private:
  struct Lane {
    DeviceBuffer plane, down, source;
  };

  // f(sides) for each run of consecutive pairs among first_pair .. + pairs
  // whose first stage is enqueued (their sides, whole pairs).
  template <class F>
  void for_active_runs(size_t first_pair, size_t pairs, F&& f) const {
    const size_t end = std::min(first_pair + pairs, pairs_);
    for (size_t p = first_pair; p < end;) {
      if (!active_[p]) {
        ++p;
        continue;
      }
      size_t q = p;
      while (q < end && active_[q]) ++q;
      speed::cuda::SpeedSides run;
      run.storage = side_storage_.get<float>();
      run.side_floats = side_floats_;
      run.down = down_;
      run.sums = sums_.get<uint64_t>();
      run.solvers = solvers_.get<float>();
      run.solver_floats = kSolverFloats;
      run.singular = singular_device_.get<int>();
      run.words_per_pair = words_per_pair();
      run.flags = emulate_;
      run.first = int(2 * p);
      run.count = int(2 * (q - p));
      f(run);
      p = q;
    }
  }

  // Side `i` of the batch (pair i / 2), with `lane`'s planes.
  SpeedSide side(size_t i, int lane) const {
    SpeedSide s;
    const Lane& l = lanes_[size_t(lane)];
    s.plane = l.plane.get<float>();
    s.down = l.down.get<float>();
    s.residual = side_storage_.get<float>() + i * side_floats_;
    return s;
  }

  DevicePlan plan_;
  bool emulate_;
  size_t pairs_;
  size_t down_ = 0, side_floats_ = 0;
  SpeedShape shape_;
  Lane lanes_[FrameUploader::kLanes];
  DeviceBuffer side_storage_;  // a side's residual, block entropies and variances
  DeviceBuffer sums_, solvers_, singular_device_;
  PinnedBuffer sums_host_, solvers_host_, singular_host_;
  Event sums_copied_[FrameUploader::kLanes];  // each lane's last read_sums
  bool sums_pending_[FrameUploader::kLanes] = {};
  std::unique_ptr<bool[]> active_;    // a pair each: its first stage is enqueued this batch
  std::unique_ptr<bool[]> singular_;  // a side each, after enqueue_blocks
  DeviceBuffer taps_;
  DeviceBuffer column_index_, column_weight_, row_index_, row_weight_;
};

// The batch's Words: each pair's (BatchScorer::words_per_pair), pair after pair.
using Word = uint32_t;

}  // namespace

namespace chroma::cuda {

namespace {

// Frame f's U and V are the batch's pairs 2f and 2f + 1.
class CudaEngine final : public RunnerEngine<Engine, Word> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 3, 2, "the SpEED scores"),
        setup_(s),
        plan_(make_device_plan(chroma_width(s.format), chroma_height(s.format), s.options)),
        emulate_(emulates_fp64(s.options.fp64, device.emulate_by_default())) {
    join(2 * words_per_pair(plan_.dim.blocks, emulate_));
  }

 private:
  void allocate() override { scorer_.emplace(plan_, emulate_, 2 * size_t(batch_frames())); }
  void begin(size_t frames) override {
    RunnerEngine::begin(frames);
    scorer_->clear();
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    for (int i = 0; i < chunk.count; ++i)
      for (int p = 1; p <= 2; ++p) {
        const DevicePlanes& planes = chunk.planes[p];
        const auto* ref =
            static_cast<const unsigned char*>(planes.ref) + size_t(i) * planes.frame_stride;
        const auto* dist =
            static_cast<const unsigned char*>(planes.dist) + size_t(i) * planes.frame_stride;
        scorer_->enqueue_sums(size_t(chunk.start + i) * 2 + size_t(p - 1), chunk.lane, ref, nullptr,
                              dist, nullptr, planes.width, setup_.format.bitdepth, chunk.stream);
      }
    scorer_->read_sums(size_t(chunk.start) * 2, size_t(chunk.count) * 2, chunk.lane, chunk.stream);
  }

  // The host step and the second stage, then the one read-back of the Words.
  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    scorer_->enqueue_blocks(2 * count, uploader.join_lanes(), setup_.pool, device_words());
    RunnerEngine::finish(base, count, uploader);
  }

  void to_values(const Word* words, size_t count, PairScore* out) override {
    for (size_t i = 0; i < 2 * count; ++i) out[i] = scorer_->take(i, words, "speed_chroma");
  }

  EngineSetup setup_;
  DevicePlan plan_;
  bool emulate_;
  std::optional<BatchScorer> scorer_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace chroma::cuda

namespace temporal::cuda {

namespace {

// Frame f is the batch's pair f.
class CudaEngine final : public RunnerEngine<Engine, Word> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 1, 1, "the SpEED scores"),
        setup_(s),
        plan_(make_device_plan(s.format.width, s.format.height, s.options)),
        emulate_(emulates_fp64(s.options.fp64, device.emulate_by_default())) {
    const VideoFormat& f = s.format;
    plane_bytes_ = size_t(f.width) * size_t(f.height) * (f.bitdepth > 8 ? 2 : 1);
    // (A plane SpEED cannot score has no blocks; its engine never scores.)
    join(std::max<size_t>(1, words_per_pair(plan_.dim.blocks, emulate_)));
  }

  void hold(std::span<const FramePair> before) override {
    check(cudaSetDevice(runner().ordinal()), "cudaSetDevice");
    ensure_buffers();
    held_ = false;
    if (before.empty()) return;
    const size_t row_bytes = size_t(setup_.format.width) * (setup_.format.bitdepth > 8 ? 2 : 1);
    const PlaneView r = before.back().ref->plane(0), d = before.back().dist->plane(0);
    check(cudaMemcpy2D(previous_.get(), row_bytes, r.data, size_t(r.stride), row_bytes,
                       size_t(r.height), cudaMemcpyDefault),
          "upload of the pictures speed_temporal compares with");
    check(cudaMemcpy2D(previous_.get() + plane_bytes_, row_bytes, d.data, size_t(d.stride),
                       row_bytes, size_t(d.height), cudaMemcpyDefault),
          "upload of the pictures speed_temporal compares with");
    // A pageable copy may still be in flight when cudaMemcpy2D returns, and the
    // lanes' non-blocking streams do not wait for the default stream.
    check(cudaStreamSynchronize(nullptr), "upload of the pictures speed_temporal compares with");
    held_ = true;
  }

 private:
  void allocate() override {
    previous_ = DeviceBuffer(2 * plane_bytes_);
    kept_.emplace();
  }
  void begin(size_t frames) override {
    RunnerEngine::begin(frames);
    if (scorer_) scorer_->clear();
  }
  // The kept pair is the run's previous frame: each frame once, in order.
  bool joins_others() const override { return false; }

  // Frame i against frame i - 1 of the chunk, the first against the pair kept
  // from the run's previous frame; the chunk's last pair is kept then. The
  // next chunk (perhaps on another lane) waits for that copy by an event.
  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    const DevicePlanes& luma = chunk.planes[0];
    const auto ref = [&](int i) -> const void* {
      return i < 0 ? previous_.get()
                   : static_cast<const unsigned char*>(luma.ref) + size_t(i) * luma.frame_stride;
    };
    const auto dist = [&](int i) -> const void* {
      return i < 0 ? previous_.get() + plane_bytes_
                   : static_cast<const unsigned char*>(luma.dist) + size_t(i) * luma.frame_stride;
    };
    if (kept_recorded_)
      check(cudaStreamWaitEvent(chunk.stream, kept_->get(), 0), "a picture speed_temporal keeps");
    for (int i = 0; i < chunk.count; ++i) {
      if (i == 0 && !held_) continue;
      if (!scorer_) scorer_.emplace(plan_, emulate_, size_t(batch_frames()));
      scorer_->enqueue_sums(size_t(chunk.start + i), chunk.lane, ref(i - 1), ref(i), dist(i - 1),
                            setup_.options.use_ref_diff ? ref(i) : dist(i), luma.width,
                            setup_.format.bitdepth, chunk.stream);
    }
    if (scorer_)
      scorer_->read_sums(size_t(chunk.start), size_t(chunk.count), chunk.lane, chunk.stream);
    const int last = chunk.count - 1;
    check(cudaMemcpyAsync(previous_.get(), ref(last), plane_bytes_, cudaMemcpyDeviceToDevice,
                          chunk.stream),
          "a picture speed_temporal keeps");
    check(cudaMemcpyAsync(previous_.get() + plane_bytes_, dist(last), plane_bytes_,
                          cudaMemcpyDeviceToDevice, chunk.stream),
          "a picture speed_temporal keeps");
    check(cudaEventRecord(kept_->get(), chunk.stream), "a picture speed_temporal keeps");
    kept_recorded_ = true;
    held_ = true;
  }

  // The host step and the second stage, then the one read-back of the Words.
  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    if (scorer_) scorer_->enqueue_blocks(count, uploader.join_lanes(), setup_.pool, device_words());
    RunnerEngine::finish(base, count, uploader);
  }

  // {0, false} for a frame with none before it.
  void to_values(const Word* words, size_t count, PairScore* out) override {
    for (size_t i = 0; i < count; ++i)
      out[i] =
          scorer_ && scorer_->active(i) ? scorer_->take(i, words, "speed_temporal") : PairScore{};
  }

  EngineSetup setup_;
  DevicePlan plan_;
  bool emulate_;
  size_t plane_bytes_ = 0;
  bool held_ = false;
  DeviceBuffer previous_;      // the last reference luma, then the last distorted luma
  std::optional<Event> kept_;  // recorded after the last copy into previous_
  bool kept_recorded_ = false;
  std::optional<BatchScorer> scorer_;  // made with the first score (the plane is scoreable then)
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace temporal::cuda

}  // namespace exactvq::speed
