#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1 for the state tests (and .ci/run):
#
#   scripts/state/postgres.sh start DIR   # initdb in DIR/data, start it on a free port, create the
#                                         # database `stores`, print postgres://postgres@127.0.0.1:PORT/stores
#   scripts/state/postgres.sh stop DIR    # stop it (DIR stays; remove it yourself)
#
# `start DIR` after `stop DIR` starts the same cluster again on the same port, with its data: an
# outage and a recovery, for the tests that need one.
#
# Trust authentication, listening on 127.0.0.1 only, its socket in DIR, fsync off: it holds test
# data and nothing else. Debian's binaries (apt-get install postgresql) from /usr/lib/postgresql/*/bin.
# Debian's postgres refuses to run as root: as root, the cluster is made and run as the `postgres`
# user, and DIR is given to that user.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR | stop DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
command=$1
dir=$2

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
  echo "$0: no PostgreSQL server in /usr/lib/postgresql/*/bin; install Debian's postgresql package" >&2
  exit 1
fi

# Runs a PostgreSQL binary as a user it accepts.
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  as_owner=(runuser -u postgres --)
fi

# Starts the cluster in $dir/data on 127.0.0.1:$1, its socket in $dir; fails if the port is taken.
# max_connections 400 rather than 100: each storage pools up to 20 connections, and the tests run
# side by side open several storages each (100 was seen refusing with "too many clients already").
start_cluster() {
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $1 -k $dir -c fsync=off -c full_page_writes=off -c max_connections=400" \
    start >/dev/null
}

case "$command" in
start)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ -e "$dir/data" ]; then
    if [ -e "$dir/data/postmaster.pid" ] || [ ! -e "$dir/port" ]; then
      echo "$0: $dir/data holds a cluster that is running or was not made here; stop it, or give another DIR" >&2
      exit 1
    fi
    port=$(cat "$dir/port")
    start_cluster "$port" || {
      echo "$0: PostgreSQL did not start again on port $port; see $dir/postgres.log" >&2
      exit 1
    }
    echo "postgres://postgres@127.0.0.1:$port/stores"
    exit 0
  fi
  if [ ${#as_owner[@]} -gt 0 ]; then
    chown postgres: "$dir"
    if ! "${as_owner[@]}" test -w "$dir"; then
      echo "$0: the postgres user cannot write to $dir (a folder above it is closed to it); give a DIR under /tmp" >&2
      exit 1
    fi
  fi
  "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C --no-sync \
    >"$dir/initdb.log" 2>&1 || {
    echo "$0: initdb failed; see $dir/initdb.log" >&2
    exit 1
  }
  # A free port: one nothing answers on, from a random start; pg_ctl fails if another process
  # takes it first, and then the next one is tried.
  port=$((20000 + RANDOM % 30000))
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
      port=$((port + 1))
    done
    if start_cluster "$port"; then
      break
    fi
    if [ "$attempt" -eq 10 ]; then
      echo "$0: PostgreSQL did not start; see $dir/postgres.log" >&2
      exit 1
    fi
    port=$((port + 1))
  done
  echo "$port" >"$dir/port"
  "${as_owner[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres stores
  echo "postgres://postgres@127.0.0.1:$port/stores"
  ;;
stop)
  dir=$(cd "$dir" && pwd)
  [ -e "$dir/data/postmaster.pid" ] || exit 0
  "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null
  ;;
*)
  usage
  ;;
esac
