#!/usr/bin/env bash
# Start (or stop) a Redis and a PostgreSQL on 127.0.0.1 for a local multi-worker crawl.
#
#   scripts/dist-up.sh            start both; print the job-file keys that point at them
#   scripts/dist-up.sh stop       stop both (their data stays in the folder)
#   scripts/dist-up.sh wipe       stop both and delete the folder
#
# Folder: $BROWSERCRAWL_DIST_DIR (default /tmp/browsercrawl-dist); ports: $REDIS_PORT (6390) and
# $PG_PORT (5440). Loopback only, PostgreSQL with trust authentication: for one machine. For
# several machines see docs/distributed.md. PostgreSQL refuses to run as root, so as root it runs
# as the postgres system user (the folder is made reachable for it).
set -euo pipefail
DIR=${BROWSERCRAWL_DIST_DIR:-/tmp/browsercrawl-dist}
REDIS_PORT=${REDIS_PORT:-6390}
PG_PORT=${PG_PORT:-5440}
PGBIN=$(dirname "$(command -v initdb 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb | tail -1)")
AS=()
if [ "$(id -u)" -eq 0 ]; then AS=(runuser -u postgres --); fi

stop() {
    if [ -f "$DIR/redis.pid" ]; then
        kill "$(cat "$DIR/redis.pid")" 2>/dev/null || true
        rm -f "$DIR/redis.pid"
    fi
    if [ -f "$DIR/pg/postmaster.pid" ]; then
        "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/pg" -m fast -w stop >/dev/null || true
    fi
}

case "${1:-start}" in
stop) stop; echo "dist-up: stopped (data kept in $DIR)"; exit 0 ;;
wipe) stop; rm -rf "$DIR"; echo "dist-up: stopped and removed $DIR"; exit 0 ;;
start) ;;
*) echo "usage: $0 [start|stop|wipe]" >&2; exit 2 ;;
esac

command -v redis-server >/dev/null || { echo "dist-up: redis-server missing (scripts/setup.sh)" >&2; exit 2; }
mkdir -p "$DIR"
chmod 755 "$DIR"

if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
    # appendonly: the shared frontier survives a restart of Redis (fsync once a second).
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes --dir "$DIR" \
        --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" --save "" \
        --appendonly yes --appendfsync everysec
    for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

if [ ! -f "$DIR/pg/PG_VERSION" ]; then
    mkdir -p "$DIR/pg"
    [ ${#AS[@]} -eq 0 ] || chown postgres: "$DIR/pg"
    chmod 700 "$DIR/pg"
    "${AS[@]}" "$PGBIN/initdb" -D "$DIR/pg" -U postgres --auth=trust --encoding=UTF8 \
        --locale=C.UTF-8 --no-instructions >/dev/null
fi
if ! "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/pg" status >/dev/null 2>&1; then
    touch "$DIR/pg.log"
    [ ${#AS[@]} -eq 0 ] || chown postgres: "$DIR/pg.log"
    "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/pg" -l "$DIR/pg.log" -w start \
        -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=300" >/dev/null
fi
psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='browsercrawl'" \
    | grep -q 1 || psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE browsercrawl"

cat <<EOT
dist-up: Redis on 127.0.0.1:$REDIS_PORT and PostgreSQL on 127.0.0.1:$PG_PORT (data in $DIR). In the job file:

[output]
database = "postgresql://postgres@127.0.0.1:$PG_PORT/browsercrawl"

[distributed]
redis = "redis://127.0.0.1:$REDIS_PORT/0"

then start workers: browsercrawl crawl job.toml --worker   (as many as you like)
and watch them:     browsercrawl status job.toml
EOT
