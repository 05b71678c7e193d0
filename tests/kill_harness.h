// A harness that SIGKILLs a writing command of the real binary at random
// moments and checks that every file it writes is, after each kill, exactly
// its complete old version or its complete new version: a kill at any moment leaves
// nothing half-written.
//
// A scenario names the command line, the files it writes and how to put the
// old state back. The harness runs it twice unkilled (to learn the new
// version of each output and to prove the comparison is deterministic), then
// kills it (until `kills` landed mid-run) after a uniformly random delay
// within the unkilled run time, from a seeded generator. When a kill leaves outputs at
// different versions (a log written, its Secret not yet), the command is run
// again and must exit as an unkilled run does: a kill never leaves a state
// the tool refuses to continue from. Outputs are compared through
// `normalize` (default: the exact bytes), which lets a scenario mask what
// legitimately differs between two runs, such as the timestamps a `record`
// writes. New commands (migrate, ingest) add a scenario; nothing else.
//
// Thread safety: not thread-safe (forks, changes files).
#ifndef ZARF_STATE_TESTS_KILL_HARNESS_H_
#define ZARF_STATE_TESTS_KILL_HARNESS_H_

#include <gtest/gtest.h>
#include <signal.h>
#include <time.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tests/run_binary.h"
#include "tests/test_random.h"
#include "tests/test_util.h"

namespace zs::testing {

struct KillScenario {
  std::string name;
  std::vector<std::string> args;                 // after the binary's path
  std::vector<std::filesystem::path> outputs;    // every file the command writes
  std::function<void()> prepare;                 // installs the old state
  // The form outputs are compared in; `bytes` is the file's content.
  std::function<std::string(const std::string& bytes)> normalize;
  // Judges the run after a kill that left outputs at different versions:
  // "" if fine, else what is wrong. Default: it must exit as unkilled runs do.
  std::function<std::string(const RunResult& rerun)> rerun_problem;
};

struct KillStats {
  int attempts = 0;
  int killed = 0;       // SIGKILL arrived while the command ran
  int finished = 0;     // it exited before the signal
  int stray_temps = 0;  // temp files a kill left next to an output
  int reruns = 0;       // runs after a kill that left outputs at different versions
  // How often each combination was seen, e.g. "secret.json=old log.jsonl=new".
  std::map<std::string, int> states;
};

// Starts `binary args...` with stdio on /dev/null, sends SIGKILL after
// `delay` (none when negative; unless it ended before) and reaps it.
inline ChildExit SpawnAndKill(const std::string& binary, const std::vector<std::string>& args,
                              std::chrono::microseconds delay) {
  const pid_t pid = SpawnBinary(binary, args);
  if (delay.count() < 0) return WaitChild(pid);
  struct timespec ts {
    static_cast<time_t>(delay.count() / 1000000), static_cast<long>(delay.count() % 1000000) * 1000
  };
  while (::nanosleep(&ts, &ts) != 0) {
  }
  return SignalChild(pid, SIGKILL);
}

// Every output's normalized content, or nullopt for a missing file.
inline std::vector<std::optional<std::string>> Snapshot(const KillScenario& s) {
  std::vector<std::optional<std::string>> out;
  for (const auto& p : s.outputs) {
    if (!std::filesystem::exists(p)) {
      out.emplace_back();
    } else {
      const std::string bytes = ReadFile(p);
      out.emplace_back(s.normalize ? s.normalize(bytes) : bytes);
    }
  }
  return out;
}

inline int RemoveStrayTemps(const KillScenario& s) {
  int n = 0;
  for (const auto& p : s.outputs) {
    for (const auto& e : std::filesystem::directory_iterator(p.parent_path())) {
      const std::string name = e.path().filename().string();
      if (name.starts_with(p.filename().string() + ".tmp-")) {
        std::filesystem::remove(e.path());
        ++n;
      }
    }
  }
  return n;
}

// Kills until `kills` landed while the command ran, giving up after
// `max_attempts` (a run can end before its kill).
inline KillStats RunKillScenario(const std::string& binary, const KillScenario& s, int kills,
                                 int max_attempts, Rng& rng) {
  KillStats stats;
  s.prepare();
  const auto old_state = Snapshot(s);
  // Two unkilled runs: the new version, and proof that it is reproducible.
  std::chrono::microseconds run_time{0};
  int exit_code = -1;
  std::vector<std::optional<std::string>> new_state;
  for (int i = 0; i < 2; ++i) {
    s.prepare();
    const auto start = std::chrono::steady_clock::now();
    const ChildExit end = SpawnAndKill(binary, s.args, std::chrono::microseconds(-1));
    exit_code = end.exit_code;
    run_time += std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start);
    EXPECT_NE(end.exit_code, -1) << s.name;
    auto state = Snapshot(s);
    if (i == 1) {
      EXPECT_EQ(state, new_state) << s.name << ": two unkilled runs disagree";
    }
    new_state = std::move(state);
  }
  EXPECT_NE(old_state, new_state) << s.name << ": the command changes nothing";
  run_time /= 2;
  std::uniform_int_distribution<std::int64_t> delay(0, run_time.count());
  for (int i = 0; stats.killed < kills && i < max_attempts; ++i) {
    s.prepare();
    const ChildExit end = SpawnAndKill(binary, s.args, std::chrono::microseconds(delay(rng)));
    ++stats.attempts;
    if (end.signal == SIGKILL) {
      ++stats.killed;
    } else {
      ++stats.finished;
    }
    const auto now = Snapshot(s);
    std::string combo;
    for (std::size_t k = 0; k < s.outputs.size(); ++k) {
      const char* which = now[k] == old_state[k] ? "old" : now[k] == new_state[k] ? "new" : "TORN";
      if (!combo.empty()) combo += ' ';
      combo += s.outputs[k].filename().string() + "=" + which;
      EXPECT_STRNE(which, "TORN") << s.name << " attempt " << i << ": " << s.outputs[k]
                                  << " is neither the old nor the new version";
    }
    ++stats.states[combo];
    stats.stray_temps += RemoveStrayTemps(s);
    // Outputs at different versions (one written, the next not yet): the
    // command must still work from there, as it does from a clean state.
    if (combo.find("=old") != std::string::npos && combo.find("=new") != std::string::npos) {
      const RunResult again = RunBinary(binary, s.args, s.outputs[0].parent_path());
      ++stats.reruns;
      EXPECT_EQ(again.signal, 0) << s.name << " attempt " << i;
      const std::string problem =
          s.rerun_problem ? s.rerun_problem(again)
          : again.exit_code == exit_code ? ""
                                         : "exit " + std::to_string(again.exit_code) + ": " + again.err;
      EXPECT_EQ(problem, "") << s.name << " attempt " << i << ": after a kill left " << combo;
    }
  }
  return stats;
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_KILL_HARNESS_H_
