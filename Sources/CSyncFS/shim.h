// Linux's syncfs(2) and sync_file_range(2), which Swift's Glibc module leaves out (glibc
// declares them only under _GNU_SOURCE): the file drop makes a group of received files durable
// with one call, and starts writing a large file's bytes to disk as they arrive.
#ifndef CSYNCFS_SHIM_H
#define CSYNCFS_SHIM_H

#include <stdint.h>

extern int syncfs(int fd);
extern int sync_file_range(int fd, int64_t offset, int64_t nbytes, unsigned int flags);

static inline int csyncfs_syncfs(int descriptor) { return syncfs(descriptor); }

/// Starts writing `count` bytes at `offset` of the file to disk, without waiting for them
/// (SYNC_FILE_RANGE_WRITE).
static inline int csyncfs_start_writeback(int descriptor, int64_t offset, int64_t count) {
    return sync_file_range(descriptor, offset, count, 2);
}

#endif
