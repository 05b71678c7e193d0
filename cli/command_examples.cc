// The Examples section of each command's --help (cli/cli_basics.h): one
// table, so that a command without examples is easy to see here and the
// suite's check (every --help has an Examples section) names it.
#include <string_view>

#include "cli/cli_basics.h"

namespace zs::tools {
namespace {

struct CommandExamples {
  std::string_view path;  // "" is the program itself
  std::string_view lines;
};

constexpr CommandExamples kExamples[] = {
    {"",
     "zarf-state inspect -f secrets.json\n"
     "kubectl get secrets -n zarf -l package-deploy-info -o json | zarf-state status\n"
     "kubectl zarf-state inspect --cluster\n"
     "zarf-state help migrate"},
    {"inspect",
     "zarf-state inspect -f zarf-package-podinfo.json\n"
     "kubectl get secrets -n zarf -l package-deploy-info -o json | zarf-state inspect -o json\n"
     "zarf-state inspect -f secrets.json -o json | jq '.[].latestEvent.outcome'\n"
     "zarf-state inspect -f secrets.json -o wide --no-headers\n"
     "kubectl zarf-state inspect --cluster -n zarf --context prod"},
    {"migrate",
     "zarf-state migrate -f secrets.json --dry-run\n"
     "zarf-state migrate -f secrets.json --dry-run --report-format json > report.json\n"
     "zarf-state migrate -f secrets.json -o yaml --to v0.45.0 --out migrated.yaml\n"
     "kubectl zarf-state migrate --cluster --out migrated.json && kubectl replace -f migrated.json"},
    {"record",
     "zarf-state record deploy -f zarf-package-podinfo.json --package zarf.yaml\n"
     "zarf-state record finish -f zarf-package-podinfo.json --outcome Succeeded"},
    {"record deploy",
     "zarf-state record deploy -f zarf-package-podinfo.json --package zarf.yaml\n"
     "zarf-state record deploy -f pkg.json --package zarf.yaml --components web --fail web"},
    {"record remove",
     "zarf-state record remove -f zarf-package-podinfo.json\n"
     "zarf-state record remove -f zarf-package-podinfo.json --components web --begin-only"},
    {"record component",
     "zarf-state record component -f zarf-package-podinfo.json --name web --outcome Succeeded"},
    {"record finish",
     "zarf-state record finish -f zarf-package-podinfo.json --outcome Succeeded"},
    {"record abandon",
     "zarf-state record abandon -f zarf-package-podinfo.json --outcome Cancelled"},
    {"status",
     "zarf-state status -f zarf-package-podinfo.json\n"
     "zarf-state status -f secrets.json -o json --now 2026-01-01T00:00:00Z\n"
     "zarf-state status -f secrets.json -o name\n"
     "zarf-state status --db ~/.zarf-state\n"
     "kubectl zarf-state status --cluster"},
    {"replay",
     "zarf-state replay -f zarf-package-podinfo.json\n"
     "zarf-state replay --log podinfo.log -f zarf-package-podinfo.json --verify\n"
     "zarf-state replay -f zarf-package-podinfo.json --verify -o json | jq .verify.drift\n"
     "zarf-state replay --log podinfo.log -o wide\n"
     "zarf-state replay --db ~/.zarf-state podinfo --at 2026-01-01T00:00:00Z"},
    {"config",
     "zarf-state config digest -f deploy-config.yaml\n"
     "zarf-state config diff old.yaml new.yaml"},
    {"config digest",
     "zarf-state config digest -f deploy-config.yaml\n"
     "zarf-state config digest --kind remove -f zarf-package-podinfo.json --canonical"},
    {"config diff",
     "zarf-state config diff old.yaml new.yaml\n"
     "zarf-state config diff zarf-package-podinfo.json new.yaml --package zarf.yaml -o json\n"
     "zarf-state config diff old.yaml new.yaml -o wide --no-headers"},
    {"size",
     "zarf-state size -f zarf-package-podinfo.json\n"
     "zarf-state size -f secrets.json -o wide --now 2025-01-01T00:00:00Z\n"
     "kubectl zarf-state size --cluster -o json"},
    {"bench", "zarf-state bench growth --cycles 50 --out growth/"},
    {"bench growth",
     "zarf-state bench growth --cycles 50 --out growth/\n"
     "zarf-state bench growth --components 8 --pin-digests --codecs json,compact -o json"},
    {"prune", "zarf-state prune plan --deployed pkg.json --new zarf.yaml --others others.json"},
    {"prune plan",
     "zarf-state prune plan --deployed pkg.json --new zarf.yaml --others others.json\n"
     "zarf-state prune plan --deployed pkg.json --remove --db ~/.zarf-state -o json\n"
     "zarf-state prune plan --deployed pkg.json --remove --no-others -o wide --no-headers"},
    {"ingest",
     "kubectl get secrets -n zarf -l package-deploy-info -o json | zarf-state ingest --db ~/.zarf-state\n"
     "zarf-state ingest --db ~/.zarf-state -f dump.json --full-dump --bulk\n"
     "zarf-state ingest --db ~/.zarf-state -f dump.json -o json > ingested.json\n"
     "kubectl zarf-state ingest --cluster --db ~/.zarf-state --full-dump"},
    {"observe",
     "zarf-state observe --db ~/.zarf-state -f before.json -f after.json\n"
     "zarf-state observe --db ~/.zarf-state --cluster\n"
     "zarf-state observe --db ~/.zarf-state --cluster --context prod --watch"},
    {"query",
     "zarf-state query --db ~/.zarf-state status\n"
     "zarf-state query --db ~/.zarf-state image nginx --repository -o name\n"
     "zarf-state query --db ~/.zarf-state --no-headers status"},
    {"query history",
     "zarf-state query --db ~/.zarf-state history podinfo --outcome Failed\n"
     "zarf-state query --db ~/.zarf-state history podinfo --since 2026-01-01T00:00:00Z"},
    {"query status",
     "zarf-state query --db ~/.zarf-state status\n"
     "zarf-state query --db ~/.zarf-state status --outcome Failed -o json"},
    {"query image",
     "zarf-state query --db ~/.zarf-state image nginx:1.25\n"
     "zarf-state query --db ~/.zarf-state image nginx --repository"},
    {"query component", "zarf-state query --db ~/.zarf-state component web"},
    {"query source", "zarf-state query --db ~/.zarf-state source oci://ghcr.io/acme/pkg:1.0"},
    {"query config-changed",
     "zarf-state query --db ~/.zarf-state config-changed podinfo -f deploy-config.yaml"},
    {"report",
     "zarf-state report -f secrets.json --out report.html\n"
     "zarf-state report -f secrets.json --db ~/.zarf-state --growth build/demo --out report.html\n"
     "kubectl get secrets -n zarf -o json | zarf-state report --out report.html"},
    {"verify",
     "zarf-state verify --db ~/.zarf-state\n"
     "zarf-state verify --db ~/.zarf-state -o json -q"},
    {"version", "zarf-state version\nzarf-state version -o json\nkubectl zarf-state version"},
    {"help", "zarf-state help\nzarf-state help inspect\nzarf-state help record deploy"},
};

}  // namespace

std::string_view ExamplesFor(std::string_view path) {
  for (const CommandExamples& e : kExamples) {
    if (e.path == path) return e.lines;
  }
  return {};
}

}  // namespace zs::tools
