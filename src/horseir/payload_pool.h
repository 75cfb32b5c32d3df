// The interpreter's pool of freed vector payloads (value.cpp), as memory accounting sees it.
#pragma once

#include <cstddef>

namespace rndn::hir {

// Returns pooled payloads to the system, largest first, until at most keep_bytes stay (also
// declared in horseir.h).  Thread-safe.
void ReleasePooledPayloads(size_t keep_bytes);
// Bytes of freed payloads the pool holds for reuse (not in any vector).  A caller that bounds
// memory counts them as in use: the interpreter's memory budget and the loader's allocator hand
// them back to the system before live values plus pooled bytes would exceed their limit.
size_t PooledPayloadBytes();

}  // namespace rndn::hir
