# check_install — installs the debug build into a scratch PREFIX with scripts/install and checks
# what a person gets: the program on PATH, its man page and completions. Sourced by
# scripts/test, which runs it after the test suite (SwiftPM's build lock is free then).
check_install() {
  local prefix status=0
  prefix=$(mktemp -d)
  if ! GUESSNUM_CONFIGURATION=debug PREFIX="$prefix" scripts/install >"$prefix.log" 2>&1; then
    echo "install check: scripts/install failed:"; cat "$prefix.log"; rm -rf "$prefix" "$prefix.log"; return 1
  fi
  check() { if eval "$2"; then echo "install check: ok: $1"; else echo "install check: FAILED: $1"; status=1; fi; }
  check "guessnum on PATH runs" '[ "$(PATH="$prefix/bin:$PATH" guessnum --version)" = "$(.build/debug/guessnum --version)" ]'
  check "the man page names every subcommand" 'grep -q "^\.Dt GUESSNUM 1" "$prefix/share/man/man1/guessnum.1" && grep -q "host" "$prefix/share/man/man1/guessnum.1" && grep -q "join" "$prefix/share/man/man1/guessnum.1"'
  check "the man page lists the exit statuses and the defaults, with no blank line" 'grep -q "^\.It 64$" "$prefix/share/man/man1/guessnum.1" && grep -q "(default: 100)" "$prefix/share/man/man1/guessnum.1" && ! grep -q "^$" "$prefix/share/man/man1/guessnum.1"'
  check "bash completes the subcommands" 'grep -q "host" "$prefix/share/bash-completion/completions/guessnum" && grep -q "join" "$prefix/share/bash-completion/completions/guessnum"'
  check "zsh and fish completions" '[ -s "$prefix/share/zsh/site-functions/_guessnum" ] && [ -s "$prefix/share/fish/vendor_completions.d/guessnum.fish" ]'
  check "the installer says how to put it on PATH" 'grep -q "is not on your PATH yet" "$prefix.log"'
  rm -rf "$prefix" "$prefix.log"
  return $status
}
