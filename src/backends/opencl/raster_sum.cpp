// The raster-order sum on an OpenCL device (docs/architecture.md, "The raster-order sum on
// devices"): the geometry of a call (where each array's chunks and blocks are, the workspace's
// parts) and the four launches of raster_sum.cl.
#include "backends/opencl/raster_sum.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/binade_step.h"
#include "core/error.h"

namespace exactvq::opencl {

namespace {

static_assert(RasterSums::kLeastGroup == EXACTVQ_RASTER_BLOCK_CHUNKS);

// raster_geometry in raster_sum.cl, field for field (all 64-bit, no padding): the plan
// (core/raster_sum_layout.h), then where the workspace's parts start.
struct Geometry {
  RasterPlan plan;
  cl_long approx_at, candidates_at, chunk_records_at, block_records_at;
};
static_assert(sizeof(RasterPlan) == 44 * 8 && sizeof(Geometry) == 48 * 8);
static_assert(sizeof(exactvq_run_record) == 56);

constexpr int64_t align8(int64_t n) { return (n + 7) / 8 * 8; }

Geometry geometry_of(const RasterSumLayout& layout) {
  Geometry g{};
  g.plan = plan_raster_sum(layout);
  const int64_t chunks = g.plan.chunks();
  g.approx_at = 0;
  g.candidates_at = align8(chunks * 4);  // binary32 approximate sums
  g.chunk_records_at = g.candidates_at + align8(chunks * 4);
  g.block_records_at = g.chunk_records_at + chunks * int64_t(sizeof(exactvq_run_record));
  return g;
}

int64_t workspace_bytes(const Geometry& g) {
  return g.block_records_at + g.plan.blocks() * int64_t(sizeof(exactvq_run_record));
}

}  // namespace

size_t raster_sum_workspace_bytes(const RasterSumLayout& layout) {
  return size_t(workspace_bytes(geometry_of(layout)));
}

RasterSums::RasterSums(DeviceContext& context, cl_program program, size_t largest_group)
    : context_(context),
      approximate_(context.kernel(program, "raster_approximate_sums")),
      candidates_(context.kernel(program, "raster_chunk_candidates")),
      records_(context.kernel(program, "raster_run_records")),
      replay_(context.kernel(program, "raster_replay")) {
  const cl_device_id d = context.device();
  const size_t cap = std::min(largest_group, kLargestGroup);
  block_group_ = std::min(work_group_size(approximate_.get(), d, cap),
                          work_group_size(records_.get(), d, cap));
  array_group_ = work_group_size(candidates_.get(), d, cap);
  replay_group_ = work_group_size(replay_.get(), d, std::min<size_t>(cap, 64));
  if (block_group_ < kLeastGroup)
    throw DeviceError(fmt::format("raster sum: work-groups of {} items are too small (at least {})",
                                  block_group_, kLeastGroup));
}

void RasterSums::enqueue(const RasterSumLayout& layout, cl_mem sums, cl_mem workspace) {
  const Geometry g = geometry_of(layout);
  const int64_t arrays = g.plan.frames * g.plan.arrays, blocks = g.plan.blocks();
  if (arrays == 0) return;
  if (layout.terms == nullptr && blocks > 0) throw DeviceError("raster sum: no term buffer");
  const cl_mem terms =
      layout.terms ? layout.terms : sums;  // a replay of empty arrays reads no term
  if (blocks > 0) {
    set_args(approximate_.get(), g, terms, workspace);
    const size_t block_items = size_t(blocks) * block_group_;
    context_.run(approximate_.get(), 1, &block_items, &block_group_,
                 "raster sum: approximate chunk sums");
    set_args(candidates_.get(), g, workspace);
    const size_t array_items = size_t(arrays) * array_group_;
    context_.run(candidates_.get(), 1, &array_items, &array_group_,
                 "raster sum: candidate exponents");
    set_args(records_.get(), g, terms, workspace);
    context_.run(records_.get(), 1, &block_items, &block_group_, "raster sum: records");
  }
  set_args(replay_.get(), g, terms, workspace, sums);
  const size_t replay_items = size_t(arrays) * replay_group_;
  context_.run(replay_.get(), 1, &replay_items, &replay_group_, "raster sum: replay");
}

}  // namespace exactvq::opencl
