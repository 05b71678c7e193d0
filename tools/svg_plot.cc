#include "tools/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace zs::tools {
namespace {

// Colour-blind-safe enough and distinct in print (Tableau 10's first six).
constexpr const char* kColors[] = {"#d62728", "#ff7f0e", "#1f77b4",
                                   "#2ca02c", "#9467bd", "#8c564b"};
constexpr int kColorCount = sizeof kColors / sizeof kColors[0];

// Plot-area margins: room for tick labels and axis labels on the left and
// bottom, the title on top and the legend on the right.
constexpr double kLeft = 84, kRight = 150, kTop = 48, kBottom = 64;

std::string Escape(std::string_view text) {
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
      default:
        out += c;
    }
  }
  return out;
}

// A coordinate with one decimal: precise enough on screen, short in the file.
std::string Coord(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// Tick labels: integers with thousands separators, else up to 3 significant
// digits ("0.5", "2.5", "0.01").
std::string TickLabel(double v) {
  char buf[48];
  if (std::fabs(v) >= 1 && std::fabs(v - std::round(v)) < 1e-9 * std::fabs(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(v));
    std::string digits = buf, out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return v < 0 ? "-" + out : out;
  }
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// An axis: its ticks, and a map from data values to pixels.
struct Axis {
  bool log = false;
  std::vector<double> ticks;
  double lo = 0, hi = 1;    // data range shown (first and last tick)
  double from = 0, to = 1;  // pixel range
  double Map(double v) const {
    const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                         : (v - lo) / (hi - lo);
    return from + t * (to - from);
  }
};

Axis MakeAxis(bool log, int log_base, double min, double max, bool from_zero) {
  Axis a;
  a.log = log;
  if (!(min <= max)) {  // no data
    min = log ? 1 : 0;
    max = log ? 10 : 1;
  }
  if (log) {
    a.ticks = LogTicks(min, max, log_base);
  } else {
    if (from_zero && min > 0) min = 0;
    if (min == max) max = min + 1;
    a.ticks = NiceTicks(min, max);
  }
  a.lo = a.ticks.front();
  a.hi = a.ticks.back();
  return a;
}

}  // namespace

std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (hi <= lo) hi = lo + 1;
  const double raw = (hi - lo) / std::max(1, target - 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  const double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
  const double first = std::floor(lo / step + 1e-9);
  const double last = std::ceil(hi / step - 1e-9);
  std::vector<double> ticks;
  for (double k = first; k <= last; ++k) ticks.push_back(k == 0 ? 0.0 : k * step);
  if (ticks.size() < 2) ticks.push_back(ticks.back() + step);
  return ticks;
}

std::vector<double> LogTicks(double lo, double hi, int base) {
  std::vector<double> ticks;
  if (base == 2) {
    int e0 = static_cast<int>(std::floor(std::log2(lo) + 1e-9));
    int e1 = static_cast<int>(std::ceil(std::log2(hi) - 1e-9));
    if (e1 <= e0) e1 = e0 + 1;
    // Every power of two while that gives at most 13 ticks, else every
    // second, fourth... power, keeping the exponents aligned to the step.
    int step = 1;
    while ((e1 - e0) / step > 12) step *= 2;
    e0 = static_cast<int>(std::floor(static_cast<double>(e0) / step)) * step;
    e1 = static_cast<int>(std::ceil(static_cast<double>(e1) / step)) * step;
    for (int e = e0; e <= e1; e += step) ticks.push_back(std::ldexp(1.0, e));
    return ticks;
  }
  int e0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int e1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (e1 <= e0) e1 = e0 + 1;
  for (int e = e0; e <= e1; ++e) {
    const double p = std::pow(10.0, e);
    ticks.push_back(p);
    if (e1 - e0 <= 2 && e < e1) {
      ticks.push_back(2 * p);
      ticks.push_back(5 * p);
    }
  }
  return ticks;
}

std::string RenderLineChart(const PlotOptions& o, const std::vector<PlotSeries>& series) {
  const double y_scale = o.y_in_kib ? 1.0 / 1024 : 1.0;
  auto usable = [](double v, bool log) { return std::isfinite(v) && (!log || v > 0); };

  // The points that can be drawn, in plot units, and their extent.
  std::vector<std::vector<std::pair<double, double>>> kept(series.size());
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double x_min = kInf, x_max = -kInf, y_min = kInf, y_max = -kInf;
  for (std::size_t s = 0; s < series.size(); ++s) {
    for (auto [x, y] : series[s].points) {
      y *= y_scale;
      if (!usable(x, o.log_x) || !usable(y, o.log_y)) continue;
      kept[s].emplace_back(x, y);
      x_min = std::min(x_min, x);
      x_max = std::max(x_max, x);
      y_min = std::min(y_min, y);
      y_max = std::max(y_max, y);
    }
  }
  const double limit = o.limit * y_scale;
  const bool draw_limit = o.limit > 0 && std::isfinite(limit);
  if (draw_limit) {
    // A little room above the line for its label.
    y_min = std::min(y_min, limit);
    y_max = std::max(y_max, limit * 1.01);
  }

  const double w = std::max(o.width, 320), h = std::max(o.height, 240);
  // Sizes in KiB read best against powers of two (the limit is 1024 KiB).
  Axis x = MakeAxis(o.log_x, 10, x_min, x_max, /*from_zero=*/false);
  Axis y = MakeAxis(o.log_y, o.y_in_kib ? 2 : 10, y_min, y_max, /*from_zero=*/true);
  x.from = kLeft;
  x.to = w - kRight;
  y.from = h - kBottom;  // SVG y grows downwards
  y.to = kTop;

  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + Coord(w) +
         "\" height=\"" + Coord(h) + "\" viewBox=\"0 0 " + Coord(w) + " " + Coord(h) +
         "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + Coord(w / 2) + "\" y=\"28\" text-anchor=\"middle\" font-size=\"15\">" +
         Escape(o.title) + "</text>\n";

  // Grid and tick labels.
  svg += "<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n";
  for (double t : x.ticks) {
    svg += "<line x1=\"" + Coord(x.Map(t)) + "\" y1=\"" + Coord(y.from) + "\" x2=\"" +
           Coord(x.Map(t)) + "\" y2=\"" + Coord(y.to) + "\"/>\n";
  }
  for (double t : y.ticks) {
    svg += "<line x1=\"" + Coord(x.from) + "\" y1=\"" + Coord(y.Map(t)) + "\" x2=\"" + Coord(x.to) +
           "\" y2=\"" + Coord(y.Map(t)) + "\"/>\n";
  }
  svg += "</g>\n<g fill=\"#333\">\n";
  for (double t : x.ticks) {
    svg += "<text x=\"" + Coord(x.Map(t)) + "\" y=\"" + Coord(y.from + 18) +
           "\" text-anchor=\"middle\">" + TickLabel(t) + "</text>\n";
  }
  for (double t : y.ticks) {
    svg += "<text x=\"" + Coord(x.from - 8) + "\" y=\"" + Coord(y.Map(t) + 4) +
           "\" text-anchor=\"end\">" + TickLabel(t) + "</text>\n";
  }
  svg += "</g>\n";
  // Axes and their labels.
  svg += "<path d=\"M" + Coord(x.from) + " " + Coord(y.to) + "V" + Coord(y.from) + "H" +
         Coord(x.to) + "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.2\"/>\n";
  svg += "<text x=\"" + Coord((x.from + x.to) / 2) + "\" y=\"" + Coord(h - 18) +
         "\" text-anchor=\"middle\">" + Escape(o.x_label) + "</text>\n";
  const double y_mid = (y.from + y.to) / 2;
  svg += "<text x=\"20\" y=\"" + Coord(y_mid) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 20 " + Coord(y_mid) + ")\">" +
         Escape(o.y_label) + "</text>\n";

  if (draw_limit) {
    const double ly = y.Map(limit);
    svg += "<line class=\"limit\" x1=\"" + Coord(x.from) + "\" y1=\"" + Coord(ly) + "\" x2=\"" +
           Coord(x.to) + "\" y2=\"" + Coord(ly) +
           "\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"8 5\"/>\n";
    svg += "<text x=\"" + Coord(x.to - 4) + "\" y=\"" + Coord(ly - 6) + "\" text-anchor=\"end\">" +
           Escape(o.limit_label) + "</text>\n";
  }

  // Series, then the legend to the right of the plot area.
  for (std::size_t s = 0; s < series.size(); ++s) {
    const char* color = kColors[s % kColorCount];
    std::string pts;
    for (auto [px, py] : kept[s]) {
      if (!pts.empty()) pts += ' ';
      pts += Coord(x.Map(px)) + "," + Coord(y.Map(py));
    }
    svg += "<polyline class=\"series\" fill=\"none\" stroke=\"" + std::string(color) +
           "\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\"" + pts + "\"/>\n";
    if (kept[s].size() <= 60) {  // markers only where they stay readable
      svg += "<g fill=\"" + std::string(color) + "\">";
      for (auto [px, py] : kept[s]) {
        svg +=
            "<circle cx=\"" + Coord(x.Map(px)) + "\" cy=\"" + Coord(y.Map(py)) + "\" r=\"2.5\"/>";
      }
      svg += "</g>\n";
    }
    const double ly = kTop + 10 + 22.0 * static_cast<double>(s);
    svg += "<line x1=\"" + Coord(x.to + 16) + "\" y1=\"" + Coord(ly) + "\" x2=\"" +
           Coord(x.to + 40) + "\" y2=\"" + Coord(ly) + "\" stroke=\"" + color +
           "\" stroke-width=\"3\"/>\n";
    svg += "<text x=\"" + Coord(x.to + 46) + "\" y=\"" + Coord(ly + 4) + "\">" +
           Escape(series[s].name) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace zs::tools
