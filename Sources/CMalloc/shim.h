// glibc's heap statistics (`mallinfo2`), which Swift's Glibc module leaves out: the benchmark
// reports how much of its resident memory the heap holds in use and how much it holds free.
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#include <malloc.h>

#endif
