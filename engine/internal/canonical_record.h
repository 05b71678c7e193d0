// A decoder for the two record shapes that make up almost every cache log:
// package events and component events exactly as EncodeRecord writes them
// (engine/record.h). It reads the bytes in place, in the canonical field
// order, without building a JSON tree; DecodeRecord tries it first and falls
// back to the general tree decoder for anything else.
//
// The contract that makes the fallback safe: DecodeCanonicalRecord returns
// true only for bytes the general decoder accepts, and then fills exactly
// the Record it would have produced (unknown-field bookkeeping included).
// Whatever it is unsure of (whitespace, escapes, non-ASCII, null, unknown or
// out-of-order members, facts, charts, Base records, other versions) it
// declines, and the general decoder decides, errors included.
//
// Thread safety: reentrant.
#ifndef ZARF_STATE_ENGINE_INTERNAL_CANONICAL_RECORD_H_
#define ZARF_STATE_ENGINE_INTERNAL_CANONICAL_RECORD_H_

#include <string_view>

#include "base/status.h"
#include "engine/record.h"

namespace zs::engine::internal {

// Decodes `bytes` into `*out` and returns true when they are a canonical
// PackageEvent record without facts or a ComponentEvent record without
// charts; returns false, leaving `*out` unspecified, otherwise. `*out` must
// be a default-constructed Record.
bool DecodeCanonicalRecord(std::string_view bytes, Record* out);

// The general decoder DecodeRecord falls back to: parses the JSON tree.
// Same contract as DecodeRecord; exposed so tests can compare both paths.
Result<Record> DecodeRecordFromTree(std::string_view bytes);

}  // namespace zs::engine::internal

#endif  // ZARF_STATE_ENGINE_INTERNAL_CANONICAL_RECORD_H_
