# ZS_STATIC=ON: zarf-state linked statically against every library but glibc,
# for the release tarball (`make package`). Included by the top-level
# CMakeLists.txt before its find_package calls, so that every later find picks
# the Debian -dev packages' .a archives instead of their shared objects:
#   protobuf, OpenSSL's libcrypto, zstd, xxHash, zlib: their .a archives;
#   RocksDB: Debian's librocksdb.a, with the .a of what it was built with
#            (snappy, lz4, zstd, bzip2, zlib) instead of its shared deps;
#   simdjson: Debian 12 ships no .a, so it is compiled here from Debian's
#            source package of the installed version (ZS_SIMDJSON_SOURCE, the
#            amalgamated simdjson.cpp; packaging/fetch_simdjson_source.sh gets
#            it), whose header must be the installed /usr/include/simdjson.h;
#   libstdc++ and libgcc: -static-libstdc++ -static-libgcc (packaging/).

set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
set(OPENSSL_USE_STATIC_LIBS TRUE)
set(Protobuf_USE_STATIC_LIBS ON)
set(ZLIB_USE_STATIC_LIBS ON)

set(ZS_SIMDJSON_SOURCE "" CACHE FILEPATH
  "simdjson.cpp of Debian's simdjson source package (ZS_STATIC builds)")
if(NOT EXISTS "${ZS_SIMDJSON_SOURCE}")
  message(FATAL_ERROR "ZS_STATIC=ON needs -DZS_SIMDJSON_SOURCE=<dir>/singleheader/simdjson.cpp "
    "from Debian's simdjson source package (packaging/fetch_simdjson_source.sh prints it); "
    "got '${ZS_SIMDJSON_SOURCE}'")
endif()
get_filename_component(_zs_simdjson_dir "${ZS_SIMDJSON_SOURCE}" DIRECTORY)
file(SHA256 "${_zs_simdjson_dir}/simdjson.h" _zs_source_header)
file(SHA256 "/usr/include/simdjson.h" _zs_installed_header)
if(NOT _zs_source_header STREQUAL _zs_installed_header)
  message(FATAL_ERROR "${_zs_simdjson_dir}/simdjson.h is not the installed /usr/include/simdjson.h: "
    "the source package is not the version of libsimdjson-dev")
endif()
find_package(Threads REQUIRED)
add_library(zs_simdjson_static STATIC "${ZS_SIMDJSON_SOURCE}")
target_compile_definitions(zs_simdjson_static PUBLIC SIMDJSON_THREADS_ENABLED=1)
target_link_libraries(zs_simdjson_static PUBLIC Threads::Threads)
# Defined before find_package(simdjson), whose targets file then finds its
# only target present and imports nothing.
add_library(simdjson::simdjson ALIAS zs_simdjson_static)

find_package(RocksDB CONFIG REQUIRED)
set(_zs_rocksdb_deps "")
foreach(_zs_lib snappy lz4 zstd bz2 z)
  find_library(ZS_STATIC_${_zs_lib} NAMES lib${_zs_lib}.a REQUIRED)
  list(APPEND _zs_rocksdb_deps "${ZS_STATIC_${_zs_lib}}")
endforeach()
set_target_properties(RocksDB::rocksdb PROPERTIES INTERFACE_LINK_LIBRARIES "${_zs_rocksdb_deps}")
