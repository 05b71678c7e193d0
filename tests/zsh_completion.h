// zsh completion driven as a user drives it, for the completion tests: an
// interactive zsh in a pseudo-terminal (zsh/zpty) with the zarf-state
// completion function on its fpath, as the package installs it. The line is
// typed, then a TAB, then Enter. zarf-state is a stub shell function that
// prints the words it got, so what completion wrote shows as
// "args:<words>". Reading stops at a marker printed after the line, however
// slow the machine; a hung shell is killed after 60 seconds.
//
// Thread safety: not thread-safe (forks; output goes through files in `dir`).
#ifndef ZARF_STATE_TESTS_ZSH_COMPLETION_H_
#define ZARF_STATE_TESTS_ZSH_COMPLETION_H_

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <string_view>

#include "tests/run_binary.h"

namespace zs::testing {

// Completes `line` with the zsh completion function `function_text`
// (written as `dir`/functions/_zarf-state) in a zsh whose PATH is this
// process's. Returns what the outer zsh printed, with the terminal's control
// sequences removed: the typed line echoed, then the stub's "args:..." line
// (the last "args:" in it; the first is the stub's definition echoed).
inline RunResult CompleteInZsh(std::string_view function_text, const std::string& line,
                               const std::filesystem::path& dir) {
  const std::filesystem::path fpath = dir / "functions";
  std::filesystem::create_directories(fpath);
  std::ofstream(fpath / "_zarf-state") << function_text;
  const char* path = ::getenv("PATH");
  const std::string script =
      "zmodload zsh/zpty\n"
      "zpty z 'zsh -f -i'\n"
      "zpty -w z \"PS1='> '; PATH='" + std::string(path == nullptr ? "" : path) + "'; fpath=(" +
      fpath.string() + " \\$fpath); autoload -U compinit; compinit -u -D;"
      " zarf-state() { print -r -- args:\\$* }\"\n"
      "zpty -w -n z '" + line + "'$'\\t'\n"
      "zpty -w z ''\n"
      "zpty -w z \"print MARK''ER\"\n"
      "zpty -r z out '*MARKER*'\n"
      "print -r -- $out\n"
      "zpty -d z\n";
  RunResult r = RunBinary("/usr/bin/timeout", {"60", "/usr/bin/zsh", "-f", "-c", script}, dir);
  static const std::regex kTerminalControl("\x1b\\[[0-9;?]*[a-zA-Z]");
  r.out = std::regex_replace(r.out, kTerminalControl, "");
  return r;
}

}  // namespace zs::testing

#endif  // ZARF_STATE_TESTS_ZSH_COMPLETION_H_
