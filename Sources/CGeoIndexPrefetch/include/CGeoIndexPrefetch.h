// A software prefetch for GeoIndex's search loops: the Swift standard library exposes none.
// Static inline, so the Swift compiler inlines it to a single prefetch instruction.
#ifndef C_GEO_INDEX_PREFETCH_H
#define C_GEO_INDEX_PREFETCH_H

/// Asks the processor to start loading the cache line holding `address` (for reading, into every
/// cache level). No fault, no effect on results: a hint only.
static inline __attribute__((always_inline)) void geo_index_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
