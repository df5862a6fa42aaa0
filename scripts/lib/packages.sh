# Debian packages guessnum needs, and a function that installs the missing ones.
# Sourced by scripts/run, scripts/test and .ci/run.

# To build: the Avahi client library (discovery), GNU readline (the prompt), SQLite (the host's
# game store, through GRDB), libsodium (the ristretto255 group of private games' CPace), ldns
# (DNS-SD over a site's unicast DNS server: queries, UPDATE and TSIG), pkg-config.
BUILD_PACKAGES=(libavahi-client-dev libreadline-dev libsqlite3-dev libsodium-dev libldns-dev pkg-config)
# To test: the LAN's daemons (started only inside its network namespaces) and their tools, and
# tmux, which plays the person at the keyboard in the terminal tests; tcpdump, which captures a
# game on the test LAN to show that only TLS records cross it; nftables, with which the switch
# drops mDNS to play Wi-Fi that filters multicast; Knot DNS and its tools, the site's DNS server
# that games across subnets are published in (started only by the tests, on loopback or inside
# a test namespace, with its own configuration and zone; its system service stays off).
LAN_PACKAGES=(avahi-daemon avahi-utils dbus iproute2 util-linux tmux tcpdump nftables knot knot-dnsutils)
# To benchmark (scripts/bench): iperf3, raw TCP's throughput on loopback beside a byte stream's
# (run only as a one-off server on 127.0.0.1 and its client; its system service stays off); and
# OpenSSH's server and client, scp's rate on loopback beside a resource's (the benchmark starts its
# own sshd on 127.0.0.1 with a config and keys in a temporary directory; the system service stays off).
BENCH_PACKAGES=(iperf3 openssh-server openssh-client magic-wormhole python3-magic-wormhole-mailbox-server magic-wormhole-transit-relay)

# ensure_packages PACKAGE… — installs those not installed yet. Needs root to install; otherwise
# says which command to run. Installing never starts a daemon: Debian's policy-rc.d hook is set
# to refuse service starts for the duration, so avahi-daemon cannot come up in the machine's own
# network namespace (it must only ever run inside the test LAN).
ensure_packages() {
  local missing=() package
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "guessnum needs these Debian packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
    return 1
  fi
  local made_policy=no
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    made_policy=yes
  fi
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  [ "$made_policy" = yes ] && rm -f /usr/sbin/policy-rc.d
  stop_root_namespace_avahi
}

# stop_root_namespace_avahi — a safety net: no avahi-daemon may run in this network namespace.
stop_root_namespace_avahi() {
  local pid mine
  mine=$(readlink /proc/self/ns/net)
  for pid in $(pgrep -x avahi-daemon 2>/dev/null || true); do
    if [ "$(readlink "/proc/$pid/ns/net" 2>/dev/null)" = "$mine" ]; then
      echo "stopping avahi-daemon (pid $pid): it must not run outside the test LAN" >&2
      kill "$pid" 2>/dev/null || true
    fi
  done
}
