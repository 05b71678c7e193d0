// The optional inputs of `report`: a migration report, a prune plan, and
// the CSVs of `bench growth` (redrawn here with svg_plot).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "kube/secret.h"
#include "cli/common.h"
#include "kube/input.h"
#include "cli/report_inputs.h"
#include "report/growth_sim.h"
#include "report/svg_plot.h"

namespace zs::tools {
namespace {

using json::Value;

bool IsArrayMember(const Value& v, std::string_view key) {
  const Value* m = v.Find(key);
  return m != nullptr && m->is_array();
}

// The rows of a CSV file with the header `header`; NotFound when the file
// does not exist, InvalidArgument naming the file and line otherwise.
Result<std::vector<std::vector<std::string>>> ReadCsv(const std::filesystem::path& path,
                                                      std::string_view header) {
  if (!std::filesystem::exists(path)) return Status::NotFound(path.string() + ": no such file");
  ZS_ASSIGN_OR_RETURN(std::string text, ReadFileOrStdin(path.string()));
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  if (line != header) {
    return Status::InvalidArgument(path.string() + ": line 1 must be '" + std::string(header) +
                                   "', not a `bench growth` CSV");
  }
  const std::size_t columns = static_cast<std::size_t>(std::count(header.begin(), header.end(), ',')) + 1;
  std::vector<std::vector<std::string>> rows;
  for (int n = 2; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream cs(line);
    while (std::getline(cs, cell, ',')) cells.push_back(cell);
    if (cells.size() != columns) {
      return Status::InvalidArgument(path.string() + ": line " + std::to_string(n) + " has " +
                                     std::to_string(cells.size()) + " fields, want " +
                                     std::to_string(columns));
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

Result<double> Number(const std::string& cell, const std::filesystem::path& path) {
  char* end = nullptr;
  const double v = std::strtod(cell.c_str(), &end);
  if (cell.empty() || end != cell.c_str() + cell.size()) {
    return Status::InvalidArgument(path.string() + ": '" + cell + "' is not a number");
  }
  return v;
}

// One series per codec, in first-seen order, from rows (x, codec, y) at the
// given columns.
Result<std::vector<PlotSeries>> Series(const std::vector<std::vector<std::string>>& rows,
                                       std::size_t x_col, std::size_t codec_col,
                                       std::size_t y_col, const std::filesystem::path& path) {
  std::vector<PlotSeries> series;
  for (const auto& row : rows) {
    auto it = std::find_if(series.begin(), series.end(),
                           [&](const PlotSeries& s) { return s.name == row[codec_col]; });
    if (it == series.end()) it = series.insert(series.end(), PlotSeries{row[codec_col], {}});
    ZS_ASSIGN_OR_RETURN(double x, Number(row[x_col], path));
    ZS_ASSIGN_OR_RETURN(double y, Number(row[y_col], path));
    it->points.emplace_back(x, y);
  }
  return series;
}

PlotOptions GrowthPlot(std::string title, std::string x_label, bool log_x) {
  PlotOptions o;
  o.title = std::move(title);
  o.x_label = std::move(x_label);
  o.y_label = "Secret size (KiB)";
  o.log_x = log_x;
  o.log_y = true;
  o.limit = static_cast<double>(kSecretSizeLimit);
  o.limit_label = "1 MiB Secret limit";
  o.width = 760;
  o.height = 440;
  return o;
}

}  // namespace

Status LoadMigrationReport(const std::string& path, ReportData* data) {
  ZS_ASSIGN_OR_RETURN(Value doc, ReadDocument(path));
  if (!doc.is_object() || !IsArrayMember(doc, "objects")) {
    return Status::InvalidArgument(path + ": not a migration report (want the JSON of "
                                   "`migrate --report-format json`, with an \"objects\" array)");
  }
  data->migration = std::move(doc);
  return Status::OK();
}

Status LoadPrunePlan(const std::string& path, ReportData* data) {
  ZS_ASSIGN_OR_RETURN(Value doc, ReadDocument(path));
  if (!doc.is_object() || doc.Find("package") == nullptr || !IsArrayMember(doc, "components")) {
    return Status::InvalidArgument(path + ": not a prune plan (want the JSON of "
                                   "`prune plan -o json`, with \"package\" and \"components\")");
  }
  data->prune_plan = std::move(doc);
  return Status::OK();
}

Status LoadGrowth(const std::string& dir, ReportData* data) {
  const std::filesystem::path d(dir);
  auto cycles = ReadCsv(d / "growth-cycles.csv", "cycle,codec,bytes");
  auto sizes = ReadCsv(d / "growth-size.csv", "images,components,codec,bytes");
  if (!cycles.ok() && !sizes.ok() && cycles.status().code() == Status::Code::kNotFound &&
      sizes.status().code() == Status::Code::kNotFound) {
    return Status::NotFound(dir + ": neither growth-cycles.csv nor growth-size.csv (write them "
                            "with `zarf-state bench growth --out " + dir + "`)");
  }
  if (cycles.ok()) {
    ZS_ASSIGN_OR_RETURN(std::vector<PlotSeries> s, Series(*cycles, 0, 1, 2, d / "growth-cycles.csv"));
    PlotOptions o = GrowthPlot("Secret size over deploy/upgrade/remove cycles", "cycle", false);
    data->growth.push_back({o.title, RenderLineChart(o, s)});
  } else if (cycles.status().code() != Status::Code::kNotFound) {
    return cycles.status();
  }
  if (sizes.ok()) {
    ZS_ASSIGN_OR_RETURN(std::vector<PlotSeries> s, Series(*sizes, 0, 2, 3, d / "growth-size.csv"));
    // growth-fit.csv (optional) says where a search stopped at its cap or
    // at the decoder budget (limited_by; a file without it marks caps only).
    auto fits = ReadCsv(d / "growth-fit.csv", "codec,images,bytes,capped,limited_by");
    if (!fits.ok() && fits.status().message().find(": line 1 must be") != std::string::npos) {
      fits = ReadCsv(d / "growth-fit.csv", "codec,images,bytes,capped");
    }
    if (fits.ok()) {
      for (const auto& row : *fits) {
        const bool budget = row.size() > 4 && row[4] == "decoder-budget";
        if (row[3] != "true" && !budget) continue;
        for (PlotSeries& series : s) {
          if (series.name != row[0]) continue;
          ZS_ASSIGN_OR_RETURN(double x, Number(row[1], d / "growth-fit.csv"));
          ZS_ASSIGN_OR_RETURN(double y, Number(row[2], d / "growth-fit.csv"));
          series.marks.push_back({x, y, budget ? kDecoderBudgetLabel : kSearchCapLabel});
        }
      }
    } else if (fits.status().code() != Status::Code::kNotFound) {
      return fits.status();
    }
    PlotOptions o = GrowthPlot("Secret size against package size", "images in the package", true);
    data->growth.push_back({o.title, RenderLineChart(o, s)});
  } else if (sizes.status().code() != Status::Code::kNotFound) {
    return sizes.status();
  }
  return Status::OK();
}

}  // namespace zs::tools
