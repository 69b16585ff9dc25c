#!/usr/bin/env bash
# A streaming replica (a hot standby) of a local PostgreSQL, for development, the tests and CI (README "Read
# replicas"). Everything lives under <dir>; nothing of the primary changes but one pg_hba.conf line (below).
#
#   scripts/replica.sh start <dir> <port> [name]  copies the primary (pg_basebackup -R) into <dir>/data unless it
#                                                  is there, then starts it on 127.0.0.1:<port>, streaming as
#                                                  application_name <name> (default: replica)
#   scripts/replica.sh stop <dir>                  stops it (fast shutdown); start starts it again, no new copy
#   scripts/replica.sh remove <dir>                stops it and deletes <dir>
#
# The primary: PRIMARY_HOST, PRIMARY_PORT, PRIMARY_USER (default 127.0.0.1, 5432, postgres), a superuser reached
# without a password. It must have wal_level replica (or logical) and max_wal_senders > 0, which need a restart to
# change: the script says so and stops. A replication connection needs its own pg_hba.conf entry ("all" does not
# cover it): when the primary has none, the script appends `host replication all 127.0.0.1/32 trust` to its
# hba_file and reloads it (no restart), which needs write access to that file (root or the cluster's owner).
# pg_ctl refuses root: as root, the replica runs as the owner of the primary's files (postgres).
set -euo pipefail

primary_host="${PRIMARY_HOST:-127.0.0.1}"
primary_port="${PRIMARY_PORT:-5432}"
primary_user="${PRIMARY_USER:-postgres}"

fail() {
  echo "replica.sh: $*" >&2
  exit 1
}

primary() { psql -X -q -A -t -h "$primary_host" -p "$primary_port" -U "$primary_user" -d postgres -c "$1"; }

# The binaries of the primary's major version, so the copy is one that version can run.
bin_dir() {
  local major
  major="$(primary 'SHOW server_version_num')" || fail "cannot reach the primary at $primary_host:$primary_port"
  major=$((major / 10000))
  if [ -x "/usr/lib/postgresql/$major/bin/pg_ctl" ]; then
    echo "/usr/lib/postgresql/$major/bin"
  else
    dirname "$(command -v pg_ctl || fail "no pg_ctl for PostgreSQL $major")"
  fi
}

# As root, run as the owner of the primary's data (pg_ctl and postgres refuse root); else as this user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$owner" -- "$@"; else "$@"; fi
}

check_primary() {
  local wal_level senders
  wal_level="$(primary 'SHOW wal_level')"
  senders="$(primary 'SHOW max_wal_senders')"
  [ "$wal_level" != minimal ] || fail "the primary has wal_level minimal: set it to replica and restart the primary"
  [ "$senders" -gt 0 ] || fail "the primary has max_wal_senders 0: raise it and restart the primary"
  if [ "$(primary "SELECT count(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database)")" = 0 ]; then
    local hba
    hba="$(primary 'SHOW hba_file')"
    echo "replica.sh: allowing replication connections from 127.0.0.1 in $hba" >&2
    printf '%s\n' 'host replication all 127.0.0.1/32 trust' >>"$hba" || fail "cannot write $hba"
    primary 'SELECT pg_reload_conf()' >/dev/null
  fi
}

# The settings a standby must have at least as high as its primary's, or it refuses to start.
copied_settings() {
  local name
  for name in max_connections max_worker_processes max_wal_senders max_prepared_transactions \
    max_locks_per_transaction; do
    echo "$name = $(primary "SHOW $name")"
  done
}

create() {
  local dir="$1" port="$2" name="$3"
  check_primary
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown "$owner" "$dir"
    # The owner must reach <dir>: a parent made by mktemp -d (mode 700) is opened for traversal only.
    as_owner test -x "$(dirname "$dir")" || chmod a+x "$(dirname "$dir")"
  fi
  chmod 700 "$dir"
  # -c fast: a checkpoint at once, not one spread over minutes; -X stream: the WAL of the copy comes with it.
  as_owner "$bin/pg_basebackup" -R -X stream -c fast -D "$dir/data" \
    -h "$primary_host" -p "$primary_port" -U "$primary_user"
  # The copy holds no postgresql.conf or pg_hba.conf when the primary keeps them elsewhere (Debian's /etc).
  as_owner tee "$dir/data/postgresql.conf" >/dev/null <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
cluster_name = '$name'
hot_standby = on
shared_buffers = 32MB
hba_file = '$dir/data/pg_hba.conf'
ident_file = '$dir/data/pg_ident.conf'
$(copied_settings)
CONF
  printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' | as_owner tee "$dir/data/pg_hba.conf" >/dev/null
  as_owner touch "$dir/data/pg_ident.conf"
}

command="${1:-}"
dir="${2:-}"
[ -n "$dir" ] || fail "usage: replica.sh start <dir> <port> [name] | stop <dir> | remove <dir>"
bin="$(bin_dir)"
owner="$(stat -c %U "$(primary 'SHOW data_directory' 2>/dev/null || echo /var/lib/postgresql)" 2>/dev/null || echo postgres)"
[ "$owner" != root ] || owner=postgres

case "$command" in
  start)
    port="${3:-}"
    [ -n "$port" ] || fail "usage: replica.sh start <dir> <port> [name]"
    [ -f "$dir/data/PG_VERSION" ] || create "$dir" "$port" "${4:-replica}"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
      fail "the replica did not start: $(tail -n 20 "$dir/server.log" 2>/dev/null)"
    ;;
  stop)
    [ ! -f "$dir/data/postmaster.pid" ] || as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  remove)
    [ ! -f "$dir/data/postmaster.pid" ] || as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    rm -rf "$dir"
    ;;
  *) fail "usage: replica.sh start <dir> <port> [name] | stop <dir> | remove <dir>" ;;
esac
