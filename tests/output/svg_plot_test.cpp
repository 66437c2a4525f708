// The SVG plot, read back with an XML parser: panels, series, axes, mean, worst
// frames and legend where they belong, for ordinary, extreme and empty reports.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "output/report.h"
#include "output/svg_plot.h"
#include "report_fixture.h"

namespace exactvq {
namespace {

std::string plot(const ScoreReport& r, const std::string& title = "a title") {
  std::ostringstream out;
  write_svg_plot(out, r, title);
  return out.str();
}

struct Parsed {
  pugi::xml_document doc;
  pugi::xml_node svg;
};

// Parses `text`, failing the test when it is not well-formed SVG.
void parse(const std::string& text, Parsed& p) {
  const pugi::xml_parse_result ok = p.doc.load_string(text.c_str());
  ASSERT_TRUE(ok) << ok.description() << " at " << ok.offset;
  p.svg = p.doc.child("svg");
  ASSERT_TRUE(p.svg);
  EXPECT_STREQ(p.svg.attribute("xmlns").value(), "http://www.w3.org/2000/svg");
}

double number(const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  EXPECT_TRUE(end != text && *end == '\0') << "not a number: '" << text << "'";
  return v;
}

std::vector<std::pair<double, double>> points_of(pugi::xml_node polyline) {
  std::vector<std::pair<double, double>> out;
  std::istringstream in(polyline.attribute("points").value());
  std::string pair;
  while (in >> pair) {
    const auto comma = pair.find(',');
    EXPECT_NE(comma, std::string::npos) << pair;
    out.emplace_back(number(pair.substr(0, comma).c_str()), number(pair.substr(comma + 1).c_str()));
  }
  return out;
}

std::vector<pugi::xml_node> with_class(pugi::xml_node root, const std::string& cls) {
  std::vector<pugi::xml_node> out;
  for (const pugi::xpath_node& n :
       root.select_nodes(("descendant::*[@class='" + cls + "']").c_str()))
    out.push_back(n.node());
  return out;
}

// Every numeric attribute anywhere is a finite number (no nan or inf leaked into geometry).
void expect_finite_geometry(pugi::xml_node root) {
  for (const pugi::xpath_node& n : root.select_nodes("descendant-or-self::*")) {
    for (pugi::xml_attribute a : n.node().attributes()) {
      const std::string name = a.name();
      if (name == "x" || name == "y" || name == "x1" || name == "x2" || name == "y1" ||
          name == "y2" || name == "cx" || name == "cy" || name == "width" || name == "height") {
        EXPECT_TRUE(std::isfinite(number(a.value()))) << name << "=" << a.value();
      }
    }
  }
  for (pugi::xml_node line : with_class(root, "series"))
    for (const auto& [x, y] : points_of(line)) {
      EXPECT_TRUE(std::isfinite(x));
      EXPECT_TRUE(std::isfinite(y));
    }
}

ScoreReport two_features(size_t frames) {
  ScoreReport r;
  for (size_t i = 0; i < frames; ++i) r.frame_numbers.push_back(uint32_t(i));
  FeatureSeries a{"ssim", {}}, b{"psnr_y", {}};
  for (size_t i = 0; i < frames; ++i) {
    a.values.push_back(0.95 + 0.04 * std::sin(double(i) * 0.3) - (i == 7 ? 0.2 : 0.0));
    b.values.push_back(38.0 + 3.0 * std::cos(double(i) * 0.2));
  }
  r.features = {a, b};
  return r;
}

TEST(SvgPlot, PanelsSeriesAxesMeanWorstAndLegend) {
  const ScoreReport r = two_features(40);
  Parsed p;
  ASSERT_NO_FATAL_FAILURE(parse(plot(r, "dist.mp4 against ref.y4m"), p));
  EXPECT_STREQ(p.svg.child("title").text().get(), "dist.mp4 against ref.y4m");
  expect_finite_geometry(p.svg);

  // Legend: each feature, then the mean and the worst frames.
  const auto legend = with_class(p.svg, "legend-item");
  ASSERT_EQ(legend.size(), 4u);
  EXPECT_STREQ(legend[0].child("text").text().get(), "ssim");
  EXPECT_STREQ(legend[1].child("text").text().get(), "psnr_y");
  EXPECT_STREQ(legend[2].child("text").text().get(), "pooled mean");
  EXPECT_STREQ(legend[3].child("text").text().get(), "5 worst frames");

  const auto panels = with_class(p.svg, "panel");
  ASSERT_EQ(panels.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    SCOPED_TRACE(r.features[k].name);
    const pugi::xml_node panel = panels[k];
    EXPECT_EQ(panel.attribute("data-feature").value(), r.features[k].name);
    const pugi::xml_node box = with_class(panel, "frame").at(0);
    const double left = number(box.attribute("x").value()),
                 top = number(box.attribute("y").value()),
                 right = left + number(box.attribute("width").value()),
                 bottom = top + number(box.attribute("height").value());

    // One line through every frame, left to right, inside the box.
    const auto series = with_class(panel, "series");
    ASSERT_EQ(series.size(), 1u);
    const auto pts = points_of(series[0]);
    ASSERT_EQ(pts.size(), 40u);
    for (size_t i = 0; i < pts.size(); ++i) {
      EXPECT_GE(pts[i].first, left - 1e-9);
      EXPECT_LE(pts[i].first, right + 1e-9);
      EXPECT_GE(pts[i].second, top - 1e-9);
      EXPECT_LE(pts[i].second, bottom + 1e-9);
      if (i > 0) {
        EXPECT_GT(pts[i].first, pts[i - 1].first);
      }
    }

    // Y ticks: labelled numbers increasing upwards, covering every value.
    std::vector<std::pair<double, double>> yticks;  // value, y
    for (const pugi::xpath_node& t : panel.select_nodes("g[@class='axis y']/g[@class='tick']"))
      yticks.emplace_back(number(t.node().child("text").text().get()),
                          number(t.node().child("line").attribute("y1").value()));
    ASSERT_GE(yticks.size(), 3u);
    for (size_t i = 1; i < yticks.size(); ++i) {
      EXPECT_GT(yticks[i].first, yticks[i - 1].first);
      EXPECT_LT(yticks[i].second, yticks[i - 1].second);
    }
    const auto [lo, hi] =
        std::minmax_element(r.features[k].values.begin(), r.features[k].values.end());
    EXPECT_LE(yticks.front().first, *lo);
    EXPECT_GE(yticks.back().first, *hi);
    // Maps a value to y through the first and last tick, as a reader of the chart would.
    const auto y_of = [&](double v) {
      return yticks.front().second + (v - yticks.front().first) /
                                         (yticks.back().first - yticks.front().first) *
                                         (yticks.back().second - yticks.front().second);
    };
    for (size_t i = 0; i < pts.size(); ++i)
      EXPECT_NEAR(pts[i].second, y_of(r.features[k].values[i]), 0.02) << "frame " << i;

    // X ticks: whole frame numbers spanning 0..39.
    std::vector<double> xticks;
    for (const pugi::xpath_node& t : panel.select_nodes("g[@class='axis x']/g[@class='tick']"))
      xticks.push_back(number(t.node().child("text").text().get()));
    ASSERT_GE(xticks.size(), 3u);
    EXPECT_LE(xticks.front(), 0);
    EXPECT_GE(xticks.back(), 39);
    for (double t : xticks) EXPECT_EQ(t, std::round(t));

    // The pooled mean, at its height.
    const auto mean = with_class(panel, "mean");
    ASSERT_EQ(mean.size(), 1u);
    const double m = pool(r.features[k].values).mean;
    EXPECT_NEAR(number(mean[0].attribute("data-value").value()), m, std::fabs(m) * 1e-5);
    EXPECT_NEAR(number(mean[0].attribute("y1").value()), y_of(m), 0.02);

    // The five lowest frames, lowest first, circled on the line.
    std::vector<size_t> order(40);
    for (size_t i = 0; i < 40; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return r.features[k].values[a] < r.features[k].values[b];
    });
    const auto worst = with_class(panel, "worst-frame");
    ASSERT_EQ(worst.size(), 5u);
    for (size_t i = 0; i < 5; ++i) {
      const auto frame = size_t(number(worst[i].attribute("data-frame").value()));
      EXPECT_EQ(frame, order[i]);
      const pugi::xml_node circle = worst[i].child("circle");
      EXPECT_NEAR(number(circle.attribute("cx").value()), pts[frame].first, 0.011);
      EXPECT_NEAR(number(circle.attribute("cy").value()), pts[frame].second, 0.011);
    }
  }
  EXPECT_EQ(with_class(panels[0], "worst-frame")[0].attribute("data-frame").as_int(), 7);
}

TEST(SvgPlot, NonFiniteValuesBreakTheLineAndAreCounted) {
  const ScoreReport r = test::sample_report();  // ssim_cr: inf, -inf, nan, 0.25, 1/3
  Parsed p;
  ASSERT_NO_FATAL_FAILURE(parse(plot(r), p));
  expect_finite_geometry(p.svg);
  const auto panels = with_class(p.svg, "panel");
  ASSERT_EQ(panels.size(), 3u);
  EXPECT_EQ(with_class(panels[0], "series").size(), 1u);
  const auto cr = with_class(panels[2], "series");
  ASSERT_EQ(cr.size(), 1u);
  EXPECT_EQ(points_of(cr[0]).size(), 2u);
  const auto note = with_class(panels[2], "note");
  ASSERT_EQ(note.size(), 1u);
  EXPECT_STREQ(note[0].text().get(), "3 frames not finite, not drawn");
  EXPECT_TRUE(with_class(panels[2], "mean").empty());  // the pooled mean is nan
  EXPECT_EQ(with_class(panels[2], "worst-frame").size(), 2u);
  // Frame numbers with gaps (subsampled by 3) are the x positions.
  const auto pts = points_of(with_class(panels[0], "series")[0]);
  ASSERT_EQ(pts.size(), 5u);
  EXPECT_NEAR(pts[1].first - pts[0].first, pts[4].first - pts[3].first, 0.011);
}

TEST(SvgPlot, LongRunsKeepEveryColumnsExtremes) {
  ScoreReport r;
  FeatureSeries s{"ssim", {}};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.9, 1.0);
  for (uint32_t i = 0; i < 100000; ++i) {
    r.frame_numbers.push_back(i);
    s.values.push_back(i == 61234 ? 0.5 : u(rng));
  }
  r.features = {s};
  const std::string text = plot(r);
  EXPECT_LT(text.size(), 200000u);
  Parsed p;
  ASSERT_NO_FATAL_FAILURE(parse(text, p));
  const auto series = with_class(p.svg, "series");
  ASSERT_EQ(series.size(), 1u);
  const auto pts = points_of(series[0]);
  EXPECT_LT(pts.size(), 4000u);
  const double lowest_y = std::max_element(pts.begin(), pts.end(), [](auto a, auto b) {
                            return a.second < b.second;
                          })->second;
  const auto worst = with_class(p.svg, "worst-frame");
  ASSERT_EQ(worst.size(), 5u);
  EXPECT_EQ(worst[0].attribute("data-frame").as_int(), 61234);
  EXPECT_NEAR(number(worst[0].child("circle").attribute("cy").value()), lowest_y, 0.011);
}

TEST(SvgPlot, ExtremeValuesStayFinite) {
  std::mt19937_64 rng(42);
  for (int run = 0; run < 20; ++run) {
    Parsed p;
    ASSERT_NO_FATAL_FAILURE(parse(plot(test::random_report(rng, 1 + size_t(run) * 3)), p));
    expect_finite_geometry(p.svg);
  }
}

TEST(SvgPlot, OneFrameConstantValues) {
  ScoreReport r;
  r.frame_numbers = {12};
  r.features = {{"ssim", {1.0}}};
  Parsed p;
  ASSERT_NO_FATAL_FAILURE(parse(plot(r), p));
  expect_finite_geometry(p.svg);
  EXPECT_EQ(points_of(with_class(p.svg, "series").at(0)).size(), 1u);
  EXPECT_GE(p.svg.select_nodes("//g[@class='axis y']/g[@class='tick']").size(), 2u);
  EXPECT_EQ(with_class(p.svg, "worst-frame").size(), 1u);
}

TEST(SvgPlot, TextIsEscaped) {
  ScoreReport r = two_features(3);
  r.features[0].name = "a<b>&\"c'";
  Parsed p;
  ASSERT_NO_FATAL_FAILURE(parse(plot(r, "<dist> & \"ref\""), p));
  EXPECT_STREQ(p.svg.child("title").text().get(), "<dist> & \"ref\"");
  EXPECT_STREQ(with_class(p.svg, "panel").at(0).attribute("data-feature").value(), "a<b>&\"c'");
}

TEST(SvgPlot, NothingScored) {
  ScoreReport r;
  Parsed p;
  ASSERT_NO_FATAL_FAILURE(parse(plot(r), p));
  EXPECT_TRUE(with_class(p.svg, "panel").empty());
  EXPECT_NE(plot(r).find("no frames were scored"), std::string::npos);
}

}  // namespace
}  // namespace exactvq
