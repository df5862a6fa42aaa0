// The parts of avahi-client that guessnum uses, plus what Swift cannot reach directly:
// macros and enum-typed constants that import as Int. Everything here is prefixed `cavahi_`.
#ifndef CAVAHI_SHIM_H
#define CAVAHI_SHIM_H

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>

static inline AvahiIfIndex cavahi_if_unspec(void) { return AVAHI_IF_UNSPEC; }
static inline AvahiProtocol cavahi_proto_unspec(void) { return AVAHI_PROTO_UNSPEC; }
static inline AvahiProtocol cavahi_proto_inet(void) { return AVAHI_PROTO_INET; }
static inline AvahiProtocol cavahi_proto_inet6(void) { return AVAHI_PROTO_INET6; }
static inline int cavahi_err_disconnected(void) { return AVAHI_ERR_DISCONNECTED; }
static inline int cavahi_err_no_daemon(void) { return AVAHI_ERR_NO_DAEMON; }
static inline int cavahi_err_collision(void) { return AVAHI_ERR_COLLISION; }
static inline size_t cavahi_address_text_max(void) { return AVAHI_ADDRESS_STR_MAX; }

#endif
