// The parts of libsodium that guessnum uses: the ristretto255 prime-order group (hash to a group
// element, scalar multiplication with validation) for CPace (see Sources/PAKE). Everything else
// comes from swift-crypto.
#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H

#include <sodium/core.h>
#include <sodium/crypto_core_ristretto255.h>
#include <sodium/crypto_scalarmult_ristretto255.h>

#endif
