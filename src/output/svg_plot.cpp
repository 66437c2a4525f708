// The per-frame chart: one panel per feature, drawn as plain SVG text.
#include "output/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

namespace exactvq {

namespace {

// Page geometry in SVG user units (pixels).
constexpr double kWidth = 960;
constexpr double kLeft = 90, kRight = 30;  // room for y tick labels and the axis name
constexpr double kTop = 84;                // title and legend
constexpr double kPanelHeight = 190;
constexpr double kPanelGap = 56;  // x tick labels between panels
constexpr double kBottom = 46;    // the x axis name under the last panel
constexpr double kPlotWidth = kWidth - kLeft - kRight;

// Series colours (the worst-frame red is kept apart from them).
constexpr const char* kPalette[] = {"#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e",
                                    "#8c564b", "#17becf", "#e377c2", "#7f7f7f"};
constexpr const char* kWorstColour = "#d62728";
constexpr const char* kMeanColour = "#333333";

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
          out += '?';
        else
          out += c;
    }
  }
  return out;
}

// A coordinate, two decimals, no locale.
std::string coord(double v) { return fmt::format("{:.2f}", v); }

// A value as a reader wants it in a label: six significant decimals.
std::string value_label(double v) { return fmt::format("{:.6g}", v); }

// An axis range with round tick values: 1, 2 or 5 times a power of ten apart.
struct Axis {
  double lo = 0, hi = 1, step = 0.2;
  int decimals = 1;  // fixed decimals of the labels; -1: six significant digits
  std::vector<double> ticks() const {
    std::vector<double> t;
    const double n = std::round(hi / step - lo / step);
    for (int i = 0; i <= int(std::min(n, 20.0)); ++i) {
      double v = lo + double(i) * step;
      if (std::fabs(v) < step * 1e-9) v = 0;  // no "-0.000"
      t.push_back(v);
    }
    return t;
  }
  std::string label(double v) const {
    return decimals < 0 ? fmt::format("{:.6g}", v) : fmt::format("{:.{}f}", v, decimals);
  }
};

Axis nice_axis(double lo, double hi, bool integers) {
  if (!(hi > lo)) {
    const double pad = std::max(std::fabs(lo) * 1e-3, integers ? 1.0 : 1e-3);
    lo -= pad;
    hi += pad;
  }
  const double raw = hi / 5 - lo / 5;  // no overflow at the ends of the double range
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * power;
    if (step >= raw) break;
  }
  if (integers) step = std::max(1.0, std::round(step));
  Axis a;
  if (!std::isnormal(step) || !std::isfinite(step * 10)) {
    // Extreme magnitudes: the data's own ends, six ticks, general-format labels.
    a.lo = lo;
    a.hi = hi;
    a.step = raw;
    a.decimals = -1;
    return a;
  }
  a.step = step;
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  const int decimals = integers ? 0 : std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
  const bool huge = std::max(std::fabs(a.lo), std::fabs(a.hi)) >= 1e12;
  a.decimals = decimals > 9 || huge ? -1 : decimals;
  if (!std::isfinite(a.lo) || !std::isfinite(a.hi)) {
    a.lo = lo;
    a.hi = hi;
    a.step = raw;
  }
  return a;
}

struct Point {
  double x, y;
};

// The frames to draw for one series, in frame order: every frame when they fit the
// plot's width a few times over, else per pixel column its lowest and highest value
// (so no worst frame disappears). Non-finite values break the line into segments.
std::vector<std::vector<size_t>> drawn_segments(const std::vector<uint32_t>& frames,
                                                const std::vector<double>& values, double frame_lo,
                                                double frame_hi) {
  std::vector<std::vector<size_t>> segments(1);
  const bool thin = values.size() > size_t(4 * kPlotWidth);
  long column = -1;
  size_t low = 0, high = 0;
  auto flush_column = [&] {
    if (column < 0) return;
    segments.back().push_back(std::min(low, high));
    if (high != low) segments.back().push_back(std::max(low, high));
  };
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      flush_column();
      column = -1;
      if (!segments.back().empty()) segments.emplace_back();
      continue;
    }
    if (!thin) {
      segments.back().push_back(i);
      continue;
    }
    const auto c =
        static_cast<long>((double(frames[i]) - frame_lo) / (frame_hi - frame_lo) * kPlotWidth);
    if (c != column) {
      flush_column();
      column = c;
      low = high = i;
    } else {
      if (values[i] < values[low]) low = i;
      if (values[i] > values[high]) high = i;
    }
  }
  flush_column();
  if (segments.back().empty()) segments.pop_back();
  return segments;
}

// Indices of the `count` lowest finite values, lowest first (earlier frame on ties).
std::vector<size_t> worst_frames(const std::vector<double>& values, int count) {
  std::vector<size_t> idx;
  for (size_t i = 0; i < values.size(); ++i)
    if (std::isfinite(values[i])) idx.push_back(i);
  const size_t n = std::min(idx.size(), size_t(count));
  std::partial_sort(idx.begin(), idx.begin() + ptrdiff_t(n), idx.end(), [&](size_t a, size_t b) {
    return values[a] < values[b] || (values[a] == values[b] && a < b);
  });
  idx.resize(n);
  return idx;
}

class Plot {
 public:
  Plot(std::ostream& out, const ScoreReport& r) : out_(out), r_(r) {
    if (!r.frame_numbers.empty()) {
      const auto [lo, hi] = std::minmax_element(r.frame_numbers.begin(), r.frame_numbers.end());
      x_ = nice_axis(*lo, *hi, true);
    }
  }

  double height() const {
    const size_t panels = std::max<size_t>(1, r_.features.size());
    return kTop + double(panels) * kPanelHeight + double(panels - 1) * kPanelGap + kBottom;
  }

  void write(const std::string& title) {
    out_ << fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        kWidth, coord(height()));
    out_ << "<title>" << escape(title) << "</title>\n";
    out_ << fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", kWidth,
                        coord(height()));
    out_ << fmt::format(
        "<text class=\"title\" x=\"{}\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{}</text>\n",
        kLeft, escape(title));
    write_legend();
    if (r_.features.empty() || r_.frame_numbers.empty()) {
      out_ << fmt::format("<text x=\"{}\" y=\"{}\">no frames were scored</text>\n", kLeft,
                          kTop + 40);
    }
    for (size_t k = 0; k < r_.features.size(); ++k) write_panel(k);
    out_ << "</svg>\n";
  }

 private:
  double x_of(double frame) const {
    return kLeft + (frame / 2 - x_.lo / 2) / (x_.hi / 2 - x_.lo / 2) * kPlotWidth;
  }

  void write_legend() {
    out_ << "<g class=\"legend\">\n";
    double x = kLeft;
    const double y = 52;
    auto item = [&](const std::string& swatch, const std::string& label) {
      out_ << "<g class=\"legend-item\">" << swatch
           << fmt::format("<text x=\"{}\" y=\"{}\">{}</text></g>\n", coord(x + 26), coord(y + 4),
                          escape(label));
      x += 26 + 7.5 * double(label.size()) + 24;
    };
    for (size_t k = 0; k < r_.features.size(); ++k)
      item(fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" "
                       "stroke-width=\"2\"/>",
                       coord(x), y, coord(x + 20), y, colour(k)),
           r_.features[k].name);
    item(fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" "
                     "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>",
                     coord(x), y, coord(x + 20), y, kMeanColour),
         "pooled mean");
    item(fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"none\" stroke=\"{}\" "
                     "stroke-width=\"2\"/>",
                     coord(x + 10), y, kWorstColour),
         fmt::format("{} worst frames", kPlotWorstFrames));
    out_ << "</g>\n";
  }

  static const char* colour(size_t k) { return kPalette[k % std::size(kPalette)]; }

  void write_panel(size_t k) {
    const FeatureSeries& s = r_.features[k];
    const double top = kTop + double(k) * (kPanelHeight + kPanelGap);
    const double bottom = top + kPanelHeight;
    double lo = INFINITY, hi = -INFINITY;
    size_t not_finite = 0;
    for (double v : s.values) {
      if (!std::isfinite(v)) {
        ++not_finite;
        continue;
      }
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    const bool any = lo <= hi;
    const Axis y = any ? nice_axis(lo, hi, false) : Axis{};
    // Halves keep the differences finite for values near the ends of the double range.
    auto y_of = [&](double v) {
      return bottom - (v / 2 - y.lo / 2) / (y.hi / 2 - y.lo / 2) * kPanelHeight;
    };

    out_ << fmt::format("<g class=\"panel\" data-feature=\"{}\">\n", escape(s.name));
    out_ << fmt::format(
        "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" "
        "stroke=\"#888888\"/>\n",
        kLeft, coord(top), kPlotWidth, kPanelHeight);
    // The feature's name as the y axis title.
    out_ << fmt::format(
        "<text class=\"axis-title\" transform=\"translate({},{}) rotate(-90)\" "
        "text-anchor=\"middle\" font-size=\"13\">{}</text>\n",
        18, coord(top + kPanelHeight / 2), escape(s.name));

    out_ << "<g class=\"axis y\">\n";
    if (any)
      for (double t : y.ticks()) {
        const double py = y_of(t);
        out_ << fmt::format(
            "<g class=\"tick\"><line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
            "stroke=\"#e0e0e0\"/>"
            "<line x1=\"{3}\" y1=\"{1}\" x2=\"{0}\" y2=\"{1}\" stroke=\"#888888\"/>"
            "<text x=\"{4}\" y=\"{5}\" text-anchor=\"end\">{6}</text></g>\n",
            kLeft, coord(py), kLeft + kPlotWidth, kLeft - 5, kLeft - 8, coord(py + 4), y.label(t));
      }
    out_ << "</g>\n<g class=\"axis x\">\n";
    if (!r_.frame_numbers.empty())
      for (double t : x_.ticks()) {
        const double px = x_of(t);
        out_ << fmt::format(
            "<g class=\"tick\"><line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
            "stroke=\"#888888\"/>"
            "<text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text></g>\n",
            coord(px), coord(bottom), coord(bottom + 5), coord(bottom + 18), x_.label(t));
      }
    out_ << fmt::format(
        "<text class=\"axis-title\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">frame</text>\n",
        coord(kLeft + kPlotWidth / 2), coord(bottom + 36));
    out_ << "</g>\n";

    if (!any) {
      out_ << fmt::format("<text x=\"{}\" y=\"{}\">no finite values</text>\n</g>\n", kLeft + 10,
                          coord(top + 20));
      return;
    }
    for (const auto& segment : drawn_segments(r_.frame_numbers, s.values, x_.lo, x_.hi)) {
      out_ << fmt::format(
          "<polyline class=\"series\" fill=\"none\" stroke=\"{}\" "
          "stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"",
          colour(k));
      for (size_t i = 0; i < segment.size(); ++i)
        out_ << (i ? " " : "") << coord(x_of(r_.frame_numbers[segment[i]])) << ','
             << coord(y_of(s.values[segment[i]]));
      out_ << "\"/>\n";
    }

    // The mean of the finite values; the pooled mean of a series with an infinity is
    // not finite and is stated instead of drawn.
    const double mean = pool(s.values).mean;
    if (std::isfinite(mean)) {
      const double py = y_of(mean);
      out_ << fmt::format(
          "<line class=\"mean\" data-value=\"{0}\" x1=\"{1}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\" "
          "stroke=\"{4}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n"
          "<text class=\"mean-label\" x=\"{5}\" y=\"{6}\" text-anchor=\"end\" fill=\"{4}\">"
          "mean {0}</text>\n",
          value_label(mean), kLeft, coord(py), kLeft + kPlotWidth, kMeanColour,
          kLeft + kPlotWidth - 4, coord(py < top + 16 ? py + 14 : py - 5));
    } else {
      out_ << fmt::format(
          "<text class=\"mean-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"{}\">"
          "mean {}</text>\n",
          kLeft + kPlotWidth - 4, coord(top + 16), kMeanColour, value_label(mean));
    }
    if (not_finite > 0)
      out_ << fmt::format(
          "<text class=\"note\" x=\"{}\" y=\"{}\" fill=\"#555555\">{} frame{} not finite, not "
          "drawn</text>\n",
          kLeft + 8, coord(top + 16), not_finite, not_finite == 1 ? "" : "s");

    out_ << "<g class=\"worst\">\n";
    for (size_t i : worst_frames(s.values, kPlotWorstFrames)) {
      const double px = x_of(r_.frame_numbers[i]), py = y_of(s.values[i]);
      const std::string text =
          fmt::format("frame {}: {}", r_.frame_numbers[i], value_label(s.values[i]));
      // Labels sit below the point, or above it near the bottom of the panel.
      const double label_y = py + 17 > bottom - 2 ? py - 9 : py + 17;
      const char* anchor = px > kLeft + kPlotWidth - 60 ? "end"
                           : px < kLeft + 60            ? "start"
                                                        : "middle";
      out_ << fmt::format(
          "<g class=\"worst-frame\" data-frame=\"{0}\" data-value=\"{1}\">"
          "<circle cx=\"{2}\" cy=\"{3}\" r=\"5\" fill=\"none\" stroke=\"{4}\" stroke-width=\"2\">"
          "<title>{5}</title></circle>"
          "<text x=\"{2}\" y=\"{6}\" text-anchor=\"{7}\" font-size=\"10\" fill=\"{4}\">frame "
          "{0}</text>"
          "</g>\n",
          r_.frame_numbers[i], value_label(s.values[i]), coord(px), coord(py), kWorstColour,
          escape(text), coord(label_y), anchor);
    }
    out_ << "</g>\n</g>\n";
  }

  std::ostream& out_;
  const ScoreReport& r_;
  Axis x_;
};

}  // namespace

void write_svg_plot(std::ostream& out, const ScoreReport& r, const std::string& title) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  Plot(out, r).write(title);
}

}  // namespace exactvq
