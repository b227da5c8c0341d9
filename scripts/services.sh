# shellcheck shell=bash
# Veche test services: PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379.
#
# Sourced by .ci/run; defines `veche_services` (and private veche__svc_* helpers).
#
#   source scripts/services.sh && veche_services
#
# When both already answer, it only checks that the database `test` exists (no-op otherwise).
# Otherwise it starts them with the machine's commands (Debian: pg_ctlcluster / redis-server),
# installing postgresql + redis-server with apt-get first when the binaries are missing.
# Returns non-zero with a clear message on failure; never exits the calling shell.
#
# Environment knobs: VECHE_SERVICES_WAIT (seconds to wait for each service, default 60).

VECHE_PG_HOST="127.0.0.1"
VECHE_PG_PORT="5432"
VECHE_REDIS_HOST="127.0.0.1"
VECHE_REDIS_PORT="6379"
VECHE_TEST_DB="test"

veche__svc_log() { printf 'services: %s\n' "$*" >&2; }
veche__svc_err() { printf 'services: error: %s\n' "$*" >&2; }

# Run a command as root (directly, or through non-interactive sudo).
veche__svc_root() {
	if [[ "$(id -u)" == 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo -n "$@"
	else
		veche__svc_err "need root (or password-less sudo) to run: $*"
		return 1
	fi
}

veche__svc_pg_up() {
	command -v pg_isready >/dev/null 2>&1 &&
		pg_isready -q -h "$VECHE_PG_HOST" -p "$VECHE_PG_PORT" -t 3 >/dev/null 2>&1
}

veche__svc_redis_up() {
	local out
	command -v redis-cli >/dev/null 2>&1 || return 1
	out="$(timeout 5 redis-cli -h "$VECHE_REDIS_HOST" -p "$VECHE_REDIS_PORT" ping 2>/dev/null)" || return 1
	[[ "$out" == "PONG" ]]
}

# veche__svc_wait NAME CHECK_FN: poll CHECK_FN for up to VECHE_SERVICES_WAIT seconds.
veche__svc_wait() {
	local name="$1" check="$2" limit="${VECHE_SERVICES_WAIT:-60}" start=$SECONDS
	until "$check"; do
		if ((SECONDS - start >= limit)); then
			veche__svc_err "$name did not answer within ${limit}s"
			return 1
		fi
		sleep 0.5
	done
	veche__svc_log "$name is up (waited $((SECONDS - start))s)"
}

veche__svc_apt_install() {
	veche__svc_log "installing missing packages with apt-get: $*"
	if ! command -v apt-get >/dev/null 2>&1; then
		veche__svc_err "apt-get not found; install $* by hand (this script knows Debian/Ubuntu only)"
		return 1
	fi
	veche__svc_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || {
		veche__svc_err "apt-get update failed"
		return 1
	}
	veche__svc_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" ||
		{
			veche__svc_err "apt-get install $* failed"
			return 1
		}
}

# Newest PostgreSQL version configured under /etc/postgresql (e.g. "15").
veche__svc_pg_version() {
	local v
	v="$(find /etc/postgresql -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null | sort -V | tail -n 1)"
	[[ -n "$v" ]] || return 1
	printf '%s\n' "$v"
}

# veche__svc_pg_trust: for a cluster this script installed, let user postgres in over TCP without a
# password, as on the CI machine (DATABASE_URL=postgres://postgres@127.0.0.1:5432/test).
veche__svc_pg_trust() {
	local ver hba
	ver="$(veche__svc_pg_version)" || return 0
	hba="/etc/postgresql/$ver/main/pg_hba.conf"
	[[ -f "$hba" ]] || return 0
	if grep -qE '^host[[:space:]]+all[[:space:]]+(all|postgres)[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
		return 0
	fi
	veche__svc_log "allowing trust auth for user postgres on 127.0.0.1 / ::1 in $hba"
	veche__svc_root sed -i -e '1i host all postgres 127.0.0.1/32 trust' -e '1i host all postgres ::1/128 trust' "$hba" ||
		return 1
	if veche__svc_pg_up; then
		veche__svc_root pg_ctlcluster --skip-systemctl-redirect "$ver" main reload >/dev/null 2>&1 || true
	fi
}

veche__svc_start_pg() {
	local ver log
	ver="$(veche__svc_pg_version)" || {
		veche__svc_err "no PostgreSQL version under /etc/postgresql (is postgresql installed?)"
		return 1
	}
	if [[ ! -d "/etc/postgresql/$ver/main" ]]; then
		veche__svc_log "creating PostgreSQL $ver cluster 'main'"
		veche__svc_root pg_createcluster --port "$VECHE_PG_PORT" "$ver" main >/dev/null || return 1
		veche__svc_pg_trust || return 1
	fi
	veche__svc_log "starting PostgreSQL $ver/main"
	log="$(mktemp)"
	if ! veche__svc_root pg_ctlcluster --skip-systemctl-redirect "$ver" main start >"$log" 2>&1; then
		# e.g. "already running" (but not answering on TCP): the wait that follows decides.
		sed 's/^/    /' "$log" >&2
	fi
	rm -f -- "$log"
}

veche__svc_start_redis() {
	veche__svc_log "starting Redis"
	veche__svc_root mkdir -p /var/lib/redis /var/log/redis || return 1
	veche__svc_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$VECHE_REDIS_PORT" \
		--save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log || {
		veche__svc_err "redis-server failed to start (log: /var/log/redis/ci.log)"
		return 1
	}
}

veche__svc_ensure_db() {
	local out
	out="$(PGCONNECT_TIMEOUT=10 psql -X -q -h "$VECHE_PG_HOST" -p "$VECHE_PG_PORT" -U postgres -d postgres \
		-tAc "SELECT 1 FROM pg_database WHERE datname='$VECHE_TEST_DB'" 2>&1)" || {
		veche__svc_err "cannot query PostgreSQL as user postgres on $VECHE_PG_HOST:$VECHE_PG_PORT" \
			"(the tests expect trust auth there; check pg_hba.conf):"
		printf '    %s\n' "$out" >&2
		return 1
	}
	if [[ "$out" == "1" ]]; then
		return 0
	fi
	veche__svc_log "creating database '$VECHE_TEST_DB'"
	out="$(PGCONNECT_TIMEOUT=10 createdb -h "$VECHE_PG_HOST" -p "$VECHE_PG_PORT" -U postgres "$VECHE_TEST_DB" 2>&1)" || {
		# A concurrent run may have created it in the meantime.
		[[ "$out" == *"already exists"* ]] && return 0
		veche__svc_err "createdb $VECHE_TEST_DB failed:"
		printf '    %s\n' "$out" >&2
		return 1
	}
}

veche_services() {
	local pkgs=() fresh_pg=0

	if ! veche__svc_pg_up; then
		if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! command -v pg_isready >/dev/null 2>&1 ||
			! command -v psql >/dev/null 2>&1; then
			pkgs+=(postgresql)
			fresh_pg=1
		fi
	fi
	if ! veche__svc_redis_up; then
		if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
			pkgs+=(redis-server)
		fi
	fi
	if ((${#pkgs[@]})); then
		veche__svc_apt_install "${pkgs[@]}" || return 1
	fi
	if ((fresh_pg)); then
		veche__svc_pg_trust || return 1
	fi

	if ! veche__svc_pg_up; then
		veche__svc_start_pg || return 1
		veche__svc_wait "PostgreSQL ($VECHE_PG_HOST:$VECHE_PG_PORT)" veche__svc_pg_up || {
			veche__svc_err "see /var/log/postgresql/ for the server log"
			return 1
		}
	fi
	if ! veche__svc_redis_up; then
		# Another run may be starting it right now; give it a moment before starting our own.
		sleep 1
		if ! veche__svc_redis_up; then
			veche__svc_start_redis || return 1
		fi
		veche__svc_wait "Redis ($VECHE_REDIS_HOST:$VECHE_REDIS_PORT)" veche__svc_redis_up || {
			veche__svc_err "see /var/log/redis/ci.log"
			return 1
		}
	fi

	veche__svc_ensure_db || return 1
	veche__svc_log "PostgreSQL $VECHE_PG_HOST:$VECHE_PG_PORT (database '$VECHE_TEST_DB') and Redis $VECHE_REDIS_HOST:$VECHE_REDIS_PORT are ready"
}

# veche_chromium: Debian's chromium at /usr/bin/chromium for the web pages' browser tests
# (playwright-core drives it; no test tool downloads a browser of its own). Installs the package
# with apt-get when missing; a no-op otherwise.
veche_chromium() {
	if [[ -x /usr/bin/chromium ]]; then
		veche__svc_log "chromium is installed: $(/usr/bin/chromium --version 2>/dev/null || echo '?')"
		return 0
	fi
	veche__svc_apt_install chromium || return 1
	[[ -x /usr/bin/chromium ]] || {
		veche__svc_err "apt-get installed chromium but /usr/bin/chromium is missing"
		return 1
	}
	veche__svc_log "chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo '?')"
}
