# shellcheck shell=bash
# Veche toolchain: makes sure a suitable Node.js and pnpm are on PATH.
#
# Sourced by ./dev and .ci/run; defines `veche_toolchain` (and private veche__* helpers).
#
#   source scripts/toolchain.sh && veche_toolchain
#
# Policy:
#   node: a node already on PATH is used when it is >= VECHE_NODE_MIN (package.json "engines"),
#         otherwise Node VECHE_NODE_MAJOR is provisioned with `npm install --prefix <cache>/node-24 node@24`.
#   pnpm: a pnpm already on PATH is used when its major is VECHE_PNPM_MAJOR (and it is not a corepack
#         shim), otherwise `npm install --prefix <cache>/pnpm-<ver> pnpm@<ver>`.
#   Only the npm registry is used as a download source. The cache folder is
#   ${VECHE_TOOLCHAIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/veche/toolchain}; installs go to a temporary
#   folder that is renamed into place once its binary passes the version check, under a flock, so a
#   half-done or concurrent install never leaves a broken toolchain behind.
#
# Environment knobs:
#   VECHE_TOOLCHAIN_DIR   cache folder (see above)
#   VECHE_FORCE_PROVISION=1   ignore node/pnpm already on PATH, always use the cached ones
#   VECHE_QUIET=1         do not print the "toolchain: ..." line
#
# Returns non-zero (with a message on stderr) on failure; never exits the calling shell.

VECHE_NODE_MIN="22.19.0"
VECHE_NODE_MAJOR="24"
VECHE_PNPM_VERSION="10.34.9" # keep in step with "packageManager" in package.json
VECHE_PNPM_MAJOR="${VECHE_PNPM_VERSION%%.*}"

veche__err() { printf 'toolchain: error: %s\n' "$*" >&2; }

# veche__version_ge A B: true when dotted version A >= B (numeric parts only).
veche__version_ge() {
	local -a a b
	local i x y
	IFS=. read -r -a a <<<"${1#v}"
	IFS=. read -r -a b <<<"${2#v}"
	for i in 0 1 2; do
		x="${a[i]:-0}" y="${b[i]:-0}"
		x="${x%%[!0-9]*}" y="${y%%[!0-9]*}"
		((10#${x:-0} > 10#${y:-0})) && return 0
		((10#${x:-0} < 10#${y:-0})) && return 1
	done
	return 0
}

# veche__node_version BIN: prints "24.21.0" for a working node binary, fails otherwise.
veche__node_version() {
	local v
	[[ -x "$1" ]] || return 1
	v="$("$1" --version 2>/dev/null)" || return 1
	[[ "$v" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]] || return 1
	printf '%s\n' "${v#v}"
}

# veche__pnpm_version BIN: prints "10.34.9" for a working pnpm (run with the node on PATH).
# Runs outside the project so a "packageManager" field cannot make pnpm switch versions.
veche__pnpm_version() {
	local v
	[[ -x "$1" ]] || return 1
	v="$(cd / && COREPACK_ENABLE_DOWNLOAD_PROMPT=0 "$1" --version 2>/dev/null)" || return 1
	v="${v##*$'\n'}"
	[[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || return 1
	printf '%s\n' "$v"
}

# veche__path_prepend DIR: puts DIR first on PATH (removing an earlier occurrence).
veche__path_prepend() {
	local dir="$1" p="" entry
	local -a parts
	IFS=: read -r -a parts <<<"$PATH"
	for entry in "${parts[@]}"; do
		[[ "$entry" == "$dir" ]] && continue
		p="${p:+$p:}$entry"
	done
	PATH="$dir${p:+:$p}"
	export PATH
}

# veche__log_excerpt LOG: the telling lines of an npm log (error code / reason), else its tail.
veche__log_excerpt() {
	local lines
	lines="$(grep -E '^npm (error|ERR!) (code|errno|network request|request to|[0-9]{3} )|reason:|ENOENT|EACCES' "$1" | head -n 8)"
	[[ -n "$lines" ]] || lines="$(grep -v 'Unknown user config' "$1" | tail -n 15)"
	printf '%s\n' "$lines" | sed 's/^/    /' >&2
}

# veche__npm_provision DEST SPEC BIN CHECK_FN WANT_RE
# Installs npm package SPEC into folder DEST (via DEST.tmp.PID, renamed on success) and checks that
# DEST/node_modules/.bin/BIN reports a version matching WANT_RE (via CHECK_FN). Caller holds the lock.
veche__npm_provision() {
	local dest="$1" spec="$2" bin="$3" check="$4" want="$5"
	local tmp="$dest.tmp.$$" log="$dest.install.log" registry v

	if ! command -v npm >/dev/null 2>&1; then
		veche__err "need npm (from any system Node.js) to provision $spec; install it (e.g. apt-get install -y nodejs npm) and retry"
		return 1
	fi
	registry="$(npm config get registry 2>/dev/null)" || registry="the npm registry"
	printf 'toolchain: installing %s from %s into %s ...\n' "$spec" "$registry" "$dest" >&2

	# Fail fast and clearly when the registry is unreachable, instead of a long npm retry loop.
	if ! npm view "$spec" version --fetch-timeout=30000 --fetch-retries=1 --fetch-retry-mintimeout=2000 \
		>"$log" 2>&1; then
		if grep -qE 'code E(404|TARGET)' "$log"; then
			veche__err "the npm registry $registry has no $spec:"
		else
			veche__err "cannot reach the npm registry $registry to look up $spec (network, proxy or registry config?):"
		fi
		veche__log_excerpt "$log"
		return 1
	fi

	rm -rf -- "$tmp"
	mkdir -p -- "$tmp" || return 1
	# --ignore-scripts=false: the node@ package downloads its platform binary in a preinstall script.
	if ! npm install --prefix "$tmp" "$spec" --ignore-scripts=false --no-audit --no-fund \
		--no-update-notifier --loglevel=warn --fetch-retries=3 >"$log" 2>&1; then
		veche__err "npm install $spec failed (full log: $log):"
		veche__log_excerpt "$log"
		if grep -qE 'E(CONNREFUSED|CONNRESET|NOTFOUND|AI_AGAIN|TIMEDOUT|NETUNREACH)|CERT|certificate|network|socket hang up' "$log"; then
			veche__err "could not reach $registry (network, proxy or TLS/CA problem; see above)"
		fi
		rm -rf -- "$tmp"
		return 1
	fi
	if ! v="$("$check" "$tmp/node_modules/.bin/$bin")" || ! [[ "$v" =~ $want ]]; then
		veche__err "npm install $spec finished but $bin ${v:+reports $v }is not usable (log: $log):"
		sed 's/^/    /' "$log" | tail -n 25 >&2
		rm -rf -- "$tmp"
		return 1
	fi
	if ! rm -rf -- "$dest" || ! mv -- "$tmp" "$dest"; then
		veche__err "could not move $tmp to $dest"
		return 1
	fi
	rm -f -- "$log"
}

# veche__ensure_cached DEST SPEC BIN CHECK_FN WANT_RE: reuse DEST when valid, else (re)install it
# under an exclusive lock on the cache folder (the re-check after taking the lock lets concurrent
# runs wait for one install instead of racing).
veche__ensure_cached() {
	local dest="$1" spec="$2" bin="$3" check="$4" want="$5" root v
	if v="$("$check" "$dest/node_modules/.bin/$bin")" && [[ "$v" =~ $want ]]; then
		return 0
	fi
	root="$(dirname -- "$dest")"
	mkdir -p -- "$root" || {
		veche__err "cannot create $root"
		return 1
	}
	if ! command -v flock >/dev/null 2>&1; then
		veche__err "flock not found (util-linux); it guards the toolchain cache against concurrent runs"
		return 1
	fi
	(
		if ! flock -n 9; then
			printf 'toolchain: waiting for another run to finish installing into %s ...\n' "$root" >&2
		fi
		if ! flock -w 900 9; then
			veche__err "timed out after 15 min waiting for the lock $root/.lock (another install running?)"
			exit 1
		fi
		if v="$("$check" "$dest/node_modules/.bin/$bin")" && [[ "$v" =~ $want ]]; then
			exit 0 # someone else installed it while we waited
		fi
		rm -rf -- "$dest".tmp.* # leftovers of killed installs; safe, we hold the lock
		veche__npm_provision "$dest" "$spec" "$bin" "$check" "$want"
	) 9>"$root/.lock"
}

veche_toolchain() {
	local root node_bin pnpm_bin node_v pnpm_v node_from pnpm_from real want
	root="${VECHE_TOOLCHAIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/veche/toolchain}"

	# node@24's install script downloads its binary package through Node's own TLS stack, which
	# ignores npm's `cafile`: behind a TLS-inspecting registry proxy it needs the system CA bundle.
	if [[ -z "${NODE_EXTRA_CA_CERTS:-}" && -r /etc/ssl/certs/ca-certificates.crt ]]; then
		export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
	fi

	# ---- node ----
	node_bin="$(command -v node 2>/dev/null || true)"
	if [[ -z "${VECHE_FORCE_PROVISION:-}" && -n "$node_bin" ]] &&
		node_v="$(veche__node_version "$node_bin")" && veche__version_ge "$node_v" "$VECHE_NODE_MIN"; then
		node_from="PATH"
	else
		want="^${VECHE_NODE_MAJOR}\\."
		veche__ensure_cached "$root/node-$VECHE_NODE_MAJOR" "node@$VECHE_NODE_MAJOR" node veche__node_version "$want" || {
			veche__err "could not provision Node.js $VECHE_NODE_MAJOR (need node >= $VECHE_NODE_MIN; found ${node_v:-none} on PATH)"
			return 1
		}
		node_bin="$root/node-$VECHE_NODE_MAJOR/node_modules/.bin/node"
		node_v="$(veche__node_version "$node_bin")" || return 1
		node_from="cache"
		veche__path_prepend "$root/node-$VECHE_NODE_MAJOR/node_modules/.bin"
	fi

	# ---- pnpm (checked/run with the node chosen above, which is now first on PATH) ----
	pnpm_bin="$(command -v pnpm 2>/dev/null || true)"
	real=""
	[[ -n "$pnpm_bin" ]] && real="$(readlink -f -- "$pnpm_bin" 2>/dev/null || printf '%s' "$pnpm_bin")"
	if [[ -z "${VECHE_FORCE_PROVISION:-}" && -n "$pnpm_bin" && "$real" != *corepack* ]] &&
		pnpm_v="$(veche__pnpm_version "$pnpm_bin")" && [[ "${pnpm_v%%.*}" == "$VECHE_PNPM_MAJOR" ]]; then
		pnpm_from="PATH"
	else
		want="^${VECHE_PNPM_VERSION//./\\.}\$"
		veche__ensure_cached "$root/pnpm-$VECHE_PNPM_VERSION" "pnpm@$VECHE_PNPM_VERSION" pnpm veche__pnpm_version "$want" || {
			veche__err "could not provision pnpm $VECHE_PNPM_VERSION"
			return 1
		}
		pnpm_bin="$root/pnpm-$VECHE_PNPM_VERSION/node_modules/.bin/pnpm"
		pnpm_v="$VECHE_PNPM_VERSION"
		pnpm_from="cache"
		veche__path_prepend "$root/pnpm-$VECHE_PNPM_VERSION/node_modules/.bin"
	fi

	# A node/pnpm found on PATH may itself be the cached one (e.g. ./dev called from .ci/run).
	[[ "$node_bin" == "$root"/* ]] && node_from="cache"
	[[ "$pnpm_bin" == "$root"/* ]] && pnpm_from="cache"

	export VECHE_NODE_VERSION="$node_v" VECHE_PNPM_VERSION_USED="$pnpm_v"
	if [[ -z "${VECHE_QUIET:-}" ]]; then
		printf 'toolchain: node %s (%s: %s), pnpm %s (%s: %s)\n' \
			"$node_v" "$node_from" "$node_bin" "$pnpm_v" "$pnpm_from" "$pnpm_bin" >&2
	fi
}
