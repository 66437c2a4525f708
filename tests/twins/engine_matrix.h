// The engine rows: every metric's engine (metrics/<metric>/engine.h, made by its
// make_engine) on every device, from one description of the metric, its traits.
// Each case is a batch of frame pairs numbered as a run numbers them, compared
// with the scalar reference byte for byte:
// - a frame engine scores the batch, then its first pair again, loose (no
//   sharing, no page-locking);
// - a temporal engine (motion) scores the batch as two calls, the second
//   continuing the run; then, new, handed the first frame (hold, as an MPI rank
//   starts inside a video), the rest; then, new, handed all but the last, the
//   last loose.
// Rows: <name>/cpu-<target> on every Highway target, /split-cpu3 (three CPU
// devices as one), /cuda-native and /cuda-emulate where the metric has the
// fp64 option (else /cuda), /opencl. The split and emulated rows leave out the
// full-size cases: they reach no code there that the small ones miss, and the
// other rows time them.
//
// A metric's traits (one file of this folder each: <metric>_engine_rows.cpp):
//   using Setup;  static constexpr const char* kName;
//   static std::vector<Case> cases();   case.a: the batch's frames (2 or more if temporal)
//   static Setup setup(const Case&);    its pool and fp64 mode are the row's
//   static void reference(const FramePairs&, size_t frame, const Setup&, std::span<Value> out);
// and, where the default does not fit:
//   static bool scores(const Setup&);   false: no value at all, no bytes (default: true)
//   static void put_values(Bytes&, std::span<const Value>, const Setup&);   (default: every byte)
//   static constexpr const char* kNoDeviceEngine;   why the GPU rows are skipped (a metric
//                                                   with a CPU engine only, for now)
// Setup::planes values a frame; the engine is the one make_engine(Device&,
// const Setup&) makes, the metric's; the fp64 rows are there where the setup
// (or its options) has fp64. It registers its rows with register_engine_rows<Traits>().
#pragma once

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/thread_pool.h"
#include "cpu_rows.h"
#include "frame_pairs.h"
#include "metrics/engine.h"
#include "metrics/fp64_mode.h"
#include "twin_devices.h"
#include "twin_table.h"

namespace exactvq::twins {

inline ThreadPool& engine_pool() {
  static ThreadPool pool(2);
  return pool;
}

// The engine of a metric's setup, whether it is temporal, and its fp64 mode
// where it has one.
template <typename Setup>
using EngineOf = typename decltype(make_engine(std::declval<Device&>(),
                                               std::declval<const Setup&>()))::element_type;

template <typename Setup>
constexpr bool kTemporal = std::is_base_of_v<TemporalEngineBase, EngineOf<Setup>>;

template <typename Setup>
constexpr bool kHasFp64 = requires(Setup s) {
  s.fp64;
}
|| requires(Setup s) { s.options.fp64; };

template <typename Setup>
void set_fp64(Setup& s, Fp64Mode mode) {
  if constexpr (requires { s.fp64; })
    s.fp64 = mode;
  else if constexpr (requires { s.options.fp64; })
    s.options.fp64 = mode;
}

template <typename Traits>
bool scores(const typename Traits::Setup& s) {
  if constexpr (requires { Traits::scores(s); })
    return Traits::scores(s);
  else
    return true;
}

template <typename Traits, typename Value>
void put_values(Bytes& out, std::span<const Value> v, const typename Traits::Setup& s) {
  if constexpr (requires { Traits::put_values(out, v, s); })
    Traits::put_values(out, v, s);
  else
    put(out, v.data(), v.size());
}

// The engine's values for the case's batch, as the header says, in bytes.
template <typename Traits>
Bytes engine_bytes(Device& device, const typename Traits::Setup& s, const FramePairs& in) {
  using Engine = EngineOf<typename Traits::Setup>;
  using Value = typename Engine::Value;
  Bytes out;
  if (!scores<Traits>(s)) return out;
  const size_t per = size_t(s.planes);
  const auto values = [&](Engine& engine, std::span<const FramePair> pairs) {
    std::vector<Value> v(pairs.size() * per);
    engine.score(pairs, v);
    put_values<Traits, Value>(out, v, s);
  };
  // One engine at a time: making one may make the device forget the last one's run.
  const auto make = [&] { return make_engine(device, s); };
  const std::span<const FramePair> all(in.pairs);
  if constexpr (kTemporal<typename Traits::Setup>) {
    const size_t n = all.size();  // 2 or more
    {
      auto run = make();
      values(*run, all.first(n / 2));
      values(*run, all.subspan(n / 2));
    }
    {
      auto resumed = make();
      resumed->hold(all.first(1));
      values(*resumed, all.subspan(1));
    }
    auto last = make();
    last->hold(all.first(n - 1));
    const FramePair loose{all[n - 1].ref, all[n - 1].dist, FramePair::kLoose};
    values(*last, {&loose, 1});
  } else {
    auto engine = make();
    values(*engine, all);
    const FramePair loose{all[0].ref, all[0].dist, FramePair::kLoose};
    values(*engine, {&loose, 1});
  }
  return out;
}

// The scalar reference's values in the order engine_bytes writes the engine's.
template <typename Traits>
Bytes reference_bytes(const typename Traits::Setup& s, const FramePairs& in) {
  using Value = typename EngineOf<typename Traits::Setup>::Value;
  Bytes out;
  if (!scores<Traits>(s)) return out;
  const size_t per = size_t(s.planes), n = in.pairs.size();
  std::vector<Value> v(n * per);
  for (size_t i = 0; i < n; ++i) Traits::reference(in, i, s, std::span(v).subspan(i * per, per));
  const std::span<const Value> all(v);
  put_values<Traits>(out, all, s);
  if constexpr (kTemporal<typename Traits::Setup>) {
    put_values<Traits>(out, all.subspan(per), s);            // resumed after the first frame
    put_values<Traits>(out, all.subspan((n - 1) * per), s);  // the last frame, loose
  } else {
    put_values<Traits>(out, all.first(per), s);  // the first pair, loose
  }
  return out;
}

// Cases a split or emulated row leaves out.
inline bool full_size(const Case& c) { return int64_t(c.width) * c.height >= 1280 * 720; }

template <typename Traits>
Row engine_row(const std::string& suffix, std::shared_ptr<Device> (*device)(), Fp64Mode fp64,
               bool small_only) {
  Row r;
  r.name = std::string(Traits::kName) + suffix;
  r.reference_key = Traits::kName;
  r.cases = [small_only] {
    std::vector<Case> all = Traits::cases();
    if (small_only) std::erase_if(all, full_size);
    return all;
  };
  r.prepare = [device, fp64](const Case& c) {
    typename Traits::Setup s = Traits::setup(c);
    s.pool = &engine_pool();
    set_fp64(s, fp64);
    auto in = std::make_shared<FramePairs>(s.format, c.a, c.seed);
    Prepared p;
    p.twin = [device, s, in] { return engine_bytes<Traits>(*device(), s, *in); };
    p.reference = [s, in] { return reference_bytes<Traits>(s, *in); };
    return p;
  };
  // Frames scored: the batch and a pair again; a temporal engine's twice.
  r.work = [](const Case& c) {
    return double(c.width) * c.height * (kTemporal<typename Traits::Setup> ? 2 * c.a : c.a + 1);
  };
  return r;
}

template <typename Traits>
void register_engine_rows() {
  register_per_target(engine_row<Traits>("", cpu_twin_device, Fp64Mode::kAuto, false));
  register_row(engine_row<Traits>("/split-cpu3", split_cpu_device, Fp64Mode::kAuto, true));
  const auto cuda = [] { return cuda_device().device; };
  const auto cuda_row = [&](const std::string& suffix, Fp64Mode fp64, bool small_only) {
    Row r = engine_row<Traits>(suffix, cuda, fp64, small_only);
    r.unavailable = [] { return cuda_device().why; };
    if constexpr (requires { Traits::kNoDeviceEngine; })
      r.unavailable = [] { return std::string(Traits::kNoDeviceEngine); };
    register_row(std::move(r));
  };
  if constexpr (kHasFp64<typename Traits::Setup>) {
    cuda_row("/cuda-native", Fp64Mode::kNative, false);
    cuda_row("/cuda-emulate", Fp64Mode::kEmulate, true);
  } else {
    cuda_row("/cuda", Fp64Mode::kAuto, false);
  }
  Row opencl = engine_row<Traits>("/opencl", opencl_device, Fp64Mode::kAuto, false);
  opencl.unavailable = opencl_missing;
  if constexpr (requires { Traits::kNoDeviceEngine; })
    opencl.unavailable = [] { return std::string(Traits::kNoDeviceEngine); };
  register_row(std::move(opencl));
}

}  // namespace exactvq::twins
