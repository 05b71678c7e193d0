#!/usr/bin/env bash
# fetch_simdjson_source.sh DIR: gets Debian's source package of the installed
# libsimdjson-dev (same version) into DIR and prints the path of its
# amalgamated simdjson.cpp, which the static build (ZS_STATIC=ON) compiles:
# Debian 12 ships simdjson as a shared object only.
#
# apt-get runs with a private source list and state under DIR, so the
# machine's apt configuration is left as it is; the Sources index is checked
# against Debian's archive key, and the .dsc's checksums by dpkg-source.
# Needs the network once; later runs reuse DIR.
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
version=$(dpkg-query -W -f='${source:Version}' libsimdjson-dev 2>/dev/null) || {
  echo "error: libsimdjson-dev is not installed" >&2; exit 1; }
upstream=${version%-*}
src="$dir/simdjson-$upstream"
if [ ! -f "$src/singleheader/simdjson.cpp" ]; then
  mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/apt/sources"
  cat > "$dir/apt/sources/debian-src.sources" <<SOURCES
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$dir/apt/sources"
            -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache"
            -o APT::Sandbox::User=root -qq)
  apt-get "${apt_opts[@]}" update >&2 || {
    echo "error: cannot fetch Debian's source index (network?); or fetch simdjson $version's" \
         "source elsewhere and pass -DZS_SIMDJSON_SOURCE=<dir>/singleheader/simdjson.cpp" >&2
    exit 1; }
  (cd "$dir" && apt-get "${apt_opts[@]}" source --download-only "simdjson=$version" >&2)
  rm -rf "$src"
  # dpkg-source notes that it has no key for the uploader's signature; the
  # files were already checked against the signed index: keep its log quiet.
  (cd "$dir" && dpkg-source -x "simdjson_${version#*:}.dsc" "$src" >"$dir/dpkg-source.log" 2>&1) || {
    cat "$dir/dpkg-source.log" >&2; exit 1; }
fi
echo "$src/singleheader/simdjson.cpp"
