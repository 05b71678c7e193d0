#!/usr/bin/env bash
# check_packages.sh DIR: checks what `make package` left in DIR (the .deb, the
# .tar.gz and SHA256SUMS) as a user would use them, each check with a negative
# case that shows it can fail:
#   SHA256SUMS verifies, and a changed byte is caught;
#   the .deb's Depends are Debian packages this machine has (dpkg --no-act as
#     root), it installs into a scratch root (own --instdir and --admindir:
#     the machine's dpkg database is not touched), `zarf-state --version` and
#     `inspect` run from PATH by either name, `config digest` (which loads
#     libcrypto) prints the golden digest, and it removes cleanly;
#   the tarball's binary runs from an empty environment (env -i), prints the
#     same inspect output and digest, and ldd lists only glibc's libraries,
#     which the .deb's shared binary does not pass.
# Exits 0 when every check passes, 1 on the first failure (named on stderr).
set -euo pipefail
dist=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
sample="$here/tests/data/legacy/e22-v0.80.0-v0.84.0/all-secrets.list.json"
# A digest takes libcrypto: the .deb's binary loads it when first used, the
# tarball's carries it. Both must print the digest the golden file holds.
config="$here/tests/data/samples/deploy-config-1.json"
config_digest=$(sed -n 3p "$here/tests/data/golden/config-digest-deploy-config-1.json.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_packages: FAIL: $*" >&2; exit 1; }
pass() { echo "check_packages: ok: $*"; }

deb=$(ls "$dist"/zarf-state_*.deb 2>/dev/null | head -1)
tgz=$(ls "$dist"/zarf-state-*-linux-x86_64.tar.gz 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no zarf-state_*.deb in $dist"
[ -n "$tgz" ] || fail "no zarf-state-*-linux-x86_64.tar.gz in $dist"

# SHA256SUMS names both files and verifies; a copy with one byte changed fails.
(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not verify"
grep -q " $(basename "$deb")\$" "$dist/SHA256SUMS" || fail "SHA256SUMS lacks $(basename "$deb")"
grep -q " $(basename "$tgz")\$" "$dist/SHA256SUMS" || fail "SHA256SUMS lacks $(basename "$tgz")"
mkdir "$work/tampered" && cp "$dist/SHA256SUMS" "$dist/$(basename "$tgz")" "$work/tampered/"
cp "$deb" "$work/tampered/"
printf 'x' | dd of="$work/tampered/$(basename "$tgz")" bs=1 seek=100 conv=notrunc status=none
if (cd "$work/tampered" && sha256sum --quiet -c SHA256SUMS >/dev/null 2>&1); then
  fail "SHA256SUMS verified a changed tarball"
fi
pass "SHA256SUMS"

# The .deb: Depends from dpkg-shlibdeps and libssl3 (libcrypto, loaded when
# first used), satisfied by this Debian 12 machine.
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 libsimdjson14 libprotobuf-lite32 libssl3; do
  [[ ", $depends," == *", $lib "* || ", $depends," == *", $lib,"* ]] || fail "Depends lacks $lib: $depends"
done
if [ "$(id -u)" -eq 0 ]; then
  dpkg --no-act -i "$deb" >/dev/null || fail "dpkg -i --no-act refuses $deb (Depends: $depends)"
fi
pass "deb Depends: $depends"

# The .deb's metadata names this project: no Homepage of another project
# (Zarf's is not ours), a Maintainer with a real-looking address.
maintainer_ok() {
  [[ "$1" =~ ^[^\<\>]+\ \<[^@\ ]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\>$ ]] &&
    [[ "$1" != *@localhost* && "$1" != *.local\> && "$1" != *.localdomain\> ]]
}
homepage_ok() { [[ "$1" != *zarf-dev/zarf* && "$1" != *zarf.dev* ]]; }
maintainer=$(dpkg-deb -f "$deb" Maintainer)
homepage=$(dpkg-deb -f "$deb" Homepage)
maintainer_ok "$maintainer" || fail "Maintainer '$maintainer' is not a real-looking address"
homepage_ok "$homepage" || fail "Homepage '$homepage' is another project's"
if maintainer_ok "zarf-state maintainers <zarf-state@localhost>" ||
   homepage_ok "https://github.com/zarf-dev/zarf"; then
  fail "the metadata checks pass @localhost or Zarf's Homepage"
fi
pass "deb Maintainer: $maintainer; Homepage: ${homepage:-(none)}"

# lintian, when installed: no error or warning.
if command -v lintian >/dev/null; then
  lint=$(lintian --fail-on none "$deb" 2>&1 | grep -E '^[EW]: ' || true)
  [ -z "$lint" ] || fail "lintian: $lint"
  pass "lintian reports no error or warning"
fi

root="$work/root"
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
touch "$root/var/lib/dpkg/status"
dpkg_scratch=(dpkg --force-not-root --force-depends --force-script-chrootless
              --instdir="$root" --admindir="$root/var/lib/dpkg" --log=/dev/null)
# --force-depends: the scratch database lists none of the libraries, which
# the dry run above found on this machine (dpkg's warnings go to a log).
scratch() { "${dpkg_scratch[@]}" "$@" >>"$work/dpkg.log" 2>&1; }
scratch -i "$deb" || fail "dpkg -i into a scratch root: $(cat "$work/dpkg.log")"
for f in usr/bin/zarf-state usr/bin/kubectl-zarf_state usr/bin/kubectl_complete-zarf_state \
         usr/share/man/man1/zarf-state.1.gz usr/share/bash-completion/completions/zarf-state \
         usr/share/zsh/vendor-completions/_zarf-state usr/share/fish/vendor_completions.d/zarf-state.fish \
         usr/share/doc/zarf-state/LICENSE usr/share/doc/zarf-state/copyright \
         usr/share/doc/zarf-state/changelog.Debian.gz; do
  [ -e "$root/$f" ] || fail "the .deb does not install /$f"
done
for name in zarf-state kubectl-zarf_state; do
  out=$(PATH="$root/usr/bin:/usr/bin:/bin" "$name" --version) || fail "$name --version from PATH"
  [[ "$out" == "zarf-state "* ]] || fail "$name --version printed '$out'"
done
PATH="$root/usr/bin:/usr/bin:/bin" zarf-state inspect -f "$sample" -o json > "$work/deb.json" ||
  fail "the .deb's zarf-state inspect"
out=$(PATH="$root/usr/bin:/usr/bin:/bin" zarf-state config digest -f "$config") ||
  fail "the .deb's zarf-state config digest"
[[ "$out" == "$config_digest" ]] || fail "the .deb's config digest printed '$out', not $config_digest"
# The package's documents: a machine-readable (DEP-5) copyright naming the
# Apache-2.0 license, and a changelog for this version; each check also
# rejects a wrong sample.
doc="$root/usr/share/doc/zarf-state"
dep5_ok() {
  head -1 "$1" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' &&
    grep -qx 'Files: \*' "$1" && grep -qx 'License: Apache-2.0' "$1"
}
changelog_ok() {  # FILE VERSION
  gzip -dc "$1" 2>/dev/null | head -1 | grep -q "^zarf-state ($2) " &&
    gzip -dc "$1" | grep -Eq '^ -- .+ <[^@ ]+@[^@ ]+\.[a-z]+>  [A-Z][a-z]{2}, [0-9]{2} '
}
version=$(dpkg-deb -f "$deb" Version)
dep5_ok "$doc/copyright" || fail "copyright is not DEP-5 with License: Apache-2.0"
changelog_ok "$doc/changelog.Debian.gz" "$version" || fail "changelog.Debian.gz lacks zarf-state ($version)"
if dep5_ok "$doc/LICENSE" || changelog_ok "$doc/changelog.Debian.gz" "0.0.0-not-this"; then
  fail "the document checks pass a wrong file"
fi
pass "deb copyright (DEP-5) and changelog.Debian.gz"
scratch -r zarf-state || fail "dpkg -r from the scratch root: $(cat "$work/dpkg.log")"
[ ! -e "$root/usr/bin/zarf-state" ] || fail "dpkg -r left /usr/bin/zarf-state"
pass "deb installs, runs from PATH, removes"

# The tarball: one top folder with bin/, runs with no environment at all.
tar -xzf "$tgz" -C "$work"
top="$work/$(basename "$tgz" .tar.gz)"
[ -x "$top/bin/zarf-state" ] || fail "the tarball has no $(basename "$top")/bin/zarf-state"
[ -L "$top/bin/kubectl-zarf_state" ] || fail "the tarball has no bin/kubectl-zarf_state link"
[ -f "$top/share/doc/zarf-state/LICENSE" ] || fail "the tarball has no LICENSE"
out=$(cd / && env -i "$top/bin/zarf-state" --version) || fail "env -i zarf-state --version"
[[ "$out" == "zarf-state "* ]] || fail "env -i zarf-state --version printed '$out'"
(cd / && env -i "$top/bin/kubectl-zarf_state" inspect -f "$sample" -o json) > "$work/tgz.json" ||
  fail "env -i zarf-state inspect"
cmp -s "$work/deb.json" "$work/tgz.json" || fail "the tarball's and the .deb's inspect differ"
out=$(cd / && env -i "$top/bin/zarf-state" config digest -f "$config") ||
  fail "env -i zarf-state config digest"
[[ "$out" == "$config_digest" ]] || fail "the tarball's config digest printed '$out', not $config_digest"

# ldd: only glibc's own libraries (and the vDSO, which is the kernel's).
only_glibc() {
  local lines
  lines=$(ldd "$1" 2>&1) || return 1
  ! grep -Ev '^\s*(linux-vdso\.so\.1|(/lib64/)?ld-linux-x86-64\.so\.2|lib(c|m|pthread|dl|rt|resolv)\.so\.[0-9]+)( =>|\s)' <<<"$lines" | grep -q .
}
only_glibc "$top/bin/zarf-state" || fail "the tarball's binary links more than glibc: $(ldd "$top/bin/zarf-state")"
if scratch -i "$deb" && only_glibc "$root/usr/bin/zarf-state"; then
  fail "the ldd check passes the .deb's shared binary"
fi
pass "tarball runs under env -i; ldd: $(ldd "$top/bin/zarf-state" | awk '{print $1}' | tr '\n' ' ')"
