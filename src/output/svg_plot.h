// A self-contained SVG chart of a run's per-frame scores (`--plot FILE.svg`).
#pragma once

#include <iosfwd>
#include <string>

#include "output/report.h"

namespace exactvq {

// How many of a feature's lowest-scoring frames are marked.
inline constexpr int kPlotWorstFrames = 5;

// Writes one panel per feature (its own y axis, the frame numbers on x): the scores as
// a line (broken where a value is not finite), the pooled mean as a dashed line, the
// kPlotWorstFrames lowest frames circled and labelled, a legend and `title` on top.
// Plain SVG 1.1 with no scripts, fonts or external references. Elements carry classes
// (panel, series, mean, worst-frame, tick, legend-item) for tools and tests.
void write_svg_plot(std::ostream& out, const ScoreReport& r, const std::string& title);

}  // namespace exactvq
