// NLnet Labs' ldns (Debian: libldns-dev): DNS queries, UPDATE (RFC 2136) and TSIG (RFC 8945),
// for DNS-SD over unicast DNS.
#include <ldns/ldns.h>
