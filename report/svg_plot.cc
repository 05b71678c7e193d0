#include "report/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "json/utf8.h"
#include "report/html_writer.h"

namespace zs::tools {
namespace {

// Colour-blind-safe enough and distinct in print (Tableau 10's first six).
constexpr const char* kColors[] = {"#d62728", "#ff7f0e", "#1f77b4",
                                   "#2ca02c", "#9467bd", "#8c564b"};
constexpr int kColorCount = sizeof kColors / sizeof kColors[0];

// Plot-area margins: room for tick labels and axis labels on the left and
// bottom, the title on top and the legend on the right.
constexpr double kLeft = 84, kRight = 150, kTop = 48, kBottom = 64;
// A title's second line moves the plot down by this much.
constexpr double kTitleLine = 19;

// Estimated width of `text` in Helvetica at `size` px: 0.56 em per character
// is the average of mixed-case text with digits, a little generous.
double TextWidth(std::string_view text, double size) {
  return 0.56 * size * static_cast<double>(json::CodePointCount(text));
}

// The title's font size and lines: 15 px on one line if it fits `width`,
// else the largest size down to 12 px that fits, else two lines split at the
// space nearest the middle (at 13 px).
struct TitleLayout {
  double size = 15;
  std::vector<std::string> lines;
};
TitleLayout LayoutTitle(const std::string& title, double width) {
  TitleLayout t;
  for (double size = 15; size >= 12; size -= 1) {
    if (TextWidth(title, size) <= width) {
      t.size = size;
      t.lines = {title};
      return t;
    }
  }
  t.size = 13;
  std::size_t best = std::string::npos;
  const std::size_t mid = title.size() / 2;
  for (std::size_t i = 0; i < title.size(); ++i) {
    if (title[i] != ' ') continue;
    const auto dist = [&](std::size_t k) { return k > mid ? k - mid : mid - k; };
    if (best == std::string::npos || dist(i) < dist(best)) best = i;
  }
  if (best == std::string::npos) {
    t.lines = {title};
  } else {
    t.lines = {title.substr(0, best), title.substr(best + 1)};
  }
  return t;
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
  if (std::fabs(v) >= 1 && std::fabs(v) < 1e18 &&
      std::fabs(v - std::round(v)) < 1e-9 * std::fabs(v)) {
    const std::string out = WithThousands(static_cast<std::size_t>(std::llround(std::fabs(v))));
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

std::string WithThousands(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

bool UseLogScale(double lo, double hi) { return lo > 0 && std::isfinite(hi) && hi >= 10 * lo; }

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

namespace {

// The drawable points of every series in plot units (y scaled), and their
// extent (min > max when there is none).
struct KeptPoints {
  std::vector<std::vector<std::pair<double, double>>> points;
  double x_min = std::numeric_limits<double>::infinity(), x_max = -x_min;
  double y_min = x_min, y_max = -x_min;
};

bool Usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

KeptPoints KeepPoints(const PlotOptions& o, const std::vector<PlotSeries>& series,
                      double y_scale) {
  KeptPoints k;
  k.points.resize(series.size());
  for (std::size_t s = 0; s < series.size(); ++s) {
    for (auto [x, y] : series[s].points) {
      y *= y_scale;
      if (!Usable(x, o.log_x) || !Usable(y, o.log_y)) continue;
      k.points[s].emplace_back(x, y);
      k.x_min = std::min(k.x_min, x);
      k.x_max = std::max(k.x_max, x);
      k.y_min = std::min(k.y_min, y);
      k.y_max = std::max(k.y_max, y);
    }
  }
  return k;
}

// The opening <svg> tag, the white background and the title.
void AppendHead(std::string& svg, double w, double h, const TitleLayout& title) {
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + Coord(w) +
         "\" height=\"" + Coord(h) + "\" viewBox=\"0 0 " + Coord(w) + " " + Coord(h) +
         "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (std::size_t i = 0; i < title.lines.size(); ++i) {
    svg += "<text class=\"title\" x=\"" + Coord(w / 2) + "\" y=\"" +
           Coord(28 + kTitleLine * static_cast<double>(i)) +
           "\" text-anchor=\"middle\" font-size=\"" + Coord(title.size) + "\">" +
           HtmlEscape(title.lines[i]) + "</text>\n";
  }
}

// The grid, the tick labels, the axes and their labels.
void AppendAxes(std::string& svg, const Axis& x, const Axis& y, double h,
                const std::string& x_label, const std::string& y_label) {
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
  svg += "<path d=\"M" + Coord(x.from) + " " + Coord(y.to) + "V" + Coord(y.from) + "H" +
         Coord(x.to) + "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.2\"/>\n";
  svg += "<text x=\"" + Coord((x.from + x.to) / 2) + "\" y=\"" + Coord(h - 18) +
         "\" text-anchor=\"middle\">" + HtmlEscape(x_label) + "</text>\n";
  const double y_mid = (y.from + y.to) / 2;
  svg += "<text x=\"20\" y=\"" + Coord(y_mid) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 20 " + Coord(y_mid) + ")\">" +
         HtmlEscape(y_label) + "</text>\n";
}

// The limit: a dashed line when on the scale, else a note at the top saying
// how far above the data's top `y_max` it is.
void AppendLimit(std::string& svg, const PlotOptions& o, const Axis& x, const Axis& y,
                 double limit, bool on_scale, double y_max) {
  if (!on_scale) {
    svg += "<text class=\"limit\" x=\"" + Coord(x.to - 4) + "\" y=\"" + Coord(y.to - 6) +
           "\" text-anchor=\"end\">&#9650; " + HtmlEscape(o.limit_label) + ": " + TickLabel(limit) +
           (o.y_in_kib ? " KiB" : "") + ", " + TickLabel(std::round(limit / y_max)) +
           "x the largest value, off this scale</text>\n";
    return;
  }
  const double ly = y.Map(limit);
  svg += "<line class=\"limit\" x1=\"" + Coord(x.from) + "\" y1=\"" + Coord(ly) + "\" x2=\"" +
         Coord(x.to) + "\" y2=\"" + Coord(ly) +
         "\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"8 5\"/>\n";
  svg += "<text x=\"" + Coord(x.to - 4) + "\" y=\"" + Coord(ly - 6) + "\" text-anchor=\"end\">" +
         HtmlEscape(o.limit_label) + "</text>\n";
}

// Series number `s`: its polyline, its points (when few), its marks and its
// legend entry at `legend_y`.
void AppendSeries(std::string& svg, const PlotOptions& o, const PlotSeries& series,
                  const std::vector<std::pair<double, double>>& kept, std::size_t s,
                  const Axis& x, const Axis& y, double y_scale, double legend_y) {
  const char* color = kColors[s % kColorCount];
  std::string pts;
  for (auto [px, py] : kept) {
    if (!pts.empty()) pts += ' ';
    pts += Coord(x.Map(px)) + "," + Coord(y.Map(py));
  }
  svg += "<polyline class=\"series\" fill=\"none\" stroke=\"" + std::string(color) +
         "\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\"" + pts + "\"/>\n";
  if (kept.size() <= 60) {  // markers only where they stay readable
    svg += "<g fill=\"" + std::string(color) + "\">";
    for (auto [px, py] : kept) {
      svg += "<circle cx=\"" + Coord(x.Map(px)) + "\" cy=\"" + Coord(y.Map(py)) + "\" r=\"2.5\"/>";
    }
    svg += "</g>\n";
  }
  for (const PlotMark& m : series.marks) {
    const double my = m.y * y_scale;
    if (!Usable(m.x, o.log_x) || !Usable(my, o.log_y)) continue;
    const double px = x.Map(m.x), py = y.Map(my);
    svg += "<path class=\"mark\" d=\"M" + Coord(px - 6) + " " + Coord(py - 7) + "L" +
           Coord(px + 7) + " " + Coord(py) + "L" + Coord(px - 6) + " " + Coord(py + 7) +
           "Z\" fill=\"white\" stroke=\"" + color + "\" stroke-width=\"2\"/>\n";
    svg += "<text x=\"" + Coord(px - 8) + "\" y=\"" + Coord(py - 10) +
           "\" text-anchor=\"end\" fill=\"" + color + "\">" + HtmlEscape(m.label) + "</text>\n";
  }
  svg += "<line x1=\"" + Coord(x.to + 16) + "\" y1=\"" + Coord(legend_y) + "\" x2=\"" +
         Coord(x.to + 40) + "\" y2=\"" + Coord(legend_y) + "\" stroke=\"" + color +
         "\" stroke-width=\"3\"/>\n";
  svg += "<text x=\"" + Coord(x.to + 46) + "\" y=\"" + Coord(legend_y + 4) + "\">" +
         HtmlEscape(series.name) + "</text>\n";
}

}  // namespace

std::string RenderLineChart(const PlotOptions& o, const std::vector<PlotSeries>& series) {
  const double y_scale = o.y_in_kib ? 1.0 / 1024 : 1.0;
  KeptPoints k = KeepPoints(o, series, y_scale);
  const bool log_x = o.log_x && UseLogScale(k.x_min, k.x_max);
  const bool log_y = o.log_y && UseLogScale(k.y_min, k.y_max);
  const double limit = o.limit * y_scale;
  const bool has_limit = o.limit > 0 && std::isfinite(limit);
  // A far-away limit would squeeze the data into the bottom of the plot: it
  // stays on the axis only within twice the data's top (linear) or a decade
  // of it (log). (With no data at all, the limit is the only thing to show.)
  const bool limit_on_scale =
      has_limit && (!(k.y_min <= k.y_max) || limit <= (log_y ? 10 : 2) * k.y_max);
  if (limit_on_scale) {
    // A little room above the line for its label.
    k.y_min = std::min(k.y_min, limit);
    k.y_max = std::max(k.y_max, limit * 1.01);
  }

  const double w = std::max(o.width, 320), h = std::max(o.height, 240);
  const TitleLayout title = LayoutTitle(o.title, w - 24);
  const double top = kTop + kTitleLine * static_cast<double>(title.lines.size() - 1);
  // Sizes in KiB read best against powers of two (the limit is 1024 KiB).
  Axis x = MakeAxis(log_x, 10, k.x_min, k.x_max, /*from_zero=*/false);
  Axis y = MakeAxis(log_y, o.y_in_kib ? 2 : 10, k.y_min, k.y_max, /*from_zero=*/true);
  x.from = kLeft;
  x.to = w - kRight;
  y.from = h - kBottom;  // SVG y grows downwards
  y.to = top;

  std::string svg;
  AppendHead(svg, w, h, title);
  AppendAxes(svg, x, y, h, o.x_label + (log_x ? " (log scale)" : ""),
             o.y_label + (log_y ? " (log scale)" : ""));
  if (has_limit) AppendLimit(svg, o, x, y, limit, limit_on_scale, k.y_max);
  // Series, then the legend to the right of the plot area.
  for (std::size_t s = 0; s < series.size(); ++s) {
    AppendSeries(svg, o, series[s], k.points[s], s, x, y, y_scale,
                 top + 10 + 22.0 * static_cast<double>(s));
  }
  svg += "</svg>\n";
  return svg;
}

namespace {

// The bin of `v`: bins [k*w, (k+1)*w) up to x_max (which falls in the last
// one, `regular` - 1), then bin `regular` for everything above.
std::size_t BinOf(double v, double w, std::size_t regular, double x_max) {
  if (v > x_max) return regular;
  if (v <= 0) return 0;
  return std::min(regular - 1, static_cast<std::size_t>(v / w));
}

// Bin `b`'s range as its bar's tooltip says it.
std::string BinRange(std::size_t b, std::size_t regular, const HistogramOptions& o) {
  if (b == regular) return "over " + TickLabel(o.x_max) + " " + o.unit;
  return TickLabel(static_cast<double>(b) * o.bin_width) + "-" +
         TickLabel(static_cast<double>(b + 1) * o.bin_width) + " " + o.unit;
}

// The bars, each with its count above it and its range and count as a
// tooltip; the bin past the last regular one in red.
void AppendBins(std::string& svg, const std::vector<std::size_t>& counts,
                const HistogramOptions& o, const Axis& x, const Axis& y) {
  const std::size_t regular = counts.size() - 1;
  svg += "<g fill=\"#1f77b4\">\n";
  for (std::size_t b = 0; b <= regular; ++b) {
    if (counts[b] == 0) continue;
    const double x0 = x.Map(static_cast<double>(b) * o.bin_width) + 1;
    const double bar_w = x.Map(static_cast<double>(b + 1) * o.bin_width) - 1 - x0;
    // A bin of one package among thousands stays visible: 2 px at least.
    const double top = std::min(y.Map(static_cast<double>(counts[b])), y.from - 2);
    const std::string n = std::to_string(counts[b]);
    svg += "<rect class=\"bin\" x=\"" + Coord(x0) + "\" y=\"" + Coord(top) + "\" width=\"" +
           Coord(bar_w) + "\" height=\"" + Coord(y.from - top) + "\"" +
           (b == regular ? " fill=\"#d62728\"" : "") + "><title>" +
           HtmlEscape(BinRange(b, regular, o)) + ": " + n + "</title></rect>\n";
    svg += "<text x=\"" + Coord(x0 + bar_w / 2) + "\" y=\"" + Coord(top - 4) +
           "\" text-anchor=\"middle\" font-size=\"11\">" + n + "</text>\n";
  }
  svg += "</g>\n";
}

}  // namespace

std::string RenderHistogram(const HistogramOptions& options, const std::vector<double>& values) {
  HistogramOptions o = options;
  if (!(o.bin_width > 0)) o.bin_width = 1;
  if (!(o.x_max >= o.bin_width)) o.x_max = o.bin_width;
  const auto regular = static_cast<std::size_t>(std::ceil(o.x_max / o.bin_width - 1e-9));
  std::vector<std::size_t> counts(regular + 1, 0);
  for (double v : values) {
    if (std::isfinite(v)) ++counts[BinOf(v, o.bin_width, regular, o.x_max)];
  }
  const std::size_t top_count = *std::max_element(counts.begin(), counts.end());

  const double w = std::max(o.width, 320), h = std::max(o.height, 200);
  const TitleLayout title = LayoutTitle(o.title, w - 24);
  Axis x;
  x.hi = static_cast<double>(counts[regular] > 0 ? regular + 1 : regular) * o.bin_width;
  double step = o.bin_width;  // a tick every bin, or every 2nd, 4th...: 9 at most
  while (o.x_max / step > 8) step *= 2;
  for (double t = 0; t <= o.x_max + 1e-9; t += step) x.ticks.push_back(t);
  x.from = kLeft;
  x.to = w - kLeft / 2;
  Axis y;  // whole counts: no more ticks than the top count + 1
  y.ticks = NiceTicks(0, static_cast<double>(std::max<std::size_t>(top_count, 1)),
                      static_cast<int>(std::min<std::size_t>(6, top_count + 1)));
  y.hi = y.ticks.back();
  y.from = h - kBottom;
  y.to = kTop + kTitleLine * static_cast<double>(title.lines.size() - 1);

  std::string svg;
  AppendHead(svg, w, h, title);
  AppendAxes(svg, x, y, h, o.x_label, o.y_label);
  AppendBins(svg, counts, o, x, y);
  double label_y = y.to + 12;  // labels stacked down from the top, left of their line
  for (const auto& [at, label] : o.lines) {
    if (!(at >= 0 && at <= x.hi)) continue;
    svg += "<line class=\"limit\" x1=\"" + Coord(x.Map(at)) + "\" y1=\"" + Coord(y.from) +
           "\" x2=\"" + Coord(x.Map(at)) + "\" y2=\"" + Coord(y.to) +
           "\" stroke=\"#c62828\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n";
    svg += "<text x=\"" + Coord(x.Map(at) - 4) + "\" y=\"" + Coord(label_y) +
           "\" text-anchor=\"end\" fill=\"#c62828\">" + HtmlEscape(label) + "</text>\n";
    label_y += 14;
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace zs::tools
