// A small line-chart and histogram writer producing standalone SVG, so
// `bench growth` and `report` can draw their plots without an external
// plotting tool.
//
// One chart: a title (in a smaller font, then on two lines, when it is wider
// than the chart), axis labels, ticks at "nice" values (1, 2 or 5 times a
// power of ten; on a log axis, powers of ten, or of two for KiB), one
// polyline and one legend entry per series, marked points (a search that
// stopped at its cap), and an optional dashed horizontal line with a label
// (the Secret size limit). A log axis is asked for, not imposed: data that
// spans less than a decade is drawn on a linear axis, where it does not
// shrink into a corner, and an axis drawn log says so in its label. The
// output is a complete SVG 1.1 document that browsers and ImageMagick render
// as is.
//
// Thread safety: all functions are reentrant.
#ifndef ZARF_STATE_REPORT_SVG_PLOT_H_
#define ZARF_STATE_REPORT_SVG_PLOT_H_

#include <string>
#include <utility>
#include <vector>

namespace zs::tools {

// A point to call out: an open triangle and a short label beside it.
struct PlotMark {
  double x = 0;
  double y = 0;  // in the units of the points
  std::string label;
};

struct PlotSeries {
  std::string name;  // the legend entry
  // (x, y) points, joined in the order given.
  std::vector<std::pair<double, double>> points;
  // Points to call out, in the series' colour; left out like points that
  // cannot be drawn. Default none.
  std::vector<PlotMark> marks = {};
};

struct PlotOptions {
  std::string title;
  std::string x_label;
  std::string y_label;
  // Log scale wanted; granted only when the axis' data (the limit not
  // counted) spans at least a factor 10. Default linear.
  bool log_x = false;
  bool log_y = false;
  // Divide y values (and `limit`) by 1024 before plotting: bytes shown as
  // KiB. Default true.
  bool y_in_kib = true;
  // Draw a dashed horizontal line at this y (in the units of the points);
  // none when <= 0. The y axis reaches it when it is at most twice the
  // data's top (linear) or ten times it (log); else a note at the top of the
  // plot says how far above the data it is (both carry class "limit").
  // Default none.
  double limit = 0;
  std::string limit_label;  // drawn above the line, at its right end
  int width = 900;          // pixels; default 900
  int height = 540;         // pixels; default 540
};

// `n` with a comma every three digits ("1,048,576"), as tick labels show
// integers.
std::string WithThousands(std::size_t n);

// Whether an axis asked to be log is drawn log: its data spans at least a
// decade (hi >= 10 * lo, lo > 0).
bool UseLogScale(double lo, double hi);

// The SVG document (ends with a newline). Points with a coordinate that is
// not finite, or not positive on a log axis, are left out; a series with no
// point left still gets its legend entry and an empty polyline, so the
// document has exactly one <polyline> per series.
std::string RenderLineChart(const PlotOptions& options, const std::vector<PlotSeries>& series);

struct HistogramOptions {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::string unit;  // of the values, in each bar's tooltip ("KiB")
  // Bins [0, w), [w, 2w)... up to x_max (x_max itself counts in the last
  // one); values above x_max share one more bin past it, drawn red.
  double bin_width = 32;
  double x_max = 1024;
  // Dashed vertical lines (the limit, 90% of it): x and label.
  std::vector<std::pair<double, std::string>> lines = {};
  int width = 900;   // pixels; default 900
  int height = 300;  // pixels; default 300
};

// A histogram as a complete SVG document (ends with a newline): one
// <rect class="bin"> per non-empty bin, its count above it and its range and
// count in its <title>; a bin of any count is at least 2 px high, so one
// value among thousands shows. Values that are not finite are left out;
// values at or below 0 count in the first bin.
std::string RenderHistogram(const HistogramOptions& options, const std::vector<double>& values);

// Tick values of a linear axis: multiples of a nice step (1, 2 or 5 times a
// power of ten) chosen to give about `target` ticks, from the largest
// multiple <= lo to the smallest >= hi. Requires lo <= hi, both finite.
std::vector<double> NiceTicks(double lo, double hi, int target = 6);

// Tick values of a log axis covering [lo, hi] (0 < lo <= hi): powers of
// `base` from the largest <= lo to the smallest >= hi. Base 10 adds 2 and 5
// times each power when the axis spans at most two decades; base 2 (used
// for KiB) keeps every 2nd, 4th... power when there would be more than 13.
std::vector<double> LogTicks(double lo, double hi, int base = 10);

}  // namespace zs::tools

#endif  // ZARF_STATE_REPORT_SVG_PLOT_H_
