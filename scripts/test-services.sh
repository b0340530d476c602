#!/usr/bin/env bash
# Makes sure the system pieces the test suite uses are present on this machine: a running
# PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), a running
# Redis (TEST_REDIS_URL, default redis://127.0.0.1:6379: the shared rate-limit counters' tests) and
# Debian's Chromium for the browser tests. Starts or installs what it can; otherwise says what is missing.
set -euo pipefail

pg_up() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
if [ -z "${TEST_DATABASE_URL:-}" ] && ! pg_up; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    echo "test-services: starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  else
    echo "test-services: PostgreSQL is not running on 127.0.0.1:5432; start it or set TEST_DATABASE_URL" >&2
    exit 1
  fi
fi

redis_up() { (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; }
if [ -z "${TEST_REDIS_URL:-}" ] && ! redis_up; then
  if ! command -v redis-server >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test-services: installing Debian's redis-server for the rate-limit tests"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq redis-server >/dev/null
  fi
  if command -v redis-server >/dev/null; then
    echo "test-services: starting Redis on 127.0.0.1:6379"
    # A scratch server: nothing saved to disk, gone with the machine.
    redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save '' --appendonly no >/dev/null
    for _ in $(seq 50); do redis_up && break; sleep 0.1; done
  else
    echo "test-services: Redis is not running on 127.0.0.1:6379; start it or set TEST_REDIS_URL" >&2
    exit 1
  fi
fi

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test-services: installing Debian's chromium for the browser tests"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq chromium >/dev/null
  else
    echo "test-services: Chromium not found at $chromium_path; install Debian's chromium or set CHROMIUM_PATH" >&2
    exit 1
  fi
fi
